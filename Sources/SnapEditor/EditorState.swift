import SnapTerminal
import SnapText

/// Everything the editor shows and remembers; changed only by ``update(_:_:keymap:)`` and the
/// `apply` functions, drawn only by ``render(_:size:keymap:)``.
public struct EditorState: Equatable {
    /// The text and its cursor and undo history.
    public var buffer: TextBuffer
    /// The first text line shown (0-based).
    public var topLine = 0
    /// The terminal size the last key was handled at (the run loop keeps it current).
    public var screenSize: TerminalSize
    /// The photo's or file's name, shown in the title bar.
    public var displayName: String
    /// The path Write Out offers (the last one written, at first the configuration's default).
    public var saveName: String
    /// Whether `saveName` is this text's own file (no overwrite question).
    public var savesToOwnFile: Bool
    /// How Write Out writes the text (line ends, encoding, final newline): the file's own format,
    /// M-D / M-M in the Write Out prompt toggle DOS / Mac line ends.
    public var format = TextFormat()
    /// Whether the text changed since it was loaded, recognized or written.
    public var isModified = false
    /// Whether the buffer holds text that exists nowhere on disk (an OCR result not yet written):
    /// ^X then asks to save it, and a termination signal saves it, as for a modified buffer.
    public var hasUnsavedText = false
    /// The message on the status line, cleared by the next key.
    public var status: StatusMessage?
    /// What keys currently do.
    public var mode: Mode = .editing
    /// The OCR job's state.
    public var recognition: RecognitionState = .none
    /// The last search text (offered as the default `[xyz]` by the search prompts).
    public var lastSearch = ""
    /// Whether searches tell upper from lower case (the default; M-C in a search prompt toggles it).
    public var caseSensitive = true
    /// Whether searches tell accented letters from plain ones (the default; M-A in a search
    /// prompt toggles it: then `e` finds `é`, `oe` finds `œ`; literal searches only).
    public var accentSensitive = true
    /// Whether the search text is a regular expression (M-R in a search prompt toggles it).
    public var regularExpression = false
    /// Whether Where Is searches backwards (M-B in the Search prompt toggles it; Replace always
    /// goes forward).
    public var searchesBackwards = false
    /// While a photo chosen with ^R is read: where its text goes (UTF-8 offset) and its name; the
    /// buffer stays as it is, and the result is inserted there with its marks.
    public var insertion: (offset: Int, name: String)? {
        get { insertionOffset.map { ($0, insertionName) } }
        set {
            insertionOffset = newValue?.offset
            insertionName = newValue?.name ?? ""
        }
    }
    var insertionOffset: Int?
    var insertionName = ""
    /// While a photo or a region of one is read for insertion: the photo its words are in (an
    /// index of ``photos``), and the marked text the result replaces.
    var insertionPhoto: Int?
    var insertionReplaces: Range<Int>?
    /// Whether the photo read for insertion is a new one (^R), whose turn the result tells.
    var insertionIsNewPhoto = false
    /// The photos the text was read from, the first one's words first (``ProofWord/photo``); a
    /// photo read again (M-O) is listed once more, with the turn of its new reading.
    public var photos: [PhotoSource] = []
    /// Whether the editor was opened on a photo (the first of ``photos``): only then can M-O
    /// read it again (a photo a text file got with ^R is part of that text, not its source).
    public var isOpenedOnPhoto = false
    /// The languages and level M-O reads the photo again with: at first the command line's, then
    /// the last ones chosen.
    public var readingChoice = ReadingChoice()
    /// While the photo is read again (M-O): its name and how it is read.
    public var rereading: Rereading?
    /// The buffer's revision when it last held exactly the photo's reading (nil when it never
    /// did, or holds more than one): a new reading replaces such a text without asking.
    var readRevision: Int?
    /// The photo view's picture as last drawn (its request says for which state and size).
    public var photoRendering: PhotoRendering?
    /// The request the photo renderer last failed on, and why (shown instead of the photo).
    var photoFailure: (request: PhotoRequest, message: String)? {
        get { photoFailureRequest.map { ($0, photoFailureMessage) } }
        set {
            photoFailureRequest = newValue?.request
            photoFailureMessage = newValue?.message ?? ""
        }
    }
    var photoFailureRequest: PhotoRequest?
    var photoFailureMessage = ""
    /// The words OCR read, indexed by their marks' ids (``SnapText/TextMark/id``); empty for a text file.
    public var words: [ProofWord] = []
    /// The mark (``SnapText/TextMark/id``) the cursor was in after the last key handled in the
    /// text: when the cursor leaves a word the user corrected by typing, its error series is offered.
    var cursorMarkID: Int?
    /// The mark of the word the user last typed in (a key in the text changed it, the cursor in it):
    /// only such a correction is offered when the cursor leaves it, not one made by Replace.
    var typedMarkID: Int?
    /// The correction each word's error series was last offered for (mark id → the word's text
    /// then): a word is asked about once per correction, not each time the cursor leaves it.
    var seriesOffered: [Int: String] = [:]

    /// Words typed outside every recognized word (runs of non-blank characters no mark touches):
    /// they have no box in the photo, so the exports cannot carry them.
    public var unplacedWordCount: Int {
        guard !words.isEmpty else { return 0 }
        let (bytes, holder) = bytesAndHolders
        var count = 0
        var i = 0
        while i < bytes.count {
            if EditorState.isBlank(bytes[i]) {
                i += 1
                continue
            }
            var touched = false
            while i < bytes.count && !EditorState.isBlank(bytes[i]) {
                touched = touched || holder[i] >= 0
                i += 1
            }
            if !touched { count += 1 }
        }
        return count
    }

    /// The buffer's UTF-8 bytes, and which mark (index in `buffer.marks`; -1: none) holds each:
    /// what `unplacedWordCount` and `wordCorrections` find the words in.
    private var bytesAndHolders: (bytes: [UInt8], holder: [Int]) {
        let bytes = Array(buffer.text.utf8)
        var holder = [Int](repeating: -1, count: bytes.count)
        for (n, mark) in buffer.marks.enumerated() {
            for i in mark.range where i < holder.count { holder[i] = n }
        }
        return (bytes, holder)
    }

    /// The bytes between words for the exports: space, line feed, tab.
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 }

    /// The pages of Write Out's exports: each photo reading with documents (``ProofWord/page``)
    /// that still has a word in the text, in the order of their first words in the text, with
    /// what each of its words reads now. A reading the text no longer holds (replaced by a new
    /// reading, M-O; deleted) makes no page; undo brings it back.
    public var exportPages: [ExportPage] {
        var first: [Int: Int] = [:]
        for mark in buffer.marks where words.indices.contains(mark.id) {
            guard let page = words[mark.id].page else { continue }
            first[page] = min(first[page] ?? Int.max, mark.range.lowerBound)
        }
        let now = wordCorrections
        return first.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { page, _ in
            ExportPage(page: page, corrections: words.indices.filter { words[$0].page == page }.map { now[$0] })
        }
    }

    /// What each recognized word (index in `words`) reads now: nil when as recognized, "" when
    /// its text was deleted, else its text in the buffer: its mark, with the characters typed
    /// against it that no other mark holds, up to white space on either side (a mark does not
    /// take in text typed right at its start: a first letter deleted and typed again, "Beige" →
    /// "Neige", left the mark on "eige").
    public var wordCorrections: [String?] {
        guard !words.isEmpty else { return [] }
        let (bytes, holder) = bytesAndHolders
        var now = [String?](repeating: "", count: words.count)
        for mark in buffer.marks where mark.id >= 0 && mark.id < words.count {
            var lower = min(mark.range.lowerBound, bytes.count)
            var upper = min(mark.range.upperBound, bytes.count)
            while lower > 0 && holder[lower - 1] < 0 && !EditorState.isBlank(bytes[lower - 1]) { lower -= 1 }
            while upper < bytes.count && holder[upper] < 0 && !EditorState.isBlank(bytes[upper]) { upper += 1 }
            let text = String(decoding: bytes[lower..<upper], as: UTF8.self)
            now[mark.id] = text == words[mark.id].text ? nil : text
        }
        return now
    }
    /// Where the mark was set (M-A, ^6), or nil when it is not: the region runs from it to the cursor.
    public var markAnchor: TextPosition?
    /// Whether line numbers are shown left of the text (M-#).
    public var showsLineNumbers = false
    /// Text cut with ^K, pasted with ^U.
    public var cutBuffer = ""
    /// The data found in the lines last shown (render underlines it), kept by ``update(_:_:keymap:)``.
    var lineData = LineData()
    /// Esc was pressed in the editing window: the next key is read as Meta + key (nano's Esc prefix).
    var pendingEscape = false
    /// Whether the previous command was a cut (consecutive cuts add to the cut buffer).
    var lastCommandWasCut = false
    /// Earlier answers per prompt, oldest first (Up/Down in a prompt recall them).
    public var promptHistory: [PromptHistoryKey: [String]] = [:]
    /// Leave the editor once the pending write succeeds (^X → Y → write).
    public var exitAfterSave = false
    /// The first line of the help screen shown (it scrolls when taller than the screen).
    var helpTopLine = 0
    /// Set when the editor should stop; the process exit code.
    public var exitCode: Int32?
    /// Set when a termination signal ended the editor: what became of the text.
    public var termination: TerminationReport?
    /// Whether the photo's OCR waits for the answer to the recovery question (it starts unless
    /// the recovered text is taken).
    public var recognitionOnHold = false
    /// The offers still to be asked after the one of ``EditorMode/recoveryOffer(_:)``, newest first.
    public var pendingRecoveries: [RecoveryOffer] = []
    /// Whether the text may not be changed (a recovery file was found and kept, and the user
    /// chose to open the document read-only): editing keys say "Key is invalid in view mode".
    public var isReadOnly = false
    /// The recovery journal: what was written for which document, and when the text last changed.
    public var journal = JournalState()
    /// The file `saveName` names as it was when read or last written, to tell whether another
    /// program changed it since (Write Out then asks); nil when not known (a photo's text
    /// before its first save).
    public var diskState: DiskState?

    /// A fresh state for `configuration`'s name and text, at `screenSize` (rows × columns).
    public init(
        displayName: String, saveName: String, savesToOwnFile: Bool = false, text: String = "",
        recognizing: Bool = false, screenSize: TerminalSize = TerminalSize(rows: 24, columns: 80)
    ) {
        self.init(
            displayName: displayName, saveName: saveName, savesToOwnFile: savesToOwnFile, content: Rope(text),
            recognizing: recognizing, screenSize: screenSize)
    }

    /// A fresh state for a name and a text held in a rope (not copied), at `screenSize`.
    public init(
        displayName: String, saveName: String, savesToOwnFile: Bool = false, content: Rope,
        recognizing: Bool = false, screenSize: TerminalSize = TerminalSize(rows: 24, columns: 80)
    ) {
        self.buffer = TextBuffer(content: content)
        self.displayName = displayName
        self.saveName = saveName
        self.savesToOwnFile = savesToOwnFile
        self.screenSize = screenSize
        if recognizing { recognition = .running(percent: 0) }
    }

    /// The marked region (UTF-8 offsets, from the mark to the cursor whichever comes first), or
    /// nil when the mark is not set.
    public var markedRegion: Range<Int>? {
        guard let anchor = markAnchor else { return nil }
        let a = buffer.offset(of: anchor)
        let b = buffer.offset(of: buffer.cursor)
        return min(a, b)..<max(a, b)
    }

    /// Whether the OCR job is still running (the text is not there yet).
    public var isRecognizing: Bool {
        if case .running = recognition { return true }
        return false
    }
}

/// A status-line message.
public struct StatusMessage: Equatable, Sendable {
    /// The text shown.
    public var text: String
    /// Whether it reports a failure.
    public var isError: Bool

    /// Creates a message.
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

/// The state of the OCR job.
public enum RecognitionState: Equatable, Sendable {
    /// No OCR (a text file, or an empty buffer).
    case none
    /// Running; progress in percent (0...100).
    case running(percent: Int)
    /// Done; Tesseract's mean confidence (0–100).
    case finished(meanConfidence: Int)
    /// Failed with this message.
    case failed(message: String)
    /// Cancelled by the user.
    case cancelled
}

/// What keys do at the moment.
public enum Mode: Equatable, Sendable {
    /// Keys edit the text.
    case editing
    /// A one-line prompt on the status line is open.
    case prompt(Prompt)
    /// "Replace this instance?" with Y / N / A / ^C, the match highlighted.
    case confirmReplace(ReplaceSession)
    /// "Save modified buffer?" with Y / N / ^C (from ^X).
    case confirmSave
    /// "File "x" exists; OVERWRITE?" with Y / N / ^C.
    case confirmOverwrite(path: String)
    /// The help screen; any key closes it.
    case help
    /// The alternatives menu of a word (M-Space).
    case alternatives(AlternativesMenu)
    /// "Correct this one too?" with Y / N / A / ^C, for each other word read as the one just
    /// corrected (an error series).
    case confirmSeries(SeriesCorrection)
    /// "The text is empty; mail it anyway?" with Y / N / ^C (from M-M).
    case confirmEmptyMail
    /// "File "x" has changed on disk; overwrite?" with Y / N / ^C (Write Out of a file another
    /// program changed since it was read or written).
    case confirmChangedOnDisk(path: String)
    /// A mail command or a command typed for ^T runs; ^C stops it, the screen keeps drawing.
    case running(RunningJob)
    /// A ^T command's output, shown in place of the text: Y replaces the region (or the whole
    /// text) with it, I inserts it at the cursor, N / ^C drop it.
    case commandOutput(CommandOutput)
    /// A recovery file was found for the document: R recovers it, D discards it, O opens the
    /// document read-only (keeping it), ^X leaves. Its text is shown meanwhile.
    case recoveryOffer(RecoveryOffer)
    /// The photo view (M-P): the photo with the words' boxes above, the text below.
    case photo(PhotoView)
    /// The list of data found in the text (M-F): card numbers, dates, addresses, phone numbers.
    case data(DataMenu)
    /// A new reading of the photo (M-O) of a text changed since it was read, shown in place of
    /// the text: Y replaces the text with it, B puts it below the text, N / ^C drop it.
    case confirmReading(NewReading)
}

/// What runs in the background while the editor waits (``Mode/running(_:)``).
public enum RunningJob: Equatable, Sendable {
    /// The mail command, sending to `to` (the To field as typed).
    case mail(to: String)
    /// A command typed for ^T, its input the region `region` (UTF-8 offsets), or the whole text
    /// when nil.
    case command(commandLine: String, region: Range<Int>?)
}

/// The output of a ^T command, waiting for the user's decision.
public struct CommandOutput: Equatable, Sendable {
    /// The command line as typed.
    public var commandLine: String
    /// What it wrote on standard output (decoded as UTF-8, CR LF as LF).
    public var output: String
    /// The region it was given (UTF-8 offsets of the text), or nil for the whole text.
    public var region: Range<Int>?
    /// The output as a buffer, for showing it.
    public var preview: TextBuffer

    /// The output of `commandLine` run on `region`.
    public init(commandLine: String, output: String, region: Range<Int>?) {
        self.commandLine = commandLine
        self.output = output
        self.region = region
        self.preview = TextBuffer(text: output)
    }
}

/// A text found when the document was opened that an earlier run did not save: a recovery file
/// (see ``DocumentSharing/writeJournal(_:forDocument:)``) or a file a save left behind.
public struct RecoveryOffer: Equatable, Sendable {
    /// What the file is.
    public enum Kind: Equatable, Sendable {
        /// A recovery file of an editor that ended without saving.
        case recoveryFile
        /// The recovery file of another editor still running on the document (process `pid`):
        /// it is never removed from here.
        case recoveryFileInUse(pid: Int32)
        /// The new text of a save that was killed before it ended (perhaps not all of it).
        case unfinishedSave
        /// The old text kept while a save rewrote a hard-linked file in place, left by a save
        /// killed before it ended (the file itself may hold the new text with the old end).
        case oldTextBackup
    }

    /// Its text.
    public var text: String
    /// When it was written, as shown ("2026-12-01 19:04:05").
    public var written: String
    /// Its size in octets.
    public var size: Int
    /// The file it is in, as shown (the sharing service removes or keeps it by this name).
    public var file: String
    /// What the file is.
    public var kind: Kind
    /// Its place among the offers made on opening (1 is the newest) and their number.
    public var ordinal = 1, count = 1
    /// Whether the document on disk was changed after this text was written (recovering it
    /// would set those changes aside: the question says so, and M-U gives the file's text back).
    public var fileIsNewer = false
    /// Its text as a buffer, for showing it.
    public var preview: TextBuffer

    /// An offer of `text` from `file`, written at `written`, `size` octets.
    public init(text: String, written: String, size: Int, file: String = "", kind: Kind = .recoveryFile) {
        self.text = text
        self.written = written
        self.size = size
        self.file = file
        self.kind = kind
        self.preview = TextBuffer(text: text)
    }
}

/// The recovery journal's bookkeeping: the run loop writes the text to the journal a little
/// while after it changes (``apply(clock:to:)``), and removes it once the text is saved.
public struct JournalState: Equatable, Sendable {
    /// Seconds the text must rest unchanged before it is written.
    public static let idleDelay = 1.0
    /// Seconds after the first change not yet written at which it is written anyway (while typing
    /// goes on).
    public static let maximumDelay = 4.0

    /// Whether the text is journaled at all (off in read-only mode, or when there is no folder).
    public var isEnabled = false
    /// The buffer revision seen by the last clock tick.
    var seenRevision = 0
    /// When (run-loop clock, seconds) the text last changed.
    var lastChange: Double?
    /// When the oldest change not yet in the journal happened.
    var firstUnwritten: Double?
    /// The revision last written (meaningful while ``writtenDocument`` is set).
    var writtenRevision = 0
    /// The document whose recovery file this editor wrote (and must remove), or nil.
    public internal(set) var writtenDocument: String?
    /// A revision whose write failed (not retried until the text changes again).
    var failedRevision: Int?
    /// Why the last write failed, until one works again: the status line says it whenever it
    /// has nothing else to say, so that the user knows the text is not protected (and it is set
    /// as a message once, the first time).
    public internal(set) var failureMessage: String?

    /// Journaling on or off.
    public init(isEnabled: Bool = false) {
        self.isEnabled = isEnabled
    }
}

/// A file as seen on disk, for noticing that another program changed it.
public enum DiskState: Equatable, Sendable {
    /// There was no such file.
    case absent
    /// The file, at this version.
    case present(DiskVersion)
}

/// What tells two versions of a file apart: device and inode (a rename over it makes a new
/// one), size, modification and status change times (nanoseconds: the status change time
/// catches a same-size change whose modification time was put back).
public struct DiskVersion: Hashable, Sendable {
    /// `st_dev`, `st_ino`, `st_size`, `st_mtim` and `st_ctim` in nanoseconds since 1970.
    public var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64

    /// A version from `stat(2)` fields.
    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64 = 0) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }
}

/// A correction offered for an error series: the other words OCR read as the word the user just
/// corrected, asked about one by one, then replaced together in one undo step.
public struct SeriesCorrection: Equatable, Sendable {
    /// One word asked about: its mark and the text that would replace it.
    public struct Candidate: Equatable, Sendable {
        /// The word's mark (``SnapText/TextMark/id``).
        public var markID: Int
        /// The word's text now (as OCR read it: the mark is not edited).
        public var text: String
        /// What would replace it: the correction itself for a word read as the wrong reading,
        /// the word with the character confusion corrected for another uncertain word.
        public var replacement: String

        /// A candidate from its parts.
        public init(markID: Int, text: String, replacement: String) {
            self.markID = markID
            self.text = text
            self.replacement = replacement
        }
    }

    /// The wrong reading.
    public var from: String
    /// The correction.
    public var to: String
    /// The words still to ask about, the current one first: those read as `from`, then the other
    /// uncertain words holding the same character confusion.
    public var pending: [Candidate]
    /// The words the user said yes to.
    public var accepted: [Candidate] = []
}

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

    /// A prompt of `kind` pre-filled with `answer`, the cursor at its end.
    public init(kind: PromptKind, answer: String = "") {
        self.kind = kind
        self.answer = Array(answer)
        self.cursor = self.answer.count
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
