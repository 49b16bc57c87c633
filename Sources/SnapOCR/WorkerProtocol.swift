import Foundation

/// The messages an OCR worker process writes to its standard output, one JSON object per line
/// (JSON Lines, UTF-8). Version 1:
///
/// ```
/// {"v":1,"event":"progress","percent":42,"stage":"recognizing"}
/// {"v":1,"event":"result","result":{"text":"…","meanConfidence":91,"words":[…],"rotationDegrees":90,"warnings":[…]}}
/// {"v":1,"event":"error","kind":"input","message":"photo.png: not an image …"}
/// ```
/// `percent` is 0–100; `kind` is `input` (the file), `engine` (languages, tessdata), `cancelled`
/// or `internal`. Exactly one `result` or `error` ends a run.
public struct WorkerMessage: Codable, Equatable, Sendable {
    /// The protocol version this build speaks.
    public static let currentVersion = 1

    public enum Event: String, Codable, Sendable { case progress, result, error }
    /// Which side is at fault when `event` is `error`.
    public enum ErrorKind: String, Codable, Sendable { case input, engine, cancelled, `internal` }

    public var v: Int
    public var event: Event
    public var percent: Int?
    public var stage: String?
    public var result: RecognitionResult?
    public var kind: ErrorKind?
    public var message: String?

    public static func progress(_ percent: Int, stage: String) -> WorkerMessage {
        WorkerMessage(v: currentVersion, event: .progress, percent: percent, stage: stage)
    }
    public static func result(_ r: RecognitionResult) -> WorkerMessage {
        WorkerMessage(v: currentVersion, event: .result, result: r)
    }
    public static func error(_ kind: ErrorKind, _ message: String) -> WorkerMessage {
        WorkerMessage(v: currentVersion, event: .error, kind: kind, message: message)
    }

    /// One line of JSON, with its LF.
    public func encodedLine() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = (try? encoder.encode(self)) ?? Data("{\"v\":1,\"event\":\"error\",\"kind\":\"internal\"}".utf8)
        data.append(0x0A)
        return data
    }

    /// Decodes one line; nil if it is not a message of a version this build reads.
    public static func decode(line: Data) -> WorkerMessage? {
        guard let m = try? JSONDecoder().decode(WorkerMessage.self, from: line), m.v == currentVersion else { return nil }
        return m
    }
}

/// The settings a parent passes to a worker (as one JSON argument).
public struct WorkerRequest: Codable, Equatable, Sendable {
    /// The protocol version the parent speaks; a worker of another version refuses the request.
    public var v: Int
    public var options: RecognitionOptions

    public init(options: RecognitionOptions) {
        self.v = WorkerMessage.currentVersion
        self.options = options
    }
}
