import Foundation
import SnapImaging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's half of the worker–reader protocol: starts the reader process (this same
/// executable, `lovesnap __reader REQUEST -- PHOTO`, see `ReaderServer`) and hands out its
/// readings — the photo as it is, then its light-on-dark blocks alone — as they come.
///
/// `Recognizer` reads a colour photo as it is beside its preparation (README "How a photo becomes
/// text", step 6). Made by a second engine in the worker, that reading and its engine were a third
/// of the worker's peak memory; in a process of their own each process holds one engine, as the
/// `tesseract` command line does. Stopping it is a SIGKILL. The reader dies with the worker
/// (`PR_SET_PDEATHSIG`, `WorkerServer.prepareProcess`). Thread-safe: its state lives in one `Mutex`.
final class ReaderProcess: Sendable {
    /// The reader ended without the reading asked for: it failed (`ReaderMessage.failed`), was
    /// killed, or crashed; `reason` says which.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// A reading of the reader, as `Recognizer` takes it.
    struct Reading {
        var result: RecognitionResult
        /// The prepared page's measurements (`PageMeasurements`), for the notes.
        var page: PageMeasurements?
        /// How many light-on-dark blocks were read alone (0 for the photo as it is).
        var blocks: Int
    }

    private struct State {
        /// The percentage of the reading under way (0–100).
        var percent = 0
        var asIs: Result<Reading, Failure>?
        /// `.success(nil)`: the photo has no light-on-dark blocks.
        var blocks: Result<Reading?, Failure>?
        var ended = false
        var stopped = false
    }

    /// How many readers this process has started (tests: a reading was made apart, not here).
    static let started = Atomic<Int>(0)

    private let state = Mutex(State())
    /// Signalled for every message, and when the reader ends.
    private let changed = DispatchSemaphore(value: 0)
    private let process: Process

    /// Starts a reader of the photo at `path`.
    /// - Parameters:
    ///   - executable: this executable (`/proc/self/exe` in the worker).
    ///   - request: what to read and with which settings.
    /// - Throws: when the process cannot be started (Foundation's error).
    init(executable: String, request: ReaderRequest, path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["__reader", try request.json(), "--", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ReaderProcess.started.add(1, ordering: .relaxed)
        self.process = process
        let messages = out.fileHandleForReading
        Thread.detachNewThread { [self] in
            readMessages(messages)
            process.waitUntilExit()
            let why =
                process.terminationReason == .uncaughtSignal
                ? "the reader was ended by signal \(process.terminationStatus)"
                : "the reader exited with status \(process.terminationStatus)"
            state.withLock { s in
                s.ended = true
                if s.asIs == nil { s.asIs = .failure(Failure(reason: why)) }
                if s.blocks == nil { s.blocks = .failure(Failure(reason: why)) }
            }
            changed.signal()
        }
    }

    /// Stops the reader (SIGKILL) unless it has ended; what was not read yet fails. Idempotent.
    func cancel() {
        let running = state.withLock { s in
            s.stopped = true
            return !s.ended
        }
        if running { kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the photo read as it is, calling `progress` with its percentage (0–100) every
    /// 50 ms or so on the calling thread; `progress` returning false cancels the reader.
    /// - Throws: `OCRError.cancelled` when cancelled (here or by `cancel()`), `Failure` when the
    ///   reader ended without it.
    func readingAsItIs(progress: (Int) -> Bool) throws -> Reading {
        try wait(for: { $0.asIs }, progress: progress)
    }

    /// Waits for the light-on-dark blocks read alone (nil: the photo has none), as
    /// `readingAsItIs(progress:)` waits.
    func readingOfBlocks(progress: (Int) -> Bool) throws -> Reading? {
        try wait(for: { $0.blocks }, progress: progress)
    }

    private func wait<T>(for outcome: (State) -> Result<T, Failure>?, progress: (Int) -> Bool) throws -> T {
        while true {
            let (got, percent, stopped) = state.withLock { s in (outcome(s), s.percent, s.stopped) }
            if stopped { throw OCRError.cancelled }
            if let got { return try got.get() }
            if !progress(percent) {
                cancel()
                throw OCRError.cancelled
            }
            _ = changed.wait(timeout: .now() + 0.05)
        }
    }

    /// Reads the reader's JSON lines until it closes its output.
    private func readMessages(_ handle: FileHandle) {
        var buffer: [UInt8] = []
        var scanned = 0  // buffer[..<scanned] holds no newline
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(contentsOf: chunk)
            var lineStart = 0
            while let nl = WorkerClient.newline(in: buffer, from: max(scanned, lineStart)) {
                let line = Data(buffer[lineStart..<nl])
                lineStart = nl + 1
                guard let message = try? JSONDecoder().decode(ReaderMessage.self, from: line) else { continue }
                state.withLock { s in take(message, into: &s) }
                changed.signal()
            }
            buffer.removeFirst(lineStart)
            scanned = buffer.count
        }
    }

    private func take(_ message: ReaderMessage, into s: inout State) {
        switch message {
        case .progress(let percent): s.percent = percent
        case .asIs(var result, let leftOut):
            result.leftOutText = leftOut
            s.asIs = .success(Reading(result: result, page: nil, blocks: 0))
            s.percent = 0
        case .blocks(var result, let leftOut, let page, let count):
            result.leftOutText = leftOut
            s.blocks = .success(Reading(result: result, page: page, blocks: count))
        case .noBlocks: s.blocks = .success(nil)
        case .failed(let reason):
            if s.asIs == nil { s.asIs = .failure(Failure(reason: reason)) }
            if s.blocks == nil { s.blocks = .failure(Failure(reason: reason)) }
        }
    }
}
