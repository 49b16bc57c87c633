import Foundation
import Testing

@testable import SnapOCR

#if canImport(Glibc)
    import Glibc
#endif

/// The parent's half of the protocol, supervising a shell script that plays the worker:
/// `sh -c SCRIPT worker REQUEST -- PHOTO`, so the script sees the request as $1 and the photo as $3.
@Suite struct WorkerClientTests {
    func start(_ script: String, timeout: TimeInterval = 20) throws -> WorkerClient {
        try WorkerClient(
            executable: "/bin/sh", workerArguments: ["-c", script, "worker"], options: RecognitionOptions(),
            path: "/photos/linn.png", displayName: "linn.png", timeout: timeout)
    }

    /// Polls until the run's last event (at most 20 s), as `lovesnap ocr` does.
    func events(_ client: WorkerClient) -> [WorkerEvent] {
        var all: [WorkerEvent] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            all += client.poll()
            if let last = all.last, case .progress = last {} else if !all.isEmpty { return all }
            usleep(10_000)
        }
        return all
    }

    /// A shell word that prints `message` as a protocol line.
    func line(_ message: WorkerMessage) throws -> String {
        let json = String(decoding: try message.encodedLine().dropLast(), as: UTF8.self)
        return "'" + json.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @Test func progressAndResultArriveInOrderAndStrayLinesAreSkipped() throws {
        let result = RecognitionResult(
            text: "Lenore\n", meanConfidence: 91, words: [], rotationDegrees: 0,
            notes: [.languagesLoaded(["eng"]), .inverted])
        let future =
            "'{\"event\":\"progress\",\"percent\":70,\"stage\":\"recognizing\",\"v\":\(WorkerProtocol.version + 1)}'"
        let client = try start(
            "printf '%s\\n' \(line(.progress(percent: 40, stage: .preparing))) 'Tesseract says hello' \(future) "
                + "\(line(.result(result)))")
        #expect(client.processIdentifier > 0)
        #expect(events(client) == [.progress(percent: 40, stage: .preparing), .finished(result)])
        #expect(client.poll() == [])
    }

    /// A result line of megabytes (as the documents make it) arrives whole after a progress line,
    /// through many 64 KiB reads of the pipe, and the lines around it too.
    @Test func aResultOfMegabytesArrivesWhole() throws {
        let text = String(repeating: "Lenore, the kettle hums your tune,\n", count: 100_000)  // 3.5 MB
        let result = RecognitionResult(text: text, meanConfidence: 90, words: [], rotationDegrees: 0, notes: [])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lsnap-big-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let lines =
            try WorkerMessage.progress(percent: 99, stage: .recognizing).encodedLine()
            + Data("stray\n".utf8) + WorkerMessage.result(result).encodedLine()
        try lines.write(to: file)
        let client = try start("cat '\(file.path)'")
        #expect(events(client) == [.progress(percent: 99, stage: .recognizing), .finished(result)])
    }

    /// `poll(waitingAtMost:)` returns an event as soon as it is queued: the result of a worker
    /// that answers at once comes long before a 10-minute wait (the time limit fails the test
    /// otherwise), and a worker that says nothing gives no events when the wait is over.
    @Test(.timeLimit(.minutes(1))) func aWaitingPollReturnsWhenAnEventComes() throws {
        let failure = WorkerFailure.unusablePhoto(.notAnImage(path: "/photos/linn.png"))
        let answering = try start("printf '%s\\n' \(line(.failure(failure))); exit 3")
        #expect(answering.poll(waitingAtMost: 600) == [.failed(failure)])
        let silent = try start("sleep 30")
        defer { silent.cancel() }
        #expect(silent.poll(waitingAtMost: 0.05) == [])
    }

    @Test func newlinesAreFoundFromAnOffset() {
        let bytes = Array("ab\ncd\n".utf8)
        #expect(WorkerClient.newline(in: bytes, from: 0) == 2)
        #expect(WorkerClient.newline(in: bytes, from: 3) == 5)
        #expect(WorkerClient.newline(in: bytes, from: 6) == nil)
        #expect(WorkerClient.newline(in: [], from: 0) == nil)
    }

    @Test func theWorkerGetsTheRequestThePhotoAndItsEnvironment() throws {
        let client = try start(
            "printf '%s\\n%s\\n%s\\n%s\\n' \"$1\" \"$2\" \"$3\" \"$OMP_THREAD_LIMIT $SWIFT_BACKTRACE\" >&2; exit 7")
        guard case .failed(.exited(let photo, let status, let lastError))? = events(client).last else {
            Issue.record("expected the exit to be reported")
            return
        }
        #expect(photo == "linn.png" && status == 7)
        #expect(lastError == "\(ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] ?? "1") enable=no")
        let check = try start("test \"$2\" = -- && test \"$3\" = /photos/linn.png && printf '%s' \"$1\" >&2; exit 9")
        guard case .failed(.exited(_, 9, let request?))? = events(check).last else {
            Issue.record("expected the request on stderr")
            return
        }
        #expect(
            try WorkerRequest.decode(json: request)
                == WorkerRequest(options: RecognitionOptions(), displayName: "linn.png"))
    }

    @Test func aFailureTheWorkerReportsIsPassedOn() throws {
        let failure = WorkerFailure.unusablePhoto(.notAnImage(path: "/photos/linn.png"))
        let client = try start("printf '%s\\n' \(line(.failure(failure))); exit 3")
        #expect(events(client) == [.failed(failure)])
    }

    @Test func aCrashBecomesAMessage() throws {
        let client = try start("kill -SEGV $$")
        let last = events(client).last
        #expect(last == .failed(.crashed(photo: "linn.png", signal: SIGSEGV, lastError: nil)))
    }

    @Test func anExitWithoutAResultNamesTheLastThingTheWorkerSaid() throws {
        let client = try start("echo 'loading models' >&2; echo 'std::bad_alloc' >&2; exit 134")
        #expect(events(client) == [.failed(.exited(photo: "linn.png", status: 134, lastError: "std::bad_alloc"))])
    }

    @Test func aHangIsKilledAtTheTimeout() throws {
        let client = try start("exec sleep 30", timeout: 0.3)
        #expect(events(client) == [.failed(.timedOut(photo: "linn.png", seconds: 0.3))])
        #expect(kill(client.processIdentifier, 0) == -1)  // killed, not waited for
    }

    @Test func cancelStopsTheRun() throws {
        let client = try start("printf '%s\\n' \(line(.progress(percent: 5, stage: .loading))); exec sleep 30")
        usleep(100_000)
        client.cancel()
        client.cancel()
        #expect(events(client).last == .failed(.cancelled))
    }

    @Test func aResultThatRacedACancelIsKept() throws {
        let result = RecognitionResult(text: "x\n", meanConfidence: 90, words: [], rotationDegrees: 0)
        let client = try start("printf '%s\\n' \(line(.result(result))); exec sleep 1")
        #expect(events(client) == [.finished(result)])
        client.cancel()
        usleep(1_300_000)
        #expect(client.poll() == [])
    }
}
