import Foundation
import SnapExport
import SnapImaging
import SnapSpelling

/// The reading kept so far in a run, and the page it was read on.
struct KeptReading {
    /// The reading.
    var result: RecognitionResult
    /// The page it was read on (its preparation's notes and geometry).
    var page: PreparedImage
}

/// One OCR run of `Recognizer.recognize`, in named phases:
/// load (`init`: the file, the engines, the detector and the second reader started) → region
/// (`cutRegion`) → prepare (`prepareAndStartReadingsBeside`) → read (`readPrepared`,
/// `weighNativeSize`) → orientation (`checkOrientation`, `readAccurateVariants`) → choose
/// (`weighReadingAsItIs`, `weighBlocksAlone`, `weighDetectedLines`) → finish (`finish`).
///
/// The run's state lives here, changed only by its phases; the decisions that need no engine are
/// static functions of `Recognizer` and `ReadingPolicy`. A run is used once, on one thread; the
/// readings beside it run on threads or processes of their own and are stopped by
/// `cancelReadingsBeside()`.
final class RecognitionRun {
    let options: RecognitionOptions
    let readerExecutable: String?
    let path: String
    let photoName: String
    let progress: (Int, RecognitionStage) -> Bool

    // The engine, loaded beside the photo's decoding.
    let pendingEngine: Pending<TesseractEngine>
    var startedEngine: TesseractEngine?
    // Hunspell's dictionaries.
    let marksSpelling: Bool
    var pendingSpelling: Pending<Spelling>?
    var loadedSpelling: Spelling??

    // What loading found and started.
    let exports: [ExportFormat]
    let twoEngines: Bool
    let loaded: LoadedImage
    /// The JPEG's reduced decoding (1 when decoded at full size).
    let reduction: Double
    var detection: Pending<Recognizer.Detection>?
    let reader: ReaderProcess?
    let second: SecondEngine?
    let secondReader: SecondReader?
    let render: RenderRequest?
    /// What was done, in order (`RecognitionResult.notes`).
    var notes: [RecognitionNote] = []

    // How the two engines share the work.
    /// The least reading work shared by the two engines (`SharedReading.cut(of:minimumWork:)`).
    var sharedWork = SharedReading.minimumWork
    /// Whether a free second engine makes its layout analysis beside the first's
    /// (`SharedReading.read(laysOutAtOnce:)`): not the reader's while it reads the photo as it
    /// is (`asIsID`), as the second engine here is not free while lent to that reading.
    var laysOutAtOnce = true
    /// The reader's command reading the photo as it is (and its blocks after it), when it does.
    var asIsID: Int?
    /// A crop's reading at its own size on the reader, while it is not taken yet.
    var nativeID: Int?
    /// The reader's reading as it is queued after the crop's, to be stopped once that is taken: a
    /// command stopped stops those before it too (`ReaderProcess.stop`).
    var asIsIDToStop: Int?
    /// Whether the reader reads the light-on-dark blocks alone after the photo as it is
    /// (`asIsID`), and they are not taken yet.
    var readerReadsBlocks = false
    /// Whether the dictionaries load once the reader has answered all it was asked beside.
    var loadsSpellingWhenReaderIdle = false

    // The photo and how it is prepared.
    var upright: Image
    var preprocessing: PreprocessingOptions
    var detectOrientation: Bool
    var regionBox: BoundingBox?
    var regionScale = 1.0
    /// Whether the region is a strip lower than twice the target text height (one line, read as
    /// a block: `readyEngine`).
    var regionIsStrip = false
    /// Quarter turns clockwise that orientation detection turned the photo by.
    var osdTurns = 0

    // The readings made beside the first, on the second engine of this process.
    var earlyPlainReading: PlainReading?
    var nativeReading: PlainReading?
    var plainReading: PlainReading?
    var blocksBeside: BlocksBeside?
    /// The light-on-dark blocks read alone: nil when not read yet; .some(nil) when the photo has
    /// none or there is no dictionary to weigh them.
    var blocksAlone: BlocksAloneReading??

    /// A reading of the light-on-dark blocks alone; the page is made when the reading is kept.
    typealias BlocksAloneReading = (result: RecognitionResult, page: () throws -> PreparedImage, blocks: Int)

    /// The load phase: starts the engine's and the dictionaries' loading, decodes the photo
    /// (`ImageLoader`), and starts the text detector and the second reader beside it.
    /// - Throws: `ImagingError` for the file, `OCRError.cancelled`.
    init(
        recognizer: Recognizer, path: String, photoName: String, progress: @escaping (Int, RecognitionStage) -> Bool
    ) throws {
        let options = recognizer.options
        self.options = options
        self.readerExecutable = recognizer.readerExecutable
        self.path = path
        self.photoName = photoName
        self.progress = progress
        // Loading the language models takes about as long as loading and preparing a photo;
        // on the second core they overlap.
        let engineOptions = options.engine
        let pendingEngine = Pending { try TesseractEngine(options: engineOptions) }
        self.pendingEngine = pendingEngine
        // Hunspell's dictionaries (about 0.16 s and 21 MiB for en_US and fr) weigh the readings
        // against each other and mark the words no dictionary knows; they load beside too, once
        // the engine has (wanted sooner: two loads at once beside the preparation slow all three).
        // Without spelling marks (`marksSpelling` false) they load only once two readings are to
        // be weighed, while the second reading is made. In the worker they load in a process of
        // their own (`SpellingProcess`): not at the worker's peak on a doubtful page.
        marksSpelling = options.marksSpelling ?? true
        exports = (options.exports ?? []).filter { $0 != .txt }
        twoEngines = (options.threads ?? 2) >= 2
        // A region is cut from the photo at full size: a small part of a large JPEG decoded at
        // 1/4 would lose what the region is read for.
        let jpegReductionTarget = options.region == nil ? options.preprocessing.maxDimension : nil
        var loader = ImageLoader(memoryLimit: options.memoryLimit, jpegReductionTarget: jpegReductionTarget)
        loader.resolution = options.resolution
        // In the worker the photo's pixels are kept in a memory file the reader maps.
        let sharesPhoto = readerExecutable != nil && twoEngines && exports.isEmpty && options.region == nil
        loaded = try loader.load(path, sharingRaster: sharesPhoto)
        reduction = Double(loaded.decodeReduction)
        // The text detector runs on a thread of its own while the page is prepared and read.
        // A region's text is detected in the region, once it is cut (`cutRegion`).
        detection = try Recognizer.startingDetection(
            of: loaded.image, executable: readerExecutable,
            wanted: options.region == nil && Self.detectsText(options, exports), sizedByPrint: options.reading != .lines
        )
        // In the worker the second engine is the reader process's (`ReaderProcess`). It starts once
        // the photo is loaded and this engine's models are (loading beside them, its models and
        // its start slowed the decoding and this engine's loading: 20–30 ms on colour photos;
        // `speed-ab` over 20 pages ×1.060 → ×1.047). When it cannot be started, or this is not
        // the worker, the second engine is one in this process.
        let request = ReaderRequest(
            engine: engineOptions, preprocessing: options.preprocessing, memoryLimit: options.memoryLimit,
            jpegReductionTarget: jpegReductionTarget, resolution: options.resolution)
        reader =
            twoEngines && exports.isEmpty
            ? readerExecutable.flatMap { executable in
                try? ReaderProcess(
                    executable: executable, request: request, path: path,
                    startingAfter: { _ = pendingEngine.isDone(waitingAtMost: 60) })
            } : nil
        second = twoEngines && exports.isEmpty && reader == nil ? SecondEngine(options: engineOptions) : nil
        secondReader = reader.map(SecondReader.apart) ?? second.map(SecondReader.inProcess)
        render =
            exports.isEmpty
            ? nil
            : RenderRequest(
                formats: exports, pdfImage: exports.contains(.pdf) ? loaded.image : nil, title: photoName,
                ifPossible: options.exportsIfPossible ?? false)
        upright = loaded.image
        preprocessing = options.preprocessing
        detectOrientation = options.detectOrientation
        if marksSpelling { pendingSpelling = loadingSpelling(afterEngine: true) }
        if loaded.frameCount > 1 { notes.append(.frameRead(index: 1, of: loaded.frameCount, format: loaded.format)) }
        if let orientation = loaded.exifOrientation, orientation != 1 {
            notes.append(.exifOrientationApplied(orientation))
        }
        if loaded.flattenedTransparency { notes.append(.transparencyFlattened) }
        if loaded.decodeReduction > 1 { notes.append(.jpegReduced(factor: loaded.decodeReduction)) }
    }

    /// Whether the text detector finds the lines to read (`--reading` not `page`, no export
    /// that needs Tesseract's page layout unless `exportsIfPossible`).
    static func detectsText(_ options: RecognitionOptions, _ exports: [ExportFormat]) -> Bool {
        options.reading != .page && (exports.isEmpty || options.exportsIfPossible == true)
    }

    /// The phases in order; the reading kept, finished (`finish`).
    /// - Throws: `ImagingError`, `OCRError` (`.cancelled` when `progress` returns false).
    func run() throws -> RecognitionResult {
        try cutRegion()
        guard progress(5, .preparing) else { throw OCRError.cancelled }
        var page = try prepareAndStartReadingsBeside()
        let (first, doubtful) = try readPrepared(&page)
        var kept = KeptReading(result: first, page: page)
        try weighNativeSize(&kept)
        try checkOrientation(&kept)
        try readAccurateVariants(&kept)
        try weighReadingAsItIs(&kept, doubtful: doubtful)
        try weighBlocksAlone(&kept)
        let keptLines = try weighDetectedLines(&kept)
        return try finish(kept, keptDetectedLines: keptLines)
    }

    /// Stops every reading still made beside (threads of this process, the reader's commands).
    func cancelReadingsBeside() {
        blocksBeside?.reading.cancel()
        plainReading?.cancel()
        nativeReading?.cancel()
        earlyPlainReading?.cancel()
        reader?.cancel()
    }

    // MARK: Engines and dictionaries

    /// The engine, waited for once.
    func readyEngine() throws -> TesseractEngine {
        if let startedEngine { return startedEngine }
        let started = try pendingEngine.take()
        if regionIsStrip && started.options.pageSegmentationMode == TesseractEngine.automaticLayout {
            // A strip framed round a line is a block of text, not a page to lay out: read as
            // `tesseract --psm 6` reads it ("TOTAL EUR 17,20" where automatic layout kept "17,20").
            started.setPageSegmentationMode(TesseractEngine.singleBlock)
        }
        startedEngine = started
        return started
    }

    /// The dictionaries loading on a thread of their own, after the engine when `afterEngine`.
    private func loadingSpelling(afterEngine: Bool) -> Pending<Spelling> {
        // (`isDone` answers at once once the engine is loaded, taken or not: `Pending`.)
        let (pendingEngine, languages, executable) = (pendingEngine, options.engine.languages, readerExecutable)
        return Pending {
            if afterEngine { _ = pendingEngine.isDone(waitingAtMost: 60) }
            return try Spelling(languages: languages, executable: executable)
        }
    }

    /// Starts loading the dictionaries unless they are loading or loaded.
    func startSpelling() {
        if pendingSpelling == nil && loadedSpelling == nil { pendingSpelling = loadingSpelling(afterEngine: false) }
    }

    /// The dictionaries, waited for; nil when the languages have none.
    func readySpelling() -> Spelling? {
        if let loadedSpelling { return loadedSpelling }
        startSpelling()
        let loaded = try? pendingSpelling?.take()
        pendingSpelling = nil
        loadedSpelling = .some(loaded)
        return loaded
    }

    // MARK: Reading one page

    /// Reads `page`, its boxes in pixels of the full-size upright photo; progress within
    /// [lo, lo + span]. `whenShared` runs when the page turns out to have a cut for a shared
    /// reading, before the second engine is borrowed.
    func read(
        _ page: inout PreparedImage, _ lo: Int, _ span: Int, whenShared: () -> Void = {},
        whileReading: @escaping () -> Void = {}
    ) throws -> RecognitionResult {
        page.scale /= reduction
        let engine = try readyEngine()
        guard progress(lo, .recognizing) else { throw OCRError.cancelled }
        var r: RecognitionResult
        let progress = progress
        if let secondReader {
            let shared = try SharedReading.read(
                page, first: engine, second: secondReader, minimumWork: sharedWork,
                laysOutAtOnce: laysOutAtOnce && asIsID == nil, whenShared: whenShared
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

    /// `image` prepared with `settings`, noted.
    func prepared(_ image: Image, _ settings: PreprocessingOptions) throws -> PreparedImage {
        let page = try Preprocessor(options: settings).prepare(image)
        notes.append(.prepared(PreparationVariant(settings), PageMeasurements(page)))
        return page
    }

    /// One variant read with progress within [lo, lo + span], noted.
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

    /// A variant prepared and read beside (`PlainReading(preparing:)`), waited for with progress
    /// within [lo, lo + span], and noted as `prepared` and `readVariant` note one made here.
    func takeBeside(_ reading: PlainReading, _ settings: PreprocessingOptions, _ lo: Int, _ span: Int) throws
        -> KeptReading
    {
        let progress = progress
        let outcome = try reading.wait { p in progress(lo + p * span / 100, .recognizing) }
        notes.append(.prepared(PreparationVariant(settings), PageMeasurements(outcome.page)))
        noteRead(settings, outcome.result)
        return KeptReading(result: outcome.result, page: outcome.page)
    }

    /// `image` prepared with `settings` and read, progress within [lo, lo + span].
    func attempt(_ image: Image, _ settings: PreprocessingOptions, _ lo: Int, _ span: Int) throws -> KeptReading {
        guard progress(lo, .preparing) else { throw OCRError.cancelled }
        var page = try prepared(image, settings)
        let r = try readVariant(&page, settings, lo + span / 10, span - span / 10)
        return KeptReading(result: r, page: page)
    }

    // MARK: Region

    /// The region phase (`--region`): the part of the photo to read cut out, a strip enlarged.
    func cutRegion() throws {
        guard let region = options.region else { return }
        let turned = try upright.rotated(quarterTurnsClockwise: region.quarterTurnsClockwise)
        let (box, clipped) = try region.pixels(inWidth: turned.width, height: turned.height)
        upright = try turned.clipped(x: box.x, y: box.y, width: box.width, height: box.height)
        regionBox = box
        // A strip framed tight around one line (a card's number) is too low for its text
        // height to be measured (the glyphs are more than a third of it): it is enlarged to
        // twice the target text height first (up to 4×), so its print is read near that height.
        let enlargement = min(4, 2 * preprocessing.targetTextHeight / Double(box.height))
        if enlargement > 1.05 {
            regionIsStrip = true
            regionScale = enlargement
            upright = try upright.scaled(by: regionScale)
        }
        notes.append(.regionRead(region: "\(box.x),\(box.y),\(box.width),\(box.height)", clipped: clipped))
        // Its lines are found as the whole photo's are: a faded line beside a dark one, lost to
        // the region's binarization, is read along the line the detector found.
        detection = try Recognizer.startingDetection(
            of: upright, executable: readerExecutable, wanted: Self.detectsText(options, exports),
            sizedByPrint: options.reading != .lines)
        // The user framed the part to read: no page to find in it, and its orientation is the
        // one it was framed in.
        preprocessing.findPage = false
        detectOrientation = false
    }

    // MARK: Prepare, with readings beside

    /// The photo as it is (`Preprocessor.plain`) read by the second engine, after `earlier`.
    private func readingAsItIs(after earlier: PlainReading?) throws -> PlainReading {
        PlainReading(
            try Preprocessor(options: preprocessing).plain(upright), engine: options.engine, second: second,
            reduction: reduction, after: earlier)
    }

    /// The photo as it is, for the reader to read: nil when the reader loads the same itself
    /// from `path` (`ReaderServer`): a file, with no region cut out of it. Pixels in a memory
    /// file already are mapped by the reader, not copied; a pipe can be read only once; a
    /// region's pixels are not the file's (read from the file, the whole photo was read, its
    /// boxes moved by the region's offset).
    private func photoForReader() -> Image? {
        upright.sharedRaster != nil || !Recognizer.isRegularFile(path) || regionBox != nil ? upright : nil
    }

    /// Stops the reader's reading of the photo as it is, and of its blocks after it; the reader
    /// goes on to what it is asked next.
    private func stopReadingAsItIsApart() {
        if let asIsID {
            if nativeID != nil { asIsIDToStop = asIsID } else { reader?.stop(asIsID) }
        }
        asIsID = nil
    }

    /// Stops the readings beside the first: each gives the second engine back as soon as
    /// Tesseract next looks at its cancel flag.
    func stopReadingsBeside() {
        plainReading?.cancel()
        plainReading = nil
        stopReadingAsItIsApart()
        blocksBeside?.reading.cancel()
        blocksBeside = nil
    }

    /// The preparation of a crop read at its own size: not enlarged to the target text height.
    var nativeSettings: PreprocessingOptions {
        var settings = preprocessing
        settings.rescaleToTextHeight = false
        return settings
    }

    /// Whether the page is a crop also read at its own size (`prepareAndStartReadingsBeside`).
    private(set) var readsNativeSize = false

    /// The prepare phase: the page prepared, and the readings the second engine makes beside the
    /// first started (the photo as it is, a crop at its own size, the light-on-dark blocks).
    func prepareAndStartReadingsBeside() throws -> PreparedImage {
        // A photo larger than a crop (below) is read as it is from the start, by the second engine
        // on the second core while this one prepares it (a phone photo's preparation takes
        // 0.2–0.8 s, the second core otherwise idle), and that reading is stopped when the
        // preparation leaves the page as it is (`readsAsItIsFromTheStart`). In the worker that
        // reading, and the light-on-dark blocks alone after it, are made by the reader process
        // (`asIsID`, its command).
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
        let page = try prepared(upright, preprocessing)
        // Never worse than doing nothing (`weighReadingAsItIs`): a page the preparation
        // transformed and read doubtfully is also read as it is. When the photo is being read as
        // it is from the start (above), that reading goes on beside the prepared one, and is
        // stopped when the prepared reading comes out clear; only a long page's reading is shared
        // by the two engines, and the reading as it is stopped for it. Otherwise the second engine
        // is free: it shares the prepared reading of any page of
        // `SharedReading.minimumWorkOfFreeSecond`, and the page is read as it is afterwards, only
        // when doubtful (docs/measurements/speed.md).
        let secondIsFree = secondReader != nil && earlyPlainReading == nil && asIsID == nil
        if secondIsFree { sharedWork = SharedReading.minimumWorkOfFreeSecond }
        let beside = page.isTransformed && twoEngines && !secondIsFree
        try startReadingAtOwnSize(of: page)
        // The photo as it is is read beside from the start; a long page shares the second engine
        // instead (the reading beside is stopped as soon as the first engine's layout shows it),
        // and is read as it is afterwards, when doubtful.
        plainReading = beside && asIsID == nil ? try earlyPlainReading ?? readingAsItIs(after: nativeReading) : nil
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
        try startReadingBlocksBeside()
        // Without spelling marks the dictionaries load once two readings are to be weighed:
        // after a doubtful first reading, while the reader's readings beside it are often long
        // done. They load as soon as the reader has answered all it was asked beside the first
        // reading, while that reading goes on: on the second core, then idle (a spelling process
        // started after a stone wall's reading of 0.64 s kept the run waiting 0.12 s for its
        // dictionaries). On a page read clear they were loaded for nothing, in a process of
        // their own, killed with the worker.
        loadsSpellingWhenReaderIdle = !marksSpelling && (asIsID != nil || nativeID != nil)
        return page
    }

    /// Starts the reading of a crop at its own size on the second engine, when the page is one.
    ///
    /// Enlarging small print usually helps, but a small crop that mixes tiny and large type can
    /// read worse enlarged (and confidently: a label read "arbo" at 92); a crop read at its own
    /// size costs little, and that reading is kept when clearly better (`weighNativeSize`). The
    /// page's pixels ÷ its square, times the JPEG's reduced decoding, are the photo's own.
    private func startReadingAtOwnSize(of page: PreparedImage) throws {
        readsNativeSize =
            options.level == .fast && preprocessing.rescaleToTextHeight && page.scale > 1.01
            && Double(page.image.width * page.image.height) * reduction * reduction / (page.scale * page.scale)
                <= Double(Recognizer.cropPixels)
        // With two engines the crop is prepared and read at its own size by the second, on the
        // second core, while the first reads it enlarged (the plain reading, when one is made
        // beside, comes after it on the same engine).
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
                }, engine: options.engine, second: second, reduction: reduction, after: earlyPlainReading)
        }
        // The second engine is the crop's at its own size: the enlarged crop is shared only when
        // long, as beside a reading as it is. Shared from `minimumWorkOfFreeSecond` (its layout
        // made at once), a crop of 8 lines took the second engine first, and the reading at its own
        // size loaded a third, three readings on two cores (`clean-scan-s101`, 656×572).
        if nativeReading != nil || nativeID != nil {
            sharedWork = SharedReading.minimumWork
            laysOutAtOnce = false
        }
    }

    /// The photo's light-on-dark blocks alone (`weighBlocksAlone`) are wanted when the reading is
    /// doubtful: with two engines they are found and read beside too, after the photo as it is,
    /// and the two are stopped together when the prepared reading comes out clear.
    private func startReadingBlocksBeside() throws {
        guard plainReading != nil, let second, options.region == nil else { return }
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
            }, engine: options.engine, second: second, reduction: reduction, after: plainReading)
        blocksBeside = BlocksBeside(reading: reading, found: found)
    }

    private func loadSpellingIfReaderIdle() {
        guard loadsSpellingWhenReaderIdle, let reader else { return }
        guard [asIsID, nativeID].allSatisfy({ $0.map(reader.hasEnded) ?? true }) else { return }
        loadsSpellingWhenReaderIdle = false
        startSpelling()
    }

    // MARK: Read

    /// The read phase: the prepared page read; whether that reading is doubtful (then the
    /// dictionaries start loading to weigh it; otherwise the readings beside are stopped).
    func readPrepared(_ page: inout PreparedImage) throws -> (RecognitionResult, doubtful: Bool) {
        let first = try readVariant(
            &page, preprocessing, 10, 50,
            whenShared: {
                // Both readings beside are stopped, and give the second engine back to the shared
                // reading, which waits for it (the first engine reads on meanwhile); they are made
                // after this one when doubtful.
                self.stopReadingsBeside()
                self.loadsSpellingWhenReaderIdle = false
            }, whileReading: { [unowned self] in loadSpellingIfReaderIdle() })
        // `accurate` always takes the second reading.
        let doubtful = options.level == .accurate || first.meanConfidence < Recognizer.doubtfulBelowConfidence
        // Doubtful readings are weighed against others by their words.
        if doubtful { startSpelling() } else { stopReadingsBeside() }
        return (first, doubtful)
    }

    /// The crop at its own size (`startReadingAtOwnSize`), kept when clearly better (5 %).
    func weighNativeSize(_ kept: inout KeptReading) throws {
        guard readsNativeSize else { return }
        let settings = nativeSettings
        // The reader's page is made here again when its reading is kept.
        var apart: ReaderProcess.Reading?
        if let reader, let nativeID {
            let progress = progress
            do {
                apart = try reader.preparedReading(nativeID) { p in progress(60 + p * 5 / 100, .recognizing) }
            } catch is ReaderProcess.Failure {}
        }
        let r: RecognitionResult
        let p: () throws -> PreparedImage
        if let apart, let measured = apart.page {
            notes.append(.prepared(PreparationVariant(settings), measured))
            noteRead(settings, apart.result)
            r = apart.result
            let (photo, reduction) = (upright, reduction)
            p = {
                var page = try Preprocessor(options: settings).prepare(photo)
                page.scale /= reduction
                return page
            }
        } else {
            let read =
                try nativeReading.map { try takeBeside($0, settings, 60, 5) } ?? attempt(upright, settings, 60, 5)
            (r, p) = (read.result, { read.page })
        }
        nativeReading = nil
        nativeID = nil
        if let asIsIDToStop { reader?.stop(asIsIDToStop) }
        // The enlarged reading is the rule; the native one must be clearly better (5 %).
        if Recognizer.score(r) > Recognizer.score(kept.result) * 1.05 {
            kept = KeptReading(result: r, page: try p())
            notes.append(.kept(PreparationVariant(settings)))
        }
    }

    // MARK: Orientation

    /// Light letters on dark signs, read on their own, the rest of the photo blanked out; nil
    /// when the photo has no such blocks or there is no dictionary to weigh them. The page is
    /// made when the reading is kept: a reader process's is made again here.
    private func readingOfBlocksAlone(_ lo: Int, _ span: Int) throws -> BlocksAloneReading? {
        let settings = Recognizer.blocksAloneSettings(preprocessing)
        // The blocks are looked for before the dictionaries are waited for: a photo without
        // any (a blank page) needs no dictionary here.
        if let started = blocksBeside {
            blocksBeside = nil
            do {
                let read = try takeBeside(started.reading, settings, lo, span)
                guard readySpelling() != nil else { return nil }
                return (read.result, { read.page }, started.found.count.load(ordering: .relaxed))
            } catch is BlocksBeside.NoBlocks {
                return nil
            }
        }
        // A reader that fails leaves the blocks to be read here.
        if let reader, let asIsID, readerReadsBlocks {
            readerReadsBlocks = false
            let progress = progress
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
                let (photo, reduction) = (upright, reduction)
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
        guard let alone = try RegionPolarity.blocksAlone(upright.grayscale()), readySpelling() != nil else {
            return nil
        }
        var blocksPage = try prepared(alone.page, settings)
        let r = try readVariant(&blocksPage, settings, lo, span)
        return (r, { blocksPage }, alone.blocks)
    }

    /// OSD's model is about 40 MiB: in the worker it is loaded in a process of its own, for the
    /// page (`OrientationProcess`); here when that fails. Nil: the model could not be loaded;
    /// .some(nil): OSD found too little text to decide.
    private func orientation(of page: PreparedImage) throws -> OrientationDetector.Orientation?? {
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

    /// The orientation phase. Orientation detection only when the first reading is poor: an
    /// upright page read with good confidence needs none, and OSD costs as much as a small page's
    /// recognition. Nor does a photo whose light-on-dark blocks, read alone (a fraction of the
    /// cost), read upright and not poorly: a sign on a wall, where the whole photo reads as stone.
    func checkOrientation(_ kept: inout KeptReading) throws {
        var poorlyRead = kept.result.meanConfidence < Recognizer.orientationCheckBelowConfidence
        if detectOrientation && poorlyRead {
            blocksAlone = .some(try readingOfBlocksAlone(65, 3))
            if let blocks = blocksAlone??.result, !blocks.words.isEmpty,
                blocks.meanConfidence >= Recognizer.orientationCheckBelowConfidence
            {
                notes.append(.uprightByBlocksAlone(meanConfidence: blocks.meanConfidence))
                poorlyRead = false
            }
        }
        guard detectOrientation && poorlyRead else { return }
        guard progress(68, .orientation) else { throw OCRError.cancelled }
        let found = try orientation(of: kept.page)
        if found == nil { notes.append(.orientationUnavailable(tessdata: try readyEngine().tessdataPath)) }
        guard let o = found ?? nil else { return }
        notes.append(.orientationDetected(degrees: o.quarterTurnsClockwise * 90, confidence: Double(o.confidence)))
        guard o.quarterTurnsClockwise != 0 && o.confidence >= OrientationDetector.defaultMinimumConfidence else {
            return
        }
        let turned = try upright.rotated(quarterTurnsClockwise: o.quarterTurnsClockwise)
        let read = try attempt(turned, preprocessing, 70, 30)
        guard read.result.meanConfidence >= kept.result.meanConfidence else { return }
        (kept, upright, osdTurns) = (read, turned, o.quarterTurnsClockwise)
        // The blocks of the photo turned are other blocks, and what the second engine reads is
        // the photo as it was, not turned.
        blocksAlone = nil
        stopReadingsBeside()
        notes.append(.turnedByOrientationDetection(degrees: osdTurns * 90, confidence: Double(o.confidence)))
    }

    /// `--level accurate`: the other variants (`Recognizer.accurateVariants`), the one with the
    /// most confidently read characters kept (`Recognizer.score`).
    func readAccurateVariants(_ kept: inout KeptReading) throws {
        guard options.level == .accurate else { return }
        let others = Recognizer.accurateVariants(of: preprocessing, firstScale: kept.page.scale * reduction)
        for (i, settings) in others.enumerated() {
            let read = try attempt(upright, settings, 70 + 30 * i / others.count, 30 / others.count)
            if Recognizer.score(read.result) > Recognizer.score(kept.result) {
                kept = read
                notes.append(.kept(PreparationVariant(settings)))
            }
        }
    }

    // MARK: Choose

    /// The photo as it is, read (by the reader, beside, or here) for `weighReadingAsItIs`, and
    /// the engine that read it when it was one of this process's.
    private func readingAsItIsTaken() throws -> (KeptReading, TesseractEngine?) {
        let progress = progress
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
            return (KeptReading(result: outcome.result, page: outcome.page), outcome.engine)
        }
        var plainPage = try Preprocessor(options: preprocessing).plain(upright)
        if let fromReader {
            plainPage.scale /= reduction
            return (KeptReading(result: fromReader.result, page: plainPage), nil)
        }
        let r = try read(&plainPage, 85, 14)
        return (KeptReading(result: r, page: plainPage), nil)
    }

    /// Never worse than doing nothing: a page the preparation transformed and read doubtfully,
    /// or any page read poorly, is also read as it is, and the reading with more evidence of real
    /// words is kept (`Recognizer.replaces`). A page read clear needs no second reading.
    func weighReadingAsItIs(_ kept: inout KeptReading, doubtful: Bool) throws {
        defer { plainReading = nil }
        let poor = kept.result.words.isEmpty || kept.result.meanConfidence < Recognizer.orientationCheckBelowConfidence
        guard (kept.page.isTransformed && doubtful) || poor else { return }
        var (asIs, plainEngine) = try readingAsItIsTaken()
        // Without a dictionary for the languages there is no evidence to weigh: the prepared
        // reading stays. Two readings without a letter (a blank page) weigh 0 each whatever a
        // dictionary says: they are weighed without waiting for one.
        var other = asIs.result.words
        // Noise left out of a reading still tells how much of it was noise.
        let preparedText = kept.result.text + "\n" + kept.result.leftOutText
        let asIsText = asIs.result.text + "\n" + asIs.result.leftOutText
        let letterless = !preparedText.contains(where: \.isLetter) && !asIsText.contains(where: \.isLetter)
        let weighed =
            letterless
            ? [preparedText, asIsText].map { WordEvidence(text: $0, isKnown: { _ in false }) }
            : readySpelling()?.evidence(of: [preparedText, asIsText])
        if let weighed {
            let (prepared, plain) = (weighed[0], weighed[1])
            notes.append(.compared(prepared: prepared.score, plain: plain.score))
            if Recognizer.replaces(asIs.result, weighing: plain.score, kept.result, weighing: prepared.score) {
                // The second engine's documents are rendered only now that they are wanted.
                if let plainEngine, let render { asIs.result.rendered = try plainEngine.renderLast(render) }
                other = kept.result.words
                kept = asIs
                notes.append(.keptPlainReading)
            }
        }
        // The reading not kept still tells where the two disagree (the alternatives menu).
        kept.result.words = OtherReading.attaching(other, to: kept.result.words)
    }

    /// Light letters on dark signs, read on their own: a sign on a stone wall reads as stone in
    /// the whole photo, and as its words with the wall blanked out. Only when the reading kept is
    /// doubtful, and kept only with more evidence of real words.
    func weighBlocksAlone(_ kept: inout KeptReading) throws {
        guard kept.result.meanConfidence < Recognizer.blocksAloneBelowConfidence,
            let alone = try blocksAlone ?? readingOfBlocksAlone(99, 1), let spelling = readySpelling()
        else { return }
        let weighed = spelling.evidence(of: [
            alone.result.text + "\n" + alone.result.leftOutText, kept.result.text + "\n" + kept.result.leftOutText,
        ])
        let (blocks, keptEvidence) = (weighed[0], weighed[1])
        notes.append(.comparedBlocks(blocks: blocks.score, kept: keptEvidence.score))
        if Recognizer.replaces(alone.result, weighing: blocks.score, kept.result, weighing: keptEvidence.score) {
            kept = KeptReading(result: alone.result, page: try alone.page())
            notes.removeAll { $0 == .keptPlainReading }
            notes.append(.keptBlocksAlone(alone.blocks))
        }
    }

    /// The page read line by line along the text the detector found, when the reading kept missed
    /// part of it or is doubtful (`ReadingPolicy`); whether those lines were kept.
    func weighDetectedLines(_ kept: inout KeptReading) throws -> Bool {
        guard let detection, osdTurns == 0 else { return false }
        let progress = progress
        // The second engine is free for the lines: what it read beside is taken or not wanted.
        stopReadingsBeside()
        let (lines, said) = try Recognizer.readingDetectedLines(
            detection, kept: kept.result, photo: upright, reduction: reduction, always: options.reading == .lines,
            engine: readyEngine, spelling: readySpelling, beside: linesBeside()
        ) { p in progress(90 + p * 9 / 100, .recognizing) }
        notes += said
        guard let lines else { return false }
        kept.result = lines
        notes.removeAll { $0 == .keptPlainReading }
        return true
    }

    /// How the second engine, the reader's or this process's, reads detected lines beside the
    /// first (nil: there is none).
    private func linesBeside() -> LinesReadBeside.Start? {
        let reduction = reduction
        if let reader {
            return { rgb, regions, order in
                LinesOnReader(reader: reader, photo: rgb, regions: regions, order: order, reduction: reduction)
            }
        }
        guard let second else { return nil }
        return { rgb, regions, order in
            LinesOnSecondEngine(second: second, rgb: rgb, regions: regions, order: order, reduction: reduction)
        }
    }

    // MARK: Finish

    /// The finish phase: notes, rotation, region offsets, spelling marks and documents in the
    /// photo's pixels.
    func finish(_ kept: KeptReading, keptDetectedLines: Bool) throws -> RecognitionResult {
        var best = kept.result
        // What the preparation did, when its page made the reading kept.
        if !keptDetectedLines { notes += Recognizer.preparationNotes(of: kept.page) }
        if best.rotationDegrees != 0 { notes.append(.rotated(degrees: best.rotationDegrees)) }
        best.rotationDegrees =
            (Recognizer.rotation(ofEXIF: loaded.exifOrientation) + osdTurns * 90 + best.rotationDegrees) % 360
        // Proofreading's signals, while the boxes are still in the upright photo's pixels: the
        // spelling (without a dictionary the words stay unchecked), then the learned recognizer.
        if !best.words.isEmpty, marksSpelling, let spelling = readySpelling() {
            best = spelling.checking(best)
            guard progress(99, .recognizing) else { throw OCRError.cancelled }
            best.words = readingAgain(best.words, spelling: spelling)
        }
        if let regionBox {
            best.region = regionBox
            for i in best.words.indices {
                var b = best.words[i].boundingBox
                if regionScale != 1 { b = b.scaled(by: 1 / regionScale) }
                best.words[i].boundingBox = BoundingBox(
                    x: b.x + regionBox.x, y: b.y + regionBox.y, width: b.width, height: b.height)
            }
        }
        best.notes = [.languagesLoaded(try readyEngine().loadedLanguages)] + notes + best.notes
        if let rendered = best.rendered {
            best.documents = try documents(rendered, of: best, page: kept.page)
        }
        // What the documents were made from stays in this process.
        best.rendered = nil
        best.renderedWordBoxes = []
        best.renderedWordCorrections = []
        _ = progress(100, .done)
        return best
    }

    /// `words` with the learned recognizer's readings of those it is asked about
    /// (`Proofreading.asksLearnedReading`), their boxes cut out of the upright photo, and whether
    /// `spelling`'s dictionaries know the readings that differ; as they were, with a note, when it
    /// cannot run.
    private func readingAgain(_ words: [RecognizedWord], spelling: Spelling) -> [RecognizedWord] {
        let others = Proofreading.otherSignals(words)
        let asked = words.indices.filter { Proofreading.asksLearnedReading(words[$0], otherDoubts: others[$0]) }
        guard !asked.isEmpty else { return words }
        guard let model = TextRecognizer.defaultModelPath() else {
            notes.append(.learnedReadingUnavailable(reason: TextRecognizer.missing()))
            return words
        }
        // The boxes are in the full-size photo's pixels; `upright` is decoded `reduction` times smaller.
        let boxes = asked.map { words[$0].boundingBox.scaled(by: 1 / reduction) }
        do {
            let read = try TextRecognizer(modelPath: model).read(upright, boxes: boxes)
            var words = words
            for (i, reading) in zip(asked, read) {
                words[i].learnedReading = reading?.text ?? ""
                words[i].learnedConfidence = reading?.confidence ?? 0
            }
            let differing = asked.filter { !words[$0].learnedAgrees }
            let known = Proofreading.knownTokens(
                differing.compactMap { words[$0].learnedReading }, knownIn: spelling.knownIn(among:))
            for i in differing { words[i].learnedIsKnownWord = words[i].learnedReading.flatMap { known[$0] ?? nil } }
            notes.append(.learnedReadings(asked: asked.count, agreed: asked.count - differing.count))
            return words
        } catch {
            notes.append(.learnedReadingUnavailable(reason: "\(error)"))
            return words
        }
    }

    /// The documents Tesseract rendered for `best`, their coordinates from the prepared page back
    /// through its preparation, the orientation turn and the JPEG's reduced decoding, to the
    /// photo's own pixels (`PageDocuments.normalized`).
    private func documents(_ rendered: RenderedPage, of best: RecognitionResult, page: PreparedImage) throws
        -> PageDocuments
    {
        let turned = (loaded.exifOrientation ?? 1) >= 5
        let photo = (
            width: turned ? loaded.storedSize.height : loaded.storedSize.width,
            height: turned ? loaded.storedSize.width : loaded.storedSize.height
        )
        var toLoaded: [PageGeometry.Step] = []
        // A region: turned as it was framed, cut out, a strip enlarged (`cutRegion`).
        if let region = options.region, let regionBox {
            if region.quarterTurnsClockwise % 4 != 0 {
                toLoaded.append(
                    .quarterTurns(
                        region.quarterTurnsClockwise, width: Double(loaded.image.width),
                        height: Double(loaded.image.height)))
            }
            toLoaded.append(.crop(x: Double(regionBox.x), y: Double(regionBox.y)))
            if regionScale != 1 { toLoaded.append(.scale(regionScale)) }
        }
        if osdTurns != 0 {
            toLoaded.append(
                .quarterTurns(osdTurns, width: Double(loaded.image.width), height: Double(loaded.image.height)))
        }
        let reduced: [PageGeometry.Step] =
            loaded.image.width == photo.width ? [] : [.scale(Double(loaded.image.width) / Double(photo.width))]
        return try PageDocuments.normalized(
            rendered, words: best.renderedWordBoxes, toPhoto: page.geometry.after(reduced + toLoaded),
            toPDFImage: page.geometry.after(toLoaded), pdfImageSize: (loaded.image.width, loaded.image.height),
            photoName: photoName, width: photo.width, height: photo.height
        ).correcting(best.renderedWordCorrections)
    }
}
