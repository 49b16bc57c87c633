import CInterposed
import CLeptonica
import CTesseract
import Foundation
import SnapImaging

/// Finds pages turned by 90°, 180° or 270° with Tesseract's orientation and script detection
/// (OSD: `osd.traineddata`, `TessBaseAPIDetectOrientationScript`, PSM 0).
public final class OrientationDetector {
    /// Minimum OSD orientation confidence before a page is turned. Tesseract's CLI uses a margin
    /// of 7 (`min_orientation_margin`); a lower value turns short lines wrongly.
    public static let defaultMinimumConfidence: Float = 7

    private let handle: OpaquePointer
    /// The OSD confidence (about 0–20) from which a page is turned.
    public let minimumConfidence: Float

    /// - Parameter tessdataPath: folder holding `osd.traineddata` (nil = Tesseract's default).
    /// - Returns: nil when `osd.traineddata` cannot be loaded (orientation detection is then skipped).
    public convenience init?(
        tessdataPath: String?, minimumConfidence: Float = OrientationDetector.defaultMinimumConfidence
    ) {
        self.init(tessdataPath: tessdataPath, minimumConfidence: minimumConfidence, loadingAmbiguityTables: false)
    }

    /// `loadingAmbiguityTables`: whether Tesseract loads its character ambiguity tables
    /// (`CInterposed/unichar_ambigs.c`). OSD classifies single characters and never asks them (the universal
    /// table is 19 007 lines: 0.05 s to load); set for tests that compare detections.
    init?(tessdataPath: String?, minimumConfidence: Float, loadingAmbiguityTables: Bool) {
        guard let h = TessBaseAPICreate() else { return nil }
        _ = TessBaseAPISetVariable(h, "debug_file", "/dev/null")
        if !loadingAmbiguityTables { unichar_ambigs_skip_begin() }
        let rc = TessBaseAPIInit2(h, tessdataPath, "osd", OEM_TESSERACT_ONLY)
        if !loadingAmbiguityTables { unichar_ambigs_skip_end() }
        guard rc == 0 else {
            TessBaseAPIDelete(h)
            return nil
        }
        TessBaseAPISetPageSegMode(h, PSM_OSD_ONLY)
        self.minimumConfidence = minimumConfidence
        self.handle = h
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// What OSD found.
    public struct Orientation: Equatable, Sendable, Codable {
        /// Clockwise quarter turns (0–3) that make the page upright.
        public var quarterTurnsClockwise: Int
        /// OSD's confidence in that orientation (unbounded; 7 and above is trusted).
        public var confidence: Float
    }

    /// Detects the page's orientation.
    /// - Parameters:
    ///   - image: a prepared page (1 or 8 bpp) with text at a readable size.
    ///   - resolution: its resolution in DPI (OSD warns and guesses when it is 0).
    /// - Returns: nil when OSD found too little text to decide.
    public func detect(_ image: Image, resolution: Int) -> Orientation? {
        let pix = image.pix
        pixSetResolution(pix, l_int32(resolution), l_int32(resolution))
        TessBaseAPISetImage2(handle, pix)
        defer { TessBaseAPIClear(handle) }
        var degrees: Int32 = 0
        var confidence: Float = 0
        var script: UnsafePointer<CChar>? = nil
        var scriptConfidence: Float = 0
        // capi.h says to TessDeleteText the script name; in 5.3 that double-frees (glibc abort), so it is not freed.
        guard TessBaseAPIDetectOrientationScript(handle, &degrees, &confidence, &script, &scriptConfidence) != 0 else {
            return nil
        }
        // OSD reports how far the page is turned counter-clockwise; undo it clockwise.
        let quads = ((360 - Int(degrees)) / 90) % 4
        return Orientation(quarterTurnsClockwise: quads, confidence: confidence)
    }
}
