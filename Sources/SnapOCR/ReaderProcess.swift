import CLibc
import Foundation
import SnapImaging
import SnapProcess
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's half of the worker–reader protocol: starts the reader process (this same
/// executable, `lovesnap __reader REQUEST -- PHOTO`, see `ReaderServer`), sends it commands
/// (`ReaderCommand`) and hands out its answers as they come.
///
/// The reader is the worker's second engine in a process of its own: it reads a colour photo as
/// it is beside its preparation (docs/design.md, "How a photo becomes text", step 6), a crop at its own
/// size, and the second part of a long page (`SharedReading`). Made by a second engine in the
/// worker, those readings and that engine were a third of the worker's peak memory; in a process
/// of their own each process holds one engine, as the `tesseract` command line does. Pages go
/// through memory files (`memfd_create`) the reader opens as `/proc/PID/fd/N`. The reader dies
/// with the worker (`PR_SET_PDEATHSIG`, `WorkerServer.prepareProcess`); `cancel()` kills it.
/// Starting one makes this process ignore SIGPIPE. Thread-safe: its state lives in one `Mutex`.
final class ReaderProcess: Sendable {
    /// The reader ended without the answer waited for: the command failed
    /// (`ReaderMessage.failed`), or the reader was killed, crashed or exited.
    typealias Failure = HelperFailure

    /// A reading of the reader, as `Recognizer` takes it.
    struct Reading {
        var result: RecognitionResult
        /// The prepared page's measurements (`PageMeasurements`), for the notes (nil for the
        /// photo as it is).
        var page: PageMeasurements?
        /// How many light-on-dark blocks were read alone (0 but for the blocks).
        var blocks: Int
    }

    private struct State {
        var nextID = 1
        /// The percentage of each command's reading under way (0–100).
        var percent: [Int: Int] = [:]
        var asIs: [Int: Reading] = [:]
        /// The commands reading the photo as it is without its blocks after it.
        var asIsAlone: Set<Int> = []
        /// nil: the photo has no light-on-dark blocks.
        var blocks: [Int: Reading?] = [:]
        var layouts: [Int: [LayoutLine]] = [:]
        var startedParts: Set<Int> = []
        var parts: [Int: TesseractEngine.WordsRead] = [:]
        var prepared: [Int: Reading] = [:]
        /// The lines read by each `readLines` command, by their index in its order, and how many
        /// it was asked for.
        var lines: [Int: [Int: TesseractEngine.WordsRead]] = [:]
        var linesAsked: [Int: Int] = [:]
        var stopped: Set<Int> = []
        var failed: [Int: String] = [:]
        /// Why the reader ended, once it has.
        var ended: String?
        /// The reader's process id once started (0 before).
        var pid: pid_t = 0
        var killed = false
        /// The memory files of pages the reader has not answered for yet, by command.
        var pageFiles: [Int: Int32] = [:]
    }

    /// What the thread reading the messages shares with the callers (a box: the thread is
    /// started before `self` is whole).
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// Signalled for every message, and when the reader ends.
        let changed = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()
    /// The reader's standard input; one line a command, written on `outbox`.
    private let commands: FileHandle
    /// The thread that hands pages over and writes commands, one at a time, in order.
    private let outbox = DispatchQueue(label: "lovesnap reader commands")

    /// Starts a reader of the photo at `path`; its engine loads at once.
    /// - Parameters:
    ///   - executable: this executable (`/proc/self/exe` in the worker).
    ///   - request: the engine's, the preparation's and the loader's settings.
    ///   - path: the photo (read by the reader for `readAsIs(nil, …)`).
    ///   - ready: what the reader waits for before it starts (on the thread that starts it).
    /// - Throws: `EncodingError` when the request cannot be written, `POSIXError` when no pipe
    ///   can be made. A reader that cannot be started fails every answer (`Failure`).
    init(
        executable: String, request: ReaderRequest, path: String,
        startingAfter ready: @escaping @Sendable () -> Void = {}
    ) throws {
        let shared = shared
        commands = try ChildProcess.startHelper(
            "__reader", arguments: [try request.json(), "--", path], executable: executable, name: "reader",
            after: ready,
            started: { pid in
                shared.state.withLock { s in
                    s.pid = pid
                    return s.killed
                }
            },
            line: { line in
                guard let message = try? JSONDecoder().decode(ReaderMessage.self, from: line) else { return }
                let closing = shared.state.withLock { s in ReaderProcess.take(message, into: &s) }
                if let closing { close(closing) }
                shared.changed.signal()
            },
            ended: { why in
                let files = shared.state.withLock { s in
                    s.ended = why
                    defer { s.pageFiles = [:] }
                    return Array(s.pageFiles.values)
                }
                for fd in files { close(fd) }
                shared.changed.signal()
            })
    }

    /// Stops the reader (SIGKILL) unless it has ended: every answer not come yet fails. Idempotent.
    func cancel() {
        let pid = shared.state.withLock { s -> pid_t in
            s.killed = true
            return s.ended == nil ? s.pid : 0
        }
        if pid > 0 { kill(pid, SIGKILL) }
    }

    /// Asks the reader to stop command `id` (and any earlier one) as soon as Tesseract next looks;
    /// waiting for it then throws `OCRError.cancelled`, unless it ended first.
    func stop(_ id: Int) {
        shared.state.withLock { s in _ = s.stopped.insert(id) }
        outbox.async { [self] in write(.stop(id: id)) }
        shared.changed.signal()
    }

    // MARK: Commands

    /// Asks for `photo` (the upright photo as loaded, decoded at 1/`reduction` of its size; nil:
    /// the photo the reader was started for, which it loads itself) read as it is, then, when
    /// `readsBlocks`, its light-on-dark blocks alone.
    /// - Returns: the command's id (its answers fail when the photo cannot be handed over).
    func readAsIs(_ photo: Image?, reduction: Double, readsBlocks: Bool) -> Int {
        let id = askReadAsIs(photo, reduction: reduction, readsBlocks: readsBlocks)
        if !readsBlocks { shared.state.withLock { _ = $0.asIsAlone.insert(id) } }
        return id
    }

    private func askReadAsIs(_ photo: Image?, reduction: Double, readsBlocks: Bool) -> Int {
        // Pixels in a memory file already (`Image.sharedRaster`) are mapped by the reader, not copied.
        if let photo, let sent = ReaderProcess.sharedPage(photo) {
            return send { id, _ in .readAsIs(id: id, photo: sent, reduction: reduction, readsBlocks: readsBlocks) }
        }
        let handed = photo != nil
        return send(handing: photo, resolution: photo?.resolution ?? 0, scale: 1) { id, sent in
            .readAsIs(id: id, photo: handed ? sent : nil, reduction: reduction, readsBlocks: readsBlocks)
        }
    }

    /// `photo` as the reader maps it when its pixels are in a memory file already
    /// (`Image.sharedRaster`); nil when they are not.
    private static func sharedPage(_ photo: Image) -> SentPage? {
        guard let raster = photo.sharedRaster else { return nil }
        return SentPage(
            path: "/proc/\(getpid())/fd/\(raster.descriptor)", resolution: photo.resolution, scale: 1,
            raster: SentPage.SharedRaster(
                width: photo.width, height: photo.height, depth: photo.depth,
                samplesPerPixel: photo.samplesPerPixel, bytes: raster.bytes))
    }

    /// Asks for the layout of `page` (the reader's engine keeps it for `readPart(top:)`).
    /// - Returns: the command's id (its answer fails when the page cannot be handed over).
    func layOut(_ page: PreparedImage) -> Int {
        send(handing: page.image, resolution: page.resolution, scale: page.scale) { id, sent in
            .layOut(id: id, page: sent)
        }
    }

    /// Asks for the page laid out last read from its rows `top...` (pixels from its top).
    /// - Returns: the command's id.
    func readPart(top: Int) -> Int {
        send { id, _ in .readPart(id: id, top: top) }
    }

    /// Asks for `photo` prepared with `settings` and read, its boxes mapped to the photo and
    /// multiplied by `reduction`.
    /// - Returns: the command's id (its answer fails when the photo cannot be handed over).
    func readPrepared(_ photo: Image, settings: PreprocessingOptions, reduction: Double) -> Int {
        send(handing: photo, resolution: photo.resolution, scale: 1) { id, sent in
            .readPrepared(id: id, photo: sent, settings: settings, reduction: reduction)
        }
    }

    /// Asks for `regions` of `photo` (the upright photo the detector was given) read one by one as
    /// lines, in that order, their boxes multiplied by `reduction`.
    /// - Returns: the command's id (its answers fail when the photo cannot be handed over).
    func readLines(of photo: Image, regions: [DetectedRegion], reduction: Double) -> Int {
        // How many lines are asked is known before any can come.
        let shared = shared
        let make: @Sendable (Int, SentPage) -> ReaderCommand = { id, sent in
            shared.state.withLock { $0.linesAsked[id] = regions.count }
            return .readLines(id: id, photo: sent, regions: regions, reduction: reduction)
        }
        // Pixels in a memory file already are mapped by the reader, not copied.
        guard let sent = ReaderProcess.sharedPage(photo) else {
            return send(handing: photo, resolution: photo.resolution, scale: 1, make)
        }
        return send { id, _ in make(id, sent) }
    }

    /// Whether command `id` has no answer left to come: its last one came (the light-on-dark
    /// blocks after the photo read as it is, a crop's reading, a part), it stopped or failed, or
    /// the reader ended. Never blocks.
    func hasEnded(_ id: Int) -> Bool {
        shared.state.withLock { s in
            s.ended != nil || s.killed || s.blocks[id] != nil || s.prepared[id] != nil || s.parts[id] != nil
                || (s.linesAsked[id].map { asked in s.lines[id, default: [:]].count == asked } ?? false)
                || (s.asIs[id] != nil && s.asIsAlone.contains(id)) || s.stopped.contains(id) || s.failed[id] != nil
        }
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
    /// - Throws: `Failure` at once for a command asked with `readsBlocks: false`, whose blocks
    ///   never come.
    func readingOfBlocks(_ id: Int, progress: (Int) -> Bool) throws -> Reading? {
        if shared.state.withLock({ $0.asIsAlone.contains(id) }) {
            throw Failure(reason: "command \(id) reads no light-on-dark blocks")
        }
        return try wait(id, progress: progress) { $0.blocks[id] }
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

    /// The `index`th line of `readLines` command `id`, when read already; never blocks.
    func line(_ id: Int, _ index: Int) -> TesseractEngine.WordsRead? {
        shared.state.withLock { $0.lines[id]?[index] }
    }

    /// Waits for the `index`th line of `readLines` command `id`: nil when the command stopped or
    /// failed, or the reader ended, before it.
    func waitForLine(_ id: Int, _ index: Int) -> TesseractEngine.WordsRead? {
        try? wait(id, progress: { _ in true }, for: { $0.lines[id]?[index] })
    }

    // MARK: Inside

    private func wait<T>(_ id: Int, progress: (Int) -> Bool, for answer: (State) -> T?) throws -> T {
        while true {
            let (got, percent, failure, cancelled) = shared.state.withLock { s -> (T?, Int, String?, Bool) in
                (answer(s), s.percent[id] ?? 0, s.failed[id] ?? s.ended, s.killed || s.stopped.contains(id))
            }
            if let got { return got }
            if cancelled { throw OCRError.cancelled }
            if let failure { throw Failure(reason: failure) }
            if !progress(percent) {
                stop(id)
                throw OCRError.cancelled
            }
            _ = shared.changed.wait(timeout: .now() + 0.05)
        }
    }

    /// An image handed to the thread that writes commands. Unchecked: its pixels are only read
    /// there, and not written anywhere while it is handed over.
    private struct Handed: @unchecked Sendable {
        let image: Image
    }

    /// Sends the command `make` builds for the next id, on the thread that writes commands, in
    /// the order asked: after handing `image` over in a memory file (closed once the command is
    /// answered), off the caller's thread — a colour photo of 12 Mpx is 48 MB to copy.
    private func send(
        handing image: Image? = nil, resolution: Int = 0, scale: Double = 1,
        _ make: @escaping @Sendable (Int, SentPage) -> ReaderCommand
    ) -> Int {
        let id = shared.state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        let handed = image.map(Handed.init)
        outbox.async { [self] in
            var sent = SentPage(path: "", resolution: resolution, scale: scale)
            if let handed {
                guard shared.state.withLock({ $0.ended == nil && !$0.killed }) else { return }
                do {
                    let fd = try ReaderProcess.memoryFile(holding: handed.image, named: "lovesnap-page")
                    let path = "/proc/\(getpid())/fd/\(fd)"
                    shared.state.withLock { $0.pageFiles[id] = fd }
                    sent.path = path
                } catch {
                    shared.state.withLock { $0.failed[id] = "\(error)" }
                    shared.changed.signal()
                    return
                }
            }
            write(make(id, sent))
        }
        return id
    }

    /// Writes one command line (on `outbox`); a reader that is gone fails every answer anyway.
    private func write(_ command: ReaderCommand) {
        guard let line = try? command.encodedLine() else { return }
        try? commands.write(contentsOf: line)
    }

    /// `image` in a new memory file, and the path the reader opens it by.
    /// A new memory file (`memfd_create`, close-on-exec) holding `image` as
    /// `Image.writeHandedOver(to:)` writes it, its offset at the end; the caller closes it.
    /// - Throws: `HelperFailure` when no memory file can be made or the write fails.
    static func memoryFile(holding image: Image, named name: String) throws -> Int32 {
        let fd = clibc_memory_file(name)
        guard fd >= 0 else { throw Failure(reason: "memfd_create: \(String(cString: strerror(errno)))") }
        do {
            try image.writeHandedOver(to: fd)
        } catch {
            close(fd)
            throw Failure(reason: "\(error)")
        }
        return fd
    }

    /// Records `message` in `s`; returns the memory file that may now be closed.
    private static func take(_ message: ReaderMessage, into s: inout State) -> Int32? {
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
        case .line(let id, let index, let read):
            s.lines[id, default: [:]][index] = read
            if s.lines[id]?.count == s.linesAsked[id] { answered = id }
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

/// Detected lines read by the reader process (`ReaderProcess.readLines`).
final class LinesOnReader: LinesReadBeside {
    private let reader: ReaderProcess
    private let id: Int

    /// Asks `reader` for `order` (indices into `regions`) of `photo`, read as lines.
    init(reader: ReaderProcess, photo: Image, regions: [DetectedRegion], order: [Int], reduction: Double) {
        self.reader = reader
        id = reader.readLines(of: photo, regions: order.map { regions[$0] }, reduction: reduction)
    }

    func line(_ index: Int) -> TesseractEngine.WordsRead? { reader.line(id, index) }

    func waitForLine(_ index: Int) -> TesseractEngine.WordsRead? { reader.waitForLine(id, index) }

    func stop() { if !reader.hasEnded(id) { reader.stop(id) } }
}
