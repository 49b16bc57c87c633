import SnapText

/// How to read the photo again (M-O): the languages and the level, as the user chose them last.
public struct ReadingChoice: Equatable, Sendable {
    /// Tesseract's languages joined by `+`, as typed (`eng+fra`).
    public var languages: String
    /// Whether to read at `--level accurate` (several preparations, the best reading kept)
    /// rather than `fast`.
    public var accurate: Bool

    /// A choice of `languages` (joined by `+`) at the accurate or fast level.
    public init(languages: String = "eng+fra", accurate: Bool = false) {
        self.languages = languages
        self.accurate = accurate
    }

    /// "accurate" or "fast", as `--level` writes it.
    public var levelName: String { accurate ? "accurate" : "fast" }
}

/// The photo being read again (M-O), while its OCR runs.
public struct Rereading: Equatable, Sendable {
    /// The photo's name, for the progress screen and messages.
    public var name: String
    /// The languages and level it is read with.
    public var choice: ReadingChoice
    /// The OCR state before (restored when the new reading is cancelled, fails or is dropped).
    var previous: RecognitionState
}

/// A new reading of the photo (M-O), waiting for the user's decision because the text was
/// changed since it was read: shown in place of the text, Y replaces the text with it, B puts it
/// below the text, N / ^C drop it.
public struct NewReading: Equatable, Sendable {
    /// The text read, UTF-8, NFC, LF line ends.
    public var text: String
    /// Tesseract's mean word confidence, 0–100.
    public var meanConfidence: Int
    /// Its words (ranges in `text`).
    public var words: [ProofWord]
    /// Degrees clockwise that made the photo upright for this reading (its words' boxes are in
    /// pixels of the photo turned so).
    public var rotationDegrees: Int
    /// The languages and level it was read with.
    public var choice: ReadingChoice
    /// The OCR state before it, kept while the question is open.
    var previous: RecognitionState
    /// The text as a buffer, for showing it.
    public var preview: TextBuffer

    /// A reading of `text` with `words`, read with `choice`.
    public init(
        text: String, meanConfidence: Int, words: [ProofWord], rotationDegrees: Int, choice: ReadingChoice,
        previous: RecognitionState = .none
    ) {
        self.text = text
        self.meanConfidence = meanConfidence
        self.words = words
        self.rotationDegrees = rotationDegrees
        self.choice = choice
        self.previous = previous
        self.preview = TextBuffer(text: text)
    }
}
