import CInterposed
import CLeptonica
import CTesseract
import Foundation
import SnapExport
import SnapImaging

#if canImport(Glibc)
    import Glibc
#endif

/// Engine settings, in Tesseract's terms.
public struct EngineOptions: Codable, Equatable, Sendable {
    /// Default languages: English and French.
    public static let defaultLanguages = ["eng", "fra"]

    /// Traineddata names in priority order (`-l eng+fra` → ["eng", "fra"]).
    public var languages: [String]
    /// Page segmentation mode (PSM 0–13); 3 = fully automatic page segmentation, Tesseract's default.
    public var pageSegmentationMode: Int
    /// The tessdata folder; nil = `TESSDATA_PREFIX`, else Tesseract's compiled-in folder.
    public var tessdataPath: String?
    /// Tesseract variables the user set (`-c NAME=VALUE`, as the CLI's), in the order given,
    /// each `NAME=VALUE`; set on every engine after lovesnap's own settings (nil: none).
    public var variables: [String]?

    /// Options from their parts; the defaults read English and French with automatic page segmentation.
    public init(
        languages: [String] = EngineOptions.defaultLanguages, pageSegmentationMode: Int = 3, tessdataPath: String? = nil
    ) {
        self.languages = languages
        self.pageSegmentationMode = pageSegmentationMode
        self.tessdataPath = tessdataPath
    }

    /// The order the languages are given to Tesseract: as requested, except that English goes
    /// last. Tesseract's first language decides accented letters: `eng+fra` reads "forêt" as
    /// "forét" and "cœur" as "coeur", while `fra+eng` reads them right and, measured on the benchmark
    /// corpus with scripts/ocr-benchmark.py, reads every English page at least as well.
    public var engineOrder: [String] {
        languages.filter { $0 != "eng" } + languages.filter { $0 == "eng" }
    }

    /// Parses Tesseract's `eng+fra` syntax.
    /// - Throws: `OCRError.invalidLanguage` for an empty name or one with a path separator.
    public static func parseLanguages(_ spec: String) throws -> [String] {
        let parts = spec.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        for p in parts where p.isEmpty || p.contains("/") || p.hasPrefix(".") || p == "osd" {
            throw OCRError.invalidLanguage(p.isEmpty ? spec : p)
        }
        return parts
    }
}

/// One Tesseract engine (`TessBaseAPI`, LSTM engine, OEM 1) with its languages loaded and checked.
///
/// Not thread-safe: use one engine per thread. Follows `tesseract/capi.h` (5.3).
public final class TesseractEngine {
    /// The resolutions (DPI) Tesseract believes an image's (`kMinCredibleResolution` …
    /// `kMaxCredibleResolution` in its `publictypes.h`): what `--dpi` may give.
    public static let credibleResolutions = 70...2400
    /// Page segmentation mode `PSM_AUTO` (3): the page's layout analysed (the default).
    public static let automaticLayout = Int(PSM_AUTO.rawValue)
    /// Page segmentation mode `PSM_SINGLE_BLOCK` (6): one uniform block of text.
    public static let singleBlock = Int(PSM_SINGLE_BLOCK.rawValue)

    /// The traineddata Tesseract finds in `tessdataPath` (nil: `$TESSDATA_PREFIX`, else its own
    /// folder), as `tesseract --list-langs` lists them: the folder as Tesseract names it (with a
    /// final `/`) and the languages, sorted (`TessBaseAPIGetAvailableLanguagesAsVector`, capi.h,
    /// after an `Init` with `eng`, as the CLI does).
    /// - Throws: `OCRError.tessdataMissing`, `OCRError.languagesNotLoaded` when `eng` is not there.
    public static func availableLanguages(tessdataPath: String?) throws -> (folder: String, languages: [String]) {
        let engine = try TesseractEngine(
            options: EngineOptions(languages: ["eng"], tessdataPath: tessdataPath), loadingAmbiguityTables: false)
        var languages: [String] = []
        if let list = TessBaseAPIGetAvailableLanguagesAsVector(engine.handle) {
            var i = 0
            while let p = list[i] {
                languages.append(String(cString: p))
                i += 1
            }
            TessDeleteTextArray(list)
        }
        return (engine.tessdataPath, languages.sorted())
    }

    /// Sets each `NAME=VALUE` of `variables` on `handle` (`TessBaseAPISetVariable`, capi.h),
    /// in order; returns the first that Tesseract refused (no such variable, or one that only
    /// `Init` may set), nil when all were taken.
    static func setVariables(_ variables: [String], on handle: OpaquePointer) -> String? {
        for variable in variables {
            guard let equals = variable.firstIndex(of: "=") else { return variable }
            let name = String(variable[..<equals])
            let value = String(variable[variable.index(after: equals)...])
            if TessBaseAPISetVariable(handle, name, value) == 0 { return name }
        }
        return nil
    }

    /// The first of `variables` (`NAME=VALUE`) Tesseract would refuse, nil when it would take
    /// them all: checked on an engine that loads nothing (`TessBaseAPISetVariable` before
    /// `Init`), so that a slip in `-c` is said before any OCR.
    public static func refusedVariable(_ variables: [String]) -> String? {
        guard !variables.isEmpty, let handle = TessBaseAPICreate() else { return nil }
        defer { TessBaseAPIDelete(handle) }
        return setVariables(variables, on: handle)
    }

    /// The version of the Tesseract library lovesnap runs with, as `TessVersion` (capi.h) gives
    /// it ("5.3.0"), and of its Leptonica (`getLeptonicaVersion`: "leptonica-1.82.0").
    public static var libraryVersions: (tesseract: String, leptonica: String) {
        let leptonica = getLeptonicaVersion()
        defer { lept_free(leptonica) }
        return (String(cString: TessVersion()), leptonica.map { String(cString: $0) } ?? "leptonica (unknown)")
    }

    private let handle: OpaquePointer

    /// Whether Tesseract takes every row for proportional text (`textord_all_prop`,
    /// `TessBaseAPIGetBoolVariable`): set at init, above.
    var takesEveryRowAsProportional: Bool {
        var value: Int32 = 0
        return TessBaseAPIGetBoolVariable(handle, "textord_all_prop", &value) != 0 && value != 0
    }
    /// The languages that really loaded, in the order Tesseract reports them.
    public let loadedLanguages: [String]
    /// The tessdata folder Tesseract used.
    public let tessdataPath: String
    /// The options the engine was started with (its page segmentation mode as set last:
    /// ``setPageSegmentationMode(_:)``).
    public private(set) var options: EngineOptions
    /// Whether Tesseract's OpenMP parallel regions run on the reading thread alone, without
    /// libgomp's team of one (`CInterposed/serial_openmp.c`).
    let parallelRegionsInline: Bool

    /// Starts Tesseract and checks that every requested language loaded (Tesseract itself silently
    /// drops a missing one when another loads).
    /// - Throws: `OCRError.tessdataMissing`, `.invalidLanguage`, `.languagesNotLoaded`.
    public convenience init(options: EngineOptions = EngineOptions()) throws {
        try self.init(options: options, loadingAmbiguityTables: false)
    }

    /// `loadingAmbiguityTables`: whether Tesseract loads its character ambiguity tables, which only
    /// its legacy engine uses (`CInterposed/unichar_ambigs.c`); `parallelRegionsInline`: whether its OpenMP
    /// parallel regions run on the reading thread alone (`CInterposed/serial_openmp.c`), nil = when libgomp's
    /// thread limit is 1. Both set for tests that compare readings.
    init(options: EngineOptions, loadingAmbiguityTables: Bool, parallelRegionsInline: Bool? = nil) throws {
        for l in options.languages where l.isEmpty || l.contains("/") { throw OCRError.invalidLanguage(l) }
        let explicitPath =
            options.tessdataPath
            ?? ProcessInfo.processInfo.environment["TESSDATA_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
        if let explicitPath {
            var isDir: ObjCBool = false
            if !FileManager.default.fileExists(atPath: explicitPath, isDirectory: &isDir) || !isDir.boolValue {
                throw OCRError.tessdataMissing(path: explicitPath)
            }
        }
        guard let h = TessBaseAPICreate() else { throw OCRError.recognitionFailed }
        // Tesseract prints its own errors; lovesnap reports them with the file and the reason.
        // debug_file is process-global and must be set before Init (as an Init variable it comes too late to
        // silence a missing first language).
        _ = TessBaseAPISetVariable(h, "debug_file", "/dev/null")
        // The LSTM engine reads without the legacy engine's character ambiguity tables, whose
        // loading takes half of the tuned CLI's time on a clean page (CInterposed/unichar_ambigs.c).
        if !loadingAmbiguityTables { unichar_ambigs_skip_begin() }
        let rc = TessBaseAPIInit2(h, explicitPath, options.engineOrder.joined(separator: "+"), OEM_LSTM_ONLY)
        if !loadingAmbiguityTables { unichar_ambigs_skip_end() }
        let datapath = TessBaseAPIGetDatapath(h).map { String(cString: $0) } ?? (explicitPath ?? "")
        var loaded: [String] = []
        if rc == 0, let list = TessBaseAPIGetLoadedLanguagesAsVector(h) {
            var i = 0
            while let p = list[i] {
                loaded.append(String(cString: p))
                i += 1
            }
            TessDeleteTextArray(list)
        }
        let missing = options.languages.filter { !loaded.contains($0) }
        if rc != 0 || !missing.isEmpty {
            TessBaseAPIEnd(h)
            TessBaseAPIDelete(h)
            let folder = datapath.isEmpty ? (explicitPath ?? "(Tesseract's default)") : datapath
            let problems = (missing.isEmpty ? options.languages : missing).map {
                TesseractEngine.diagnose($0, in: folder)
            }
            throw OCRError.languagesNotLoaded(problems: problems, tessdata: folder)
        }
        TessBaseAPISetPageSegMode(h, TessPageSegMode(UInt32(options.pageSegmentationMode)))
        // Keep the LSTM's runner-up characters for the choice iterator (word alternatives).
        _ = TessBaseAPISetVariable(h, "lstm_choice_mode", "2")
        // Every row is taken for proportional text: Tesseract's fixed-pitch test of each row
        // (`fixed_pitch_row`'s `tune_row_pitch`, its cuts in `FPCUTPT::assign`, 3–5 % of an
        // enlarged page's CPU) is skipped; the LSTM reads the spaces itself. The same text on 206
        // of 208 pages (the corpus, the stress set, 52 pages of new seeds); the two others are
        // typewritten, one a space of indentation less, one a word and a stop better and a comma
        // read as a stop (the same CER). `scripts/speed-ab.py` over 156 pages ×0.980
        // (`europeana-10763.jpeg` −0.39 s).
        _ = TessBaseAPISetVariable(h, "textord_all_prop", "1")
        if let bad = TesseractEngine.setVariables(options.variables ?? [], on: h) {
            TessBaseAPIEnd(h)
            TessBaseAPIDelete(h)
            throw OCRError.invalidVariable(bad)
        }
        self.loadedLanguages = loaded
        self.tessdataPath = datapath
        self.parallelRegionsInline = parallelRegionsInline ?? (serial_openmp_thread_limit() == 1)
        self.options = options
        self.handle = h  // last: a throwing init runs deinit once all properties are set, freeing h twice
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Why `<folder>/<language>.traineddata` did not load: missing, empty, wrong case, or not a model.
    static func diagnose(_ language: String, in folder: String) -> LanguageProblem {
        let path = (folder as NSString).appendingPathComponent("\(language).traineddata")
        let fm = FileManager.default
        guard fm.fileExists(atPath: path) else {
            let other = (try? fm.contentsOfDirectory(atPath: folder))?.first {
                $0.lowercased() == "\(language).traineddata".lowercased()
            }
            if let other {
                return LanguageProblem(
                    language: language, path: path, reason: .fileNotFoundButCaseDiffers(existing: other))
            }
            return LanguageProblem(language: language, path: path, reason: .fileNotFound)
        }
        let size = (try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { return LanguageProblem(language: language, path: path, reason: .emptyFile) }
        if let fh = FileHandle(forReadingAtPath: path) {
            defer { try? fh.close() }
            let head = (try? fh.read(upToCount: 64)) ?? Data()
            let text = String(decoding: head, as: UTF8.self).lowercased()
            if text.contains("<!doctype") || text.contains("<html") {
                return LanguageProblem(language: language, path: path, reason: .htmlPage)
            }
        } else {
            return LanguageProblem(language: language, path: path, reason: .unreadable)
        }
        return LanguageProblem(language: language, path: path, reason: .notTraineddata)
    }

    /// Recognizes a prepared page.
    ///
    /// - Parameters:
    ///   - page: the image from `Preprocessor`, with its scale (to map boxes back to the photo).
    ///   - progress: called on this thread with 0–100 while words are recognized; return `false` to cancel.
    /// - Returns: text (NFC, verse layout kept), words with boxes in photo pixels, mean confidence 0–100.
    /// - Throws: `OCRError.cancelled` when `progress` returned false, `.recognitionFailed`.
    public func recognize(
        _ page: PreparedImage, render: RenderRequest? = nil, progress: ((Int) -> Bool)? = nil
    ) throws -> RecognitionResult {
        setPage(page)
        return try recognizeSetPage(page, render: render, progress: progress)
    }

    /// Recognizes the page last given to `analyseLayout(_:)` (or `recognize`), with the layout
    /// Tesseract found then: `TessBaseAPIRecognize` only finds the lines again when none were found.
    /// - Throws: as `recognize(_:render:progress:)`.
    func recognizeSetPage(
        _ page: PreparedImage, render: RenderRequest? = nil, progress: ((Int) -> Bool)? = nil
    ) throws -> RecognitionResult {
        let read = try readWords(page, progress: progress)
        let rendered = try render.map { try self.render($0) }
        return TesseractEngine.assemble(read, rendered: rendered)
    }

    /// Reads `image` as one text line (`TessBaseAPISetPageSegMode(PSM_SINGLE_LINE)` and the
    /// adaptive threshold for this reading, the engine's own settings after it), told it is of
    /// `resolution` DPI.
    /// - Returns: the words with boxes in `image`'s pixels, all on line 0.
    /// - Throws: `OCRError.recognitionFailed`.
    /// Reads the pages set from now on in page segmentation mode `mode` (`TessBaseAPISetPageSegMode`).
    func setPageSegmentationMode(_ mode: Int) {
        options.pageSegmentationMode = mode
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(mode)))
    }

    func readLine(_ image: Image, resolution: Int) throws -> WordsRead {
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_LINE)
        // Tesseract's tiled adaptive Otsu (`thresholding_method` 1, Leptonica's
        // `pixOtsuAdaptiveThreshold`): a line under a shadow or half on a coloured band is cut
        // where one global threshold makes its dark half solid black. Over the corpus's detected
        // lines: mean CER 0.185 (Sauvola, 2: 0.193; global Otsu, 0: lines cut short).
        _ = TessBaseAPISetVariable(handle, "thresholding_method", "1")
        defer {
            _ = TessBaseAPISetVariable(handle, "thresholding_method", "0")
            TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(options.pageSegmentationMode)))
        }
        let page = PreparedImage(handedOver: image, scale: 1, resolution: resolution)
        setPage(page)
        return try readWords(page)
    }

    /// Gives Tesseract the page and its resolution (`TessBaseAPISetImage2`, which copies the
    /// pixels and clears the previous page's layout and results: they stay until then for the
    /// renderers, `renderLast`).
    private func setPage(_ page: PreparedImage) {
        // Two engines may be given the same page at once: the resolution is written only when it differs.
        if page.image.resolution != page.resolution { page.image.setResolution(page.resolution) }
        TessBaseAPISetImage2(handle, page.image.pix)
        TessBaseAPISetSourceResolution(handle, Int32(page.resolution))
    }

    /// Finds the text lines of `page` without reading them (`TessBaseAPIAnalyseLayout`); the
    /// layout stays for `recognizeSetPage` and `readWords`.
    /// - Returns: the lines in Tesseract's reading order; empty for an empty page.
    func analyseLayout(_ page: PreparedImage) -> [LayoutLine] {
        setPage(page)
        return walkLayout()
    }

    /// Makes `image` the input image the LSTM cuts its line images from (`TessBaseAPISetInputImage`,
    /// Tesseract's `BestPix`), keeping the layout found: `image` is the bottom of the page set
    /// last, as wide as it, and a line whose box (padded, in Tesseract's coordinates from the
    /// page's bottom) lies wholly above it is not read at all (`GetRectImage` finds nothing to cut).
    func readLinesFrom(bottomOfPage image: Image) {
        // SetInputImage takes ownership of the Pix it is given: hand it a reference of its own.
        TessBaseAPISetInputImage(handle, pixClone(image.pix))
    }

    /// The blocks whose lines Tesseract reads: its text types (`PTIsTextType` in `publictypes.h`).
    /// The lines the layout finds in image, ruling and noise blocks are not read.
    static let readBlockTypes: [TessPolyBlockType] = [
        PT_FLOWING_TEXT, PT_HEADING_TEXT, PT_PULLOUT_TEXT, PT_TABLE, PT_VERTICAL_TEXT, PT_CAPTION_TEXT,
        PT_INLINE_EQUATION,
    ]

    private func walkLayout() -> [LayoutLine] {
        guard let it = TessBaseAPIAnalyseLayout(handle) else { return [] }
        defer { TessPageIteratorDelete(it) }
        var lines: [LayoutLine] = []
        var block = -1
        var upright = true
        var read = true
        repeat {
            if TessPageIteratorIsAtBeginningOf(it, RIL_BLOCK) != 0 {
                block += 1
                let (orientation, direction, order) = TesseractEngine.orientation(ofBlockAt: it)
                upright =
                    orientation == ORIENTATION_PAGE_UP && direction == WRITING_DIRECTION_LEFT_TO_RIGHT
                    && order == TEXTLINE_ORDER_TOP_TO_BOTTOM
                read = TesseractEngine.readBlockTypes.contains(TessPageIteratorBlockType(it))
            }
            guard let box = TesseractEngine.pageBox(of: it, at: RIL_TEXTLINE) else { continue }
            var x1: Int32 = 0
            var y1: Int32 = 0
            var x2: Int32 = 0
            var y2: Int32 = 0
            _ = TessPageIteratorBaseline(it, RIL_TEXTLINE, &x1, &y1, &x2, &y2)
            lines.append(
                LayoutLine(
                    box: box, baseline: [Int(x1), Int(y1), Int(x2), Int(y2)], block: block,
                    isRead: read, isUpright: upright))
        } while TessPageIteratorNext(it, RIL_TEXTLINE) != 0
        return lines
    }

    /// The box of the element at `level` the iterator is at, in pixels of the page from its left
    /// and top (`TessPageIteratorBoundingBox`); nil when it has none.
    private static func pageBox(of it: OpaquePointer?, at level: TessPageIteratorLevel) -> PageBox? {
        var l: Int32 = 0
        var t: Int32 = 0
        var r: Int32 = 0
        var b: Int32 = 0
        guard TessPageIteratorBoundingBox(it, level, &l, &t, &r, &b) != 0 else { return nil }
        return PageBox(left: Int(l), top: Int(t), right: Int(r), bottom: Int(b))
    }

    /// The orientation, writing direction and line order of the block the iterator is in
    /// (`TessPageIteratorOrientation`).
    private static func orientation(ofBlockAt it: OpaquePointer?) -> (
        TessOrientation, TessWritingDirection, TessTextlineOrder
    ) {
        var orientation = ORIENTATION_PAGE_UP
        var direction = WRITING_DIRECTION_LEFT_TO_RIGHT
        var order = TEXTLINE_ORDER_TOP_TO_BOTTOM
        var deskew: Float = 0
        TessPageIteratorOrientation(it, &orientation, &direction, &order, &deskew)
        return (orientation, direction, order)
    }

    /// What one `TessBaseAPIRecognize` read: the words (their `line` the count of text lines
    /// before them, as the layout numbers them), the confidence of every word with text
    /// (0–100, whole numbers, as `TessBaseAPIAllWordConfidences` gives them), the quarter turns
    /// that make most words upright, and whether `stop` ended the reading.
    struct WordsRead: Codable, Equatable {
        var words: [LaidOutWord]
        var confidences: [Int]
        var quarterTurns: Int
        var stopped = false
    }

    /// Reads the page set last, with its layout.
    ///
    /// - Parameters:
    ///   - progress: as in `recognize`.
    ///   - stop: called before each piece of a line is read, with its box (pixels of the page);
    ///     returning true ends the reading there: what was read before stays, the rest is empty
    ///     (Tesseract's cancel callback, `ETEXT_DESC::cancel`, after `progress_callback2`).
    /// - Throws: `OCRError.cancelled` when `progress` returned false, `.recognitionFailed`.
    func readWords(
        _ page: PreparedImage, progress: ((Int) -> Bool)? = nil, stop: ((PageBox) -> Bool)? = nil
    ) throws -> WordsRead {
        let context = MonitorContext(progress: progress, stop: stop, pageHeight: page.image.height)
        guard let monitor = TessMonitorCreate() else { throw OCRError.recognitionFailed }
        defer { TessMonitorDelete(monitor) }
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }
        TessMonitorSetCancelThis(monitor, unmanaged.toOpaque())
        TessMonitorSetProgressFunc(monitor) { ths, left, right, top, bottom in
            guard let ths, let raw = TessMonitorGetCancelThis(ths) else { return true }
            let c = Unmanaged<MonitorContext>.fromOpaque(raw).takeUnretainedValue()
            c.report(Int(TessMonitorGetProgress(ths)))
            c.reached(left: Int(left), right: Int(right), top: Int(top), bottom: Int(bottom))
            return true
        }
        TessMonitorSetCancelFunc(monitor) { raw, _ in
            guard let raw else { return false }
            let c = Unmanaged<MonitorContext>.fromOpaque(raw).takeUnretainedValue()
            return c.cancelled || c.stopped
        }
        // The line images Tesseract keeps as PNGs in memory are stored uncompressed and unfiltered
        // meanwhile: the same pixels, without zlib's and the row filters' work (CInterposed/line_images.c).
        // With a thread limit of 1 (the worker's), the LSTM's parallel regions (one per time step)
        // run inline, without libgomp's team of one thread and its futex call (CInterposed/serial_openmp.c).
        line_images_store_begin()
        if parallelRegionsInline { serial_openmp_inline_begin() }
        let rc = TessBaseAPIRecognize(handle, monitor)
        if parallelRegionsInline { serial_openmp_inline_end() }
        line_images_store_end()
        if context.cancelled { throw OCRError.cancelled }
        guard rc == 0 || context.stopped else { throw OCRError.recognitionFailed }
        var read = collectWords(scale: page.scale, width: page.image.width, height: page.image.height)
        read.stopped = context.stopped
        return read
    }

    /// A reading's result from the words read: noise lines left out, lines numbered densely,
    /// verse layout, mean confidence (the mean of `read.confidences`, as `TessBaseAPIMeanTextConf`).
    static func assemble(_ read: WordsRead, rendered: RenderedPage? = nil) -> RecognitionResult {
        var laidOut = read.words
        // Number lines densely (lines whose words were all blank were skipped).
        var map: [Int: Int] = [:]
        for i in laidOut.indices {
            let dense = map[laidOut[i].word.line] ?? map.count
            map[laidOut[i].word.line] = dense
            laidOut[i].word.line = dense
        }
        let (words, leftOut) = NoiseLines.removed(from: laidOut)
        let text = VerseLayout.text(from: words)
        let confidence =
            words.isEmpty || read.confidences.isEmpty ? 0 : read.confidences.reduce(0, +) / read.confidences.count
        var result = RecognitionResult(
            text: text, meanConfidence: confidence, words: TesseractEngine.placed(words.map(\.word), in: text),
            rotationDegrees: read.quarterTurns * 90,
            notes: leftOut.isEmpty ? [] : [.noiseLinesLeftOut(leftOut.count)])
        result.leftOutText = leftOut.joined(separator: "\n")
        result.rendered = rendered
        result.renderedWordBoxes = words.map(\.pageBox)
        result.renderedWordCorrections = words.map { $0.corrected ? $0.word.text : nil }
        return result
    }

    /// Tesseract's documents of the page this engine read last (see `recognize(_:render:progress:)`),
    /// for a reading whose documents were not rendered when it was made.
    /// - Throws: `ExportError.renderFailed` when a renderer cannot start or write.
    func renderLast(_ request: RenderRequest) throws -> RenderedPage { try render(request) }

    /// Runs Tesseract's renderers on the page just recognized (`TessHOcrRendererCreate`,
    /// `TessTsvRendererCreate`, `TessAltoRendererCreate`, `TessPDFRendererCreate`, chained with
    /// `TessResultRendererInsert`, then `BeginDocument`, `AddImage`, `EndDocument`) into a private
    /// folder, and reads their files back.
    /// - Throws: `ExportError.renderFailed` when a renderer cannot start or write.
    private func render(_ request: RenderRequest) throws -> RenderedPage {
        var template = Array((NSTemporaryDirectory() + "/lovesnap-render-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ExportError.renderFailed(format: .hocr, reason: String(cString: strerror(errno)))
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let base = folder + "/page"
        guard let head = TessHOcrRendererCreate(base) else {
            throw ExportError.renderFailed(format: .hocr, reason: "TessHOcrRendererCreate failed")
        }
        defer { TessDeleteResultRenderer(head) }  // deletes the whole chain
        var formats = Set(request.formats)
        let font = (tessdataPath as NSString).appendingPathComponent("pdf.ttf")
        if formats.contains(.pdf) && request.ifPossible && !FileManager.default.fileExists(atPath: font) {
            formats.remove(.pdf)
        }
        if formats.contains(.tsv), let r = TessTsvRendererCreate(base) { TessResultRendererInsert(head, r) }
        if formats.contains(.alto), let r = TessAltoRendererCreate(base) { TessResultRendererInsert(head, r) }
        if formats.contains(.pdf) {
            guard FileManager.default.fileExists(atPath: font) else {
                throw ExportError.renderFailed(format: .pdf, reason: "\(font) is missing")
            }
            guard let r = TessPDFRendererCreate(base, tessdataPath, 0) else {
                throw ExportError.renderFailed(format: .pdf, reason: "TessPDFRendererCreate failed")
            }
            TessResultRendererInsert(head, r)
            // The PDF shows the photo, not the prepared page: its image is the input image.
            // SetInputImage takes ownership of the Pix it is given: hand it a reference of its own.
            if let photo = request.pdfImage {
                TessBaseAPISetInputImage(handle, pixClone(photo.pix))
                // Its page is the photo at the photo's resolution (its file's, or `--dpi`), as
                // tesseract's is: the renderer sizes the page by the source resolution, which
                // `TessBaseAPISetSourceResolution` sets for results' sizes. A photo that gives
                // none Tesseract believes (70–2400 DPI) keeps the reading's.
                if TesseractEngine.credibleResolutions.contains(request.pdfResolution) {
                    TessBaseAPISetSourceResolution(handle, Int32(request.pdfResolution))
                }
            }
        }
        let resolution = Int(TessBaseAPIGetSourceYResolution(handle))
        guard TessResultRendererBeginDocument(head, request.title) != 0,
            TessResultRendererAddImage(head, handle) != 0,
            TessResultRendererEndDocument(head) != 0
        else {
            throw ExportError.renderFailed(format: formats.contains(.pdf) ? .pdf : .hocr, reason: "a renderer failed")
        }
        func read(_ ext: String, _ format: ExportFormat) throws -> Data {
            guard let data = FileManager.default.contents(atPath: base + "." + ext) else {
                throw ExportError.renderFailed(format: format, reason: "no \(ext) file was written")
            }
            return data
        }
        var page = RenderedPage(hocr: String(decoding: try read("hocr", .hocr), as: UTF8.self), resolution: resolution)
        if formats.contains(.tsv) { page.tsv = String(decoding: try read("tsv", .tsv), as: UTF8.self) }
        if formats.contains(.alto) { page.alto = String(decoding: try read("xml", .alto), as: UTF8.self) }
        if formats.contains(.pdf) { page.pdf = Array(try read("pdf", .pdf)) }
        return page
    }

    /// Walks the result iterator word by word (`TessBaseAPIGetIterator`, `RIL_WORD`).
    ///
    /// Tesseract's layout analysis reads a page turned by 90° itself; its boxes then lie in the
    /// turned image. Each block's orientation (`TessPageIteratorOrientation`) turns them back so
    /// that boxes, lines and indentation are those of the upright page.
    /// - Returns: the words, their confidences, and the clockwise quarter turns that make most of
    ///   them upright.
    private func collectWords(scale: Double, width: Int, height: Int) -> WordsRead {
        guard let it = TessBaseAPIGetIterator(handle) else {
            return WordsRead(words: [], confidences: [], quarterTurns: 0)
        }
        defer { TessResultIteratorDelete(it) }
        let pageIt = TessResultIteratorGetPageIterator(it)
        var out: [LaidOutWord] = []
        var confidences: [Int] = []
        var line = -1
        var block = -1
        var orientation = ORIENTATION_PAGE_UP
        var turnsCount = [0, 0, 0, 0]
        repeat {
            if TessPageIteratorIsAtBeginningOf(pageIt, RIL_BLOCK) != 0 {
                block += 1
                let direction: TessWritingDirection
                (orientation, direction, _) = TesseractEngine.orientation(ofBlockAt: pageIt)
                // A Latin page turned 90° clockwise comes back as upright vertical text written
                // top to bottom, lines right to left: the same as a page whose top points right.
                if orientation == ORIENTATION_PAGE_UP && direction == WRITING_DIRECTION_TOP_TO_BOTTOM {
                    orientation = ORIENTATION_PAGE_RIGHT
                }
            }
            if TessPageIteratorIsAtBeginningOf(pageIt, RIL_TEXTLINE) != 0 { line += 1 }
            guard let p = TessResultIteratorGetUTF8Text(it, RIL_WORD) else { continue }
            let rendered = String(cString: p).precomposedStringWithCanonicalMapping
            TessDeleteText(p)
            let text = WordCorrections.corrected(rendered)
            if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let conf = Double(TessResultIteratorConfidence(it, RIL_WORD))
            // What TessBaseAPIMeanTextConf averages (Tesseract drops the words without text).
            confidences.append(Int(conf))
            let pageBox =
                TesseractEngine.pageBox(of: pageIt, at: RIL_WORD) ?? PageBox(left: 0, top: 0, right: 0, bottom: 0)
            let (x, y, w, h) = TesseractEngine.upright(
                x: pageBox.left, y: pageBox.top, width: pageBox.right - pageBox.left,
                height: pageBox.bottom - pageBox.top,
                orientation: orientation, pageWidth: width, pageHeight: height)
            turnsCount[TesseractEngine.quarterTurns(orientation)] += text.count
            let box = BoundingBox(x: x, y: y, width: w, height: h).scaled(by: 1 / max(scale, 1e-9))
            var word = RecognizedWord(
                text: text, boundingBox: box, confidence: (conf * 10).rounded() / 10, line: line)
            word.language = TessResultIteratorWordRecognitionLanguage(it).map { String(cString: $0) }
            let symbols = TesseractEngine.symbolChoices(it)
            if symbols.map(\.text).joined().precomposedStringWithCanonicalMapping == text {
                (word.alternatives, word.runnerUpConfidence) = TesseractEngine.alternatives(of: symbols)
            }
            out.append(
                LaidOutWord(
                    word: word, block: block,
                    pageBox: pageBox, corrected: text != rendered))
        } while TessResultIteratorNext(it, RIL_WORD) != 0
        let majority = turnsCount.indices.max { turnsCount[$0] < turnsCount[$1] } ?? 0
        return WordsRead(words: out, confidences: confidences, quarterTurns: majority)
    }

    /// The characters of the word at `it`, each with the engine's choices for it (best first,
    /// the chosen one included), walking a copy of the iterator symbol by symbol
    /// (`TessResultIteratorCopy`, `TessResultIteratorGetChoiceIterator`, `TessChoiceIteratorNext`).
    private static func symbolChoices(_ it: OpaquePointer) -> [SymbolChoices] {
        guard let symbol = TessResultIteratorCopy(it) else { return [] }
        defer { TessResultIteratorDelete(symbol) }
        let page = TessResultIteratorGetPageIterator(symbol)
        var out: [SymbolChoices] = []
        repeat {
            guard let p = TessResultIteratorGetUTF8Text(symbol, RIL_SYMBOL) else { break }
            var entry = SymbolChoices(text: String(cString: p), choices: [])
            TessDeleteText(p)
            if let choice = TessResultIteratorGetChoiceIterator(symbol) {
                defer { TessChoiceIteratorDelete(choice) }
                repeat {
                    guard let c = TessChoiceIteratorGetUTF8Text(choice) else { continue }
                    entry.choices.append((String(cString: c), Double(TessChoiceIteratorConfidence(choice))))
                } while TessChoiceIteratorNext(choice) != 0
            }
            out.append(entry)
            if TessPageIteratorIsAtFinalElement(page, RIL_WORD, RIL_SYMBOL) != 0 { break }
        } while TessResultIteratorNext(symbol, RIL_SYMBOL) != 0
        return out
    }

    /// A runner-up character below this confidence (0–100) makes no alternative reading: the LSTM
    /// lists many choices at 0.
    static let alternativeChoiceFloor = 1.0
    /// At most this many alternative readings are kept per word.
    static let maximumAlternatives = 4

    /// The word's readings with one character swapped for a runner-up choice (strongest first),
    /// and the strongest runner-up's confidence (0–100). A choice that differs only in case (`La`
    /// for `la`) or is another apostrophe or quote (`’` for `'`) makes no other reading: the LSTM
    /// offers them for nearly every word.
    static func alternatives(of symbols: [SymbolChoices]) -> (readings: [String], runnerUp: Double) {
        let quotes: Set<String> = ["'", "’", "‘", "`", "´", "\"", "“", "”"]
        var swaps: [(reading: String, confidence: Double)] = []
        for (i, symbol) in symbols.enumerated() {
            for (choice, confidence) in symbol.choices
            where choice != symbol.text && confidence >= alternativeChoiceFloor && !choice.isEmpty
                && choice.lowercased() != symbol.text.lowercased()
                && !(quotes.contains(choice) && quotes.contains(symbol.text))
            {
                var texts = symbols.map(\.text)
                texts[i] = choice
                swaps.append((texts.joined().precomposedStringWithCanonicalMapping, confidence))
            }
        }
        swaps.sort { $0.confidence > $1.confidence }
        var readings: [String] = []
        for swap in swaps where !readings.contains(swap.reading) && readings.count < maximumAlternatives {
            readings.append(swap.reading)
        }
        return (readings, ((swaps.first?.confidence ?? 0) * 10).rounded() / 10)
    }

    /// `words` with their `textRange` in `text`: each word is looked for after the previous one
    /// (verse layout writes every word's text, in order).
    static func placed(_ words: [RecognizedWord], in text: String) -> [RecognizedWord] {
        let bytes = Array(text.utf8)
        var from = 0
        return words.map { word in
            var word = word
            let needle = Array(word.text.utf8)
            guard !needle.isEmpty, needle.count <= bytes.count else { return word }
            var at = from
            while at + needle.count <= bytes.count {
                if bytes[at] == needle[0] && bytes[at..<(at + needle.count)].elementsEqual(needle) {
                    word.textRange = at..<(at + needle.count)
                    from = at + needle.count
                    break
                }
                at += 1
            }
            return word
        }
    }

    /// Clockwise quarter turns that make a block of `orientation` upright
    /// (`ORIENTATION_PAGE_RIGHT`: the page's top points right, so it was turned 90° clockwise).
    static func quarterTurns(_ orientation: TessOrientation) -> Int {
        switch orientation {
        case ORIENTATION_PAGE_RIGHT: return 3
        case ORIENTATION_PAGE_DOWN: return 2
        case ORIENTATION_PAGE_LEFT: return 1
        default: return 0
        }
    }

    /// A box of a `pageWidth` × `pageHeight` image whose block has `orientation`, in the
    /// coordinates of the same image turned upright.
    static func upright(
        x: Int, y: Int, width: Int, height: Int, orientation: TessOrientation,
        pageWidth: Int, pageHeight: Int
    ) -> (Int, Int, Int, Int) {
        switch orientation {
        case ORIENTATION_PAGE_RIGHT: return (y, pageWidth - (x + width), height, width)
        case ORIENTATION_PAGE_DOWN: return (pageWidth - (x + width), pageHeight - (y + height), width, height)
        case ORIENTATION_PAGE_LEFT: return (pageHeight - (y + height), x, height, width)
        default: return (x, y, width, height)
        }
    }
}

/// Carries the caller's progress closure through Tesseract's `cancel_this` pointer (capi.h has no
/// "progress this"; the progress callback reads it back with `TessMonitorGetCancelThis`), and
/// the caller's rule for ending a reading at a line.
final class MonitorContext {
    let progress: ((Int) -> Bool)?
    let stop: ((PageBox) -> Bool)?
    let pageHeight: Int
    private(set) var cancelled = false
    private(set) var stopped = false
    private var last = -1
    init(progress: ((Int) -> Bool)?, stop: ((PageBox) -> Bool)? = nil, pageHeight: Int = 0) {
        self.progress = progress
        self.stop = stop
        self.pageHeight = pageHeight
    }
    func report(_ percent: Int) {
        guard let progress, percent != last else { return }
        last = percent
        if !progress(min(100, max(0, percent))) { cancelled = true }
    }
    /// The box Tesseract is about to read, in its own coordinates (y upwards from the bottom).
    func reached(left: Int, right: Int, top: Int, bottom: Int) {
        guard let stop, !stopped else { return }
        if stop(PageBox(left: left, top: pageHeight - top, right: right, bottom: pageHeight - bottom)) {
            stopped = true
        }
    }
}

/// One character of a word and the engine's choices for it, best first (confidence 0–100).
struct SymbolChoices {
    var text: String
    var choices: [(text: String, confidence: Double)]
}

/// One text line of a page's layout (`TessBaseAPIAnalyseLayout`, `RIL_TEXTLINE`).
struct LayoutLine: Codable, Equatable {
    /// The line's box, pixels of the page from its left and top (`TessPageIteratorBoundingBox`).
    var box: PageBox
    /// The baseline's ends x1, y1, x2, y2 in pixels of the page (`TessPageIteratorBaseline`).
    var baseline: [Int]
    /// The block it belongs to, counted from 0 in reading order.
    var block: Int
    /// Whether Tesseract reads it: its block is of a text type (`readBlockTypes`), not an image,
    /// a ruling or noise.
    var isRead: Bool
    /// Whether its block is written upright, left to right, lines top to bottom.
    var isUpright: Bool
}

/// A word plus the block it came from, for layout.
struct LaidOutWord: Codable, Equatable {
    var word: RecognizedWord
    var block: Int
    /// The word's box as Tesseract reported it, in pixels of the prepared page (as its renderers write it).
    var pageBox = PageBox(left: 0, top: 0, right: 0, bottom: 0)
    /// Whether `word.text` differs from what Tesseract's renderers write (`WordCorrections`).
    var corrected = false
    /// The language whose model read it ("fra", "eng"; `RecognizedWord.language`).
    var language: String? { word.language }
}

/// What to render besides the text (see `TesseractEngine.recognize(_:render:progress:)`).
public struct RenderRequest {
    /// The documents wanted (hOCR is always rendered: the other formats follow its words).
    public var formats: [ExportFormat]
    /// The photo the PDF shows (its input image, `TessBaseAPISetInputImage`).
    public var pdfImage: Image?
    /// The photo's resolution as loaded (its file's, or `--dpi`), DPI; 0 when it gives none. Kept
    /// apart from `pdfImage`, whose pixels a preparation may share (a grey photo's) and mark 300.
    public var pdfResolution: Int
    /// The document title (`TessResultRendererBeginDocument`).
    public var title: String
    /// Whether a renderer that cannot run is left out rather than an error.
    public var ifPossible: Bool

    /// A request from its parts.
    public init(formats: [ExportFormat], pdfImage: Image?, title: String, ifPossible: Bool = false) {
        self.formats = formats
        self.pdfImage = pdfImage
        self.pdfResolution = pdfImage?.resolution ?? 0
        self.title = title
        self.ifPossible = ifPossible
    }
}
