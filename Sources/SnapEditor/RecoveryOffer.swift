import SnapTerminal
import SnapText

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
