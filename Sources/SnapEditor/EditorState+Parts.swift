import SnapText

/// The search settings the search prompts toggle, and the last search (nano's Where Is and
/// Replace): part of ``EditorState``.
public struct SearchSettings: Equatable, Sendable {
    /// The last search text (offered as the default `[xyz]` by the search prompts).
    public var lastSearch = ""
    /// Whether searches tell upper from lower case (not by default, as in nano; M-C in a search
    /// prompt toggles it).
    public var caseSensitive = false
    /// Whether searches tell accented letters from plain ones (the default; M-A in a search
    /// prompt toggles it: then `e` finds `é`, `oe` finds `œ`; literal searches only).
    public var accentSensitive = true
    /// Whether the search text is a regular expression (M-R in a search prompt toggles it).
    public var regularExpression = false
    /// Whether Where Is searches backwards (M-B in the Search prompt toggles it; Replace always
    /// goes forward).
    public var searchesBackwards = false

    /// The defaults (nano's, and accents told apart): case ignored, literal, forwards, no earlier search.
    public init() {}
}

/// While a photo, or a region of one, is read for insertion (^R, the photo view's Enter): part
/// of ``EditorState`` (``EditorState/insertion`` is its public face).
struct InsertionState: Equatable, Sendable {
    /// Where the text goes (UTF-8 offset) and the photo's name.
    var offset: Int?
    var name = ""
    /// While a photo or a region of one is read for insertion: the photo its words are in (an
    /// index of ``photos``), and the marked text the result replaces.
    var photo: Int?
    var replaces: Range<Int>?
    /// Whether the photo read for insertion is a new one (^R), whose turn the result tells.
    var isNewPhoto = false
    /// The OCR state before the insertion started: the title keeps the text's reading and its
    /// confidence (the inserted reading's is said on the status line), so undoing the insertion
    /// leaves no other reading's confidence in the title.
    var previousRecognition: RecognitionState = .none
}

/// The proofreading's bookkeeping between keys: part of ``EditorState``.
struct ProofreadingProgress: Equatable, Sendable {
    /// The mark (``SnapText/TextMark/id``) the cursor was in after the last key handled in the
    /// text: when the cursor leaves a word the user corrected by typing, its error series is offered.
    var cursorMarkID: Int?
    /// The mark of the word the user last typed in (a key in the text changed it, the cursor in it):
    /// only such a correction is offered when the cursor leaves it, not one made by Replace.
    var typedMarkID: Int?
    /// The correction each word's error series was last offered for (mark id → the word's text
    /// then): a word is asked about once per correction, not each time the cursor leaves it.
    var seriesOffered: [Int: String] = [:]
}

/// The recovery question's progress when the editor opens: part of ``EditorState``.
public struct RecoveryProgress: Equatable, Sendable {
    /// Whether the photo's OCR waits for the answer to the recovery question (it starts unless
    /// the recovered text is taken).
    public var recognitionOnHold = false
    /// The offers still to be asked after the one of ``EditorMode/recoveryOffer(_:)``, newest first.
    public var pendingRecoveries: [RecoveryOffer] = []

    /// Nothing held, nothing left to ask.
    public init() {}
}
