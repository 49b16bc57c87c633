import Foundation
import SnapProcess
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

    /// The processes whose command line names `path`: `lovesnap ocr` itself, its worker (forked
    /// from it, or started as `__worker`) and the worker's helpers (`__reader`, …).
    func processes(of path: String) -> [pid_t] {
        let r = try? run("/usr/bin/pgrep", ["-f", path])
        return (r?.stdout ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// The processes of `path` (`processes(of:)`) still there 2 s after the run ended: none, once
    /// its helpers have died. A worker ends (`_exit`) as soon as its result is sent, and its
    /// helpers are killed by the kernel then (`PR_SET_PDEATHSIG`), not waited for: a helper can
    /// outlive `lovesnap ocr` by the few milliseconds its teardown takes (a fresh-clone CI run
    /// found one so, once; one `lovesnap ocr` in 15 left its reader for `pgrep` to see here).
    func processesLeft(of path: String) -> [pid_t] {
        var left = processes(of: path)
        for _ in 0..<100 where !left.isEmpty {
            usleep(20_000)
            left = processes(of: path)
        }
        return left
    }

    /// The children of `parent` (`pgrep -P`).
    func children(of parent: pid_t) -> [pid_t] {
        let r = try? run("/usr/bin/pgrep", ["-P", "\(parent)"])
        return (r?.stdout ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// The OCR worker of `lovesnap ocr` running as `parent`: its child.
    func waitForWorker(of parent: pid_t) throws -> pid_t {
        for _ in 0..<200 {
            if let pid = children(of: parent).first { return pid }
            usleep(20_000)
        }
        throw CancellationError()
    }

    /// The command line of process `pid`, its arguments joined by spaces.
    func commandLine(_ pid: pid_t) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
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
        let worker = try waitForWorker(of: p.processIdentifier)
        usleep(300_000)  // inside Tesseract by now
        kill(worker, SIGSEGV)
        let r = finish(p, out, err)
        #expect(r.status == 5)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: OCR stopped: the engine crashed on dense-two-columns.png (signal SIGSEGV)\n")
        #expect(processesLeft(of: path).isEmpty)
    }

    @Test func theFirstPhotosWorkerIsForkedAndTheNextOnesStarted() throws {
        // `lovesnap ocr` forks its first photo's worker while it has one thread: the worker's
        // command line is its own. By the second photo it has threads (its signal handler's, the
        // first worker's readers): that worker is started anew, `lovesnap __worker`.
        let (dir, path) = try slowPage()
        let second = dir.appendingPathComponent("second.png").path
        try FileManager.default.copyItem(atPath: path, toPath: second)
        let (p, out, err) = try start(["ocr", path, second])
        let first = try waitForWorker(of: p.processIdentifier)
        #expect(try commandLine(first) == "\(TestPaths.lovesnap) ocr \(path) \(second)")
        // The second worker, once the first has ended.
        var next: pid_t?
        for _ in 0..<1500 where next == nil {
            next = children(of: p.processIdentifier).first { $0 != first }
            if next == nil { usleep(20_000) }
        }
        let started = try #require(next)
        // (Until its `exec`, a child started by `posix_spawn` shows its parent's command line.)
        var line = try commandLine(started)
        for _ in 0..<100 where !line.contains(" __worker ") {
            usleep(10_000)
            line = try commandLine(started)
        }
        #expect(line.hasPrefix("\(TestPaths.lovesnap) __worker {"))
        #expect(line.hasSuffix(" -- \(second)"))
        let r = finish(p, out, err)
        #expect(r.status == 0)
        #expect(r.stdout.components(separatedBy: "\n").count > 100)
        #expect(processesLeft(of: path).isEmpty)
    }

    @Test func aSignalIgnoredOnEntryStaysIgnored() throws {
        // A script's background job (`lovesnap ocr … &`) starts with SIGINT ignored: it is not
        // interrupted (POSIX: signals ignored on entry to a non-interactive shell stay ignored).
        let (_, path) = try slowPage()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "trap '' INT; exec \"$0\" ocr \"$1\" > /dev/null", TestPaths.lovesnap, path]
        try p.run()
        _ = try waitForWorker(of: p.processIdentifier)
        usleep(200_000)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 0)
        #expect(processesLeft(of: path).isEmpty)
    }

    @Test func hangPastTheTimeout() throws {
        let (_, path) = try slowPage()
        let r = try lovesnap(["ocr", "--timeout", "0.5", path])
        #expect(r.status == 5)
        #expect(
            r.stderr
                == "lovesnap: OCR stopped: the engine did not finish dense-two-columns.png within 0.5 s (see --timeout)\n"
        )
        #expect(processesLeft(of: path).isEmpty)
    }

    @Test func sigintCancelsCleanly() throws {
        let (_, path) = try slowPage()
        let (p, out, err) = try start(["ocr", path])
        _ = try waitForWorker(of: p.processIdentifier)
        usleep(200_000)
        kill(p.processIdentifier, SIGINT)
        let r = finish(p, out, err)
        #expect(r.status == 130)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: OCR cancelled\n")
        #expect(processesLeft(of: path).isEmpty)
    }
}
