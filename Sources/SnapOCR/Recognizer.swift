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
    /// to the target text height), no page finding or orientation detection; its light-on-dark
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
    /// line along what it found. Not for a region, nor when documents other than text must be
    /// rendered (they come from one page's reading; with `exportsIfPossible` a reading of the
    /// detected lines is kept without documents).
    public var reading: ReadingMode?

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
        // Loading the language models takes about as long as loading and preparing a photo;
        // on the second core they overlap.
        let engineOptions = options.engine
        let pendingEngine = Pending { try TesseractEngine(options: engineOptions) }
        var startedEngine: TesseractEngine?
        func readyEngine() throws -> TesseractEngine {
            if let startedEngine { return startedEngine }
            let started = try pendingEngine.take()
            startedEngine = started
            return started
        }
        // Hunspell's dictionaries (about 0.16 s and 21 MiB for en_US and fr) weigh the readings
        // against each other and mark the words no dictionary knows; they load beside too, once
        // the engine has (wanted sooner: two loads at once beside the preparation slow all three).
        // Without spelling marks (`marksSpelling` false) they load only once two readings are to
        // be weighed, while the second reading is made. In the worker they load in a process of
        // their own (`SpellingProcess`, started from the reader's executable): not at the
        // worker's peak on a doubtful page.
        let languages = engineOptions.languages
        // (`isDone` answers at once once the engine is loaded, taken or not: `Pending`.)
        let spellingExecutable = readerExecutable
        func loadingSpelling(afterEngine: Bool) -> Pending<Spelling> {
            Pending {
                if afterEngine { _ = pendingEngine.isDone(waitingAtMost: 60) }
                return try Spelling(languages: languages, executable: spellingExecutable)
            }
        }
        let marksSpelling = options.marksSpelling ?? true
        var pendingSpelling = marksSpelling ? loadingSpelling(afterEngine: true) : nil
        // The second engine, for readings shared by two and readings beside the first (none when
        // documents are rendered: they come from one engine's whole page).
        let exports = (options.exports ?? []).filter { $0 != .txt }
        let twoEngines = (options.threads ?? 2) >= 2
        var loadedSpelling: Spelling??
        func startSpelling() {
            if pendingSpelling == nil && loadedSpelling == nil { pendingSpelling = loadingSpelling(afterEngine: false) }
        }
        func readySpelling() -> Spelling? {
            if let loadedSpelling { return loadedSpelling }
            startSpelling()
            let loaded = try? pendingSpelling?.take()
            pendingSpelling = nil
            loadedSpelling = .some(loaded)
            return loaded
        }
        // A region is cut from the photo at full size: a small part of a large JPEG decoded at
        // 1/4 would lose what the region is read for.
        let loader = ImageLoader(
            memoryLimit: options.memoryLimit,
            jpegReductionTarget: options.region == nil ? options.preprocessing.maxDimension : nil)
        // In the worker the photo's pixels are kept in a memory file the reader maps (below).
        let sharesPhoto = readerExecutable != nil && twoEngines && exports.isEmpty && options.region == nil
        let loaded = try loader.load(path, sharingRaster: sharesPhoto)
        // The text detector runs on a thread of its own while the page is prepared and read.
        let detection = try Recognizer.startingDetection(
            of: loaded.image, executable: readerExecutable,
            wanted: options.reading != .page && options.region == nil
                && (exports.isEmpty || options.exportsIfPossible == true))
        // In the worker the second engine is the reader process's (`ReaderProcess`). It starts once
        // the photo is loaded and this engine's models are (loading beside them, its models and
        // its start slowed the decoding and this engine's loading: 20–30 ms on colour photos;
        // `speed-ab` over 20 pages ×1.060 → ×1.047), as the second engine here loaded when the
        // first reading began. When it cannot be started, or this is not the worker, the second
        // engine is one in this process.
        let reader =
            twoEngines && exports.isEmpty
            ? readerExecutable.flatMap { executable in
                try? ReaderProcess(
                    executable: executable,
                    request: ReaderRequest(
                        engine: engineOptions, preprocessing: options.preprocessing, memoryLimit: options.memoryLimit,
                        jpegReductionTarget: options.region == nil ? options.preprocessing.maxDimension : nil),
                    path: path, startingAfter: { _ = pendingEngine.isDone(waitingAtMost: 60) })
            } : nil
        defer { reader?.cancel() }
        let second = twoEngines && exports.isEmpty && reader == nil ? SecondEngine(options: engineOptions) : nil
        let secondReader = reader.map(SecondReader.apart) ?? second.map(SecondReader.inProcess)
        var notes: [RecognitionNote] = []
        if loaded.frameCount > 1 { notes.append(.frameRead(index: 1, of: loaded.frameCount, format: loaded.format)) }
        if let orientation = loaded.exifOrientation, orientation != 1 {
            notes.append(.exifOrientationApplied(orientation))
        }
        if loaded.flattenedTransparency { notes.append(.transparencyFlattened) }
        let reduction = Double(loaded.decodeReduction)
        if loaded.decodeReduction > 1 { notes.append(.jpegReduced(factor: loaded.decodeReduction)) }

        let render =
            exports.isEmpty
            ? nil
            : RenderRequest(
                formats: exports, pdfImage: exports.contains(.pdf) ? loaded.image : nil, title: photoName,
                ifPossible: options.exportsIfPossible ?? false)
        // Recognize a page, its boxes in pixels of the full-size upright photo; progress within [lo, lo + span].
        // `whenShared` runs when the page turns out to have a cut for a shared reading, before the
        // second engine is borrowed.
        // The least reading work shared by the two engines (`SharedReading.cut(of:minimumWork:)`).
        var sharedWork = SharedReading.minimumWork
        // Whether a free second engine makes its layout analysis beside the first's
        // (`SharedReading.read(laysOutAtOnce:)`): not the reader's while it reads the photo as it
        // is (`asIsID`), as the second engine here is not free while lent to that reading.
        var laysOutAtOnce = true
        // The reader's command reading the photo as it is (and its blocks after it), when it does.
        var asIsID: Int?
        func read(
            _ page: inout PreparedImage, _ lo: Int, _ span: Int, whenShared: () -> Void = {},
            whileReading: @escaping () -> Void = {}
        ) throws -> RecognitionResult {
            page.scale /= reduction
            let engine = try readyEngine()
            guard progress(lo, .recognizing) else { throw OCRError.cancelled }
            var r: RecognitionResult
            if let secondReader {
                let shared = try SharedReading.read(
                    page, first: engine, second: secondReader, minimumWork: sharedWork,
                    laysOutAtOnce: laysOutAtOnce && asIsID == nil,
                    whenShared: whenShared
                ) { p in
                    whileReading()
                    return progress(lo + p * span / 100, .recognizing)
                }
                r = shared.result
                switch shared.outcome {
                case .shared(let split, let lines): notes.append(.readByTwoEngines(from: split + 1, lines: lines))
                case .differed(let lines): notes.append(.readByTwoEngines(from: nil, lines: lines))
                case .notShared: break
                }
            } else {
                r = try engine.recognize(page, render: render) { p in progress(lo + p * span / 100, .recognizing) }
            }
            Recognizer.mapBoxes(&r.words, of: page, reduction: reduction)
            return r
        }

        // One variant: prepare with `settings`, then recognize with progress within [lo, lo + span].
        func prepared(_ image: Image, _ settings: PreprocessingOptions) throws -> PreparedImage {
            let page = try Preprocessor(options: settings).prepare(image)
            notes.append(.prepared(PreparationVariant(settings), PageMeasurements(page)))
            return page
        }
        func readVariant(
            _ page: inout PreparedImage, _ settings: PreprocessingOptions, _ lo: Int, _ span: Int,
            whenShared: () -> Void = {}, whileReading: @escaping () -> Void = {}
        ) throws -> RecognitionResult {
            let r = try read(&page, lo, span, whenShared: whenShared, whileReading: whileReading)
            noteRead(settings, r)
            return r
        }
        func noteRead(_ settings: PreprocessingOptions, _ r: RecognitionResult) {
            notes.append(
                .read(
                    PreparationVariant(settings), meanConfidence: r.meanConfidence, words: r.words.count,
                    score: Recognizer.score(r)))
        }
        // A variant prepared and read beside (`PlainReading(preparing:)`), waited for with progress
        // within [lo, lo + span], and noted as `prepared` and `readVariant` note one made here.
        func takeBeside(_ reading: PlainReading, _ settings: PreprocessingOptions, _ lo: Int, _ span: Int) throws
            -> (result: RecognitionResult, page: PreparedImage)
        {
            let outcome = try reading.wait { p in progress(lo + p * span / 100, .recognizing) }
            notes.append(.prepared(PreparationVariant(settings), PageMeasurements(outcome.page)))
            noteRead(settings, outcome.result)
            return (outcome.result, outcome.page)
        }
        func attempt(_ image: Image, _ settings: PreprocessingOptions, _ lo: Int, _ span: Int) throws -> (
            RecognitionResult, PreparedImage
        ) {
            guard progress(lo, .preparing) else { throw OCRError.cancelled }
            var page = try prepared(image, settings)
            let r = try readVariant(&page, settings, lo + span / 10, span - span / 10)
            return (r, page)
        }

        var upright = loaded.image
        var preprocessing = options.preprocessing
        var detectOrientation = options.detectOrientation
        var regionBox: BoundingBox?
        var regionScale = 1.0
        if let region = options.region {
            let turned = try upright.rotated(quarterTurnsClockwise: region.quarterTurnsClockwise)
            let (box, clipped) = try region.pixels(inWidth: turned.width, height: turned.height)
            upright = try turned.clipped(x: box.x, y: box.y, width: box.width, height: box.height)
            regionBox = box
            // A strip framed tight around one line (a card's number) is too low for its text
            // height to be measured (the glyphs are more than a third of it): it is enlarged to
            // twice the target text height first (up to 4×), so its print is read near that height.
            let enlargement = min(4, 2 * preprocessing.targetTextHeight / Double(box.height))
            if enlargement > 1.05 {
                regionScale = enlargement
                upright = try upright.scaled(by: regionScale)
            }
            notes.append(.regionRead(region: "\(box.x),\(box.y),\(box.width),\(box.height)", clipped: clipped))
            // The user framed the part to read: no page to find in it, and its orientation is the
            // one it was framed in.
            preprocessing.findPage = false
            detectOrientation = false
        }
        guard progress(5, .preparing) else { throw OCRError.cancelled }
        // A photo larger than a crop (below) is read as it is from the start, by the second engine
        // on the second core while this one prepares it (a phone photo's preparation takes
        // 0.2–0.8 s, the second core otherwise idle), and that reading is stopped when the
        // preparation leaves the page as it is (`readsAsItIsFromTheStart`).
        // The photo as it is (`Preprocessor.plain`) read by the second engine, after `earlier`.
        func readingAsItIs(after earlier: PlainReading?) throws -> PlainReading {
            PlainReading(
                try Preprocessor(options: preprocessing).plain(upright), engine: engineOptions, second: second,
                reduction: reduction, after: earlier)
        }
        // In the worker that reading, and the light-on-dark blocks alone after it, are made by the
        // reader process (`asIsID`, its command).
        var earlyPlainReading: PlainReading?
        // Whether the reader reads the light-on-dark blocks alone after the photo as it is (`asIsID`),
        // and they are not taken yet.
        var readerReadsBlocks = false
        // The photo as it is, for the reader to read: nil when the reader loads the same itself
        // from `path` (`ReaderServer`): a file, with no region cut out of it. Pixels in a memory
        // file already are mapped by the reader, not copied; a pipe can be read only once; a
        // region's pixels are not the file's (read from the file, the whole photo was read, its
        // boxes moved by the region's offset).
        func photoForReader() -> Image? {
            upright.sharedRaster != nil || !Recognizer.isRegularFile(path) || regionBox != nil ? upright : nil
        }
        if secondReader != nil, options.region == nil,
            Recognizer.readsAsItIsFromTheStart(
                width: upright.width, height: upright.height, depth: upright.depth, reduction: reduction)
        {
            if let reader {
                // The reader maps the photo's pixels (`ImageLoader.load(_:sharingRaster:)`); when they
                // are not shared, it decodes a file again rather than take a copy (cheaper for the
                // worker, `ReaderServer`), and a pipe's, which can be read only once, is handed over.
                asIsID = reader.readAsIs(photoForReader(), reduction: reduction, readsBlocks: true)
                readerReadsBlocks = true
            } else {
                earlyPlainReading = try readingAsItIs(after: nil)
            }
        }
        defer { earlyPlainReading?.cancel() }
        // A crop's reading at its own size on the reader (below), while it is not taken yet.
        var nativeID: Int?
        // The reader's reading as it is queued after that one, to be stopped once it is taken: a
        // command stopped stops those before it too (`ReaderProcess.stop`).
        var asIsIDToStop: Int?
        // Stops the reader's reading of the photo as it is, and of its blocks after it; the reader
        // goes on to what it is asked next.
        func stopReadingAsItIsApart() {
            if let asIsID {
                if nativeID != nil { asIsIDToStop = asIsID } else { reader?.stop(asIsID) }
            }
            asIsID = nil
        }
        var page = try prepared(upright, preprocessing)
        // Never worse than doing nothing (below): a page the preparation transformed and read
        // doubtfully is also read as it is. When the photo is being read as it is from the start
        // (above), that reading goes on beside the prepared one, and is stopped when the prepared
        // reading comes out clear; only a long page's reading is shared by the two engines, and
        // the reading as it is stopped for it. Otherwise the second engine is free: it shares the
        // prepared reading of any page of `SharedReading.minimumWorkOfFreeSecond`, and the page is
        // read as it is afterwards, only when doubtful (the prepared reading of a clean scan no
        // longer waits beside a reading as it is it does not need: docs/measurements/speed.md).
        let secondIsFree = secondReader != nil && earlyPlainReading == nil && asIsID == nil
        if secondIsFree { sharedWork = SharedReading.minimumWorkOfFreeSecond }
        let beside = page.isTransformed && twoEngines && !secondIsFree
        // Enlarging small print usually helps, but a small crop that mixes tiny and large type can
        // read worse enlarged (and confidently: a label read "arbo" at 92); a crop read at its own
        // size costs little, and that reading is kept when clearly better (below). The page's
        // pixels ÷ its square, times the JPEG's reduced decoding, are the photo's own.
        var nativeSettings = preprocessing
        nativeSettings.rescaleToTextHeight = false
        let readsNativeSize =
            options.level == .fast && preprocessing.rescaleToTextHeight && page.scale > 1.01
            && Double(page.image.width * page.image.height) * reduction * reduction / (page.scale * page.scale)
                <= Double(Recognizer.cropPixels)
        // With two engines the crop is prepared and read at its own size by the second, on the
        // second core, while the first reads it enlarged (the plain reading, when one is made
        // beside, comes after it on the same engine).
        var nativeReading: PlainReading?
        if readsNativeSize, let reader {
            nativeID = reader.readPrepared(upright, settings: nativeSettings, reduction: reduction)
        } else if readsNativeSize, let second {
            let photo = try upright.copied()
            let settings = nativeSettings
            nativeReading = PlainReading(
                preparing: {
                    let page = try Preprocessor(options: settings).prepare(photo)
                    page.image.setResolution(page.resolution)
                    return page
                }, engine: engineOptions, second: second, reduction: reduction, after: earlyPlainReading)
        }
        defer { nativeReading?.cancel() }
        // The second engine is the crop's at its own size: the enlarged crop is shared only when
        // long, as beside a reading as it is. Shared from `minimumWorkOfFreeSecond` (its layout
        // made at once), a crop of 8 lines took the second engine first, and the reading at its own
        // size loaded a third, three readings on two cores (`clean-scan-s101`, 656×572).
        if nativeReading != nil || nativeID != nil {
            sharedWork = SharedReading.minimumWork
            laysOutAtOnce = false
        }
        // The photo as it is is read beside from the start; a long page shares the second engine
        // instead (the reading beside is stopped as soon as the first engine's layout shows it),
        // and is read as it is afterwards, when doubtful.
        var plainReading =
            beside && asIsID == nil ? try earlyPlainReading ?? readingAsItIs(after: nativeReading) : nil
        if !beside {
            earlyPlainReading?.cancel()
            stopReadingAsItIsApart()
        }
        // A transformed crop read at its own size by the reader is read there as it is too, next,
        // as a photo is from the start: on the second core, idle once the crop is read, it is
        // ready when the prepared reading comes out doubtful (`enrichments.jpg`: read after it,
        // in turn, it took 0.17 s more), and stopped when it comes out clear.
        if let reader, nativeID != nil, page.isTransformed {
            asIsID = reader.readAsIs(photoForReader(), reduction: reduction, readsBlocks: false)
            // This command reads no blocks: a photo read as it is from the start asked for them on
            // the command stopped above, and waiting for them here waited for ever.
            readerReadsBlocks = false
        }
        defer { plainReading?.cancel() }
        // The photo's light-on-dark blocks alone (below) are wanted when the reading is doubtful:
        // with two engines they are found and read beside too, after the photo as it is, and the
        // two are stopped together when the prepared reading comes out clear.
        var blocksBeside: BlocksBeside?
        if plainReading != nil, let second, options.region == nil {
            // Only Leptonica's clone of an 8 bpp photo (`grayscale()`) would touch its pixels'
            // reference count from the other thread: that one is copied.
            let photo = upright.depth == 8 ? try upright.copied() : upright
            let found = BlocksBeside.Found()
            let settings = Recognizer.blocksAloneSettings(preprocessing)
            let reading = PlainReading(
                preparing: {
                    guard let alone = try RegionPolarity.blocksAlone(photo.grayscale()) else {
                        throw BlocksBeside.NoBlocks()
                    }
                    found.count.store(alone.blocks, ordering: .relaxed)
                    let page = try Preprocessor(options: settings).prepare(alone.page)
                    page.image.setResolution(page.resolution)
                    return page
                }, engine: engineOptions, second: second, reduction: reduction, after: plainReading)
            blocksBeside = BlocksBeside(reading: reading, found: found)
        }
        defer { blocksBeside?.reading.cancel() }
        // Stops both readings beside: each gives the second engine back as soon as Tesseract next
        // looks at its cancel flag.
        func stopReadingsBeside() {
            plainReading?.cancel()
            plainReading = nil
            stopReadingAsItIsApart()
            blocksBeside?.reading.cancel()
            blocksBeside = nil
        }
        // Without spelling marks the dictionaries load once two readings are to be weighed (above):
        // after a doubtful first reading, while the reader's readings beside it are often long
        // done. They load as soon as the reader has answered all it was asked beside the first
        // reading, while that reading goes on: on the second core, then idle (a spelling process
        // started after a stone wall's reading of 0.64 s kept the run waiting 0.12 s for its
        // dictionaries). On a page read clear they were loaded for nothing, in a process of
        // their own, killed with the worker.
        var loadsSpellingWhenReaderIdle = !marksSpelling && (asIsID != nil || nativeID != nil)
        func loadSpellingIfReaderIdle() {
            guard loadsSpellingWhenReaderIdle, let reader else { return }
            guard [asIsID, nativeID].allSatisfy({ $0.map(reader.hasEnded) ?? true }) else { return }
            loadsSpellingWhenReaderIdle = false
            startSpelling()
        }
        var best = try readVariant(
            &page, preprocessing, 10, 50,
            whenShared: {
                // Both readings beside are stopped, and give the second engine back to the shared
                // reading, which waits for it (the first engine reads on meanwhile); they are made
                // after this one when doubtful.
                stopReadingsBeside()
                loadsSpellingWhenReaderIdle = false
            }, whileReading: loadSpellingIfReaderIdle)
        // `accurate` always takes the second reading.
        let doubtful = options.level == .accurate || best.meanConfidence < Recognizer.doubtfulBelowConfidence
        // Doubtful readings are weighed against others by their words.
        if doubtful { startSpelling() }
        if !doubtful { stopReadingsBeside() }
        // The crop at its own size (above).
        if readsNativeSize {
            // The reader's page is made here again when its reading is kept.
            var apart: ReaderProcess.Reading?
            if let reader, let nativeID {
                do {
                    apart = try reader.preparedReading(nativeID) { p in progress(60 + p * 5 / 100, .recognizing) }
                } catch is ReaderProcess.Failure {}
            }
            let r: RecognitionResult
            let p: () throws -> PreparedImage
            if let apart, let measured = apart.page {
                notes.append(.prepared(PreparationVariant(nativeSettings), measured))
                noteRead(nativeSettings, apart.result)
                r = apart.result
                let photo = upright
                p = {
                    var page = try Preprocessor(options: nativeSettings).prepare(photo)
                    page.scale /= reduction
                    return page
                }
            } else {
                let (read, page) =
                    try nativeReading.map { try takeBeside($0, nativeSettings, 60, 5) }
                    ?? attempt(upright, nativeSettings, 60, 5)
                (r, p) = (read, { page })
            }
            nativeReading = nil
            nativeID = nil
            if let asIsIDToStop { reader?.stop(asIsIDToStop) }
            // The enlarged reading is the rule; the native one must be clearly better (5 %).
            if Recognizer.score(r) > Recognizer.score(best) * 1.05 {
                (best, page) = (r, try p())
                notes.append(.kept(PreparationVariant(nativeSettings)))
            }
        }
        // Light letters on dark signs, read on their own, the rest of the photo blanked out (used
        // below); nil when the photo has no such blocks or there is no dictionary to weigh them.
        // The page is made when the reading is kept: a reader process's is made again here.
        func readingOfBlocksAlone(_ lo: Int, _ span: Int) throws -> (
            result: RecognitionResult, page: () throws -> PreparedImage, blocks: Int
        )? {
            let settings = Recognizer.blocksAloneSettings(preprocessing)
            // The blocks are looked for before the dictionaries are waited for: a photo without
            // any (a blank page) needs no dictionary here.
            if let started = blocksBeside {
                blocksBeside = nil
                do {
                    let (r, p) = try takeBeside(started.reading, settings, lo, span)
                    guard readySpelling() != nil else { return nil }
                    return (r, { p }, started.found.count.load(ordering: .relaxed))
                } catch is BlocksBeside.NoBlocks {
                    return nil
                }
            }
            // A reader that fails leaves the blocks to be read here.
            if let reader, let asIsID, readerReadsBlocks {
                readerReadsBlocks = false
                let read: ReaderProcess.Reading??
                do {
                    read = try reader.readingOfBlocks(asIsID) { p in progress(lo + p * span / 100, .recognizing) }
                } catch is ReaderProcess.Failure {
                    read = .none
                }
                if let read {
                    guard let read, let measured = read.page else { return nil }
                    notes.append(.prepared(PreparationVariant(settings), measured))
                    noteRead(settings, read.result)
                    guard readySpelling() != nil else { return nil }
                    let photo = upright
                    return (
                        read.result,
                        {
                            guard let alone = try RegionPolarity.blocksAlone(photo.grayscale()) else {
                                throw OCRError.recognitionFailed
                            }
                            var page = try Preprocessor(options: settings).prepare(alone.page)
                            page.scale /= reduction
                            return page
                        }, read.blocks
                    )
                }
            }
            guard let alone = try RegionPolarity.blocksAlone(upright.grayscale()),
                readySpelling() != nil
            else { return nil }
            var blocksPage = try prepared(alone.page, settings)
            let r = try readVariant(&blocksPage, settings, lo, span)
            return (r, { blocksPage }, alone.blocks)
        }
        // OSD's model is about 40 MiB: in the worker it is loaded in a process of its own, for
        // the page (`OrientationProcess`); here when that fails. Nil: the model could not be
        // loaded; .some(nil): OSD found too little text to decide.
        func orientation(of page: PreparedImage) throws -> OrientationDetector.Orientation?? {
            let tessdata = try readyEngine().tessdataPath
            if let readerExecutable {
                do {
                    return .some(
                        try OrientationProcess.detect(
                            page.image, resolution: page.resolution, tessdataPath: tessdata,
                            executable: readerExecutable))
                } catch is OrientationProcess.Failure {}
            }
            guard let detector = OrientationDetector(tessdataPath: tessdata) else { return nil }
            return .some(detector.detect(page.image, resolution: page.resolution))
        }
        var blocksAlone: (result: RecognitionResult, page: () throws -> PreparedImage, blocks: Int)??
        var osdTurns = 0
        // Orientation detection only when the first reading is poor: an upright page read with
        // good confidence needs none, and OSD costs as much as a small page's recognition. Nor
        // does a photo whose light-on-dark blocks, read alone (a fraction of the cost), read
        // upright and not poorly: a sign on a wall, where the whole photo reads as stone.
        var poorlyRead = best.meanConfidence < Recognizer.orientationCheckBelowConfidence
        if detectOrientation && poorlyRead {
            blocksAlone = .some(try readingOfBlocksAlone(65, 3))
            if let blocks = blocksAlone??.result, !blocks.words.isEmpty,
                blocks.meanConfidence >= Recognizer.orientationCheckBelowConfidence
            {
                notes.append(.uprightByBlocksAlone(meanConfidence: blocks.meanConfidence))
                poorlyRead = false
            }
        }
        if detectOrientation && poorlyRead {
            guard progress(68, .orientation) else { throw OCRError.cancelled }
            let found = try orientation(of: page)
            if found == nil { notes.append(.orientationUnavailable(tessdata: try readyEngine().tessdataPath)) }
            if let o = found ?? nil {
                notes.append(
                    .orientationDetected(degrees: o.quarterTurnsClockwise * 90, confidence: Double(o.confidence)))
                if o.quarterTurnsClockwise != 0 && o.confidence >= OrientationDetector.defaultMinimumConfidence {
                    let turned = try upright.rotated(quarterTurnsClockwise: o.quarterTurnsClockwise)
                    let (r, p) = try attempt(turned, preprocessing, 70, 30)
                    if r.meanConfidence >= best.meanConfidence {
                        (best, page, upright, osdTurns) = (r, p, turned, o.quarterTurnsClockwise)
                        // The blocks of the photo turned are other blocks, and what the second
                        // engine reads is the photo as it was, not turned.
                        blocksAlone = nil
                        stopReadingsBeside()
                        notes.append(
                            .turnedByOrientationDetection(degrees: osdTurns * 90, confidence: Double(o.confidence)))
                    }
                }
            }
        }
        if options.level == .accurate {
            let others = Recognizer.accurateVariants(of: preprocessing, firstScale: page.scale * reduction)
            for (i, settings) in others.enumerated() {
                let (r, p) = try attempt(upright, settings, 70 + 30 * i / others.count, 30 / others.count)
                if Recognizer.score(r) > Recognizer.score(best) {
                    (best, page) = (r, p)
                    notes.append(.kept(PreparationVariant(settings)))
                }
            }
        }
        // Never worse than doing nothing: a page the preparation transformed and read doubtfully,
        // or any page read poorly, is also read as it is, and the reading with more evidence of
        // real words is kept. A page read clear needs no second reading.
        let poor = best.words.isEmpty || best.meanConfidence < Recognizer.orientationCheckBelowConfidence
        if (page.isTransformed && doubtful) || poor {
            var r: RecognitionResult
            var plainPage: PreparedImage
            var plainEngine: TesseractEngine?
            // A reader that fails leaves the photo to be read as it is here.
            let fromReader: ReaderProcess.Reading?
            do {
                fromReader = try asIsID.flatMap { id in
                    try reader?.readingAsItIs(id) { p in progress(85 + p * 14 / 100, .recognizing) }
                }
            } catch is ReaderProcess.Failure {
                fromReader = nil
            }
            if let started = plainReading {
                let outcome = try started.wait { p in progress(85 + p * 14 / 100, .recognizing) }
                (r, plainPage, plainEngine) = (outcome.result, outcome.page, outcome.engine)
            } else if let fromReader {
                r = fromReader.result
                plainPage = try Preprocessor(options: preprocessing).plain(upright)
                plainPage.scale /= reduction
            } else {
                plainPage = try Preprocessor(options: preprocessing).plain(upright)
                r = try read(&plainPage, 85, 14)
            }
            // Without a dictionary for the languages there is no evidence to weigh: the prepared
            // reading stays. Two readings without a letter (a blank page) weigh 0 each whatever
            // a dictionary says: they are weighed without waiting for one.
            var other = r.words
            // Noise left out of a reading still tells how much of it was noise.
            let preparedText = best.text + "\n" + best.leftOutText
            let asIsText = r.text + "\n" + r.leftOutText
            let letterless = !preparedText.contains(where: \.isLetter) && !asIsText.contains(where: \.isLetter)
            let weighed =
                letterless
                ? [preparedText, asIsText].map { WordEvidence(text: $0, isKnown: { _ in false }) }
                : readySpelling()?.evidence(of: [preparedText, asIsText])
            if let weighed {
                let (prepared, asIs) = (weighed[0], weighed[1])
                notes.append(.compared(prepared: prepared.score, plain: asIs.score))
                if Recognizer.replaces(r, weighing: asIs.score, best, weighing: prepared.score) {
                    // The second engine's documents are rendered only now that they are wanted.
                    if let plainEngine, let render { r.rendered = try plainEngine.renderLast(render) }
                    other = best.words
                    (best, page) = (r, plainPage)
                    notes.append(.keptPlainReading)
                }
            }
            // The reading not kept still tells where the two disagree (the alternatives menu).
            best.words = OtherReading.attaching(other, to: best.words)
        }
        plainReading = nil
        // Light letters on dark signs, read on their own: a sign on a stone wall reads as stone
        // in the whole photo, and as its words with the wall blanked out. Only when the reading
        // kept is doubtful, and kept only with more evidence of real words.
        if best.meanConfidence < Recognizer.blocksAloneBelowConfidence,
            let alone = try blocksAlone ?? readingOfBlocksAlone(99, 1), let spelling = readySpelling()
        {
            let weighed = spelling.evidence(of: [
                alone.result.text + "\n" + alone.result.leftOutText, best.text + "\n" + best.leftOutText,
            ])
            let (blocks, kept) = (weighed[0], weighed[1])
            notes.append(.comparedBlocks(blocks: blocks.score, kept: kept.score))
            if Recognizer.replaces(alone.result, weighing: blocks.score, best, weighing: kept.score) {
                (best, page) = (alone.result, try alone.page())
                notes.removeAll { $0 == .keptPlainReading }
                notes.append(.keptBlocksAlone(alone.blocks))
            }
        }
        // The page read line by line along the text the detector found, when the reading kept
        // missed part of it or is doubtful (`ReadingPolicy`).
        var keptDetectedLines = false
        if let detection, osdTurns == 0 {
            let (lines, said) = try Recognizer.readingDetectedLines(
                detection, kept: best, photo: upright, reduction: reduction, always: options.reading == .lines,
                engine: readyEngine, spelling: readySpelling
            ) { p in progress(90 + p * 9 / 100, .recognizing) }
            notes += said
            if let lines {
                best = lines
                keptDetectedLines = true
                notes.removeAll { $0 == .keptPlainReading }
            }
        }
        // What the preparation did, when its page made the reading kept.
        if !keptDetectedLines { notes += Recognizer.preparationNotes(of: page) }
        if best.rotationDegrees != 0 { notes.append(.rotated(degrees: best.rotationDegrees)) }
        best.rotationDegrees =
            (Recognizer.rotation(ofEXIF: loaded.exifOrientation) + osdTurns * 90 + best.rotationDegrees) % 360
        if let regionBox {
            best.region = regionBox
            for i in best.words.indices {
                var b = best.words[i].boundingBox
                if regionScale != 1 {
                    let f = 1 / regionScale
                    b = BoundingBox(
                        x: Int((Double(b.x) * f).rounded()), y: Int((Double(b.y) * f).rounded()),
                        width: Int((Double(b.width) * f).rounded()), height: Int((Double(b.height) * f).rounded()))
                }
                best.words[i].boundingBox = BoundingBox(
                    x: b.x + regionBox.x, y: b.y + regionBox.y, width: b.width, height: b.height)
            }
        }
        best.notes = [.languagesLoaded(try readyEngine().loadedLanguages)] + notes + best.notes
        // Proofreading's spelling signal; without a dictionary the words stay unchecked.
        if !best.words.isEmpty, marksSpelling, let spelling = readySpelling() {
            best = spelling.checking(best)
        }
        if let rendered = best.rendered {
            // The documents' coordinates: from the prepared page back through its preparation,
            // the orientation turn and the JPEG's reduced decoding, to the photo's own pixels.
            let turned = (loaded.exifOrientation ?? 1) >= 5
            let photo = (
                width: turned ? loaded.storedSize.height : loaded.storedSize.width,
                height: turned ? loaded.storedSize.width : loaded.storedSize.height
            )
            var toLoaded: [PageGeometry.Step] = []
            if osdTurns != 0 {
                toLoaded.append(
                    .quarterTurns(
                        osdTurns, width: Double(loaded.image.width), height: Double(loaded.image.height)))
            }
            let reduced: [PageGeometry.Step] =
                loaded.image.width == photo.width ? [] : [.scale(Double(loaded.image.width) / Double(photo.width))]
            best.documents = try PageDocuments.normalized(
                rendered, words: best.renderedWordBoxes, toPhoto: page.geometry.after(reduced + toLoaded),
                toPDFImage: page.geometry.after(toLoaded), pdfImageSize: (loaded.image.width, loaded.image.height),
                photoName: photoName, width: photo.width, height: photo.height
            ).correcting(best.renderedWordCorrections)
        }
        // What the documents were made from stays in this process.
        best.rendered = nil
        best.renderedWordBoxes = []
        best.renderedWordCorrections = []
        _ = progress(100, .done)
        // The engines and dictionaries are freed when this returns: after the hand-off.
        try withExtendedLifetime((startedEngine, loadedSpelling, second)) { try handOff(best) }
        return best
    }

    /// The detected-lines stage: the regions `detection` found, the coverage of `kept` over them,
    /// and — when `ReadingPolicy` asks for it, or `always` — the photo read along them
    /// (`DetectedLinesReading`) and weighed against `kept`.
    /// - Parameters:
    ///   - photo: the upright photo the detector was given, decoded `reduction` times smaller than
    ///     the photo (its pixels are the regions'; the boxes of `kept` are the photo's).
    ///   - spelling: the dictionaries that weigh the two readings (nil: the lines are kept only
    ///     when `always`).
    /// - Returns: the reading to keep instead of `kept` (nil: keep it; its words carry `kept`'s
    ///   as their other reading), and the notes of the stage.
    /// - Throws: `OCRError.cancelled` when `progress` returns false, the engine's errors. A
    ///   detector that failed is a note, not an error.
    static func readingDetectedLines(
        _ detection: Pending<[DetectedRegion]>, kept: RecognitionResult, photo: Image, reduction: Double,
        always: Bool, engine: () throws -> TesseractEngine, spelling: () -> Spelling?,
        progress: (Int) -> Bool
    ) throws -> (RecognitionResult?, [RecognitionNote]) {
        let regions: [DetectedRegion]
        do {
            regions = try detection.take()
        } catch OCRError.detectionFailed(let reason) {
            return (nil, [.textDetectorUnavailable(reason: reason.trimmingCharacters(in: .whitespacesAndNewlines))])
        } catch {
            return (nil, [.textDetectorUnavailable(reason: "\(error)")])
        }
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
        var lines = try DetectedLinesReading.read(
            regions, of: photo, reduction: reduction, engine: try engine(), progress: progress)
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
        notes.append(.keptDetectedLines(regions: regions.count))
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

    /// The text detector started on `photo` on a thread of its own when `wanted` and its model
    /// is found (`TextDetector.defaultModelPath`); nil otherwise. It runs in a process of
    /// `executable` when given (`DetectorProcess`). Its regions are in `photo`'s pixels.
    static func startingDetection(of photo: Image, executable: String?, wanted: Bool) throws
        -> Pending<[DetectedRegion]>?
    {
        guard wanted else { return nil }
        guard let model = TextDetector.defaultModelPath() else {
            let reason =
                "no model: \(TextDetector.modelEnvironmentVariable) names none, and no \(TextDetector.modelFileName) "
                + "in ../share/lovesnap beside the executable or in the source tree's Models/"
            return Pending { throw OCRError.detectionFailed(reason: reason) }
        }
        let handed = HandedImage(image: photo)
        return Pending {
            try DetectorProcess.detect(handed.image, with: TextDetector(modelPath: model), executable: executable)
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
