import Foundation
import SnapImaging
import SnapTestSupport
import Synchronization
import Testing

@testable import SnapOCR

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's half of the protocol, driven in this process through a pipe, on real images.
@Suite struct WorkerServerTests {
    @Test func freedImageMemoryIsKeptBelow32MiB() {
        // 32 MiB: where glibc's own threshold stops rising (DEFAULT_MMAP_THRESHOLD_MAX, 64-bit).
        #expect(WorkerServer.mallocMapThreshold == 32 << 20)
        #expect(WorkerServer.mallocTrimThreshold == 256 << 20)
        #expect(WorkerServer.keepFreedImageMemory())
    }

    /// What one `serve` call returned and wrote.
    struct Served {
        var outcome: Result<RecognitionResult, WorkerFailure>
        /// All that was written; when `resultSent` was called, what had been written by then.
        var messages: [WorkerMessage]
        /// How many times `serve` called `resultSent`.
        var resultSentCalls: Int
    }

    /// Reads a pipe to its end on its own thread, so the server never blocks on a full pipe.
    final class Drain: Sendable {
        private let data = Mutex(Data())
        private let done = DispatchSemaphore(value: 0)
        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                let all = handle.readDataToEndOfFile()
                data.withLock { $0 = all }
                done.signal()
            }
        }
        func wait() -> Data {
            done.wait()
            return data.withLock { $0 }
        }
    }

    func serve(_ request: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Served {
        let pipe = Pipe()
        let drain = Drain(pipe.fileHandleForReading)
        // The worker process ends in `resultSent`: the pipe is closed there, and what it holds
        // then is all its parent gets.
        var calls = 0
        let outcome = WorkerServer(output: pipe.fileHandleForWriting).serve(request: request, path: path) {
            calls += 1
            try? pipe.fileHandleForWriting.close()
        }
        if calls == 0 { try pipe.fileHandleForWriting.close() }
        let lines = drain.wait().split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(lines.last?.isEmpty == true, "every message ends with LF", sourceLocation: sourceLocation)
        return Served(
            outcome: outcome, messages: try lines.dropLast().map { try WorkerMessage.decode(line: Data($0)) },
            resultSentCalls: calls)
    }

    func request(_ options: RecognitionOptions = RecognitionOptions(), name: String) throws -> String {
        try WorkerRequest(options: options, displayName: name).json()
    }

    @Test func kettleIsReadWithProgressThenTheResult() throws {
        let served = try serve(request(name: "kettle.png"), TestPaths.sample("kettle.png"))
        let result = try served.outcome.get()
        #expect(result.text == (try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)))
        #expect(
            result.notes.map(\.description) == [
                "languages loaded: fra+eng",
                "tesseract: text height 22.00 px, scale 1.00, 1100×439 px, inverted false, deskew 0.00°",
                "tesseract: mean confidence 93, 25 words, score 109.1",
                "text detector: 4 regions, 88 % of their length covered by the reading",
                "second recognizer: 9 words read again, 9 read the same way",
            ])
        #expect(served.messages.last == .result(result))
        #expect(served.resultSentCalls == 1, "the worker may end once the result is written")
        let progress = served.messages.dropLast().map { message -> (Int, RecognitionStage)? in
            if case .progress(let percent, let stage) = message { return (percent, stage) }
            return nil
        }
        #expect(progress.allSatisfy { $0 != nil }, "only progress before the result")
        let steps = progress.compactMap { $0 }
        #expect(steps.first.map { $0.0 == 0 && $0.1 == .loading } == true)
        #expect(steps.last.map { $0.0 == 100 && $0.1 == .done } == true)
        #expect(steps.map(\.0) == steps.map(\.0).sorted(), "percentages never go back")
        #expect(steps.map(\.1).uniqued() == [.loading, .preparing, .recognizing, .done])
    }

    @Test func whatWasDoneToThePhotoComesWithTheResult() throws {
        let served = try serve(request(name: "kettle-exif6.jpg"), TestPaths.sample("kettle-exif6.jpg"))
        let result = try served.outcome.get()
        #expect(
            result.notes.filter { !$0.isDiagnostic }.map(\.description) == [
                "EXIF orientation 6 applied", "page found and straightened", "dim or uneven light evened out",
            ])
        #expect(result.rotationDegrees == 90)
    }

    @Test func aMissingPhotoIsTheImagingError() throws {
        let served = try serve(request(name: "poem.png"), "/nonexistent/poem.png")
        let failure = WorkerFailure.unusablePhoto(.fileNotFound(path: "/nonexistent/poem.png"))
        #expect(served.outcome == .failure(failure))
        #expect(served.messages == [.progress(percent: 0, stage: .loading), .failure(failure)])
        #expect(served.resultSentCalls == 0)
    }

    @Test func aTextFileIsNotAnImage() throws {
        let path = TestPaths.sample("kettle.txt")
        let served = try serve(request(name: "kettle.txt"), path)
        #expect(served.messages.last == .failure(.unusablePhoto(.notAnImage(path: path))))
    }

    @Test func aMissingLanguageIsTheEngineError() throws {
        var options = RecognitionOptions()
        options.engine.languages = ["eng", "xyz"]
        let served = try serve(request(options, name: "kettle.png"), TestPaths.sample("kettle.png"))
        let failure = WorkerFailure.engineUnavailable(
            .languagesNotLoaded(
                problems: [
                    LanguageProblem(
                        language: "xyz", path: "/usr/share/tesseract-ocr/5/tessdata/xyz.traineddata",
                        reason: .fileNotFound)
                ],
                tessdata: "/usr/share/tesseract-ocr/5/tessdata/"))
        #expect(served.outcome == .failure(failure))
        #expect(served.messages.last == .failure(failure))
        #expect(served.resultSentCalls == 0)
    }

    @Test func aMissingTessdataFolder() throws {
        var options = RecognitionOptions()
        options.engine.tessdataPath = "/nonexistent/tessdata"
        let served = try serve(request(options, name: "kettle.png"), TestPaths.sample("kettle.png"))
        #expect(served.outcome == .failure(.engineUnavailable(.tessdataMissing(path: "/nonexistent/tessdata"))))
    }

    @Test(arguments: ["", "{}", "not json", "{\"v\":2}"])
    func aRequestThatIsNotOneIsRefused(request: String) throws {
        let served = try serve(request, TestPaths.sample("kettle.png"))
        #expect(served.outcome == .failure(.badRequest))
        #expect(served.messages == [.failure(.badRequest)])
    }

    @Test func aRequestOfAnotherVersionIsRefused() throws {
        var future = WorkerRequest(options: RecognitionOptions(), displayName: "kettle.png")
        future.v = WorkerProtocol.version + 1
        let served = try serve(future.json(), TestPaths.sample("kettle.png"))
        #expect(served.messages == [.failure(.badRequest)])
    }
}

extension Array where Element: Equatable {
    /// The elements with consecutive repeats dropped.
    func uniqued() -> [Element] {
        reduce(into: []) { out, e in if out.last != e { out.append(e) } }
    }
}
