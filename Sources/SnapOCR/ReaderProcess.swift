import CLibc
import Foundation
import SnapImaging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's half of the worker–reader protocol: starts the reader process (this same
/// executable, `lovesnap __reader REQUEST -- PHOTO`, see `ReaderServer`), sends it commands
/// (`ReaderCommand`) and hands out its answers as they come.
///
/// The reader is the worker's second engine in a process of its own: it reads a colour photo as
/// it is beside its preparation (README "How a photo becomes text", step 6), a crop at its own
/// size, and the second part of a long page (`SharedReading`). Made by a second engine in the
/// worker, those readings and that engine were a third of the worker's peak memory; in a process
/// of their own each process holds one engine, as the `tesseract` command line does. Pages go
/// through memory files (`memfd_create`) the reader opens as `/proc/PID/fd/N`. The reader dies
/// with the worker (`PR_SET_PDEATHSIG`, `WorkerServer.prepareProcess`); `cancel()` kills it.
/// Starting one makes this process ignore SIGPIPE. Thread-safe: its state lives in one `Mutex`.
final class ReaderProcess: Sendable {
    /// The reader ended without the answer waited for: the command failed
    /// (`ReaderMessage.failed`), or the reader was killed, crashed or exited; `reason` says which.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// A reading of the reader, as `Recognizer` takes it.
    struct Reading {
        var result: RecognitionResult
        /// The prepared page's measurements (`PageMeasurements`), for the notes (nil for the
        /// photo as it is).
        var page: PageMeasurements?
        /// How many light-on-dark blocks were read alone (0 but for the blocks).
        var blocks: Int
    }

    /// How many readers this process has started (tests: a reading was made apart, not here).
    static let started = Atomic<Int>(0)

    private struct State {
        var nextID = 1
        /// The percentage of each command's reading under way (0–100).
        var percent: [Int: Int] = [:]
        var asIs: [Int: Reading] = [:]
        /// nil: the photo has no light-on-dark blocks.
        var blocks: [Int: Reading?] = [:]
        var layouts: [Int: [LayoutLine]] = [:]
        var startedParts: Set<Int> = []
        var parts: [Int: TesseractEngine.WordsRead] = [:]
        var prepared: [Int: Reading] = [:]
        var stopped: Set<Int> = []
        var failed: [Int: String] = [:]
        /// Why the reader ended, once it has.
        var ended: String?
        var killed = false
        /// The memory files of pages the reader has not answered for yet, by command.
        var pageFiles: [Int: Int32] = [:]
    }

    private let state = Mutex(State())
    /// Signalled for every message, and when the reader ends.
    private let changed = DispatchSemaphore(value: 0)
    private let process: Process
    /// The reader's standard input; one line a command, written under `writing`.
    private let commands: FileHandle
    private let writing = Mutex(())

    /// Starts a reader of the photo at `path`; its engine loads at once.
    /// - Parameters:
    ///   - executable: this executable (`/proc/self/exe` in the worker).
    ///   - request: the engine's and the preparation's settings.
    ///   - path: the photo, only to name it in a process list.
    /// - Throws: when the process cannot be started (Foundation's error).
    init(executable: String, request: ReaderRequest, path: String) throws {
        // A command written to a reader that has ended must fail (EPIPE), not end this process:
        // SIGPIPE is ignored, as the worker ignores it (`WorkerServer.prepareProcess`).
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["__reader", try request.json(), "--", path]
        let out = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardInput = input
        try process.run()
        ReaderProcess.started.add(1, ordering: .relaxed)
        self.process = process
        commands = input.fileHandleForWriting
        let messages = out.fileHandleForReading
        Thread.detachNewThread { [self] in
            ReaderServer.readLines(messages) { line in
                guard let message = try? JSONDecoder().decode(ReaderMessage.self, from: line) else { return }
                let closing = state.withLock { s in take(message, into: &s) }
                if let closing { close(closing) }
                changed.signal()
            }
            process.waitUntilExit()
            let why =
                process.terminationReason == .uncaughtSignal
                ? "the reader was ended by signal \(process.terminationStatus)"
                : "the reader exited with status \(process.terminationStatus)"
            let files = state.withLock { s in
                s.ended = why
                defer { s.pageFiles = [:] }
                return Array(s.pageFiles.values)
            }
            for fd in files { close(fd) }
            changed.signal()
        }
    }

    /// Stops the reader (SIGKILL) unless it has ended: every answer not come yet fails. Idempotent.
    func cancel() {
        let running = state.withLock { s in
            s.killed = true
            return s.ended == nil
        }
        if running { kill(process.processIdentifier, SIGKILL) }
    }

    /// Asks the reader to stop command `id` (and any earlier one) as soon as Tesseract next looks;
    /// waiting for it then throws `OCRError.cancelled`, unless it ended first.
    func stop(_ id: Int) {
        state.withLock { s in _ = s.stopped.insert(id) }
        write(.stop(id: id))
        changed.signal()
    }

    // MARK: Commands

    /// Asks for `photo` (the upright photo as loaded, decoded at 1/`reduction` of its size) read
    /// as it is, then, when `readsBlocks`, its light-on-dark blocks alone.
    /// - Returns: the command's id.
    /// - Throws: `Failure` when the photo cannot be handed over.
    func readAsIs(_ photo: Image, reduction: Double, readsBlocks: Bool) throws -> Int {
        let (path, fd) = try handOver(photo)
        let sent = SentPage(path: path, resolution: photo.resolution, scale: 1)
        return send(fd: fd) { .readAsIs(id: $0, photo: sent, reduction: reduction, readsBlocks: readsBlocks) }
    }

    /// Asks for the layout of `page` (the reader's engine keeps it for `readPart(top:)`).
    /// - Returns: the command's id.
    /// - Throws: `Failure` when the page cannot be handed over.
    func layOut(_ page: PreparedImage) throws -> Int {
        let (path, fd) = try handOver(page.image)
        let sent = SentPage(path: path, resolution: page.resolution, scale: page.scale)
        return send(fd: fd) { .layOut(id: $0, page: sent) }
    }

    /// Asks for the page laid out last read from its rows `top...` (pixels from its top).
    /// - Returns: the command's id.
    func readPart(top: Int) -> Int {
        send { .readPart(id: $0, top: top) }
    }

    /// Asks for `photo` prepared with `settings` and read, its boxes mapped to the photo and
    /// multiplied by `reduction`.
    /// - Returns: the command's id.
    /// - Throws: `Failure` when the photo cannot be handed over.
    func readPrepared(_ photo: Image, settings: PreprocessingOptions, reduction: Double) throws -> Int {
        let (path, fd) = try handOver(photo)
        let sent = SentPage(path: path, resolution: photo.resolution, scale: 1)
        return send(fd: fd) { .readPrepared(id: $0, photo: sent, settings: settings, reduction: reduction) }
    }

    // MARK: Answers

    /// Waits for the photo read as it is (command `id`), calling `progress` with its percentage
    /// (0–100) every 50 ms or so on the calling thread; `progress` returning false stops it.
    /// - Throws: `OCRError.cancelled` when stopped or cancelled, `Failure` when the reader
    ///   failed or ended without it.
    func readingAsItIs(_ id: Int, progress: (Int) -> Bool) throws -> Reading {
        try wait(id, progress: progress) { $0.asIs[id] }
    }

    /// Waits for the light-on-dark blocks read alone after the photo as it is (command `id`; nil:
    /// the photo has none), as `readingAsItIs(_:progress:)` waits.
    func readingOfBlocks(_ id: Int, progress: (Int) -> Bool) throws -> Reading? {
        try wait(id, progress: progress) { $0.blocks[id] }
    }

    /// Waits for the layout of command `id`.
    func layout(_ id: Int) throws -> [LayoutLine] {
        try wait(id, progress: { _ in true }, for: { $0.layouts[id] })
    }

    /// Waits until the part of command `id` starts being read: true; false when it ended
    /// otherwise (failed, stopped, the reader gone).
    func partStarted(_ id: Int) -> Bool {
        (try? wait(id, progress: { _ in true }, for: { $0.startedParts.contains(id) ? true : nil })) ?? false
    }

    /// Waits for the part of command `id`, calling `progress` with its percentage; `progress`
    /// returning false stops it.
    func part(_ id: Int, progress: (Int) -> Bool) throws -> TesseractEngine.WordsRead {
        try wait(id, progress: progress) { $0.parts[id] }
    }

    /// Waits for the crop prepared and read (command `id`), as `readingAsItIs(_:progress:)` waits.
    func preparedReading(_ id: Int, progress: (Int) -> Bool) throws -> Reading {
        try wait(id, progress: progress) { $0.prepared[id] }
    }

    // MARK: Inside

    private func wait<T>(_ id: Int, progress: (Int) -> Bool, for answer: (State) -> T?) throws -> T {
        while true {
            let (got, percent, failure, cancelled) = state.withLock { s -> (T?, Int, String?, Bool) in
                (answer(s), s.percent[id] ?? 0, s.failed[id] ?? s.ended, s.killed || s.stopped.contains(id))
            }
            if let got { return got }
            if cancelled { throw OCRError.cancelled }
            if let failure { throw Failure(reason: failure) }
            if !progress(percent) {
                stop(id)
                throw OCRError.cancelled
            }
            _ = changed.wait(timeout: .now() + 0.05)
        }
    }

    /// Sends the command `make` builds for the next id (with the memory file `fd` it refers
    /// to, closed once answered).
    private func send(fd: Int32? = nil, _ make: (Int) -> ReaderCommand) -> Int {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            if let fd { s.pageFiles[s.nextID] = fd }
            return s.nextID
        }
        write(make(id))
        return id
    }

    /// Writes one command line; a reader that is gone fails every answer anyway.
    private func write(_ command: ReaderCommand) {
        guard let line = try? command.encodedLine() else { return }
        writing.withLock { _ in try? commands.write(contentsOf: line) }
    }

    /// `image` in a new memory file, and the path the reader opens it by.
    private func handOver(_ image: Image) throws -> (path: String, fd: Int32) {
        let fd = clibc_memory_file("lovesnap-page")
        guard fd >= 0 else { throw Failure(reason: "memfd_create: \(String(cString: strerror(errno)))") }
        do {
            try image.writeHandedOver(to: fd)
        } catch {
            close(fd)
            throw Failure(reason: "\(error)")
        }
        return ("/proc/\(getpid())/fd/\(fd)", fd)
    }

    /// Records `message` in `s`; returns the memory file that may now be closed.
    private func take(_ message: ReaderMessage, into s: inout State) -> Int32? {
        var answered: Int?
        switch message {
        case .progress(let id, let percent): s.percent[id] = percent
        case .asIs(let id, var result, let leftOut):
            result.leftOutText = leftOut
            s.asIs[id] = Reading(result: result, page: nil, blocks: 0)
            s.percent[id] = 0
            answered = id
        case .blocks(let id, var result, let leftOut, let page, let count):
            result.leftOutText = leftOut
            s.blocks[id] = .some(Reading(result: result, page: page, blocks: count))
        case .noBlocks(let id): s.blocks[id] = .some(nil)
        case .laidOut(let id, let lines):
            s.layouts[id] = lines
            answered = id
        case .started(let id): s.startedParts.insert(id)
        case .part(let id, let read): s.parts[id] = read
        case .prepared(let id, var result, let leftOut, let page):
            result.leftOutText = leftOut
            s.prepared[id] = Reading(result: result, page: page, blocks: 0)
            answered = id
        case .stopped(let id):
            s.stopped.insert(id)
            answered = id
        case .failed(let id, let reason):
            s.failed[id] = reason
            answered = id
        }
        return answered.flatMap { s.pageFiles.removeValue(forKey: $0) }
    }
}
