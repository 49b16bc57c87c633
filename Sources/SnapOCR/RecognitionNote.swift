import Foundation
import SnapImaging

/// Something one OCR run did or measured, as data; `description` is the one place where its
/// wording lives.
///
/// Notes for the user (`isDiagnostic == false`) say what was done to the photo (a frame picked,
/// the page turned, inverted, deskewed); `lovesnap ocr` prints them on stderr and the editor shows
/// them on its status line. Diagnostics say how the pipeline ran (what it measured, which reading
/// it kept), for `lovesnap ocr --verbose` and bug reports.
public enum RecognitionNote: Codable, Equatable, Sendable, CustomStringConvertible {
    // MARK: For the user

    /// A multi-frame file (TIFF pages, GIF frames): frame `index` (from 1) of `of` was read;
    /// `format` is the format's name ("TIFF", "GIF").
    case frameRead(index: Int, of: Int, format: String)
    /// The EXIF Orientation tag (2–8) was applied to make the photo upright.
    case exifOrientationApplied(Int)
    /// An alpha channel was flattened onto white.
    case transparencyFlattened
    /// Orientation detection (OSD) found the page turned and it was read turned back by `degrees`
    /// clockwise (90, 180, 270); `confidence` is OSD's (about 0–20; ≥ 7 acted on).
    case turnedByOrientationDetection(degrees: Int, confidence: Double)
    /// Light text on a dark background: the page was inverted before reading.
    case inverted
    /// The page was deskewed by `degrees` (positive: the page had been turned clockwise).
    case deskewed(degrees: Double)
    /// Tesseract's layout analysis read the page turned by `degrees` clockwise (90, 180, 270).
    case rotated(degrees: Int)
    /// A sheet lying on a darker surface was found, cut out and straightened (perspective undone).
    case pageStraightened
    /// `count` blocks of light text on a dark ground (headings, bands, signs) were inverted.
    case regionsInverted(Int)
    /// Dim or uneven light was evened out before thresholding.
    case lightEvenedOut
    /// Curled text lines were straightened (dewarped).
    case dewarped
    /// The photo read as it is gave more real words than the prepared page, and its reading was kept.
    case keptPlainReading
    /// Light text on `count` dark blocks (signs, bands) read on its own, the rest of the photo
    /// blanked out, gave more real words, and that reading was kept.
    case keptBlocksAlone(Int)
    /// The word evidence of the blocks read alone (see `keptBlocksAlone`), against the reading kept
    /// until then.
    case comparedBlocks(blocks: Int, kept: Int)
    /// `count` lines read out of texture or stains (`NoiseLines`) were left out of the text.
    case noiseLinesLeftOut(Int)
    /// Only `region` ("X,Y,W,H" in pixels of the upright photo) was read; `clipped` when the
    /// region asked for went past the photo's edge and was cut to it.
    case regionRead(region: String, clipped: Bool)

    // MARK: Diagnostics (--verbose)

    /// The languages Tesseract really loaded, in its order (e.g. ["fra", "eng"]).
    case languagesLoaded([String])
    /// libjpeg decoded the photo reduced by `factor` (2, 4 or 8).
    case jpegReduced(factor: Int)
    /// A preparation of the page: what was measured and done.
    case prepared(PreparationVariant, PageMeasurements)
    /// One reading of a prepared page: Tesseract's mean word confidence (0–100), the number of
    /// words and the score used to rank readings (`Recognizer.score`).
    case read(PreparationVariant, meanConfidence: Int, words: Int, score: Double)
    /// The reading of this variant replaced the one kept before.
    case kept(PreparationVariant)
    /// What orientation detection (OSD) found: `degrees` clockwise (0, 90, 180, 270) and its confidence.
    case orientationDetected(degrees: Int, confidence: Double)
    /// Orientation detection was not asked although the first reading was poor: the photo's
    /// light-on-dark blocks, read alone, read upright with this mean confidence (0–100, ≥ 70).
    case uprightByBlocksAlone(meanConfidence: Int)
    /// Orientation detection was wanted (the first reading was poor) but its model
    /// (`osd.traineddata`) could not be loaded from the tessdata folder `tessdata`.
    case orientationUnavailable(tessdata: String)
    /// The word evidence (`WordEvidence.score`: known minus unknown letters) of the prepared
    /// reading and of the plain one.
    case compared(prepared: Int, plain: Int)
    /// A reading shared by two engines (`SharedReading`): lines `from` (counted from 1) to
    /// `lines` were read by the second one; `from` nil when the second found other lines or read
    /// the line before its part in another language, and the first engine read the page alone.
    case readByTwoEngines(from: Int?, lines: Int)
    /// The text detector found `regions` text regions, and the reading kept so far covered
    /// `coveredPercent` % of their length (`ReadingPolicy.coverage`).
    case textDetected(regions: Int, coveredPercent: Int)
    /// The text detector could not run (no model, or OpenCV failed): the page's own layout only.
    case textDetectorUnavailable(reason: String)
    /// The page was to be read line by line (`ReadingMode.lines`), but the text detector could
    /// not run: the page's own layout only.
    case detectedLinesUnavailable(reason: String)
    /// The reading line by line along the detected regions against the reading kept so far: each
    /// one's evidence of real words (`WordEvidence.score`), its share of the detected text's
    /// length covered (%) and its mean word confidence (0–100).
    case comparedDetectedLines(lines: ReadingWeight, kept: ReadingWeight)
    /// The page was read line by line along the `regions` the text detector found.
    case keptDetectedLines(regions: Int)
    /// The learned recognizer read `asked` words Tesseract doubted or was not sure enough of, and
    /// read `agreed` of them the same way (`TextRecognizer`, `Proofreading`).
    case learnedReadings(asked: Int, agreed: Int)
    /// The learned recognizer could not run (no model, or OpenCV failed): marks by Tesseract's
    /// confidence and the dictionaries only.
    case learnedReadingUnavailable(reason: String)

    /// Whether this note only describes how the pipeline ran (shown with `--verbose`).
    public var isDiagnostic: Bool {
        switch self {
        case .frameRead, .exifOrientationApplied, .transparencyFlattened, .turnedByOrientationDetection,
            .inverted, .deskewed, .rotated, .pageStraightened, .regionsInverted, .lightEvenedOut, .dewarped,
            .keptPlainReading, .keptBlocksAlone, .noiseLinesLeftOut, .regionRead, .orientationUnavailable,
            .keptDetectedLines, .detectedLinesUnavailable:
            return false
        case .languagesLoaded, .jpegReduced, .prepared, .read, .kept, .orientationDetected, .uprightByBlocksAlone,
            .compared, .comparedBlocks, .readByTwoEngines, .textDetected, .textDetectorUnavailable,
            .comparedDetectedLines, .learnedReadings, .learnedReadingUnavailable:
            return true
        }
    }

    /// The note in English, as printed after the photo's name ("deskewed by 1.9°").
    public var description: String {
        switch self {
        case .frameRead(let index, let count, let format):
            return "\(format) with \(count) frames: frame \(index) read"
        case .exifOrientationApplied(let orientation):
            return "EXIF orientation \(orientation) applied"
        case .transparencyFlattened:
            return "transparency flattened onto white"
        case .turnedByOrientationDetection(let degrees, let confidence):
            return "page turned \(degrees)° clockwise (orientation detected, confidence \(decimal(confidence, 1)))"
        case .inverted:
            return "light text on a dark background: inverted"
        case .deskewed(let degrees):
            return "deskewed by \(decimal(degrees, 1))°"
        case .rotated(let degrees):
            return "page read turned \(degrees)° clockwise (found by Tesseract's layout analysis)"
        case .pageStraightened:
            return "page found and straightened"
        case .regionsInverted(let count):
            return count == 1 ? "1 light-on-dark region inverted" : "\(count) light-on-dark regions inverted"
        case .lightEvenedOut:
            return "dim or uneven light evened out"
        case .dewarped:
            return "curled lines straightened"
        case .keptPlainReading:
            return "read as photographed (more real words than after preparing the page)"
        case .keptBlocksAlone(let count):
            return count == 1
                ? "light text on a dark block read on its own (more real words than the whole photo)"
                : "light text on \(count) dark blocks read on its own (more real words than the whole photo)"
        case .noiseLinesLeftOut(let count):
            return count == 1
                ? "1 line of short fragments read with low confidence left out (stains, texture)"
                : "\(count) lines of short fragments read with low confidence left out (stains, texture)"
        case .regionRead(let region, let clipped):
            return "region \(region) read" + (clipped ? " (cut to the photo's edges)" : "")
        case .languagesLoaded(let languages):
            return "languages loaded: \(languages.joined(separator: "+"))"
        case .jpegReduced(let factor):
            return "JPEG decoded at 1/\(factor) size"
        case .prepared(let variant, let m):
            return "\(variant): text height \(m.textHeight.map { decimal($0, 2) + " px" } ?? "not measured"), "
                + "scale \(decimal(m.scale, 2)), \(m.width)×\(m.height) px, inverted \(m.inverted), "
                + "deskew \(decimal(m.deskewDegrees, 2))°"
        case .read(let variant, let meanConfidence, let words, let score):
            return "\(variant): mean confidence \(meanConfidence), \(words) words, score \(decimal(score, 1))"
        case .kept(let variant):
            return "kept \(variant)"
        case .orientationDetected(let degrees, let confidence):
            return "orientation: \(degrees)° clockwise, confidence \(decimal(confidence, 1))"
        case .orientationUnavailable(let tessdata):
            return "orientation not checked: osd.traineddata could not be loaded from \(tessdata)"
        case .uprightByBlocksAlone(let meanConfidence):
            return
                "orientation not checked: the light-on-dark blocks alone read upright (mean confidence \(meanConfidence))"
        case .compared(let prepared, let plain):
            return "word evidence: prepared \(prepared), plain \(plain)"
        case .comparedBlocks(let blocks, let kept):
            return "word evidence: light-on-dark blocks alone \(blocks), reading kept so far \(kept)"
        case .readByTwoEngines(let from, let lines):
            if let from { return "read by two engines: lines \(from)–\(lines) by the second" }
            return "read by one engine: the second engine's part would have read otherwise (\(lines) lines)"
        case .textDetected(let regions, let covered):
            return "text detector: \(regions) regions, \(covered) % of their length covered by the reading"
        case .textDetectorUnavailable(let reason):
            return "text detector not used: \(reason)"
        case .detectedLinesUnavailable(let reason):
            return "not read line by line as asked, the text detector could not run: \(reason)"
        case .comparedDetectedLines(let lines, let kept):
            return "detected lines \(lines) against the reading kept so far \(kept)"
        case .keptDetectedLines(let regions):
            return "read line by line along \(regions) text regions found by the detector"
        case .learnedReadings(let asked, let agreed):
            return
                "second recognizer: \(asked) \(asked == 1 ? "word" : "words") read again, \(agreed) read the same way"
        case .learnedReadingUnavailable(let reason):
            return "second recognizer not used: \(reason)"
        }
    }
}

/// Which preparation of the page a reading used: the black-and-white filter, and whether the page
/// kept its own size instead of being rescaled to the target text height.
public struct PreparationVariant: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The black-and-white filter.
    public var binarization: Binarization
    /// Whether the page was read at its own size (`rescaleToTextHeight` off).
    public var atNativeSize: Bool

    /// A variant from its parts.
    public init(binarization: Binarization, atNativeSize: Bool) {
        self.binarization = binarization
        self.atNativeSize = atNativeSize
    }

    /// The variant `options` prepares.
    public init(_ options: PreprocessingOptions) {
        binarization = options.binarization
        atNativeSize = !options.rescaleToTextHeight
    }

    /// "otsu", "tesseract at native size", …
    public var description: String { binarization.rawValue + (atNativeSize ? " at native size" : "") }
}

/// What preparing a page measured and did (see `PreparedImage`).
public struct PageMeasurements: Codable, Equatable, Sendable {
    /// The median ink component height measured on the upright photo, in pixels; nil when there
    /// was too little ink to measure.
    public var textHeight: Double?
    /// Prepared pixels per pixel of the upright photo as loaded (1 = unchanged, > 1 enlarged).
    public var scale: Double
    /// The prepared page's width in pixels.
    public var width: Int
    /// The prepared page's height in pixels.
    public var height: Int
    /// Whether the page was inverted (light text on dark).
    public var inverted: Bool
    /// The skew corrected, in degrees (positive: the page had been turned clockwise); 0 when none.
    public var deskewDegrees: Double

    /// Measurements from their parts (units as for each property).
    public init(textHeight: Double?, scale: Double, width: Int, height: Int, inverted: Bool, deskewDegrees: Double) {
        self.textHeight = textHeight
        self.scale = scale
        self.width = width
        self.height = height
        self.inverted = inverted
        self.deskewDegrees = deskewDegrees
    }

    /// The measurements of a page `Preprocessor` prepared.
    public init(_ page: PreparedImage) {
        textHeight = page.measuredTextHeight
        scale = page.scale
        width = page.image.width
        height = page.image.height
        inverted = page.inverted
        deskewDegrees = page.deskewDegrees
    }
}

/// `value` with `places` decimals, always with a point (never the locale's comma).
private func decimal(_ value: Double, _ places: Int) -> String {
    String(format: "%.\(places)f", locale: Locale(identifier: "en_US_POSIX"), value)
}

/// What weighs a reading against another (`RecognitionNote.comparedDetectedLines`).
public struct ReadingWeight: Codable, Equatable, Sendable, CustomStringConvertible {
    /// Evidence of real words (`WordEvidence.score`).
    public var evidence: Int
    /// The share of the detected text's length its words cover, percent (`ReadingPolicy.coverage`).
    public var coveredPercent: Int
    /// Mean word confidence, 0–100.
    public var meanConfidence: Int

    /// A weight from its parts.
    public init(evidence: Int, coveredPercent: Int, meanConfidence: Int) {
        self.evidence = evidence
        self.coveredPercent = coveredPercent
        self.meanConfidence = meanConfidence
    }

    /// "evidence 52, covers 71 %, confidence 87".
    public var description: String {
        "(evidence \(evidence), covers \(coveredPercent) %, confidence \(meanConfidence))"
    }
}
