import Foundation
import SnapTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The OCR engine runs in a worker process: whatever happens to it, `lovesnap ocr` answers with a
/// message and its documented exit code, and leaves no process behind.
@Suite struct SupervisionTests {
    /// A copy of a slow page (dense-two-columns.png: several seconds of OCR) under a unique folder,
    /// so its worker can be found.
    func slowPage() throws -> (dir: URL, path: String) {
        let dir = TestPaths.temporaryDirectory("supervision")
        let path = dir.appendingPathComponent("dense-two-columns.png").path
        try FileManager.default.copyItem(atPath: TestPaths.fixture("dense-two-columns.png"), toPath: path)
        return (dir, path)
    }

    func workers(of path: String) -> [pid_t] {
        let r = try? run("/usr/bin/pgrep", ["-f", "__worker.*\(path)"])
        return (r?.stdout ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    func waitForWorker(_ path: String) throws -> pid_t {
        for _ in 0..<200 {
            if let pid = workers(of: path).first { return pid }
            usleep(20_000)
        }
        throw CancellationError()
    }

    /// Starts `lovesnap ocr` on `path` in the background.
    func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.lovesnap)
        p.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return (p, out, err)
    }

    func finish(_ p: Process, _ out: Pipe, _ err: Pipe) -> RunResult {
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return RunResult(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    @Test func workerKilledBySIGSEGVMidOCR() throws {
        let (_, path) = try slowPage()
        let (p, out, err) = try start(["ocr", path])
        let worker = try waitForWorker(path)
        usleep(300_000)  // inside Tesseract by now
        kill(worker, SIGSEGV)
        let r = finish(p, out, err)
        #expect(r.status == 5)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: OCR stopped: the engine crashed on dense-two-columns.png (signal SIGSEGV)\n")
        #expect(workers(of: path).isEmpty)
    }

    @Test func hangPastTheTimeout() throws {
        let (_, path) = try slowPage()
        let started = Date()
        let r = try lovesnap(["ocr", "--timeout", "0.5", path])
        #expect(r.status == 5)
        #expect(
            r.stderr
                == "lovesnap: OCR stopped: the engine did not finish dense-two-columns.png within 0.5 s (see --timeout)\n"
        )
        #expect(Date().timeIntervalSince(started) < 2.5)
        #expect(workers(of: path).isEmpty)
    }

    @Test func sigintCancelsCleanly() throws {
        let (_, path) = try slowPage()
        let (p, out, err) = try start(["ocr", path])
        _ = try waitForWorker(path)
        usleep(200_000)
        kill(p.processIdentifier, SIGINT)
        let r = finish(p, out, err)
        #expect(r.status == 130)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: OCR cancelled\n")
        #expect(workers(of: path).isEmpty)
    }
}
