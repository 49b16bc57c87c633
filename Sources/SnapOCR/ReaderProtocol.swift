import Foundation
import SnapImaging

/// What the worker asks of its reader process (`lovesnap __reader REQUEST -- PHOTO`, see
/// `ReaderServer`): the photo read as the `tesseract` command line reads it
/// (`Preprocessor.plain`), and after it, when `readsBlocks`, its light-on-dark blocks alone
/// (`RegionPolarity.blocksAlone`) — the two readings `Recognizer` otherwise makes beside the
/// prepared one on a second engine in its own process. The reader loads the photo itself, as
/// the worker did (the same `ImageLoader` settings give the same pixels).
struct ReaderRequest: Codable, Equatable, Sendable {
    /// `ReaderProtocol.version`; a reader of another version refuses the request.
    var v = ReaderProtocol.version
    /// The engine's languages, PSM and tessdata folder, as the worker's.
    var engine: EngineOptions
    /// The worker's preparation settings (`maxDimension` bounds the reading as it is; the blocks
    /// alone are prepared with `Recognizer.blocksAloneSettings` of them).
    var preprocessing: PreprocessingOptions
    /// `ImageLoader.memoryLimit`, bytes.
    var memoryLimit: Int
    /// `ImageLoader.jpegReductionTarget`, pixels (nil: full size).
    var jpegReductionTarget: Int?
    /// Whether the light-on-dark blocks are read alone after the photo as it is.
    var readsBlocks: Bool

    /// The request as one JSON argument.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The request from its JSON.
    /// - Throws: `DecodingError`, or `WorkerProtocolError.unsupportedVersion`.
    static func decode(json: String) throws -> ReaderRequest {
        let request = try JSONDecoder().decode(ReaderRequest.self, from: Data(json.utf8))
        guard request.v == ReaderProtocol.version else { throw WorkerProtocolError.unsupportedVersion(request.v) }
        return request
    }
}

/// The version of the worker–reader protocol (`ReaderRequest`, `ReaderMessage`): both ends are
/// the same executable, so only a reader left from another build would differ.
enum ReaderProtocol {
    static let version = 1
}

/// What the reader process writes on its standard output, one JSON object a line, in this order:
/// `progress` of the reading as it is, `asIs`, then (when asked) `progress` of the blocks' reading
/// and `blocks` or `noBlocks`; `failed` ends it early.
enum ReaderMessage: Codable, Equatable, Sendable {
    /// The reading under way, 0–100 percent.
    case progress(percent: Int)
    /// The photo as it is, read (word boxes in pixels of the upright photo at full size), and
    /// the text of its lines left out as noise (`RecognitionResult.leftOutText`, which the
    /// result's own coding leaves out).
    case asIs(RecognitionResult, leftOut: String)
    /// The light-on-dark blocks alone, read, with their noise left out; the page they were
    /// prepared as; how many blocks.
    case blocks(RecognitionResult, leftOut: String, page: PageMeasurements, count: Int)
    /// The photo has no light-on-dark blocks to read alone.
    case noBlocks
    /// The reading failed; why (an `ImagingError` or `OCRError` description).
    case failed(reason: String)

    /// The message as one JSON line, newline included.
    func encodedLine() throws -> Data {
        var data = try JSONEncoder().encode(self)
        data.append(0x0A)
        return data
    }
}
