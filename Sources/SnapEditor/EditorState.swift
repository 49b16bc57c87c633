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
    /// ^X then asks to save it, a termination signal saves it, and the title says "Modified",
    /// as for a modified buffer (nano's title marks a new buffer read from a pipe so).
    public var hasUnsavedText = false
    /// The message on the status line, cleared by the next key.
    public var status: StatusMessage?
    /// What keys currently do.
    public var mode: Mode = .editing
    /// The OCR job's state.
    public var recognition: RecognitionState = .none
    /// Keys typed while a photo is read (not those that cancel it), in order: given back by
    /// ``takeHeldKeys(from:)`` once the reading is over and the text is being edited. At most
    /// ``maximumHeldKeys``.
    var heldKeys: [KeyEvent] = []
    /// How many keys ``heldKeys`` keeps (a paste into the progress screen, say); later ones are dropped.
    static let maximumHeldKeys = 4096
    /// The search settings and the last search (Where Is and Replace, nano's).
    public var search = SearchSettings()
    /// While a photo chosen with ^R is read: where its text goes (UTF-8 offset) and its name; the
    /// buffer stays as it is, and the result is inserted there with its marks.
    public var insertion: (offset: Int, name: String)? {
        get { inserting.offset.map { ($0, inserting.name) } }
        set {
            inserting.offset = newValue?.offset
            inserting.name = newValue?.name ?? ""
        }
    }
    /// Where a reading for insertion goes and what it replaces (``InsertionState``).
    var inserting = InsertionState()
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
    /// The buffer's text state (``SnapText/TextBuffer/textState``) when it held exactly the
    /// photo's reading (nil when it never did, or holds more than one): a new reading replaces
    /// such a text without asking, also when edits were undone back to it.
    var readTextState: Int?
    /// The buffer's text state when the text was last loaded, read or written: `isModified` is
    /// whether the text is in another state (undoing back to it clears "Modified", as in nano
    /// 7.2); nil when no state of it is on disk or read (a recovered text).
    var cleanTextState: Int? = 0
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
    /// Which word the cursor and the typing were last in, and the error series offered
    /// (``ProofreadingProgress``).
    var proofreading = ProofreadingProgress()

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
    /// The recovery question's progress (``RecoveryProgress``).
    public var recovery = RecoveryProgress()
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
