import CInterposed
import CLeptonica
import SnapExport
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// A page read by two engines (`SharedReading`) reads as by one: where it is cut, and that the
/// text, words, boxes and confidences are the one engine's.
@Suite struct SharedReadingTests {
    /// Lines `count` high from `top`, `pitch` apart, one block, baseline `drop` above the bottom.
    static func lines(
        _ count: Int, top: Int = 100, pitch: Int = 60, height: Int = 40, drop: Int = 10, left: Int = 0,
        right: Int = 1000, block: Int = 0
    ) -> [LayoutLine] {
        (0..<count).map { i in
            let t = top + i * pitch
            let baseline = t + height - drop
            return LayoutLine(
                box: PageBox(left: left, top: t, right: right, bottom: t + height),
                baseline: [left, baseline, right, baseline], block: block, isRead: true, isUpright: true)
        }
    }

    @Test func linesWithRoomBetweenThemAreCutInTheMiddle() {
        // Rise 30 × 1.3 = 39 above the baseline, drop 10 × 1.2 = 12 below it, 4 + 1 padding:
        // line 3 ends at 100 + 210 + 42 + 5 = 357, line 4 starts at 380 − 9 − 5 = 366. The second
        // engine's part holds lines 4 and 5 too (their language), and starts right below line 3:
        // 6 lines of 10 for each engine.
        #expect(
            SharedReading.cut(of: Self.lines(10, pitch: 70), minimumWork: 0)
                == SharedReading.Cut(split: 6, top: 357, share: 0.6))
        // 60 px apart, each line's image reaches 1 row into the next one's: the part starts right
        // below line 3 (at 327), through line 4 (60 of its 61 rows, read for nothing).
        #expect(
            SharedReading.cut(of: Self.lines(10, pitch: 60), minimumWork: 0)
                == SharedReading.Cut(split: 7, top: 327, share: 0.7))
        // Ten lines of 1000 × 40 px are 250 line heights of work: not worth a second engine.
        #expect(SharedReading.cut(of: Self.lines(10, pitch: 70)) == nil)
    }

    @Test func tightLinesAreCutThroughTheLineBeforeThePart() {
        // 50 px apart, each line's image (61 rows) reaches 11 rows into the next one's: the part
        // starts right below line 3 (at 297), through line 4 (50 of its 61 rows: 0.82 of it, read
        // for nothing at 25 / 0.82 = 30.5); the second engine reads that, lines 5 and 6 again and
        // its own 7–9 (155.5 of 250), the first lines 0–6 (175).
        #expect(
            SharedReading.cut(of: Self.lines(10, pitch: 50), minimumWork: 0)
                == SharedReading.Cut(split: 7, top: 297, share: 0.7))
        // 30 px apart, each line's image reaches past the next line: no part can start through
        // one line only.
        #expect(SharedReading.cut(of: Self.lines(10, pitch: 30), minimumWork: 0) == nil)
        // Where a stanza ends, 40 px further on: lines 5–9 after a gap, the second engine's part
        // from line 5 (no line cut through), its own lines from 7.
        let page = Self.lines(5, pitch: 50) + Self.lines(5, top: 100 + 5 * 50 + 40, pitch: 50)
        #expect(SharedReading.cut(of: page, minimumWork: 0) == SharedReading.Cut(split: 7, top: 347, share: 0.7))
    }

    @Test func twoColumnsAreCutOnlyBelowThem() {
        // Reading order: the left column, the right column, then a full-width part below.
        let left = Self.lines(5, pitch: 70, right: 400, block: 0)
        let right = Self.lines(5, pitch: 70, left: 500, right: 900, block: 1)
        let below = Self.lines(6, top: 100 + 5 * 70, pitch: 70, right: 900, block: 2)
        let cut = SharedReading.cut(of: left + right + below, minimumWork: 0)
        // Not within the columns (the second engine's part would hold both), but in the part
        // below, after its first two lines: the first engine reads 10 × 400/40 + 2 × 900/40 = 145
        // of 235, the second those two lines again and the other four (135).
        #expect(cut?.split == 12)
        #expect(cut?.top == 427)
        #expect(((cut?.share ?? 0) * 1000).rounded() == 617)
    }

    @Test func shortOrTurnedPagesAreNotCut() {
        #expect(SharedReading.cut(of: Self.lines(SharedReading.minimumLines, pitch: 70), minimumWork: 0) != nil)
        #expect(SharedReading.cut(of: Self.lines(SharedReading.minimumLines - 1, pitch: 70), minimumWork: 0) == nil)
        var turned = Self.lines(10, pitch: 70)
        turned[3].isUpright = false
        #expect(SharedReading.cut(of: turned, minimumWork: 0) == nil)
    }

    @Test func theSecondEnginesLinesAreTheLayoutsByTheirBoxes() {
        let layout = Self.lines(10, pitch: 70)
        func word(_ text: String, line: Int, at layoutLine: Int, x: Int) -> LaidOutWord {
            let b = layout[layoutLine].box
            return LaidOutWord(
                word: RecognizedWord(
                    text: text, boundingBox: BoundingBox(x: 0, y: 0, width: 1, height: 1), confidence: 90,
                    line: line),
                block: 0, pageBox: PageBox(left: x, top: b.top + 2, right: x + 50, bottom: b.bottom - 1))
        }
        // Tesseract's own count: line 0 holds a line it read before the cut (layout line 4), then
        // layout lines 5 and 7 (line 6 had no words).
        let read = [
            word("wasted", line: 0, at: 4, x: 0), word("five", line: 1, at: 5, x: 0),
            word("more", line: 1, at: 5, x: 80),
            word("seven", line: 2, at: 7, x: 0),
        ]
        let numbered = SharedReading.numbered(read, in: layout)
        #expect(numbered.map(\.word.line) == [4, 5, 5, 7])
        let first = TesseractEngine.WordsRead(
            words: [word("zero", line: 0, at: 0, x: 0), word("four", line: 4, at: 4, x: 0)], confidences: [80, 70],
            quarterTurns: 0)
        let second = TesseractEngine.WordsRead(words: numbered, confidences: [10, 91, 92, 93], quarterTurns: 0)
        let merged = SharedReading.merge(first, second, lines: layout, split: 5)
        #expect(merged.words.map(\.word.text) == ["zero", "four", "five", "more", "seven"])
        #expect(merged.confidences == [80, 70, 91, 92, 93])
    }

    /// Pages of the project's fixtures that have a cut, and where it is: the first line of the
    /// second engine's own part, of the lines found. (With one line read again instead of two,
    /// the last two left the second engine in another language: read again by the first.)
    static let pages: [(String, SharedReading.Outcome)] = [
        ("dense-two-columns.png", .shared(split: 66, lines: 93)), ("curled-page.jpg", .shared(split: 6, lines: 10)),
        ("page-on-dark-table.jpg", .shared(split: 8, lines: 14)), ("dim-warm-light.jpg", .shared(split: 6, lines: 10)),
        ("page-on-wood-table.jpg", .shared(split: 6, lines: 10)),
        ("tight-page-with-ruling.png", .shared(split: 22, lines: 40)),
    ]

    /// With `laysOutAtOnce`, the second engine finds the layout beside the first engine, before
    /// the cut is known: the same outcome and reading.
    @Test(arguments: pages, [false, true])
    func aPageSharedByTwoEnginesReadsAsByOne(page: (name: String, outcome: SharedReading.Outcome), laysOutAtOnce: Bool)
        throws
    {
        let (name, outcome) = page
        let page = try Preprocessor().prepare(ImageLoader().load(TestPaths.fixture(name)).image)
        let alone = try TesseractEngine().recognize(page)
        let first = try TesseractEngine()
        let second = SecondEngine(options: EngineOptions())
        // These pages are shorter than is worth sharing (`minimumWork`): shared all the same.
        let shared = try SharedReading.read(
            page, first: first, second: .inProcess(second), waitsForSecond: true, minimumWork: 0,
            laysOutAtOnce: laysOutAtOnce
        ) { _ in true }
        #expect(shared.outcome == outcome)
        #expect(shared.result == alone)
        #expect(shared.result.words.count > 40)
    }

    /// The same pages shared with the reader process's engine (`ReaderProcess`, the worker's):
    /// the page handed over in a memory file, laid out and read there, the same outcome and
    /// reading, word for word, box for box.
    @Test(arguments: pages, [false, true])
    func aPageSharedWithTheReaderReadsAsByOne(page: (name: String, outcome: SharedReading.Outcome), laysOutAtOnce: Bool)
        throws
    {
        let (name, outcome) = page
        let path = TestPaths.fixture(name)
        let page = try Preprocessor().prepare(ImageLoader().load(path).image)
        let alone = try TesseractEngine().recognize(page)
        let first = try TesseractEngine()
        let reader = try ReaderProcess(
            executable: TestPaths.lovesnap,
            request: ReaderRequest(
                engine: EngineOptions(), preprocessing: PreprocessingOptions(),
                memoryLimit: ImageLoader.defaultMemoryLimit, jpegReductionTarget: nil),
            path: path)
        defer { reader.cancel() }
        let shared = try SharedReading.read(
            page, first: first, second: .apart(reader), waitsForSecond: true, minimumWork: 0,
            laysOutAtOnce: laysOutAtOnce
        ) { _ in true }
        #expect(shared.outcome == outcome)
        #expect(shared.result == alone)
    }

    @Test func aTightPageIsCutThroughALineAndItsRulingAndFigureAreLeftOut() throws {
        LibraryTuning.activate()
        let page = try Preprocessor().prepare(ImageLoader().load(TestPaths.fixture("tight-page-with-ruling.png")).image)
        let engine = try TesseractEngine()
        let composites = brick_morphology_composite_count()
        let layout = engine.analyseLayout(page)
        // Tesseract's search for ruling lines opened the page with long bricks, made by
        // Leptonica's composite bricks (CInterposed/brick_morphology.c): the layout below is Leptonica's own.
        #expect(brick_morphology_composite_count() > composites)
        // The ruling and the figure are found as lines of blocks Tesseract does not read.
        #expect(layout.count == 42)
        let lines = layout.filter(\.isRead)
        #expect(lines.count == 40)
        let cut = try #require(SharedReading.cut(of: lines, minimumWork: 0))
        #expect(cut.split == 22)
        #expect(cut.top == 1381)
        // The part starts through the image of the line before the two it reads again, right
        // below the image of the line before that.
        let images = SharedReading.lineImages(of: lines)
        #expect(images[cut.split - 3].top < cut.top && images[cut.split - 3].bottom > cut.top)
        #expect(images[cut.split - 4].bottom == cut.top)
        // Each line's image reaches into the next one's: no part could start between two lines.
        #expect(lines.indices.dropFirst().allSatisfy { images[$0 - 1].bottom > images[$0].top })
    }

    @Test func aReadingBesideGivesTheSecondEngineBackWhenThePageIsShared() throws {
        // The photo read as it is beside holds the second engine from the start; the first
        // engine's layout finds a cut, the reading beside is stopped and gives the engine back
        // (the second engine's thread waits for it), and the page is shared.
        let name = "page-on-dark-table.jpg"
        let photo = try ImageLoader().load(TestPaths.fixture(name)).image
        let page = try Preprocessor().prepare(photo)
        let first = try TesseractEngine()
        let alone = try first.recognize(page)
        let second = SecondEngine(options: EngineOptions())
        let beside = PlainReading(
            try Preprocessor().plain(photo), engine: EngineOptions(), second: second, reduction: 1)
        var stopped = false
        let shared = try SharedReading.read(
            page, first: first, second: .inProcess(second), waitsForSecond: true, minimumWork: 0,
            whenShared: {
                beside.cancel()
                stopped = true
            }, progress: { _ in true })
        #expect(stopped)
        #expect(shared.outcome == .shared(split: 8, lines: 14))
        #expect(shared.result == alone)
    }

    /// The fixture `name` read by a run with one engine and by a run with two, which must read
    /// it alike: the same text, words and mean confidence.
    static func readByOneAndTwo(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        alone: RecognitionResult, shared: RecognitionResult
    ) {
        try readByOneAndTwo(path: TestPaths.fixture(name))
    }

    /// The photo at `path` read by a run with one engine and by a run with two (as above).
    static func readByOneAndTwo(path: String) throws -> (alone: RecognitionResult, shared: RecognitionResult) {
        var one = RecognitionOptions()
        one.threads = 1
        var two = RecognitionOptions()
        two.threads = 2
        let alone = try Recognizer(options: one).recognize(path: path)
        let shared = try Recognizer(options: two).recognize(path: path)
        #expect(shared.text == alone.text)
        #expect(shared.words == alone.words)
        #expect(shared.meanConfidence == alone.meanConfidence)
        // The worker's way: the second engine is the reader process's, with the same result,
        // note for note, as the second engine here.
        let apart = try Recognizer(options: two, readerExecutable: TestPaths.lovesnap).recognize(path: path)
        #expect(apart == shared)
        return (alone, shared)
    }

    @Test func aRunWithTwoEnginesReadsAsARunWithOne() throws {
        let (alone, shared) = try Self.readByOneAndTwo("dense-two-columns.png")
        #expect(alone.notes.filter { if case .readByTwoEngines = $0 { true } else { false } } == [])
        // The page is rescaled (transformed): the photo as it is and its light blocks were being
        // read beside on the second engine, and gave it back when the layout showed a long page.
        // (The second engine starts within a second; the first reaches the cut after about four.)
        #expect(shared.notes.contains(.readByTwoEngines(from: 67, lines: 93)))
    }

    /// A crop (`Recognizer.cropPixels`) is enlarged, and read at its own size too: that reading is
    /// the second engine's, so the enlarged crop is not shared from `minimumWorkOfFreeSecond`,
    /// though the second engine reads no photo as it is beside (the crop is grey). Shared, the
    /// crop took the second engine first, and the reading at its own size loaded a third.
    @Test func aCropIsNotSharedWhileTheSecondEngineReadsItAtItsOwnSize() throws {
        // The printed part of the grey scan's top: 628×796 pixels (0.5 Mpx), 11 lines.
        let scan = try ImageLoader().load(TestPaths.fixture("clean-scan-grey.png")).image
        let crop = try scan.clipped(x: 96, y: 0, width: 628, height: 796)
        let path = TestPaths.temporaryDirectory("crop").appendingPathComponent("crop.png").path
        #expect(pixWrite(path, crop.pix, l_int32(IFF_PNG)) == 0)
        let (alone, shared) = try Self.readByOneAndTwo(path: path)
        #expect(alone.text.split(whereSeparator: \.isNewline).count == 11)
        #expect(!shared.notes.contains { if case .readByTwoEngines = $0 { true } else { false } })
        // Read enlarged, then at its own size.
        #expect(shared.notes.filter { if case .read = $0 { true } else { false } }.count == 2)
    }

    /// A grey scan is not read as it is from the start (`Recognizer.readsAsItIsFromTheStart`):
    /// the second engine is free, and shares even a short page's reading
    /// (`SharedReading.minimumWorkOfFreeSecond`) instead of reading the page as it is beside.
    @Test func aShortGreyScanIsSharedWhenTheSecondEngineIsFree() throws {
        let (alone, shared) = try Self.readByOneAndTwo("clean-scan-grey.png")
        #expect(!alone.notes.contains { if case .readByTwoEngines = $0 { true } else { false } })
        #expect(shared.text == (try String(contentsOfFile: TestPaths.fixture("clean-scan-grey.txt"), encoding: .utf8)))
        #expect(shared.notes.contains(.readByTwoEngines(from: 9, lines: 14)))
        // Read clear: not read as it is, before or after.
        #expect(!shared.notes.contains(.keptPlainReading))
        #expect(!shared.notes.contains { if case .compared = $0 { true } else { false } })
    }
}
