import Foundation
import SnapImaging
import SnapProcess
import SnapTestSupport
import Testing

@testable import SnapOCR

/// The reader process (`lovesnap __reader`, `ReaderServer` and `ReaderProcess`): the photo as it
/// is and its light-on-dark blocks read in a process of their own, with the text one engine reads.
/// Serialized: each starts a reader at a time.
@Suite(.serialized) struct ReaderProcessTests {
    /// A link to the `lovesnap` executable of its own, for `ChildProcess` to count this test's
    /// helper processes alone.
    static func executableOfItsOwn() throws -> String {
        let link = TestPaths.temporaryDirectory("helpers").appendingPathComponent("lovesnap").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: TestPaths.lovesnap)
        return link
    }

    /// One engine reads the photo as it is, its blocks alone after it: what the reader must send.
    func readInProcess(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        asIs: RecognitionResult, blocks: RecognitionResult, page: PageMeasurements, count: Int
    ) {
        let engine = try TesseractEngine(options: EngineOptions())
        let photo = try ImageLoader().load(path).image
        let plain = try Preprocessor(options: PreprocessingOptions()).plain(photo)
        plain.image.setResolution(plain.resolution)
        var asIs = try engine.recognize(plain)
        Recognizer.mapBoxes(&asIs.words, of: plain, reduction: 1)
        let alone = try #require(try RegionPolarity.blocksAlone(photo.grayscale()), sourceLocation: sourceLocation)
        let page = try Preprocessor(options: Recognizer.blocksAloneSettings(PreprocessingOptions())).prepare(alone.page)
        page.image.setResolution(page.resolution)
        var blocks = try engine.recognize(page)
        Recognizer.mapBoxes(&blocks.words, of: page, reduction: 1)
        return (asIs, blocks, PageMeasurements(page), alone.blocks)
    }

    func request() -> ReaderRequest {
        ReaderRequest(
            engine: EngineOptions(), preprocessing: PreprocessingOptions(), memoryLimit: ImageLoader.defaultMemoryLimit,
            jpegReductionTarget: PreprocessingOptions().maxDimension)
    }

    @Test func theReaderSendsWhatOneEngineReads() throws {
        // A sign on a stone wall (1200×900, colour): its reading as it is, then its one
        // light-on-dark block alone, word for word, box for box, as read here.
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        let here = try readInProcess(path)
        // The reader loads the photo itself.
        let reader = try ReaderProcess(executable: TestPaths.lovesnap, request: request(), path: path)
        let id = reader.readAsIs(nil, reduction: 1, readsBlocks: true)
        let asIs = try reader.readingAsItIs(id) { _ in true }
        let blocks = try #require(try reader.readingOfBlocks(id) { _ in true })
        // (What the documents are rendered from stays in the process that read: not compared.)
        for (sent, read) in [(asIs.result, here.asIs), (blocks.result, here.blocks)] {
            #expect(sent.words == read.words)
            #expect(sent.text == read.text && sent.meanConfidence == read.meanConfidence)
            #expect(sent.leftOutText == read.leftOutText && sent.notes == read.notes)
        }
        #expect(blocks.result.text == "GARE DU NORD\nAVENUE DES ROSES\nIMPASSE DU MOULIN\n")
        #expect(blocks.blocks == 1 && here.count == 1)
        #expect(blocks.page == here.page)
        #expect(blocks.page?.width == 1325 && blocks.page?.height == 795)
    }

    /// The fixture `name` read by a recognizer of one engine, and by one whose second engine is a
    /// reader process started from `executable`.
    func readByOneEngineAndApart(
        _ name: String, executable: String = TestPaths.lovesnap, languages: [String] = EngineOptions.defaultLanguages,
        region: PhotoRegion? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (serial: RecognitionResult, apart: RecognitionResult) {
        let path = TestPaths.fixture(name)
        var two = RecognitionOptions()
        two.engine.languages = languages
        two.region = region
        var one = two
        one.threads = 1
        let serial = try Recognizer(options: one).recognize(path: path)
        // A run waiting for an answer that never comes fails here, instead of holding up the tests.
        let options = two
        let apart = Pending { try Recognizer(options: options, readerExecutable: executable).recognize(path: path) }
        try #require(
            apart.isDone(waitingAtMost: 120), "the run with a reader is still waiting", sourceLocation: sourceLocation)
        return (serial, try apart.take())
    }

    @Test(arguments: ["sign-on-stone-wall.jpg", "white-sign-on-blue.jpg"])
    func aRecognizerWithAReaderReadsAsOnOneEngine(name: String) throws {
        // As `RecognizerTests.lightBlocksReadBesideReadAsOnOneEngine`, with the readings beside
        // made by a reader process: the same result, note for note, and one reader started. The
        // readings are weighed by their words (doubtful), in the dictionaries of one spelling
        // process.
        let executable = try Self.executableOfItsOwn()
        let (serial, apart) = try readByOneEngineAndApart(name, executable: executable)
        #expect(ChildProcess.count("__reader", executable: executable) == 1)
        #expect(ChildProcess.count("__spelling", executable: executable) == 1)
        #expect(apart.notes.contains(.keptBlocksAlone(1)) == (name == "sign-on-stone-wall.jpg"))
        #expect(apart.notes.contains(.keptPlainReading) == (name == "white-sign-on-blue.jpg"))
        #expect(apart == serial)
    }

    @Test func aDoubtfulCropIsReadAsItIsByTheReaderAsOnOneEngine() throws {
        // A crop of small print (242×130), enlarged 2.6×, read doubtfully (mean confidence 70;
        // the photo as it is, 65): the reader reads it at its own size, then as it is, beside the
        // enlarged reading; the photo as it is is kept. The same result as one engine's, note for
        // note.
        let executable = try Self.executableOfItsOwn()
        let (serial, apart) = try readByOneEngineAndApart("small-print-crop.jpg", executable: executable)
        #expect(ChildProcess.count("__reader", executable: executable) == 1)
        #expect(apart.notes.contains(.keptPlainReading))
        #expect(apart.meanConfidence == 65 && apart.words.count == 41)
        #expect(apart == serial)
    }

    @Test func aClearCropReadByTheReaderAsOnOneEngine() throws {
        // A clear crop (the card, 377×252, enlarged 2.6×): the reading as it is queued on the
        // reader after the crop's at its own size is stopped only once that one is taken (a
        // command stopped stops those before it), and the run ends as on one engine.
        let (serial, apart) = try readByOneEngineAndApart("card-specimen-small.png")
        #expect(!apart.notes.contains(.keptPlainReading))
        #expect(apart.meanConfidence == 94 && apart.words.count == 22)
        #expect(apart == serial)
    }

    @Test func aCropOfAPhotoReadAsItIsFromTheStartEndsAsOnOneEngine() throws {
        // A small page on a dark table (the photo 1636×1519, read as it is from the start with its
        // blocks after it; the page found, 730×644, is a crop, enlarged 2×). The reading as it is
        // is stopped for the crop's at its own size, and asked again after it without blocks. Read
        // in English alone, the prepared reading is doubtful (mean confidence 90), the photo as it
        // is kept (85), and the blocks are looked for: they were waited for from the second
        // command, which reads none, for ever.
        let executable = try Self.executableOfItsOwn()
        let (serial, apart) = try readByOneEngineAndApart(
            "small-page-on-dark-table.jpg", executable: executable, languages: ["eng"])
        #expect(ChildProcess.count("__reader", executable: executable) == 1)
        #expect(apart.notes.contains(.keptPlainReading))
        #expect(apart.meanConfidence == 85 && apart.words.count == 61)
        #expect(apart == serial)
    }

    @Test func aRegionReadAsItIsByTheReaderIsTheRegion() throws {
        // A region of a crop of small print (48,13,146,65 of 242×130) is a crop too: the reader
        // reads it at its own size, then as it is. It was asked to read the photo as it is from
        // the file, which is the whole photo: its six lines were kept ("read as photographed"),
        // their boxes moved by the region's offset. The region's pixels are handed over now.
        let region = PhotoRegion(x: 20, y: 10, width: 60, height: 50, unit: .percent)
        let (serial, apart) = try readByOneEngineAndApart("small-print-crop.jpg", region: region)
        #expect(apart.region == BoundingBox(x: 48, y: 13, width: 146, height: 65))
        #expect(!apart.notes.contains(.keptPlainReading))
        #expect(apart.text == "arbour Lampe go ut at tue\nsn sie Weeping 6 the pe\nst the beets tha carry you\n")
        #expect(
            apart.words.allSatisfy { w in
                let b = w.boundingBox
                return b.x >= 48 && b.y >= 13 && b.x + b.width <= 48 + 146 && b.y + b.height <= 13 + 65
            })
        #expect(apart == serial)
    }

    @Test func aCommandHasEndedOnceItsLastAnswerCame() throws {
        let path = TestPaths.fixture("card-specimen-small.png")
        let reader = try ReaderProcess(executable: TestPaths.lovesnap, request: request(), path: path)
        let alone = reader.readAsIs(nil, reduction: 1, readsBlocks: false)
        let withBlocks = reader.readAsIs(nil, reduction: 1, readsBlocks: true)
        // (A reading takes tens of milliseconds: nothing has come yet.)
        #expect(!reader.hasEnded(alone) && !reader.hasEnded(withBlocks))
        _ = try reader.readingAsItIs(alone) { _ in true }
        #expect(reader.hasEnded(alone))
        _ = try reader.readingAsItIs(withBlocks) { _ in true }
        _ = try reader.readingOfBlocks(withBlocks) { _ in true }
        #expect(reader.hasEnded(withBlocks))
        // A command without blocks is answered at once that none will come.
        #expect(throws: ReaderProcess.Failure(reason: "command \(alone) reads no light-on-dark blocks")) {
            try reader.readingOfBlocks(alone) { _ in true }
        }
        let never = withBlocks + 1
        #expect(!reader.hasEnded(never))
        reader.cancel()
        #expect(reader.hasEnded(never))
    }

    @Test func aReaderThatFailsLeavesTheReadingsToTheWorker() throws {
        // `/bin/false` starts and exits with status 1 without a line: both readings are made
        // in this process instead, with the same result.
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        var one = RecognitionOptions()
        one.threads = 1
        let serial = try Recognizer(options: one).recognize(path: path)
        let reader = try ReaderProcess(executable: "/bin/false", request: request(), path: path)
        let id = reader.readAsIs(try ImageLoader().load(path).image, reduction: 1, readsBlocks: true)
        #expect(throws: ReaderProcess.Failure(reason: "the reader exited with status 1")) {
            try reader.readingAsItIs(id) { _ in true }
        }
        let fallen = try Recognizer(readerExecutable: "/bin/false").recognize(path: path)
        #expect(fallen == serial)
        // Nor does one that cannot be started stop the reading.
        let missing = try Recognizer(readerExecutable: "/nonexistent/lovesnap").recognize(path: path)
        #expect(missing == serial)
    }

    @Test func aCommandTheReaderCannotDoIsAFailureThatSaysWhyAndTheReaderGoesOn() throws {
        // A part asked for before any page was laid out.
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        let reader = try ReaderProcess(executable: TestPaths.lovesnap, request: request(), path: path)
        let part = reader.readPart(top: 10)
        #expect(!reader.partStarted(part))
        #expect(throws: ReaderProcess.Failure(reason: "\(OCRError.recognitionFailed)")) {
            try reader.part(part) { _ in true }
        }
        let id = reader.readAsIs(try ImageLoader().load(path).image, reduction: 1, readsBlocks: false)
        #expect(try reader.readingAsItIs(id) { _ in true }.result.words == (try readInProcess(path)).asIs.words)
    }

    @Test func aCancelledReaderEndsAndItsReadingsAreCancelled() throws {
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        let photo = try ImageLoader().load(path).image
        let reader = try ReaderProcess(executable: TestPaths.lovesnap, request: request(), path: path)
        let id = reader.readAsIs(photo, reduction: 1, readsBlocks: true)
        reader.cancel()
        #expect(throws: OCRError.cancelled) { try reader.readingAsItIs(id) { _ in true } }
        // Stopped from the progress callback, the reader reads on: the next command is answered.
        let other = try ReaderProcess(executable: TestPaths.lovesnap, request: request(), path: path)
        let stopped = other.readAsIs(photo, reduction: 1, readsBlocks: true)
        #expect(throws: OCRError.cancelled) { try other.readingAsItIs(stopped) { _ in false } }
        let again = other.readAsIs(photo, reduction: 1, readsBlocks: false)
        let read = try other.readingAsItIs(again) { _ in true }
        #expect(read.result.words == (try readInProcess(path)).asIs.words)
    }

    @Test func aPhotoWhosePixelsAreSharedIsMappedByTheReaderAndReadAsHere() throws {
        // Loaded as the worker loads it (`sharingRaster`, with the allocator the worker installs:
        // `LibraryTuning.activate`): the reader maps its memory file.
        LibraryTuning.activate()
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        let photo = try ImageLoader().load(path, sharingRaster: true).image
        #expect(photo.sharedRaster != nil)
        let reader = try ReaderProcess(executable: TestPaths.lovesnap, request: request(), path: "/nonexistent")
        let id = reader.readAsIs(photo, reduction: 1, readsBlocks: true)
        let here = try readInProcess(path)
        #expect(try reader.readingAsItIs(id) { _ in true }.result.words == here.asIs.words)
        #expect(try reader.readingOfBlocks(id) { _ in true }?.result.words == here.blocks.words)
    }

    @Test func aCropIsPreparedAndReadByTheReaderAsHere() throws {
        // The crop handed over in a memory file with its resolution, prepared and read there.
        let photo = try ImageLoader().load(TestPaths.fixture("card-specimen-small.png")).image
        var settings = PreprocessingOptions()
        settings.rescaleToTextHeight = false
        let page = try Preprocessor(options: settings).prepare(photo)
        page.image.setResolution(page.resolution)
        var here = try TesseractEngine().recognize(page)
        Recognizer.mapBoxes(&here.words, of: page, reduction: 1)
        let reader = try ReaderProcess(
            executable: TestPaths.lovesnap, request: request(), path: TestPaths.fixture("card-specimen-small.png"))
        let id = reader.readPrepared(photo, settings: settings, reduction: 1)
        let apart = try reader.preparedReading(id) { _ in true }
        #expect(apart.result.words == here.words && apart.result.text == here.text)
        #expect(apart.page == PageMeasurements(page))
        #expect(!here.words.isEmpty)
    }

    @Test func aRequestOfAnotherVersionIsRefused() throws {
        var old = request()
        old.v = ReaderProtocol.version + 1
        #expect(throws: WorkerProtocolError.unsupportedVersion(ReaderProtocol.version + 1)) {
            try ReaderRequest.decode(json: try old.json())
        }
        #expect(try ReaderRequest.decode(json: try request().json()) == request())
    }
}
