import CLeptonica
import CTextDetector
import Foundation
import SnapImaging

/// A trained text detector in front of Tesseract: PaddleOCR's PP-OCRv4 DB detector
/// (`Models/text-detection.onnx`, Apache-2.0, see `Models/README.md`) run through OpenCV 4.6's dnn
/// module (`CTextDetector`, `cv::dnn::readNetFromONNX`), and the line images cut out along what it
/// found (`cv::warpPerspective`).
///
/// It finds text that Tesseract's layout analysis misses (a receipt held in a hand, white letters
/// on a coloured sign, the lower half of a receipt), so that each line can be read alone
/// (`DetectedLinesReading`).
public struct TextDetector: Sendable {
    /// The model file (ONNX).
    public let modelPath: String
    /// The longer side the photo is scaled to for the network, pixels (PaddleOCR's default
    /// `det_limit_side_len` is 960). On this machine kind, one thread: 640 px takes 0.23–0.36 s
    /// and 70 MiB more in the process, 960 px 0.45–0.75 s and 157 MiB (`textfairy/0184.png`);
    /// over the corpus the detected lines read with mean CER 0.232 at 640 px, 0.160 at 960 px.
    public var limitSide = 960
    /// The print's height (pixels) in the network's input, at most: a photo whose print would
    /// stand higher at `limitSide` is given to the network smaller (`side(for:)`), down to
    /// `leastSide`. The network sees the page at a quarter of its input's resolution: dense book
    /// pages whose print stood 5 px high merged their lines, at 7 px they did not (the corpus at
    /// 640 and 960 px); 12 px keeps a margin over that.
    public var printHeight = 12.0
    /// The least longer side of the network's input, pixels, however large the print.
    public var leastSide = 480

    /// A pixel is text above this probability (0–1; PaddleOCR's `det_db_thresh`).
    public var threshold = 0.3
    /// A region is kept when the mean probability over its own pixels is at least this (0–1;
    /// PaddleOCR's `det_db_box_thresh`, 0.6; RapidOCR 0.5).
    public var regionThreshold = 0.5
    /// How far a region grows around its core (DB's unclip ratio; RapidOCR's 1.6).
    public var unclipRatio = 1.6

    /// A detector reading its model from `modelPath`.
    public init(modelPath: String) {
        self.modelPath = modelPath
    }

    /// The environment variable naming another model file.
    public static let modelEnvironmentVariable = "LOVESNAP_TEXT_DETECTOR"

    /// The model's file name, installed beside the executable in `../share/lovesnap/`.
    public static let modelFileName = "text-detection.onnx"

    /// Where the model is: `$LOVESNAP_TEXT_DETECTOR` when set (empty: no detector), else
    /// `<executable>/../share/lovesnap/text-detection.onnx` (`scripts/install.sh`'s layout), else
    /// the source tree's `Models/` (a build run where it was made). Nil when none exists.
    public static func defaultModelPath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        ModelFile.path(modelFileName, variable: modelEnvironmentVariable, environment: environment)
    }

    /// The longer side (pixels) of the network's input for `image`: `limitSide`, or less when its
    /// print (`Preprocessor.medianTextHeight`, measured on `image`) would stand higher than
    /// `printHeight` there; the time and memory of the network grow with its input's area.
    public func side(for image: Image) -> Int {
        let measured = try? Preprocessor.medianTextHeight(of: image)
        return TextDetector.side(
            printHeight: measured, longerSide: max(image.width, image.height), limit: limitSide,
            target: printHeight, least: leastSide)
    }

    /// `side(for:)`'s arithmetic: `limit` when `printHeight` (pixels of an image whose longer side
    /// is `longerSide`; nil when unmeasured) scaled to `limit` is at most `target`, else the side
    /// that brings it to `target`, never under `least` nor over `limit`.
    static func side(printHeight: Double?, longerSide: Int, limit: Int, target: Double, least: Int) -> Int {
        guard let printHeight, printHeight > 0, longerSide > 0 else { return limit }
        let atLimit = printHeight * Double(limit) / Double(longerSide)
        guard atLimit > target else { return limit }
        return min(limit, max(least, Int((Double(limit) * target / atLimit).rounded())))
    }

    /// The text regions of `image` (any depth; converted to 32 bpp for the network), their
    /// corners in its pixels.
    /// - Throws: `OCRError.detectionFailed` with OpenCV's reason (a model it cannot read).
    public func detect(_ image: Image) throws -> [DetectedRegion] {
        let rgb = try TextDetector.rgb(image)
        var regions: UnsafeMutablePointer<td_region>?
        var count: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        let settings = td_settings(
            limit_side: Int32(limitSide), threshold: Float(threshold), region_threshold: Float(regionThreshold),
            unclip_ratio: Float(unclipRatio))
        let rc = withExtendedLifetime(rgb) {
            td_detect(
                modelPath, pixGetData(rgb.pix), Int32(rgb.width), Int32(rgb.height), pixGetWpl(rgb.pix), settings,
                &regions, &count, &error, error.count)
        }
        guard rc == 0 else { throw TextDetector.failure(error) }
        defer { td_regions_free(regions) }
        return (0..<Int(count)).map { i in
            let r = regions![i]
            let p = withUnsafeBytes(of: r.points) { Array($0.bindMemory(to: Float.self)) }
            return DetectedRegion(
                corners: (0..<4).map { DetectedRegion.Point(x: Double(p[2 * $0]), y: Double(p[2 * $0 + 1])) },
                score: Double(r.score))
        }
    }

    /// `image` at 32 bpp, what the shim reads: itself when it is, else Leptonica's conversion
    /// (`pixConvertTo32`).
    static func rgb(_ image: Image) throws -> Image {
        try image.depth == 32 ? image : Image.wrap(pixConvertTo32(image.pix), "pixConvertTo32")
    }

    /// The shim's NUL-terminated reason as the error.
    private static func failure(_ error: [CChar]) -> OCRError {
        .detectionFailed(reason: String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
    }

    /// The line image of `region` cut out of `rgb` (32 bpp: `rgb(_:)`, made once for all its
    /// lines) upright, `height` pixels high (its width in proportion), grey, stretched and dark
    /// on light (`stretched`), and the homography mapping its pixels back to `rgb`'s.
    /// - Throws: `OCRError.detectionFailed` when OpenCV fails.
    static func lineImage(of region: DetectedRegion, in rgb: Image, height: Int) throws -> (Image, Homography) {
        precondition(rgb.depth == 32, "lineImage cuts from a 32 bpp image")
        let scale = Double(height) / max(region.height, 1)
        let width = max(1, Int((region.width * scale).rounded()))
        let out = try Image.wrap(pixCreate(Int32(width), Int32(height), 32), "pixCreate")
        var points = region.corners.flatMap { [Float($0.x), Float($0.y)] }
        var inverse = [Double](repeating: 0, count: 9)
        var error = [CChar](repeating: 0, count: 512)
        let rc = withExtendedLifetime((rgb, out)) {
            td_warp(
                pixGetData(rgb.pix), Int32(rgb.width), Int32(rgb.height), pixGetWpl(rgb.pix), &points,
                pixGetData(out.pix), Int32(width), Int32(height), pixGetWpl(out.pix), &inverse, &error, error.count)
        }
        guard rc == 0 else { throw TextDetector.failure(error) }
        return (try stretched(out), Homography(matrix: inverse))
    }

    /// `line` in grey, its levels from the 2nd to the 98th percentile stretched over 0–255
    /// (`pixConvertRGBToLuminance`, `pixGetRankValue`, `pixGammaTRC`): faded print (a receipt's
    /// thermal paper, faint ink on grey) read as well as dark print. Light print on a dark ground
    /// (a card's white letters on grey, a sign) is inverted (`pixInvert`): the ground is most of a
    /// line image, so its median level tells it; Tesseract's adaptive Otsu, with which the lines
    /// are read (`TesseractEngine.readLine`), read such lines as nothing.
    static func stretched(_ line: Image) throws -> Image {
        let grey = try Image.wrap(pixConvertRGBToLuminance(line.pix), "pixConvertRGBToLuminance")
        var dark: l_uint32 = 0
        var light: l_uint32 = 0
        var median: l_uint32 = 0
        guard pixGetRankValue(grey.pix, 1, 0.02, &dark) == 0, pixGetRankValue(grey.pix, 1, 0.98, &light) == 0,
            pixGetRankValue(grey.pix, 1, 0.5, &median) == 0, light > dark + 8
        else { return grey }
        let out = try Image.wrap(pixGammaTRC(nil, grey.pix, 1.0, Int32(dark), Int32(light)), "pixGammaTRC")
        guard 2 * median < dark + light else { return out }
        return try Image.wrap(pixInvert(nil, out.pix), "pixInvert")
    }
}

/// A plane projective map, 3×3 row-major: (x, y) ↦ ((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w),
/// w = m6 x + m7 y + m8.
struct Homography: Equatable {
    var matrix: [Double]

    /// The image of `(x, y)`.
    func map(x: Double, y: Double) -> DetectedRegion.Point {
        let m = matrix
        let w = m[6] * x + m[7] * y + m[8]
        return DetectedRegion.Point(x: (m[0] * x + m[1] * y + m[2]) / w, y: (m[3] * x + m[4] * y + m[5]) / w)
    }

    /// The axis-aligned box around the images of a box's four corners, rounded out.
    func box(_ b: BoundingBox) -> BoundingBox {
        DetectedRegion.box(around: [
            map(x: Double(b.x), y: Double(b.y)), map(x: Double(b.x + b.width), y: Double(b.y)),
            map(x: Double(b.x + b.width), y: Double(b.y + b.height)), map(x: Double(b.x), y: Double(b.y + b.height)),
        ])
    }
}

/// A photo handed to the detector's thread, which only reads its pixels (`pixGetData`, or
/// `pixConvertTo32`'s copy), never its reference count.
struct HandedImage: @unchecked Sendable {
    let image: Image
}
