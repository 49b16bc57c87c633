import Foundation
import SnapImaging

/// The reader process's half of the worker–reader protocol (`ReaderRequest`, `ReaderMessage`;
/// `ReaderProcess` is the worker's half): reads the photo as it is, then, when asked, its
/// light-on-dark blocks alone, with an engine of its own, exactly as `PlainReading` reads them on
/// the worker's second engine. Each reading is a line on `output` as soon as it is made.
///
/// A process of its own, not a thread of the worker's: its engine and its copy of the colour
/// photo are not in the worker's peak memory, and its pages are not the worker's (a new page
/// mapped or unmapped by one thread stops every core that runs the same process for a TLB
/// flush).
public struct ReaderServer: Sendable {
    private let output: FileHandle

    /// A server that writes its messages to `output` (the reader's standard output).
    public init(output: FileHandle) { self.output = output }

    /// Serves one `ReaderRequest` (its JSON) for the photo at `path`.
    /// - Returns: whether every reading asked for was sent (false: a `failed` message was, or
    ///   the request was not one of this version).
    public func serve(request json: String, path: String) -> Bool {
        guard let request = try? ReaderRequest.decode(json: json) else {
            send(.failed(reason: "reader: bad request"))
            return false
        }
        do {
            try read(request, path: path)
            return true
        } catch {
            send(.failed(reason: "\(error)"))
            return false
        }
    }

    private func read(_ request: ReaderRequest, path: String) throws {
        // The models load while the photo is decoded, as in the worker.
        let options = request.engine
        let pendingEngine = Pending { try TesseractEngine(options: options) }
        let loader = ImageLoader(memoryLimit: request.memoryLimit, jpegReductionTarget: request.jpegReductionTarget)
        let loaded = try loader.load(path)
        let reduction = Double(loaded.decodeReduction)
        let engine = try pendingEngine.take()
        func recognize(_ page: inout PreparedImage) throws -> RecognitionResult {
            page.image.setResolution(page.resolution)
            page.scale /= reduction
            // A line when the percentage moves, not at each of Tesseract's calls.
            var sent = -1
            var result = try engine.recognize(page) { percent in
                if percent != sent {
                    sent = percent
                    send(.progress(percent: percent))
                }
                return true
            }
            Recognizer.mapBoxes(&result.words, of: page, reduction: reduction)
            return result
        }
        var plain = try Preprocessor(options: request.preprocessing).plain(loaded.image)
        let asIs = try recognize(&plain)
        send(.asIs(asIs, leftOut: asIs.leftOutText))
        guard request.readsBlocks else { return }
        guard let alone = try RegionPolarity.blocksAlone(loaded.image.grayscale()) else {
            send(.noBlocks)
            return
        }
        var page = try Preprocessor(options: Recognizer.blocksAloneSettings(request.preprocessing)).prepare(alone.page)
        let blocks = try recognize(&page)
        send(.blocks(blocks, leftOut: blocks.leftOutText, page: PageMeasurements(page), count: alone.blocks))
    }

    /// Writes `message`; a write that fails (the worker went away) is ignored: the reader is
    /// killed with it (`PR_SET_PDEATHSIG`).
    private func send(_ message: ReaderMessage) {
        guard let line = try? message.encodedLine() else { return }
        try? output.write(contentsOf: line)
    }
}
