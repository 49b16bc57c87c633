import Foundation
import SnapImaging

/// How hard to try, like Apple Vision's `VNRequestTextRecognitionLevel`.
public enum RecognitionLevel: String, CaseIterable, Sendable {
    /// One preprocessing variant, one Tesseract pass.
    case fast
    /// Several preprocessing variants; keeps the result with the best mean word confidence.
    case accurate
}

/// Everything one OCR run needs to know.
public struct RecognitionOptions: Sendable {
    public var engine: EngineOptions
    public var preprocessing: PreprocessingOptions
    public var level: RecognitionLevel
    /// Whether to detect pages turned by 90/180/270° with OSD (after EXIF).
    public var detectOrientation: Bool
    /// Decoded size above which a photo is refused before decoding (bytes).
    public var memoryLimit: Int

    public init(engine: EngineOptions = EngineOptions(), preprocessing: PreprocessingOptions = PreprocessingOptions(),
                level: RecognitionLevel = .fast, detectOrientation: Bool = true,
                memoryLimit: Int = ImageLoader.defaultMemoryLimit) {
        self.engine = engine
        self.preprocessing = preprocessing
        self.level = level
        self.detectOrientation = detectOrientation
        self.memoryLimit = memoryLimit
    }
}

/// The whole pipeline for one photo: load (EXIF, alpha) → prepare (scale, polarity, deskew,
/// black-and-white) → orientation (OSD) → Tesseract.
public struct Recognizer {
    public let options: RecognitionOptions

    public init(options: RecognitionOptions = RecognitionOptions()) { self.options = options }

    /// Recognizes the text of the photo at `path`.
    ///
    /// - Parameter progress: called with the overall progress, 0–100, and a short stage name
    ///   ("loading", "preparing", "orientation", "recognizing"); return `false` to cancel.
    /// - Throws: `ImagingError` for the file, `OCRError` for the engine (`.cancelled` on cancel).
    public func recognize(path: String, progress: @escaping (Int, String) -> Bool = { _, _ in true }) throws -> RecognitionResult {
        guard progress(0, "loading") else { throw OCRError.cancelled }
        let engine = try TesseractEngine(options: options.engine)
        let loader = ImageLoader(memoryLimit: options.memoryLimit, jpegReductionTarget: options.preprocessing.maxDimension)
        let loaded = try loader.load(path)
        var warnings = loaded.notes
        var diagnostics = ["languages loaded: \(engine.loadedLanguages.joined(separator: "+"))"]
        let reduction = Double(loaded.decodeReduction)
        if loaded.decodeReduction > 1 { diagnostics.append("JPEG decoded at 1/\(loaded.decodeReduction) size") }

        // One variant: prepare with `settings`, recognize, report progress within [lo, lo + span].
        func attempt(_ image: Image, _ settings: PreprocessingOptions, _ lo: Int, _ span: Int) throws -> (RecognitionResult, PreparedImage) {
            guard progress(lo, "preparing") else { throw OCRError.cancelled }
            var page = try Preprocessor(options: settings).prepare(image)
            let name = Recognizer.name(of: settings)
            diagnostics.append("\(name): " + describe(page))
            page.scale /= reduction   // boxes in pixels of the full-size upright photo
            guard progress(lo + span / 10, "recognizing") else { throw OCRError.cancelled }
            let r = try engine.recognize(page) { p in progress(lo + span / 10 + p * (span - span / 10) / 100, "recognizing") }
            diagnostics.append("\(name): mean confidence \(r.meanConfidence), \(r.words.count) words")
            return (r, page)
        }

        var upright = loaded.image
        var (best, page) = try attempt(upright, options.preprocessing, 5, 60)
        var osdTurns = 0
        // Orientation detection only when the first reading is poor: an upright page read with
        // good confidence needs none, and OSD costs as much as a small page's recognition.
        if options.detectOrientation && best.meanConfidence < Recognizer.orientationCheckBelowConfidence {
            guard progress(65, "orientation") else { throw OCRError.cancelled }
            if let detector = OrientationDetector(tessdataPath: engine.tessdataPath),
               let o = detector.detect(page.image, resolution: page.resolution) {
                diagnostics.append(String(format: "orientation: %d° clockwise, confidence %.1f",
                                          locale: Locale(identifier: "en_US_POSIX"), o.quarterTurnsClockwise * 90, o.confidence))
                if o.quarterTurnsClockwise != 0 && o.confidence >= detector.minimumConfidence {
                    let turned = try upright.rotated(quarterTurnsClockwise: o.quarterTurnsClockwise)
                    let (r, p) = try attempt(turned, options.preprocessing, 70, 30)
                    if r.meanConfidence >= best.meanConfidence {
                        (best, page, upright, osdTurns) = (r, p, turned, o.quarterTurnsClockwise)
                        warnings.append(String(format: "page turned %d° clockwise (orientation detected, confidence %.1f)",
                                               locale: Locale(identifier: "en_US_POSIX"), osdTurns * 90, o.confidence))
                    }
                }
            }
        }
        if options.level == .accurate {
            let others = Recognizer.accurateVariants(of: options.preprocessing, firstScale: page.scale * reduction)
            for (i, settings) in others.enumerated() {
                let (r, p) = try attempt(upright, settings, 70 + 30 * i / others.count, 30 / others.count)
                if r.meanConfidence > best.meanConfidence {
                    (best, page) = (r, p)
                    diagnostics.append("kept \(Recognizer.name(of: settings))")
                }
            }
        }
        if page.inverted { warnings.append("light text on a dark background: inverted") }
        if page.deskewDegrees != 0 {
            warnings.append(String(format: "deskewed by %.1f°", locale: Locale(identifier: "en_US_POSIX"), page.deskewDegrees))
        }
        best.rotationDegrees = (Recognizer.rotation(ofEXIF: loaded.exifOrientation) + osdTurns * 90) % 360
        best.warnings = warnings
        best.diagnostics = diagnostics
        _ = progress(100, "done")
        return best
    }

    /// Below this mean word confidence (0–100) the page is checked for a 90/180/270° turn.
    static let orientationCheckBelowConfidence = 70

    private func describe(_ p: PreparedImage) -> String {
        let f = { (x: Double) in String(format: "%.2f", locale: Locale(identifier: "en_US_POSIX"), x) }
        return "text height \(p.measuredTextHeight.map { f($0) } ?? "unknown") px, scale \(f(p.scale)), "
            + "\(p.image.width)×\(p.image.height) px, inverted \(p.inverted), deskew \(f(p.deskewDegrees))°"
    }

    /// The extra preprocessing variants `--level accurate` tries after the first: the other two
    /// black-and-white filters, and the page at its own size when the first pass rescaled it.
    static func accurateVariants(of first: PreprocessingOptions, firstScale: Double) -> [PreprocessingOptions] {
        var out: [PreprocessingOptions] = []
        if abs(firstScale - 1) > 0.01 && first.rescaleToTextHeight {
            var native = first
            native.rescaleToTextHeight = false
            out.append(native)
        }
        for method in Binarization.allCases where method != first.binarization {
            var v = first
            v.binarization = method
            out.append(v)
        }
        return out
    }

    static func name(of p: PreprocessingOptions) -> String {
        p.binarization.rawValue + (p.rescaleToTextHeight ? "" : " at native size")
    }

    /// Clockwise degrees that EXIF orientation `o` turns the stored pixels by.
    static func rotation(ofEXIF o: Int?) -> Int {
        switch o {
        case 3, 4: return 180
        case 5, 6: return 90
        case 7, 8: return 270
        default: return 0
        }
    }
}
