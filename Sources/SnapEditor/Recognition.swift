/// What a running OCR job reports to the editor.
public enum RecognitionEvent: Equatable, Sendable {
    /// Progress so far, in percent (0...100).
    case progress(percent: Int)
    /// Recognition ended: the text, Tesseract's mean word confidence (0–100), notes worth
    /// showing (e.g. "page turned 90° clockwise"), the words with their ranges in `text`,
    /// confidences, readings and doubts, and the degrees clockwise that made the photo upright
    /// (the words' boxes are in pixels of the photo turned so).
    case finished(
        text: String, meanConfidence: Int, notes: [String] = [], words: [ProofWord] = [], rotationDegrees: Int = 0)
    /// Recognition failed; `message` is shown to the user as is.
    case failed(message: String)
}

/// A running OCR job; the executable passes the real one (a worker process).
public protocol RecognitionTask: AnyObject {
    /// The events since the last call, oldest first; never blocks.
    func poll() -> [RecognitionEvent]
    /// Stops the job; idempotent, and harmless after it ended.
    func cancel()
    /// Spelling suggestions for a recognized word no dictionary knows, best first (may take a
    /// fraction of a second: the editor asks only when its alternatives menu opens).
    func suggestions(for word: String) -> [String]
    /// Whether the spelling dictionaries of the languages know the word in `token` (punctuation
    /// around it ignored); nil when they cannot tell (no letter, no dictionary).
    func isKnownWord(_ token: String) -> Bool?
}

extension RecognitionTask {
    /// None: for jobs without spelling dictionaries.
    public func suggestions(for word: String) -> [String] { [] }
    /// No dictionary: nothing is known.
    public func isKnownWord(_ token: String) -> Bool? { nil }
}
