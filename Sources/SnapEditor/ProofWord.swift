/// A word as OCR read it, kept by the editor for proofreading: where it was in the recognized text,
/// how sure the engine was, and what else it might be.
///
/// The word's place in the buffer is its ``SnapText/TextMark`` (whose `id` is the word's index in
/// ``EditorState/words``); the mark follows edits, this record does not change.
public struct ProofWord: Equatable, Sendable {
    /// The word as read (UTF-8, NFC).
    public var text: String
    /// Its UTF-8 byte range in the recognized text.
    public var range: Range<Int>
    /// Tesseract's confidence, 0–100.
    public var confidence: Double
    /// Where it is in the photo: x, y, width, height in pixels of the upright photo.
    public var box: WordBox
    /// Index (from 0) of its text line, in reading order.
    public var line: Int
    /// The engine's other readings, best first.
    public var alternatives: [String]
    /// Whether no spelling dictionary of the languages knows the word.
    public var isUnknownWord: Bool
    /// Spelling suggestions (Hunspell) for a word no dictionary knows, best first; nil until asked
    /// for (the alternatives menu asks, through ``RecognitionTask/suggestions(for:)``).
    public var suggestions: [String]?
    /// Why it is uncertain, in words ("low confidence", "not in the dictionary"); empty when it is not.
    public var doubts: [String]
    /// The photo it was read from: an index of ``EditorState/photos``.
    public var photo = 0
    /// How the other preparation of the page read the same place, when the pipeline read the page
    /// twice and the two differ ("" when it read nothing there); nil when they agree or there
    /// was one reading. Offered in the alternatives menu after the engine's own choices.
    public var otherReading: String?
    /// How the second, learned recognizer read the word when it read another word there; nil
    /// when it read the same or was not asked. Offered in the alternatives menu after the
    /// engine's own choices.
    public var learnedReading: String?
    /// The page of Write Out's exports its reading made: an index the sharing service gave the
    /// reading's documents (see ``DocumentSharing/save(_:to:format:pages:)``); nil when its reading
    /// made none (a region of a photo, a text without documents).
    public var page: Int?
    /// The word with the accents its line's language needs, when that language's dictionary knows
    /// it only so ("hâte" for "hate" in a French line; "prés", "près" for "pres"), each spelling it
    /// knows; offered first in the alternatives menu. Empty when there is none.
    public var withAccents: [String]

    /// Whether the engine read it at or above the uncertainty threshold (`--uncertain-below`,
    /// 88 unless given): it may be doubted for other reasons (no dictionary knows it), not for
    /// its confidence.
    public var isReadConfidently: Bool

    /// Whether it is uncertain (has a doubt).
    public var isUncertain: Bool { !doubts.isEmpty }

    /// A word from its parts (see each property for units); `isReadConfidently` nil: confidence
    /// 88 or more (lovesnap's default threshold).
    public init(
        text: String, range: Range<Int>, confidence: Double, box: WordBox = WordBox(), line: Int = 0,
        alternatives: [String] = [], isUnknownWord: Bool = false, suggestions: [String]? = nil,
        doubts: [String] = [], otherReading: String? = nil, page: Int? = nil, isReadConfidently: Bool? = nil,
        withAccents: [String] = [], learnedReading: String? = nil
    ) {
        self.text = text
        self.range = range
        self.confidence = confidence
        self.box = box
        self.line = line
        self.alternatives = alternatives
        self.isUnknownWord = isUnknownWord
        self.suggestions = suggestions
        self.doubts = doubts
        self.otherReading = otherReading
        self.page = page
        self.isReadConfidently = isReadConfidently ?? (confidence >= 88)
        self.withAccents = withAccents
        self.learnedReading = learnedReading
    }
}

/// A rectangle in pixels of the upright photo, origin top-left.
public struct WordBox: Equatable, Sendable {
    /// Left and top edges, pixels.
    public var x: Int, y: Int
    /// Size, pixels.
    public var width: Int, height: Int

    /// A box from its left, top, width and height in pixels.
    public init(x: Int = 0, y: Int = 0, width: Int = 0, height: Int = 0) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// The open alternatives menu (M-Space): readings to put in place of one word.
public struct AlternativesMenu: Equatable, Sendable {
    /// One reading offered.
    public struct Entry: Equatable, Sendable {
        /// The text that would replace the word.
        public var text: String
        /// Where it comes from: "accent", "engine", "other preparation", "spelling", "as read",
        /// "as it is".
        public var source: String
    }

    /// The mark (``SnapText/TextMark/id``) of the word being replaced.
    public var markID: Int
    /// The readings, in menu order.
    public var entries: [Entry]
    /// The highlighted entry's index.
    public var selected = 0
}

/// What a key does in the alternatives menu.
public enum MenuAction: String, CaseIterable, Sendable {
    /// Highlight the entry above (wrapping).
    case up
    /// Highlight the entry below (wrapping).
    case down
    /// Put the highlighted reading in place of the word (one undo step).
    case choose
    /// Close the menu, changing nothing.
    case cancel
}
