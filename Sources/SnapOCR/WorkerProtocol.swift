import Foundation
import SnapImaging

#if canImport(Glibc)
    import Glibc
#endif

/// The OCR worker's protocol: the parent passes a `WorkerRequest` (one JSON argument) and the
/// photo's path (its own argument); the worker answers with `WorkerMessage`s on its standard
/// output, one JSON object per line (JSON Lines, UTF-8, LF). Version 6 (version 5 had no word's
/// `otherReading`; version 4 had either export formats and Tesseract's documents or a region, on
/// two branches; version 3 had neither; version 2 no word ranges, alternatives or spelling;
/// version 1 was a struct of optionals with string kinds):
///
/// ```
/// {"event":"progress","percent":42,"stage":"recognizing","v":6}
/// {"event":"result","result":{"meanConfidence":91,"notes":[…],"rotationDegrees":90,"text":"…","words":[…]},"v":6}
/// {"event":"failure","failure":{"unusablePhoto":{"_0":{"notAnImage":{"path":"photo.png"}}}},"v":6}
/// ```
/// Exactly one `result` or `failure` ends a run. Every line carries `v`; a line of another
/// version, or one that is not a message, is skipped by the reader.
public enum WorkerProtocol {
    /// The protocol version this build speaks and reads.
    public static let version = 6
}

/// One message from the worker to its parent.
public enum WorkerMessage: Codable, Equatable, Sendable {
    /// Overall progress, 0–100 percent, and the stage the run is in.
    case progress(percent: Int, stage: RecognitionStage)
    /// The run finished with this result; the last message.
    case result(RecognitionResult)
    /// The run failed; the last message.
    case failure(WorkerFailure)

    private enum CodingKeys: String, CodingKey { case v, event, percent, stage, result, failure }
    private enum Event: String, Codable { case progress, result, failure }

    /// Decodes one message.
    /// - Throws: `WorkerProtocolError.unsupportedVersion` for a message of another version;
    ///   `DecodingError` for anything that is not a message.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let version = try c.decode(Int.self, forKey: .v)
        guard version == WorkerProtocol.version else { throw WorkerProtocolError.unsupportedVersion(version) }
        switch try c.decode(Event.self, forKey: .event) {
        case .progress:
            self = .progress(
                percent: try c.decode(Int.self, forKey: .percent),
                stage: try c.decode(RecognitionStage.self, forKey: .stage))
        case .result: self = .result(try c.decode(RecognitionResult.self, forKey: .result))
        case .failure: self = .failure(try c.decode(WorkerFailure.self, forKey: .failure))
        }
    }

    /// Encodes the message with its version (`v`) and kind (`event`).
    /// - Throws: `EncodingError` only if a value cannot be encoded (a non-finite confidence).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(WorkerProtocol.version, forKey: .v)
        switch self {
        case .progress(let percent, let stage):
            try c.encode(Event.progress, forKey: .event)
            try c.encode(percent, forKey: .percent)
            try c.encode(stage, forKey: .stage)
        case .result(let result):
            try c.encode(Event.result, forKey: .event)
            try c.encode(result, forKey: .result)
        case .failure(let failure):
            try c.encode(Event.failure, forKey: .event)
            try c.encode(failure, forKey: .failure)
        }
    }

    /// The message as one line of JSON (sorted keys), with its LF.
    /// - Throws: `EncodingError` only if a value cannot be encoded (a non-finite confidence).
    public func encodedLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Decodes one line (without its LF).
    /// - Throws: `WorkerProtocolError.unsupportedVersion`, or `DecodingError` for a line that is
    ///   not a message.
    public static func decode(line: Data) throws -> WorkerMessage {
        try JSONDecoder().decode(WorkerMessage.self, from: line)
    }
}

/// What the parent asks of a worker (passed as one JSON argument).
public struct WorkerRequest: Codable, Equatable, Sendable {
    /// The protocol version the parent speaks; a worker of another version refuses the request.
    public var v: Int
    /// The OCR settings.
    public var options: RecognitionOptions
    /// How to name the photo in messages (the parent's display name; the worker may only see
    /// `/proc/PID/fd/N`).
    public var displayName: String

    /// A request of this build's protocol version.
    public init(options: RecognitionOptions, displayName: String) {
        self.v = WorkerProtocol.version
        self.options = options
        self.displayName = displayName
    }

    /// The request in `json`.
    /// - Throws: `WorkerProtocolError.unsupportedVersion` when it is of another version;
    ///   `DecodingError` when it is not a request.
    public static func decode(json: String) throws -> WorkerRequest {
        let request = try JSONDecoder().decode(WorkerRequest.self, from: Data(json.utf8))
        guard request.v == WorkerProtocol.version else { throw WorkerProtocolError.unsupportedVersion(request.v) }
        return request
    }

    /// The request as one JSON argument (sorted keys).
    /// - Throws: `EncodingError` only if an option cannot be encoded (a non-finite number).
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// A message or request the protocol cannot take.
public enum WorkerProtocolError: Error, Equatable, Sendable {
    /// It declares version `v`, not `WorkerProtocol.version`.
    case unsupportedVersion(Int)
}

/// Why a supervised OCR run ended without a result: reported by the worker, or found by the
/// parent when the worker died, hung or was cancelled. `description` is the message shown.
public enum WorkerFailure: Error, Equatable, Codable, Sendable, CustomStringConvertible {
    /// The photo cannot be used: missing, unreadable, not an image, corrupt, too large.
    case unusablePhoto(ImagingError)
    /// Tesseract cannot start: a language or the tessdata folder is missing or broken.
    case engineUnavailable(OCRError)
    /// Tesseract failed to recognize `photo` (its display name).
    case recognitionFailed(photo: String)
    /// An error nobody expected while reading `photo`; `reason` is its description.
    case unexpected(photo: String, reason: String)
    /// The worker could not read its request (another version, or not a request).
    case badRequest
    /// The region to read lies outside the photo; `reason` says where the photo is.
    case badRegion(reason: String)
    /// The run was cancelled (`WorkerClient.cancel()`).
    case cancelled
    /// The worker had not finished `photo` after `seconds` and was killed.
    case timedOut(photo: String, seconds: Double)
    /// The worker died of `signal` (SIGSEGV, SIGKILL, …) without a result; `lastError` is the last
    /// line it wrote on stderr, if any.
    case crashed(photo: String, signal: Int32, lastError: String?)
    /// The worker exited with `status` without a result; `lastError` as for `crashed`.
    case exited(photo: String, status: Int32, lastError: String?)

    /// The failure of reading `photo` (a display name) that `error` (from `Recognizer`) means.
    public init(_ error: any Error, photo: String) {
        switch error {
        case let e as ImagingError: self = .unusablePhoto(e)
        case OCRError.cancelled: self = .cancelled
        case OCRError.recognitionFailed: self = .recognitionFailed(photo: photo)
        case let problem as PhotoRegion.Problem: self = .badRegion(reason: "\(photo): \(problem.description)")
        case let e as OCRError: self = .engineUnavailable(e)
        default: self = .unexpected(photo: photo, reason: "\(error)")
        }
    }

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .unusablePhoto(let e): return e.description
        case .engineUnavailable(let e): return e.description
        case .recognitionFailed(let photo): return "\(photo): \(OCRError.recognitionFailed)"
        case .unexpected(let photo, let reason): return "\(photo): \(reason)"
        case .badRequest: return "worker: bad request"
        case .badRegion(let reason): return reason
        case .cancelled: return OCRError.cancelled.description
        case .timedOut(let photo, let seconds):
            return String(
                format: "OCR stopped: the engine did not finish %@ within %g s (see --timeout)",
                locale: Locale(identifier: "en_US_POSIX"), photo, seconds)
        case .crashed(let photo, let signal, let lastError):
            return "OCR stopped: the engine crashed on \(photo) (signal \(WorkerFailure.signalName(signal)))"
                + (lastError.map { ": \($0)" } ?? "")
        case .exited(let photo, let status, let lastError):
            return "OCR stopped: the engine exited with status \(status) on \(photo)"
                + (lastError.map { ": \($0)" } ?? "")
        }
    }

    /// "SIGSEGV" for the usual fatal signals, else the number.
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
