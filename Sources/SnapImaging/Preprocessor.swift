import CLeptonica
import Foundation

/// Settings of the preparation pipeline (all sizes in pixels of the upright image).
public struct PreprocessingOptions: Codable, Equatable, Sendable {
    /// Default bound on the long side after scaling: 4000 px (Tesseract's own hard limit is 32767).
    public static let defaultMaxDimension = 4000
    /// Median height of the ink's connected components that pages are rescaled to: 26 px, about
    /// the x-height-to-cap-height of 11 pt type at 300 DPI. Chosen by measurement on
    /// the benchmark corpus with scripts/ocr-benchmark.py (20, 26 and 32 px gave mean CER
    /// 0.049–0.050; 26 read the UNLV page best).
    public static let defaultTargetTextHeight = 26.0

    /// The long side is never larger than this after scaling (pixels, ≥ 16).
    public var maxDimension: Int
    /// The median component height the image is rescaled to, when it is far from it (pixels).
    public var targetTextHeight: Double
    /// The black-and-white filter.
    public var binarization: Binarization
    /// Whether to measure the skew (Leptonica `pixFindSkew`) and rotate the page straight.
    public var deskew: Bool
    /// Whether a page of light text on a dark background is inverted.
    public var correctPolarity: Bool
    /// Whether the page is rescaled so its median text height meets `targetTextHeight`
    /// (the `maxDimension` bound applies either way).
    public var rescaleToTextHeight = true

    /// - Parameters: see the properties; every default is documented on its property.
    public init(maxDimension: Int = PreprocessingOptions.defaultMaxDimension,
                targetTextHeight: Double = PreprocessingOptions.defaultTargetTextHeight,
                binarization: Binarization = .tesseract, deskew: Bool = true, correctPolarity: Bool = true) {
        self.maxDimension = max(16, maxDimension)
        self.targetTextHeight = targetTextHeight
        self.binarization = binarization
        self.deskew = deskew
        self.correctPolarity = correctPolarity
    }
}

/// The image Tesseract gets, and how it relates to the upright photo.
public struct PreparedImage {
    /// 1 bpp after a black-and-white filter, or 8 bpp grey for `Binarization.tesseract`.
    public let image: Image
    /// Prepared pixels per pixel of the upright photo (> 1 when enlarged).
    public var scale: Double
    /// Whether the page was light-on-dark and has been inverted.
    public let inverted: Bool
    /// Skew corrected, in degrees (positive = the page was turned clockwise); 0 when none.
    public let deskewDegrees: Double
    /// Median ink component height measured on the upright photo (pixels), nil when too little ink.
    public let measuredTextHeight: Double?
    /// The resolution to tell Tesseract (DPI): text rescaled to the target height reads like a 300 DPI scan.
    public let resolution: Int
}

/// Grey → scale to the text size → polarity → deskew → black-and-white, all with Leptonica.
public struct Preprocessor {
    public var options: PreprocessingOptions

    /// - Parameter options: the pipeline settings.
    public init(options: PreprocessingOptions = PreprocessingOptions()) { self.options = options }

    /// Runs the pipeline on an upright, alpha-free image.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public func prepare(_ source: Image) throws -> PreparedImage {
        var gray = try source.grayscale()
        var scale = 1.0

        let longSide = max(gray.width, gray.height)
        if longSide > options.maxDimension {
            let f = Double(options.maxDimension) / Double(longSide)
            gray = try gray.scaled(by: f)
            scale *= f
        }

        var inverted = false
        if options.correctPolarity, try Preprocessor.isLightOnDark(gray) {
            gray = try gray.inverted()
            inverted = true
        }

        // One black-and-white probe serves both measurements: text height and skew angle
        // (the angle does not change with the scale). Large pages are probed at half size:
        // a quarter of the pixels to normalize, and glyphs still several pixels high.
        let probeScale = max(gray.width, gray.height) > 2400 ? 0.5 : 1.0
        let probe = try (probeScale == 1 ? gray : gray.scaled(by: probeScale)).binarized(.otsu)
        let measured = try Preprocessor.medianComponentHeight(probe).map { $0 / probeScale }
        let scaleAtMeasure = scale
        if let measured, options.rescaleToTextHeight {
            let factor = scaleFactor(textHeight: measured, width: gray.width, height: gray.height)
            if factor != 1 {
                gray = try gray.scaled(by: factor)
                scale *= factor
            }
        }

        var skew = 0.0
        if options.deskew && probe.width >= 64 && probe.height >= 64 {
            var angle: l_float32 = 0, confidence: l_float32 = 0
            // Leptonica's pixFindSkew defaults (sweep ±7° in 1° steps at 1/4 size, binary search
            // at 1/2 size), with the reductions halved when the probe is already at half size.
            let (sweep, search): (l_int32, l_int32) = probeScale == 1 ? (4, 2) : (2, 1)
            if pixFindSkewSweepAndSearch(probe.pix, &angle, &confidence, sweep, search, 7, 1, 0.01) == 0,
               confidence >= 3, abs(angle) >= 0.3, abs(angle) <= 10 {
                gray = try gray.rotated(degrees: Double(angle))
                skew = Double(angle)
            }
        }

        let bw = try gray.binarized(options.binarization)
        return PreparedImage(image: bw, scale: scale, inverted: inverted, deskewDegrees: skew,
                             measuredTextHeight: measured.map { $0 / scaleAtMeasure },
                             resolution: 300)
    }

    /// The factor that brings a median component height of `textHeight` px to the target,
    /// or 1 when it is already within [0.7, 2.5] × target; bounded by `maxDimension` and by a 4× enlargement.
    func scaleFactor(textHeight: Double, width: Int, height: Int) -> Double {
        let target = options.targetTextHeight
        guard textHeight > 0 else { return 1 }
        if textHeight >= target * 0.7 && textHeight <= target * 2.5 { return 1 }
        var f = target / textHeight
        f = min(f, 4)
        f = min(f, Double(options.maxDimension) / Double(max(width, height)))
        return abs(f - 1) < 0.05 ? 1 : f
    }

    /// Whether most of the page is dark after a global Otsu threshold (light text on a dark
    /// background). A page of one grey level has no text to invert.
    static func isLightOnDark(_ gray: Image) throws -> Bool {
        let dark = try gray.otsuGlobal().blackFraction()
        return dark > 0.5 && dark < 1
    }

    /// Median height (pixels) of the ink's connected components that look like characters, or nil
    /// when fewer than 5 remain. Drops specks (under 3 px high), rules and frames (wider than 5×
    /// their height) and blobs taller than a third of the page.
    static func medianComponentHeight(_ binary: Image) throws -> Double? {
        let maxH = max(3, binary.height / 3)
        let heights = try binary.componentBoxes()
            .filter { $0.height >= 3 && $0.height <= maxH && $0.width <= 5 * $0.height && $0.width < binary.width / 2 }
            .map(\.height).sorted()
        guard heights.count >= 5 else { return nil }
        return Double(heights[heights.count / 2])
    }
}
