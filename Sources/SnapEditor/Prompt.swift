import SnapTerminal
import SnapText

/// Which prompt is open, with what it already knows.
public enum PromptKind: Equatable, Sendable {
    /// "Search: " (^W).
    case search
    /// "Search (to replace): " (^\).
    case replaceSearch
    /// "Replace with: ", after the search text was given.
    case replaceWith(search: String)
    /// "File Name to Write: " (^O).
    case writeOut
    /// "File to insert: " (^R).
    case insertFile
    /// "Enter line number, column number: " (^_, M-G).
    case goToLine
    /// "To: " (M-M).
    case mailTo
    /// "Subject: ", after the recipient was given.
    case mailSubject(to: String)
    /// "Command to execute: " (^T).
    case executeCommand
    /// "Read the photo again, languages: " (M-O), pre-filled with the last languages; M-L
    /// toggles the accurate level.
    case readAgain

    /// The history this prompt shares with others of its family.
    public var historyKey: PromptHistoryKey {
        switch self {
        case .search, .replaceSearch: return .search
        case .replaceWith: return .replacement
        case .writeOut, .insertFile: return .fileName
        case .mailTo: return .recipient
        case .goToLine: return .position
        case .mailSubject: return .subject
        case .executeCommand: return .command
        case .readAgain: return .languages
        }
    }
}

/// Families of prompt answers remembered for Up/Down.
public enum PromptHistoryKey: Hashable, Sendable {
    /// Search texts.
    case search
    /// Replacement texts.
    case replacement
    /// File names.
    case fileName
    /// Mail recipients.
    case recipient
    /// Mail subjects.
    case subject
    /// "line,column" answers.
    case position
    /// Command lines (^T).
    case command
    /// OCR languages (M-O).
    case languages
}

/// An open one-line prompt and the answer being typed.
public struct Prompt: Equatable, Sendable {
    /// Which question.
    public var kind: PromptKind
    /// The answer so far, as characters (grapheme clusters).
    public var answer: [Character]
    /// Cursor index in `answer` (0...answer.count).
    public var cursor: Int
    /// Position in the history while browsing with Up/Down (nil: the answer being typed).
    var historyIndex: Int?
    /// Why the answer given before was refused, shown in the prompt's label until it is answered
    /// again (a To field that is no mail address is asked again with what was typed).
    public var problem: String?
    /// The file names Tab found when they were several, shown above the prompt until the next key
    /// (nano lists them there).
    public var listed: [String] = []

    /// A prompt of `kind` pre-filled with `answer`, the cursor at its end; `problem` is why the
    /// last answer was refused.
    public init(kind: PromptKind, answer: String = "", problem: String? = nil) {
        self.kind = kind
        self.answer = Array(answer)
        self.cursor = self.answer.count
        self.problem = problem
    }

    /// The answer as a string.
    public var text: String { String(answer) }
}

/// An interactive replace in progress (nano's replace loop).
public struct ReplaceSession: Equatable, Sendable {
    /// The search text.
    public var search: String
    /// The replacement text (may be empty).
    public var replacement: String
    /// The match being asked about (UTF-8 range of the text).
    public var match: Range<Int>
    /// Where the loop started (UTF-8); after wrapping it stops before reaching it again.
    public var stopOffset: Int
    /// Whether the loop passed the end of the text and continued from the top.
    public var wrapped: Bool
    /// Replacements made so far.
    public var count: Int
    /// The cursor's UTF-8 offset before the replace, kept on the same text as replacements happen.
    public var originalCursor: Int
    /// Whether the search tells upper from lower case.
    public var caseSensitive: Bool = true
    /// Whether the search tells accented letters from plain ones.
    public var accentSensitive: Bool = true
    /// Whether the search is a regular expression (and `\1`, `$1` in the replacement its groups).
    public var regularExpression: Bool = false
}
