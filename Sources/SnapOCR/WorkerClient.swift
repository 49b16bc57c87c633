import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a supervised OCR run reports to its parent.
public enum WorkerEvent: Equatable, Sendable {
    /// Overall progress 0–100 and the stage ("loading", "preparing", "recognizing").
    case progress(percent: Int, stage: String)
    /// The run finished.
    case finished(RecognitionResult)
    /// The run failed; `kind` says whose fault, `message` is ready to show.
    case failed(kind: WorkerMessage.ErrorKind, message: String)
}

/// Runs OCR in a child process (this same executable in worker mode) and supervises it: the
/// engine can crash, hang or run out of memory without taking the caller down.
///
/// The child gets `OMP_THREAD_LIMIT=1` (Tesseract's OpenMP threads make it 3–4× slower on a
/// 2-core machine) and speaks `WorkerMessage` JSON lines on its stdout. Thread-safe.
public final class WorkerClient: @unchecked Sendable {
    /// Default watchdog: a run that has not finished after this many seconds is killed.
    public static let defaultTimeout: TimeInterval = 300

    private let process = Process()
    private let lock = NSLock()
    private var queue: [WorkerEvent] = []
    private var finished = false
    private var cancelRequested = false
    private var timedOut = false
    private var stderrTail = Data()
    private let done = DispatchSemaphore(value: 0)
    private let displayName: String
    private let timeout: TimeInterval

    /// Starts the worker.
    ///
    /// - Parameters:
    ///   - executable: path of the `lovesnap` binary to run in worker mode.
    ///   - workerArguments: arguments that select worker mode (e.g. `["__worker"]`).
    ///   - request: the OCR settings.
    ///   - path: the photo, passed as its own argv element (never through a shell).
    ///   - displayName: how to name the photo in messages.
    ///   - timeout: watchdog in seconds.
    /// - Throws: when the process cannot be started (the error's description says why).
    public init(executable: String, workerArguments: [String], request: WorkerRequest, path: String,
                displayName: String, timeout: TimeInterval = WorkerClient.defaultTimeout) throws {
        self.displayName = displayName
        self.timeout = timeout
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = workerArguments + [json, "--", path]
        var env = ProcessInfo.processInfo.environment
        env["OMP_THREAD_LIMIT"] = env["OMP_THREAD_LIMIT"] ?? "1"
        // A crash in the engine should end the worker at once; the Swift runtime's backtracer
        // would otherwise catch the signal and spend seconds symbolicating. The parent reports it.
        env["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let stdoutDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            self.readMessages(out.fileHandleForReading)
            stdoutDone.signal()
        }
        Thread.detachNewThread { [self] in
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                lock.lock(); stderrTail.append(chunk); if stderrTail.count > 4096 { stderrTail = stderrTail.suffix(4096) }; lock.unlock()
            }
        }
        Thread.detachNewThread { [self] in
            stdoutDone.wait()
            self.process.waitUntilExit()
            self.finish()
        }
        Thread.detachNewThread { [self] in
            if self.done.wait(timeout: .now() + timeout) == .timedOut {
                lock.lock(); timedOut = true; lock.unlock()
                kill(process.processIdentifier, SIGKILL)
            } else {
                self.done.signal()   // give the token back for waitForResult()
            }
        }
    }

    /// Events since the last call; never blocks.
    public func poll() -> [WorkerEvent] {
        lock.lock(); defer { lock.unlock() }
        let out = queue
        queue.removeAll()
        return out
    }

    /// Stops the run (SIGKILL to the worker); the final event is `.failed(kind: .cancelled, …)`. Idempotent.
    public func cancel() {
        lock.lock()
        let alreadyOver = finished
        cancelRequested = true
        lock.unlock()
        if !alreadyOver && process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Blocks until the run ends and returns its last event (`.finished` or `.failed`).
    public func waitForResult() -> WorkerEvent {
        done.wait()
        done.signal()
        lock.lock(); defer { lock.unlock() }
        return terminal ?? .failed(kind: .internal, message: "OCR stopped without a result")
    }

    /// The process id of the worker (for tests and diagnostics).
    public var processIdentifier: Int32 { process.processIdentifier }

    private var terminal: WorkerEvent?

    private func readMessages(_ handle: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let nl = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<nl]
                buffer = Data(buffer[(nl + 1)...])
                guard let m = WorkerMessage.decode(line: Data(line)) else { continue }
                let event: WorkerEvent?
                switch m.event {
                case .progress: event = .progress(percent: m.percent ?? 0, stage: m.stage ?? "")
                case .result: event = m.result.map { .finished($0) }
                case .error: event = .failed(kind: m.kind ?? .internal, message: m.message ?? "OCR failed")
                }
                guard let event else { continue }
                lock.lock()
                if case .progress = event {} else { terminal = event }
                queue.append(event)
                lock.unlock()
            }
        }
    }

    /// Called once the worker has exited and its stdout is drained: turns a silent death into a message.
    private func finish() {
        lock.lock()
        finished = true
        if terminal == nil {
            let event: WorkerEvent
            if cancelRequested {
                event = .failed(kind: .cancelled, message: "OCR cancelled")
            } else if timedOut {
                event = .failed(kind: .internal, message: String(format: "OCR stopped: the engine did not finish %@ within %g s (see --timeout)",
                                                               locale: Locale(identifier: "en_US_POSIX"), displayName, timeout))
            } else {
                let how: String
                if process.terminationReason == .uncaughtSignal {
                    how = "the engine crashed on \(displayName) (signal \(WorkerClient.signalName(process.terminationStatus)))"
                } else {
                    how = "the engine exited with status \(process.terminationStatus) on \(displayName)"
                }
                let tail = String(decoding: stderrTail, as: UTF8.self).split(separator: "\n").last.map { ": \($0)" } ?? ""
                event = .failed(kind: .internal, message: "OCR stopped: \(how)\(tail)")
            }
            terminal = event
            queue.append(event)
        }
        // A result that raced a cancel is kept: the user asked to stop but loses nothing.
        lock.unlock()
        done.signal()
    }

    static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGKILL: return "SIGKILL"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGILL: return "SIGILL"
        case SIGTERM: return "SIGTERM"
        case SIGXCPU: return "SIGXCPU"
        default: return "\(s)"
        }
    }
}
