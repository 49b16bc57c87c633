import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// The reader process (`lovesnap __reader`, `ReaderServer` and `ReaderProcess`): the photo as it
/// is and its light-on-dark blocks read in a process of their own, with the text one engine reads.
/// Serialized: `ReaderProcess.started` counts the readers this test process starts.
@Suite(.serialized) struct ReaderProcessTests {
    /// One engine reads the photo as it is, its blocks alone after it: what the reader must send.
    func readInProcess(_ path: String) throws -> (
        asIs: RecognitionResult, blocks: RecognitionResult, page: PageMeasurements, count: Int
    ) {
        let engine = try TesseractEngine(options: EngineOptions())
        let photo = try ImageLoader(jpegReductionTarget: PreprocessingOptions().maxDimension).load(path).image
        let plain = try Preprocessor(options: PreprocessingOptions()).plain(photo)
        plain.image.setResolution(plain.resolution)
        var asIs = try engine.recognize(plain)
        Recognizer.mapBoxes(&asIs.words, of: plain, reduction: 1)
        let alone = try #require(try RegionPolarity.blocksAlone(photo.grayscale()))
        let page = try Preprocessor(options: Recognizer.blocksAloneSettings(PreprocessingOptions())).prepare(alone.page)
        page.image.setResolution(page.resolution)
        var blocks = try engine.recognize(page)
        Recognizer.mapBoxes(&blocks.words, of: page, reduction: 1)
        return (asIs, blocks, PageMeasurements(page), alone.blocks)
    }

    func request(readsBlocks: Bool = true) -> ReaderRequest {
        ReaderRequest(
            engine: EngineOptions(), preprocessing: PreprocessingOptions(), memoryLimit: ImageLoader.defaultMemoryLimit,
            jpegReductionTarget: PreprocessingOptions().maxDimension, readsBlocks: readsBlocks)
    }

    @Test func theReaderSendsWhatOneEngineReads() throws {
        // A sign on a stone wall (1200×900, colour): its reading as it is, then its one
        // light-on-dark block alone, word for word, box for box, as read here.
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        let here = try readInProcess(path)
        let reader = try ReaderProcess(executable: TestPaths.lovesnap, request: request(), path: path)
        let asIs = try reader.readingAsItIs { _ in true }
        let blocks = try #require(try reader.readingOfBlocks { _ in true })
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

    @Test(arguments: ["sign-on-stone-wall.jpg", "white-sign-on-blue.jpg"])
    func aRecognizerWithAReaderReadsAsOnOneEngine(name: String) throws {
        // As `RecognizerTests.lightBlocksReadBesideReadAsOnOneEngine`, with the readings beside
        // made by a reader process: the same result, note for note, and one reader started.
        let path = TestPaths.fixture(name)
        var one = RecognitionOptions()
        one.threads = 1
        let serial = try Recognizer(options: one).recognize(path: path)
        let before = ReaderProcess.started.load(ordering: .relaxed)
        let apart = try Recognizer(readerExecutable: TestPaths.lovesnap).recognize(path: path)
        #expect(ReaderProcess.started.load(ordering: .relaxed) == before + 1)
        #expect(apart.notes.contains(.keptBlocksAlone(1)) == (name == "sign-on-stone-wall.jpg"))
        #expect(apart.notes.contains(.keptPlainReading) == (name == "white-sign-on-blue.jpg"))
        #expect(apart == serial)
    }

    @Test func aReaderThatFailsLeavesTheReadingsToTheWorker() throws {
        // `/bin/false` starts and exits with status 1 without a line: both readings are made
        // in this process instead, with the same result.
        let path = TestPaths.fixture("sign-on-stone-wall.jpg")
        var one = RecognitionOptions()
        one.threads = 1
        let serial = try Recognizer(options: one).recognize(path: path)
        let reader = try ReaderProcess(executable: "/bin/false", request: request(), path: path)
        #expect(throws: ReaderProcess.Failure(reason: "the reader exited with status 1")) {
            try reader.readingAsItIs { _ in true }
        }
        let fallen = try Recognizer(readerExecutable: "/bin/false").recognize(path: path)
        #expect(fallen == serial)
        // Nor does one that cannot be started stop the reading.
        let missing = try Recognizer(readerExecutable: "/nonexistent/lovesnap").recognize(path: path)
        #expect(missing == serial)
    }

    @Test func aPhotoTheReaderCannotLoadIsAFailureThatSaysWhy() throws {
        let reader = try ReaderProcess(
            executable: TestPaths.lovesnap, request: request(), path: "/nonexistent/photo.jpg")
        #expect(throws: ReaderProcess.Failure(reason: "/nonexistent/photo.jpg: No such file or directory")) {
            try reader.readingAsItIs { _ in true }
        }
        #expect(throws: ReaderProcess.Failure.self) { try reader.readingOfBlocks { _ in true } }
    }

    @Test func aCancelledReaderEndsAndItsReadingsAreCancelled() throws {
        let reader = try ReaderProcess(
            executable: TestPaths.lovesnap, request: request(), path: TestPaths.fixture("sign-on-stone-wall.jpg"))
        reader.cancel()
        #expect(throws: OCRError.cancelled) { try reader.readingAsItIs { _ in true } }
        // Cancelled from the progress callback too.
        let other = try ReaderProcess(
            executable: TestPaths.lovesnap, request: request(), path: TestPaths.fixture("sign-on-stone-wall.jpg"))
        #expect(throws: OCRError.cancelled) { try other.readingAsItIs { _ in false } }
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
