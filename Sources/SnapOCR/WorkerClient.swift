import CLibc
import Foundation
import SnapProcess
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a supervised OCR run reports to its parent.
public enum WorkerEvent: Equatable, Sendable {
    /// Overall progress, 0–100 percent, and the stage.
    case progress(percent: Int, stage: RecognitionStage)
    /// The run finished.
    case finished(RecognitionResult)
    /// The run failed; the failure's description is ready to show.
    case failed(WorkerFailure)
}

/// Runs OCR in a child process (this same executable in worker mode, see `WorkerServer`) and
/// supervises it: the engine can crash, hang or run out of memory without taking the caller down.
///
/// The child gets `OMP_THREAD_LIMIT=1` (Tesseract's OpenMP threads make it 3–4× slower on a
/// 2-core machine) and speaks `WorkerMessage` JSON lines on its stdout. Thread-safe: its state
/// lives in one `Mutex`.
public final class WorkerClient: Sendable {
    /// Default watchdog, in seconds: a run that has not finished after this long is killed.
    public static let defaultTimeout: TimeInterval = 300

    private struct State {
        /// Events not yet handed out by `poll()`.
        var queue: [WorkerEvent] = []
        /// The `.finished` or `.failed` event, once there is one.
        var last: WorkerEvent?
        /// Readers of the worker's stdout and stderr still running; the run ends when both are done.
        var openStreams = 2
        var finished = false
        var cancelRequested = false
        var timedOut = false
        /// The last 4 KiB the worker wrote on stderr.
        var stderrTail = Data()
    }

    private let state = Mutex(State())
    /// Signalled once for every event queued (`poll(waitingAtMost:)` waits on it).
    private let queued = DispatchSemaphore(value: 0)
    private let child: ChildProcess
    private let displayName: String
    private let timeout: TimeInterval

    /// Starts the worker.
    ///
    /// The child's argv is `executable`, `workerArguments`, the request as JSON, `--` and `path`.
    ///
    /// - Parameters:
    ///   - executable: path of the binary to run in worker mode.
    ///   - workerArguments: arguments that select worker mode (e.g. `["__worker"]`).
    ///   - options: the OCR settings.
    ///   - path: the photo, passed as its own argv element (never through a shell).
    ///   - displayName: how to name the photo in messages (the worker gets it too).
    ///   - timeout: watchdog, in seconds.
    ///   - forksWhenAlone: whether the worker is forked from this process instead, when it has one
    ///     thread (`clibc_thread_count`; a child forked beside other threads could inherit a lock
    ///     one of them held): the worker then skips its own start — `exec`, the dynamic linking of
    ///     some 60 libraries, Swift's runtime, about 15 ms — and serves the request as a started
    ///     one does (`WorkerServer.serveForked`). `lovesnap ocr` forks its first photo's worker
    ///     before any thread of its own starts.
    /// - Throws: `POSIXError` when the process cannot be started (`ENOENT`, `EACCES`, …) or no
    ///   pipe can be made.
    public init(
        executable: String, workerArguments: [String], options: RecognitionOptions, path: String,
        displayName: String, timeout: TimeInterval = WorkerClient.defaultTimeout, forksWhenAlone: Bool = false
    ) throws {
        self.displayName = displayName
        self.timeout = timeout
        let request = try WorkerRequest(options: options, displayName: displayName).json()
        var env = ProcessInfo.processInfo.environment
        env["OMP_THREAD_LIMIT"] = env["OMP_THREAD_LIMIT"] ?? "1"
        // A crash in the engine should end the worker at once; the Swift runtime's backtracer
        // would otherwise catch the signal and spend seconds symbolicating. The parent reports it.
        env["SWIFT_BACKTRACE"] = "enable=no"
        let out = try ChildProcess.pipe()
        let err = try ChildProcess.pipe()
        let child: ChildProcess
        do {
            defer {
                try? out.writing.close()
                try? err.writing.close()
            }
            if forksWhenAlone && clibc_thread_count() == 1 {
                let parent = getpid()
                child = try ChildProcess(
                    forking: { WorkerServer.serveForked(request: request, path: path, parent: parent) },
                    standardOutput: out.writing, standardError: err.writing)
            } else {
                child = try ChildProcess(
                    executable: executable, arguments: workerArguments + [request, "--", path], environment: env,
                    standardOutput: out.writing, standardError: err.writing)
            }
        }
        self.child = child

        let messages = out.reading
        let errors = err.reading
        Thread.detachNewThread { [self] in
            readMessages(messages)
            child.waitForExit()
            streamEnded()
        }
        Thread.detachNewThread { [self] in
            readErrors(errors)
            streamEnded()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in self?.expire() }
    }

    /// Waits until the worker has ended and been reaped (`waitpid`, on the thread that reads its
    /// messages), at most `seconds`: a worker writes its result and ends at once, so that its
    /// parent counts its CPU time as its child's (`/usr/bin/time`, `getrusage(RUSAGE_CHILDREN)`)
    /// and leaves no zombie behind. Returns whether it has.
    @discardableResult
    public func awaitExit(atMost seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while child.isRunning {
            if Date() >= deadline { return false }
            usleep(1000)
        }
        return true
    }

    /// Events since the last call, oldest first; never blocks. The last event of a run is
    /// `.finished` or `.failed`.
    public func poll() -> [WorkerEvent] {
        state.withLock { s in
            defer { s.queue.removeAll() }
            return s.queue
        }
    }

    /// Events since the last call, oldest first, waiting up to `seconds` for one when there are
    /// none: a caller that polls in a loop hears of the result as soon as it comes, instead of
    /// after its sleep.
    public func poll(waitingAtMost seconds: TimeInterval) -> [WorkerEvent] {
        let events = poll()
        guard events.isEmpty else { return events }
        _ = queued.wait(timeout: .now() + seconds)
        return poll()
    }

    /// Stops the run (SIGKILL to the worker); the final event is `.failed(.cancelled)` unless the
    /// result came first. Idempotent.
    public func cancel() {
        let alreadyOver = state.withLock { s in
            s.cancelRequested = true
            return s.finished
        }
        if !alreadyOver { child.kill() }
    }

    /// The process id of the worker (for tests and diagnostics).
    public var processIdentifier: Int32 { child.processIdentifier }

    /// The watchdog fired: kill a worker that is still running.
    private func expire() {
        let running = state.withLock { s in
            if !s.finished { s.timedOut = true }
            return !s.finished
        }
        if running { child.kill() }
    }

    /// Reads the worker's JSON lines (`readLines`).
    private func readMessages(_ handle: FileHandle) {
        WorkerClient.readLines(handle) { line in
            // Anything that is not a message of this version (a stray print) is skipped.
            guard let message = try? WorkerMessage.decode(line: line) else { return }
            let event: WorkerEvent
            switch message {
            case .progress(let percent, let stage): event = .progress(percent: percent, stage: stage)
            case .result(let result): event = .finished(result)
            case .failure(let failure): event = .failed(failure)
            }
            state.withLock { s in
                if case .progress = event {} else { s.last = event }
                s.queue.append(event)
            }
            queued.signal()
        }
    }

    /// Calls `take` with each line of `handle` (newline excluded) until it ends. A line can be
    /// megabytes (the documents, a PDF in base64) arriving in 64 KiB chunks: each chunk is
    /// searched for a newline once (`memchr`), never the whole line again (searching from the
    /// start on every chunk took 7 s of the editor's CPU for a receipt's PDF).
    static func readLines(_ handle: FileHandle, _ take: (Data) -> Void) {
        var buffer: [UInt8] = []
        var scanned = 0  // buffer[..<scanned] holds no newline
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(contentsOf: chunk)
            var lineStart = 0
            while let nl = newline(in: buffer, from: max(scanned, lineStart)) {
                take(Data(buffer[lineStart..<nl]))
                lineStart = nl + 1
            }
            buffer.removeFirst(lineStart)
            scanned = buffer.count
        }
    }

    /// The index of the first newline in `bytes` at or after `start`, if any.
    static func newline(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { p -> Int? in
            guard let base = p.baseAddress, let hit = memchr(base + start, 0x0A, p.count - start) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func readErrors(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            state.withLock { s in
                s.stderrTail.append(chunk)
                if s.stderrTail.count > 4096 { s.stderrTail = s.stderrTail.suffix(4096) }
            }
        }
    }

    /// Called when a reader is done (the stdout reader after the worker exited); the second call
    /// ends the run and turns a silent death into a failure.
    private func streamEnded() {
        let queuedFailure = state.withLock { s -> Bool in
            s.openStreams -= 1
            guard s.openStreams == 0 else { return false }
            s.finished = true
            // A result that raced a cancel is kept: the user asked to stop but loses nothing.
            guard s.last == nil else { return false }
            let failure: WorkerFailure
            if s.cancelRequested {
                failure = .cancelled
            } else if s.timedOut {
                failure = .timedOut(photo: displayName, seconds: timeout)
            } else {
                let lastError = String(decoding: s.stderrTail, as: UTF8.self).split(separator: "\n").last.map(
                    String.init)
                // The stream of messages ends after the wait for the exit (`init`): known here.
                switch child.waitForExit() {
                case .signalled(let signal):
                    failure = .crashed(photo: displayName, signal: signal, lastError: lastError)
                case .exited(let status): failure = .exited(photo: displayName, status: status, lastError: lastError)
                }
            }
            s.last = .failed(failure)
            s.queue.append(.failed(failure))
            return true
        }
        if queuedFailure { queued.signal() }
    }
}
