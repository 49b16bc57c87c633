import Foundation
import SnapImaging

/// How the worker starts its reader process (`lovesnap __reader REQUEST -- PHOTO`, see
/// `ReaderServer`): the engine's and the preparation's settings, and how to load PHOTO when asked
/// to read it as it is (the worker's `ImageLoader` settings give the worker's pixels). What to
/// read comes after, as `ReaderCommand` lines on the reader's standard input.
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
    /// `ImageLoader.resolution`, DPI (nil: the file's).
    var resolution: Int? = nil

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

/// The version of the worker–reader protocol (`ReaderRequest`, `ReaderCommand`,
/// `ReaderMessage`): both ends are the same executable, so only a reader left from another build
/// would differ.
enum ReaderProtocol {
    static let version = 2
}

/// Pixels handed to the reader: a file it reads (`Image.writeHandedOver(to:)`; in the worker a
/// memory file, `/proc/PID/fd/N`, which leaves nothing behind), with what the file does not
/// hold.
struct SentPage: Codable, Equatable, Sendable {
    /// The shape of a raster the worker shares instead of copying (`Image.sharedRaster`): the
    /// reader maps `path` (`Image.mappingSharedRaster`).
    struct SharedRaster: Codable, Equatable, Sendable {
        var width: Int, height: Int, depth: Int, samplesPerPixel: Int, bytes: Int
    }

    var path: String
    /// DPI told to Tesseract (`PreparedImage.resolution`).
    var resolution: Int
    /// `PreparedImage.scale`: the engine's boxes are the page's pixels ÷ it.
    var scale: Double
    /// Set when `path` is a shared raster, not a handed-over image.
    var raster: SharedRaster? = nil
}

/// What the worker asks of its reader, one JSON object a line on the reader's standard input.
/// Each command has an id, counted up from 1; the reader works through them in order, and
/// `stop` ends the one with that id (and any earlier one) as soon as Tesseract next looks.
enum ReaderCommand: Codable, Equatable, Sendable {
    /// Read `photo` (the upright photo as loaded, decoded at 1/`reduction` of its size; nil: the
    /// photo the reader was started for, loaded by the reader with the request's settings) as
    /// it is (`Preprocessor.plain`), then, when `readsBlocks`, its light-on-dark blocks alone
    /// (`RegionPolarity.blocksAlone`): `asIs`, then `blocks` or `noBlocks`; the boxes in pixels of
    /// the photo at full size.
    case readAsIs(id: Int, photo: SentPage?, reduction: Double, readsBlocks: Bool)
    /// Analyse the layout of `page` (`TessBaseAPIAnalyseLayout`), as the second engine of a
    /// shared reading (`SharedReading`): `laidOut`.
    case layOut(id: Int, page: SentPage)
    /// Read the page laid out last from its rows `top...` (`TessBaseAPISetInputImage`, see
    /// `SharedReading`): `started` when the reading starts, then `part`.
    case readPart(id: Int, top: Int)
    /// Prepare `photo` with `settings` and read it (a crop at its own size); the boxes are
    /// mapped to the photo and multiplied by `reduction` (the JPEG's reduced decoding): `prepared`.
    case readPrepared(id: Int, photo: SentPage, settings: PreprocessingOptions, reduction: Double)
    /// Read `regions` of `photo` (the upright photo the text detector was given; its pixels are
    /// the regions') one by one, in that order, each as one line
    /// (`DetectedLinesReading.readLine`), the boxes multiplied by `reduction`: a `line` for each,
    /// until stopped.
    case readLines(id: Int, photo: SentPage, regions: [DetectedRegion], reduction: Double)
    /// Stop the command `id` (and any earlier one): `stopped`, unless it ended first.
    case stop(id: Int)
}

/// What the reader writes on its standard output, one JSON object a line, each with the id of
/// the command it answers.
enum ReaderMessage: Codable, Equatable, Sendable {
    /// The reading under way, 0–100 percent.
    case progress(id: Int, percent: Int)
    /// The photo as it is, read (word boxes in pixels of the upright photo at full size), and
    /// the text of its lines left out as noise (`RecognitionResult.leftOutText`, which the
    /// result's own coding leaves out).
    case asIs(id: Int, RecognitionResult, leftOut: String)
    /// The light-on-dark blocks alone, read, with their noise left out; the page they were
    /// prepared as; how many blocks.
    case blocks(id: Int, RecognitionResult, leftOut: String, page: PageMeasurements, count: Int)
    /// The photo has no light-on-dark blocks to read alone.
    case noBlocks(id: Int)
    /// The page's layout: its text lines in reading order.
    case laidOut(id: Int, [LayoutLine])
    /// The part's reading started.
    case started(id: Int)
    /// The part, read.
    case part(id: Int, TesseractEngine.WordsRead)
    /// The crop prepared and read, with its noise left out, and the page it was prepared as.
    case prepared(id: Int, RecognitionResult, leftOut: String, page: PageMeasurements)
    /// The `index`th region of a `readLines` command, read.
    case line(id: Int, index: Int, TesseractEngine.WordsRead)
    /// The command was stopped.
    case stopped(id: Int)
    /// The command failed; why (an `ImagingError` or `OCRError` description).
    case failed(id: Int, reason: String)
}

/// What goes through a helper's pipes (the reader's commands and messages, the spelling
/// process's and the orientation process's answers): one JSON object a line, keys sorted.
protocol HelperLine: Encodable {}
extension ReaderCommand: HelperLine {}
extension ReaderMessage: HelperLine {}

extension HelperLine {
    /// The value as one JSON line, newline included.
    /// - Throws: `EncodingError` only if a value cannot be encoded (a non-finite number).
    func encodedLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}

extension ReaderCommand {
    /// The command's id.
    var id: Int {
        switch self {
        case .readAsIs(let id, _, _, _), .layOut(let id, _), .readPart(let id, _), .readPrepared(let id, _, _, _),
            .readLines(let id, _, _, _), .stop(let id):
            return id
        }
    }
}
