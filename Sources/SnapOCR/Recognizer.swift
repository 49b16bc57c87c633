import Foundation
import SnapExport
import SnapImaging
import SnapSpelling
import Synchronization

/// A value computed on its own thread and handed over once: `take()` waits for it and rethrows
/// its error.
///
/// The outcome is made inside the `Mutex` and moves out of it (`sending`), so the value may be of
/// a non-Sendable type such as `TesseractEngine`: only one thread ever holds it, which the
/// compiler checks. The worker thread holds the lock while it works; `take()` only asks for it
/// after the group said the work is done. A group, not a semaphore: any number of threads may
/// wait for the work, before or after `take()` (a semaphore's one signal, taken by `take()`, once
/// left another thread's `isDone(waitingAtMost: 60)` waiting the whole minute).
final class Pending<T>: Sendable {
    private let outcome = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchGroup()

    /// Starts `work` on a new thread.
    init(_ work: @escaping @Sendable () throws -> sending T) {
        done.enter()
        Thread.detachNewThread { [self] in
            outcome.withLock { slot in
                do { slot = .success(try work()) } catch { slot = .failure(error) }
            }
            done.leave()
        }
    }

    /// Whether the value is ready (or was taken), waiting for it at most `seconds`. Any thread,
    /// any number of times.
    func isDone(waitingAtMost seconds: Double) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }

    /// Waits for the value; call it once.
    /// - Throws: the error `work` threw.
    func take() throws -> sending T {
        done.wait()
        let result = outcome.withLock { $0.take() }
        guard let result else { preconditionFailure("Pending.take() called twice") }
        return try result.get()
    }
}

/// The light-on-dark blocks of a photo found and read on the second engine (`PlainReading`),
/// and how many there were.
struct BlocksBeside {
    /// The number of blocks, once found.
    final class Found: Sendable {
        let count = Atomic<Int>(0)
    }
    /// Thrown by the reading when the photo has no such blocks.
    struct NoBlocks: Error {}

    let reading: PlainReading
    let found: Found
}

/// The stages of one OCR run, in order, as progress reports them.
public enum RecognitionStage: String, CaseIterable, Codable, Sendable {
    /// Reading the file (and starting Tesseract beside it).
    case loading
    /// Grey, scale, polarity, deskew, black-and-white for one variant.
    case preparing
    /// Orientation detection (OSD) on a poor first reading.
    case orientation
    /// Tesseract reading a prepared page.
    case recognizing
    /// The run is over.
    case done
}

/// How hard to try, like Apple Vision's `VNRequestTextRecognitionLevel`.
public enum RecognitionLevel: String, CaseIterable, Codable, Sendable {
    /// One preprocessing variant, one Tesseract pass.
    case fast
    /// Several preprocessing variants; keeps the reading with the most confidently read
    /// characters (see `Recognizer.score`).
    case accurate
}

/// How the text of a photo is found before it is read (`--reading`).
public enum ReadingMode: String, CaseIterable, Codable, Sendable {
    /// Both ways; the detected lines are read when the page's reading misses part of the text the
    /// detector found or is doubtful, and kept by the evidence `ReadingPolicy` weighs.
    case auto
    /// Tesseract's own layout analysis of the prepared page only (lovesnap before the detector).
    case page
    /// The detected lines whenever the detector found any.
    case lines
}

/// Everything one OCR run needs to know.
public struct RecognitionOptions: Codable, Equatable, Sendable {
    /// Tesseract's settings: languages, page segmentation mode, tessdata folder.
    public var engine: EngineOptions
    /// How the page is prepared: size bounds, target text height, black-and-white filter.
    public var preprocessing: PreprocessingOptions
    /// One preparation, or several with the best reading kept.
    public var level: RecognitionLevel
    /// Whether to detect pages turned by 90/180/270° with OSD (after EXIF).
    public var detectOrientation: Bool
    /// Decoded size above which a photo is refused before decoding (bytes).
    public var memoryLimit: Int
    /// Tesseract's documents to render for the reading kept (`RecognitionResult.documents`);
    /// nil or empty for none.
    public var exports: [ExportFormat]?
    /// Whether a format whose renderer cannot run (no `pdf.ttf` in the tessdata folder) is left
    /// out instead of failing the reading: the editor's exports are only a possibility.
    public var exportsIfPossible: Bool?
    /// Only this part of the photo is read (`--region`, or framed in the photo view), with its
    /// own preparation: decoded at full size, cut out (a strip lower than twice the target text
    /// height enlarged to it, up to 4×), then prepared as a page of its own (small print enlarged
    /// to the target text height; a strip is read as one block of text, PSM 6, unless another
    /// PSM than the automatic one was asked for), no page finding or orientation detection; its light-on-dark
    /// blocks are read alone when its reading is doubtful, as the whole photo's are (a sign
    /// framed with its wall); word boxes stay in pixels of the whole upright photo. Nil: the
    /// whole photo.
    public var region: PhotoRegion?
    /// How many engines read at once, 1 or 2 (nil = 2, `--threads`). With 2, a second engine
    /// shares the reading of long pages (`SharedReading`: the same text, sooner), of any page of
    /// 8 lines or more when it is not reading the photo as it is from the start, or, when
    /// documents are rendered (`exports`: they come from one engine's page), reads a transformed
    /// page as it is beside the prepared reading. With 1, everything is read in turn.
    public var threads: Int?
    /// Whether each word is checked against the languages' Hunspell dictionaries
    /// (`RecognizedWord.isKnownWord`, behind the uncertain marks; nil = true). False when nothing
    /// shows the marks (`lovesnap ocr` printing text or documents): the dictionaries (20 MiB,
    /// 0.16 s) then load only when two readings are weighed by their words.
    public var marksSpelling: Bool?
    /// How the text is found (`--reading`; nil = `.auto`): by Tesseract's layout analysis of the
    /// page, or also by the trained text detector (`TextDetector`), the page then read line by
    /// line along what it found; a region's text is found in the region once it is cut. Not when
    /// documents other than text must be rendered (they come from one page's reading; with
    /// `exportsIfPossible` a reading of the detected lines is kept without documents).
    public var reading: ReadingMode?
    /// The photo's resolution in DPI (`--dpi`, as `tesseract --dpi`), in place of the one its
    /// file gives or of none (`ImageLoader.resolution`): what Tesseract is told when it reads the
    /// photo as it is, and the page size of the PDF export. Nil: the file's. The prepared page is
    /// rescaled by its text height and read as 300 DPI either way.
    public var resolution: Int?

    /// Options from their parts; the defaults are lovesnap's (`--level fast`, OSD on, 512 MiB).
    public init(
        engine: EngineOptions = EngineOptions(), preprocessing: PreprocessingOptions = PreprocessingOptions(),
        level: RecognitionLevel = .fast, detectOrientation: Bool = true,
        memoryLimit: Int = ImageLoader.defaultMemoryLimit
    ) {
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
    /// The settings of every run.
    public let options: RecognitionOptions
    /// This executable, when the second engine may be a process of its own running it (the
    /// reader, `ReaderProcess`; the worker gives `/proc/self/exe`): the photo as it is, a crop at
    /// its own size and a shared page's second part are then read there. Nil: by a second engine
    /// in this process (`SecondEngine`, `PlainReading`). The spelling dictionaries
    /// (`SpellingProcess`) and orientation detection (`OrientationProcess`) are then processes of
    /// it too. The text is the same either way.
    public let readerExecutable: String?

    /// A recognizer with `options`, whose second engine, spelling dictionaries and orientation
    /// detection are processes of `readerExecutable` when given.
    public init(options: RecognitionOptions = RecognitionOptions(), readerExecutable: String? = nil) {
        self.options = options
        self.readerExecutable = readerExecutable
    }

    /// Recognizes the text of the photo at `path`.
    ///
    /// - Parameters:
    ///   - progress: called on the calling thread with the overall progress, 0–100, and the stage;
    ///     return `false` to cancel.
    ///   - handOff: called on the calling thread with the result once it is made, before the
    ///     engines and dictionaries this run loaded are freed (`TessBaseAPIEnd`/`TessBaseAPIDelete`,
    ///     `Hunspell_destroy`). A process that only wants the result hands it on there and ends
    ///     without freeing them (`WorkerServer.serve`: the worker's end came about 0.12 s sooner,
    ///     median over a clean scan). What it throws, `recognize` throws.
    /// - Returns: the text, words and notes; `notes` lists what was done to the photo in the order
    ///   it happened, diagnostics (`RecognitionNote.isDiagnostic`) led by the languages loaded.
    /// - Throws: `ImagingError` for the file, `OCRError` for the engine (`.cancelled` on cancel).
    public func recognize(
        path: String, photoName: String = "",
        progress: @escaping (Int, RecognitionStage) -> Bool = { _, _ in true },
        handOff: (RecognitionResult) throws -> Void = { _ in }
    ) throws -> RecognitionResult {
        guard progress(0, .loading) else { throw OCRError.cancelled }
        let run = try RecognitionRun(recognizer: self, path: path, photoName: photoName, progress: progress)
        defer { run.cancelReadingsBeside() }
        let result = try run.run()
        // The engines and dictionaries are freed with the run: after the hand-off.
        try withExtendedLifetime(run) { try handOff(result) }
        return result
    }

    /// The detected-lines stage: the regions `detection` found, the coverage of `kept` over them,
    /// and — when `ReadingPolicy` asks for it, or `always` — the photo read along them
    /// (`DetectedLinesReading`) and weighed against `kept`.
    /// - Parameters:
    ///   - photo: the upright photo the detector was given, decoded `reduction` times smaller than
    ///     the photo (its pixels are the regions'; the boxes of `kept` are the photo's).
    ///   - spelling: the dictionaries that weigh the two readings (nil: the lines are kept only
    ///     when `always`).
    ///   - beside: a second engine reading lines beside `engine` (nil: one engine).
    /// - Returns: the reading to keep instead of `kept` (nil: keep it; its words carry `kept`'s
    ///   as their other reading), and the notes of the stage.
    /// - Throws: `OCRError.cancelled` when `progress` returns false, the engine's errors. A
    ///   detector that failed is a note, not an error.
    static func readingDetectedLines(
        _ detection: Pending<Detection>, kept: RecognitionResult, photo: Image, reduction: Double,
        always: Bool, engine: () throws -> TesseractEngine, spelling: () -> Spelling?,
        beside: LinesReadBeside.Start? = nil, progress: (Int) -> Bool
    ) throws -> (RecognitionResult?, [RecognitionNote]) {
        let found: Detection
        do {
            found = try detection.take()
        } catch {
            var reason = "\(error)"
            if case OCRError.detectionFailed(let why) = error { reason = why }
            reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
            // Asked for by the user (`--reading lines`): said without `--verbose`.
            return (
                nil, [always ? .detectedLinesUnavailable(reason: reason) : .textDetectorUnavailable(reason: reason)]
            )
        }
        let regions = found.regions
        let inPhoto = regions.map { r in
            let b = r.bounds
            return BoundingBox(
                x: Int(Double(b.x) * reduction), y: Int(Double(b.y) * reduction),
                width: Int(Double(b.width) * reduction), height: Int(Double(b.height) * reduction))
        }
        let covered = ReadingPolicy.coverage(of: kept.words.map(\.boundingBox), regions: inPhoto)
        var notes: [RecognitionNote] = [
            .textDetected(regions: regions.count, coveredPercent: Int((covered * 100).rounded()))
        ]
        guard
            (always && !regions.isEmpty)
                || ReadingPolicy.readsDetectedLines(
                    coverage: covered, meanConfidence: kept.meanConfidence, regions: regions.count)
        else { return (nil, notes) }
        guard progress(0) else { throw OCRError.cancelled }
        // Found again at full size when they were found smaller; if that fails, these.
        let lineRegions = (try? found.regionsForLines()) ?? regions
        var lines = try DetectedLinesReading.read(
            lineRegions, of: photo, reduction: reduction, engine: try engine(), beside: beside, progress: progress)
        var keeps = always
        if let weighed = spelling()?.evidence(of: [
            lines.text + "\n" + lines.leftOutText, kept.text + "\n" + kept.leftOutText,
        ]) {
            let linesCovered = ReadingPolicy.coverage(of: lines.words.map(\.boundingBox), regions: inPhoto)
            let linesWeight = ReadingWeight(
                evidence: weighed[0].score, coveredPercent: Int((linesCovered * 100).rounded()),
                meanConfidence: lines.meanConfidence)
            let keptWeight = ReadingWeight(
                evidence: weighed[1].score, coveredPercent: Int((covered * 100).rounded()),
                meanConfidence: kept.meanConfidence)
            notes.append(.comparedDetectedLines(lines: linesWeight, kept: keptWeight))
            keeps = keeps || ReadingPolicy.prefersDetectedLines(linesWeight, over: keptWeight)
        }
        guard keeps else { return (nil, notes) }
        lines.words = OtherReading.attaching(kept.words, to: lines.words)
        notes.append(.keptDetectedLines(regions: lineRegions.count))
        return (lines, notes)
    }

    /// What the preparation of `page` did to the photo, as notes.
    static func preparationNotes(of page: PreparedImage) -> [RecognitionNote] {
        var notes: [RecognitionNote] = []
        if page.page != nil { notes.append(.pageStraightened) }
        if page.invertedRegions > 0 { notes.append(.regionsInverted(page.invertedRegions)) }
        if page.backgroundNormalized { notes.append(.lightEvenedOut) }
        if page.dewarped { notes.append(.dewarped) }
        if page.inverted { notes.append(.inverted) }
        if page.deskewDegrees != 0 { notes.append(.deskewed(degrees: page.deskewDegrees)) }
        return notes
    }

    /// What the text detector found in a photo, its regions in the photo's pixels.
    struct Detection: Sendable {
        /// The regions found with the network's input sized by the print
        /// (`TextDetector.side(for:)`): what a reading's coverage is measured against.
        var regions: [DetectedRegion]
        /// The regions the lines are cut along: `regions` when the network's input was full
        /// size, else the photo detected again at full size (the regions of a smaller input are
        /// looser at their ends: a line's last full stop was cut off).
        var regionsForLines: @Sendable () throws -> [DetectedRegion]
    }

    /// The text detector started on `photo` on a thread of its own when `wanted` and its model
    /// is found (`TextDetector.defaultModelPath`); nil otherwise. It runs in a process of
    /// `executable` when given (`DetectorProcess`); with its input sized by the print when
    /// `sizedByPrint` (not when the lines are read whatever a reading covers: `--reading lines`).
    static func startingDetection(of photo: Image, executable: String?, wanted: Bool, sizedByPrint: Bool = true)
        throws -> Pending<Detection>?
    {
        guard wanted else { return nil }
        guard let model = TextDetector.defaultModelPath() else {
            let reason = ModelFile.missing(
                TextDetector.modelFileName, variable: TextDetector.modelEnvironmentVariable,
                environment: ProcessInfo.processInfo.environment)
            return Pending { throw OCRError.detectionFailed(reason: reason) }
        }
        let handed = HandedImage(image: photo)
        let detector = TextDetector(modelPath: model)
        return Pending {
            let (regions, reduced) = try DetectorProcess.detect(
                handed.image, with: detector, executable: executable, sizedByPrint: sizedByPrint)
            guard reduced else { return Detection(regions: regions, regionsForLines: { regions }) }
            return Detection(regions: regions) {
                try DetectorProcess.detect(handed.image, with: detector, executable: executable).regions
            }
        }
    }

    /// The preparation of the light-on-dark blocks alone (`RegionPolarity.blocksAlone`): no page
    /// to find on the blanked-out photo, and its blocks already turned dark-on-light.
    static func blocksAloneSettings(_ preprocessing: PreprocessingOptions) -> PreprocessingOptions {
        var settings = preprocessing
        settings.findPage = false
        settings.correctPolarity = false
        return settings
    }

    /// Whether `path` names a regular file (not a pipe, which can be read only once).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// How `--level accurate` ranks readings of one page: the confidently read characters,
    /// Σ (word confidence / 100 × word length). The tutorial's plain mean word confidence rewards
    /// a variant that drops its doubtful words: on the benchmark corpus it chose Otsu for two phone
    /// photos at mean confidence 93 and 92 against 91, with 5 % fewer words and CER 0.197 and
    /// 0.059 instead of 0.023 and 0.025.
    static func score(_ r: RecognitionResult) -> Double {
        r.words.reduce(0) { $0 + $1.confidence / 100 * Double($1.text.count) }
    }

    /// Moves the boxes of `words`, read on `page` and placed by the engine at prepared pixels ÷
    /// `page.scale`, to where the words are in the upright photo when the page was cut out and
    /// straightened, deskewed or dewarped (`PageGeometry`); `reduction` is the JPEG decode reduction.
    static func mapBoxes(_ words: inout [RecognizedWord], of page: PreparedImage, reduction: Double) {
        guard !page.geometry.isScaleOnly else { return }
        // The engine's boxes are the prepared page's divided by `page.scale`; the geometry maps
        // prepared pixels to the decoded photo's, `reduction` times smaller than the photo.
        let s = page.scale
        for i in words.indices {
            let b = words[i].boundingBox
            let m = page.geometry.photoBox(
                left: Double(b.x) * s, top: Double(b.y) * s, right: Double(b.x + b.width) * s,
                bottom: Double(b.y + b.height) * s)
            words[i].boundingBox = BoundingBox(
                x: Int((m.left * reduction).rounded()), y: Int((m.top * reduction).rounded()),
                width: Int(((m.right - m.left) * reduction).rounded()),
                height: Int(((m.bottom - m.top) * reduction).rounded()))
        }
    }

    /// Below this mean word confidence (0–100) the first reading is doubtful, and a page the
    /// preparation transformed is also read as it is (`Preprocessor.plain`; `--level accurate`
    /// always reads it). Clear print reads at 92 and more. Measured on the corpus and the stress
    /// set (145 pages, docs/measurements/speed.md): the plain reading was kept on 18 pages, 14 of them under
    /// 92; on the other four it was better by 0.003–0.009 CER.
    static let doubtfulBelowConfidence = 92

    /// Below this mean word confidence (0–100) of the reading kept, light-on-dark blocks are also
    /// read alone (`RegionPolarity.blocksAlone`): clear print reads at 90 and more.
    static let blocksAloneBelowConfidence = 90

    /// A page of at most this many pixels at the photo's own scale (its prepared pixels ÷ the
    /// enlargement²) is a crop: enlarged, it is also read at its own size (`--level fast`).
    /// Measured on the corpus and the stress set: the reading at its own size was kept on 1 page
    /// of 17 (a 196×62 crop); a whole page of 0.6 Mpx and more never gained from it.
    static let cropPixels = 500_000

    /// Whether a photo of `width` × `height` pixels and `depth` bits per pixel, decoded at
    /// 1/`reduction` of its size, is read as it is from the start of its preparation, by the
    /// second engine (`Recognizer.recognize`): when it holds more than `cropPixels` pixels of its
    /// own (a crop is read at its own size first, on the same engine) and is not 8 bpp (which
    /// `Image.grayscale()` clones: its reference count changed on the preparing thread while the
    /// reading thread holds it; copying it would cost its size in memory).
    static func readsAsItIsFromTheStart(width: Int, height: Int, depth: Int, reduction: Double) -> Bool {
        depth != 8 && Double(width * height) * reduction * reduction > Double(cropPixels)
    }

    /// Below this mean word confidence (0–100) the page is checked for a 90/180/270° turn.
    static let orientationCheckBelowConfidence = 70

    /// Whether `candidate`, its evidence of real words `candidateScore` (`WordEvidence.score`),
    /// replaces the reading kept so far, `kept`, of evidence `keptScore`: when it has more, except
    /// that a reading without a word never replaces one read as text (mean word confidence 0–100
    /// from `orientationCheckBelowConfidence` on), and always replaces an empty one when read as
    /// text itself. Words the languages' dictionaries do not know count against a reading: a page
    /// of French read with `-l eng` alone, read clearly (103 words at 91), weighed −8, and the
    /// photo as it is, read as nothing, 0: "no text found". Noise read as text reads poorly.
    static func replaces(
        _ candidate: RecognitionResult, weighing candidateScore: Int, _ kept: RecognitionResult,
        weighing keptScore: Int
    ) -> Bool {
        func readAsText(_ r: RecognitionResult) -> Bool {
            !r.words.isEmpty && r.meanConfidence >= orientationCheckBelowConfidence
        }
        if candidate.words.isEmpty && readAsText(kept) { return false }
        if kept.words.isEmpty && readAsText(candidate) { return true }
        return candidateScore > keptScore
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

    /// Clockwise degrees that EXIF orientation `o` (1–8, nil for none) turns the stored pixels by.
    public static func rotation(ofEXIF o: Int?) -> Int {
        switch o {
        case 3, 4: return 180
        case 5, 6: return 90
        case 7, 8: return 270
        default: return 0
        }
    }
}
