import Foundation
import SnapImaging

/// Everything one OCR run needs to know.
public struct RecognitionOptions: Sendable {
    public var engine: EngineOptions
    public var preprocessing: PreprocessingOptions
    /// Decoded size above which a photo is refused before decoding (bytes).
    public var memoryLimit: Int

    public init(engine: EngineOptions = EngineOptions(), preprocessing: PreprocessingOptions = PreprocessingOptions(),
                memoryLimit: Int = ImageLoader.defaultMemoryLimit) {
        self.engine = engine
        self.preprocessing = preprocessing
        self.memoryLimit = memoryLimit
    }
}

/// The whole pipeline for one photo: load (EXIF, alpha) → prepare (scale, polarity, deskew,
/// black-and-white) → Tesseract.
public struct Recognizer {
    public let options: RecognitionOptions

    public init(options: RecognitionOptions = RecognitionOptions()) { self.options = options }

    /// Recognizes the text of the photo at `path`.
    ///
    /// - Parameter progress: called with the overall progress, 0–100, and a short stage name
    ///   ("loading", "preparing", "recognizing"); return `false` to cancel.
    /// - Throws: `ImagingError` for the file, `OCRError` for the engine (`.cancelled` on cancel).
    public func recognize(path: String, progress: @escaping (Int, String) -> Bool = { _, _ in true }) throws -> RecognitionResult {
        guard progress(0, "loading") else { throw OCRError.cancelled }
        let engine = try TesseractEngine(options: options.engine)
        let loader = ImageLoader(memoryLimit: options.memoryLimit,
                                 jpegReductionTarget: options.preprocessing.maxDimension)
        let loaded = try loader.load(path)
        guard progress(5, "preparing") else { throw OCRError.cancelled }
        let prepared = try Preprocessor(options: options.preprocessing).prepare(loaded.image)
        let scale = prepared.scale / Double(loaded.decodeReduction)
        guard progress(15, "recognizing") else { throw OCRError.cancelled }
        var page = prepared
        page.scale = scale   // boxes map to the upright photo at full size
        var result = try engine.recognize(page) { p in progress(15 + p * 85 / 100, "recognizing") }
        result.rotationDegrees = Recognizer.rotation(ofEXIF: loaded.exifOrientation)
        result.warnings = loaded.notes
        if prepared.inverted { result.warnings.append("light text on a dark background: inverted") }
        if prepared.deskewDegrees != 0 {
            result.warnings.append(String(format: "deskewed by %.1f°", locale: Locale(identifier: "en_US_POSIX"), prepared.deskewDegrees))
        }
        _ = progress(100, "done")
        return result
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
