import Foundation
import SnapImaging
import Synchronization

/// The reader process's half of the worker–reader protocol (`ReaderRequest`, `ReaderCommand`,
/// `ReaderMessage`; `ReaderProcess` is the worker's half): the worker's second engine, in a
/// process of its own. It reads the photo as it is and its light-on-dark blocks alone (as
/// `PlainReading` does on a second engine in the worker), a crop at its own size, and the second
/// part of a page shared by two engines (`SharedReading`), as the worker's commands ask, in
/// order; each answer is a line on `output` as soon as it is made.
///
/// A process of its own, not a thread of the worker's: its engine and its pages are not in the
/// worker's peak memory, and its memory mappings are not the worker's (a page mapped or unmapped
/// by one thread stops every core that runs the same process for a TLB flush).
public struct ReaderServer: Sendable {
    private let output: FileHandle

    /// A server that writes its messages to `output` (the reader's standard output).
    public init(output: FileHandle) { self.output = output }

    /// The commands read so far and the highest id stopped, shared by the thread that reads
    /// them and the one that works.
    private final class Commands: Sendable {
        let queue = Mutex<(waiting: [ReaderCommand], ended: Bool)>(([], false))
        let arrived = DispatchSemaphore(value: 0)
        let stoppedThrough = Atomic<Int>(0)

        func isStopped(_ id: Int) -> Bool { stoppedThrough.load(ordering: .relaxed) >= id }

        /// The next command; nil once the input has ended and every command was taken.
        func next() -> ReaderCommand? {
            while true {
                let (command, ended) = queue.withLock { q -> (ReaderCommand?, Bool) in
                    q.waiting.isEmpty ? (nil, q.ended) : (q.waiting.removeFirst(), false)
                }
                if command != nil || ended { return command }
                arrived.wait()
            }
        }
    }

    /// Serves the `ReaderRequest` (its JSON) for the photo at `path`, with the commands read from
    /// `input` (one JSON line each) until it ends.
    /// - Returns: false when the request was not one of this version (a `failed` message for
    ///   id 0 was sent), else true.
    public func serve(request json: String, path: String, commands input: FileHandle) -> Bool {
        guard let request = try? ReaderRequest.decode(json: json) else {
            send(.failed(id: 0, reason: "reader: bad request"))
            return false
        }
        // The models load while the first command comes, as the worker prepares the photo.
        let options = request.engine
        let pendingEngine = Pending { try TesseractEngine(options: options) }
        let commands = Commands()
        Thread.detachNewThread {
            WorkerClient.readLines(input) { line in
                guard let command = try? JSONDecoder().decode(ReaderCommand.self, from: line) else { return }
                if case .stop(let id) = command {
                    commands.stoppedThrough.store(
                        max(id, commands.stoppedThrough.load(ordering: .relaxed)), ordering: .relaxed)
                } else {
                    commands.queue.withLock { $0.waiting.append(command) }
                    commands.arrived.signal()
                }
            }
            commands.queue.withLock { $0.ended = true }
            commands.arrived.signal()
        }
        var session = Session(request: request, path: path, server: self, pendingEngine: pendingEngine)
        while let command = commands.next() {
            let id = command.id
            guard !commands.isStopped(id) else {
                send(.stopped(id: id))
                continue
            }
            do {
                try session.run(command) { commands.isStopped(id) }
            } catch OCRError.cancelled {
                send(.stopped(id: id))
            } catch {
                send(.failed(id: id, reason: "\(error)"))
            }
        }
        return true
    }

    /// What one reader keeps between commands: its engine, the page laid out last.
    private struct Session {
        let request: ReaderRequest
        let path: String
        let server: ReaderServer
        let pendingEngine: Pending<TesseractEngine>
        var engine: Result<TesseractEngine, any Error>?
        var laidOut: PreparedImage?

        init(request: ReaderRequest, path: String, server: ReaderServer, pendingEngine: Pending<TesseractEngine>) {
            self.request = request
            self.path = path
            self.server = server
            self.pendingEngine = pendingEngine
        }

        mutating func readyEngine() throws -> TesseractEngine {
            if engine == nil { engine = Result { try pendingEngine.take() } }
            return try engine!.get()
        }

        /// Runs `command`; `isStopped` says when it was stopped.
        /// - Throws: `OCRError.cancelled` when stopped, what the loading, preparing or reading threw.
        mutating func run(_ command: ReaderCommand, isStopped: @escaping () -> Bool) throws {
            let engine = try readyEngine()
            let server = self.server
            func recognize(_ page: inout PreparedImage, id: Int, reduction: Double) throws -> RecognitionResult {
                page.image.setResolution(page.resolution)
                page.scale /= reduction
                var result = try engine.recognize(page, progress: server.progress(id, isStopped))
                Recognizer.mapBoxes(&result.words, of: page, reduction: reduction)
                return result
            }
            switch command {
            case .readAsIs(let id, let sent, var reduction, let readsBlocks):
                // Decoding the photo again here (a JPEG at its reduced size) cost the worker less
                // than copying its pixels (`speed-ab`, 14 colour photos: ×1.003 against ×1.029).
                let photo: Image
                if let sent {
                    photo = try ReaderServer.image(sent)
                } else {
                    var loader = ImageLoader(
                        memoryLimit: request.memoryLimit, jpegReductionTarget: request.jpegReductionTarget)
                    loader.resolution = request.resolution
                    let loaded = try loader.load(path)
                    (photo, reduction) = (loaded.image, Double(loaded.decodeReduction))
                }
                var plain = try Preprocessor(options: request.preprocessing).plain(photo)
                let asIs = try recognize(&plain, id: id, reduction: reduction)
                server.send(.asIs(id: id, asIs, leftOut: asIs.leftOutText))
                guard readsBlocks else { return }
                guard let alone = try RegionPolarity.blocksAlone(photo.grayscale()) else {
                    server.send(.noBlocks(id: id))
                    return
                }
                let settings = Recognizer.blocksAloneSettings(request.preprocessing)
                var page = try Preprocessor(options: settings).prepare(alone.page)
                let blocks = try recognize(&page, id: id, reduction: reduction)
                server.send(
                    .blocks(
                        id: id, blocks, leftOut: blocks.leftOutText, page: PageMeasurements(page), count: alone.blocks))
            case .layOut(let id, let sent):
                let page = PreparedImage(
                    handedOver: try ReaderServer.image(sent), scale: sent.scale, resolution: sent.resolution)
                laidOut = nil
                let lines = engine.analyseLayout(page)
                laidOut = page
                server.send(.laidOut(id: id, lines))
            case .readPart(let id, let top):
                guard let page = laidOut, top > 0, top < page.image.height else {
                    throw OCRError.recognitionFailed
                }
                engine.readLinesFrom(
                    bottomOfPage: try page.image.clipped(
                        x: 0, y: top, width: page.image.width, height: page.image.height - top))
                server.send(.started(id: id))
                let read = try engine.readWords(page, progress: server.progress(id, isStopped))
                server.send(.part(id: id, read))
            case .readPrepared(let id, let sent, let settings, let reduction):
                var page = try Preprocessor(options: settings).prepare(try ReaderServer.image(sent))
                let read = try recognize(&page, id: id, reduction: reduction)
                server.send(.prepared(id: id, read, leftOut: read.leftOutText, page: PageMeasurements(page)))
            case .readLines(let id, let sent, let regions, let reduction):
                let rgb = try TextDetector.rgb(try ReaderServer.image(sent))
                for (index, region) in regions.enumerated() {
                    guard !isStopped() else { throw OCRError.cancelled }
                    let read = try DetectedLinesReading.readLine(
                        region, in: rgb, reduction: reduction, engine: engine)
                    server.send(.line(id: id, index: index, read))
                }
            case .stop: break
            }
        }
    }

    /// The pixels the worker sent, with their resolution.
    private static func image(_ sent: SentPage) throws -> Image {
        let image =
            try sent.raster.map {
                try Image.mappingSharedRaster(
                    path: sent.path, width: $0.width, height: $0.height, depth: $0.depth,
                    samplesPerPixel: $0.samplesPerPixel, bytes: $0.bytes)
            } ?? Image.readHandedOver(from: sent.path)
        image.setResolution(sent.resolution)
        return image
    }

    /// Tesseract's progress callback for command `id`: a `progress` line when the percentage
    /// moves (not at each of Tesseract's calls); false (cancel) once the command is stopped.
    private func progress(_ id: Int, _ isStopped: @escaping () -> Bool) -> (Int) -> Bool {
        var sent = -1
        return { percent in
            if percent != sent {
                sent = percent
                send(.progress(id: id, percent: percent))
            }
            return !isStopped()
        }
    }

    /// Writes `message`; a write that fails (the worker went away) is ignored: the reader is
    /// killed with it (`PR_SET_PDEATHSIG`).
    private func send(_ message: ReaderMessage) {
        guard let line = try? message.encodedLine() else { return }
        try? output.write(contentsOf: line)
    }
}
