import SnapText

/// What a path names at the moment, as far as Write Out cares.
public enum ExistingItem: Equatable, Sendable {
    /// Nothing (a new file would be made).
    case nothing
    /// A folder: Write Out refuses it at once.
    case folder
    /// A file or anything else: Write Out asks before replacing it, unless it is the text's own.
    case other
}

/// The editor's only way to files and mail; the executable passes the real one (SnapShare), and
/// the editor's tests a fake, so that the editor itself touches no file.
public protocol DocumentSharing {
    /// Writes `text` to the file at `path` in `format` (``SnapText/TextFormat/encode(_:)``: its
    /// encoding and line ends, a final newline added unless the file had none) and returns the
    /// file's new version (nil when it cannot be told).
    /// Throws on failure (also a character the encoding cannot hold); the error's description is
    /// shown to the user as is (it should name the file and the system's reason).
    /// The text is the buffer's rope itself (a snapshot, no copy).
    func save(_ text: Rope, to path: String, format: TextFormat) throws -> DiskVersion?
    /// The version of the file at `path` (as typed for Write Out) now, or nil when there is none.
    func version(of path: String) -> DiskVersion?
    /// Starts sending `text` by mail to the To field `to` (RFC 5322 addresses, as typed) with
    /// `subject`, and returns at once; the job says how it ended (its message is shown as is).
    func startMail(_ text: Rope, to: String, subject: String) -> BackgroundJob
    /// Starts `commandLine` (^T: split into words like a shell's, run without a shell) with
    /// `input` on its standard input, and returns at once; the job's outcome carries its output.
    func startCommand(_ commandLine: String, input: Rope) -> BackgroundJob
    /// Writes `text` to the recovery file of `document` (the path Write Out would use), atomically.
    /// Throws when it cannot; the error's description names the file and the reason.
    func writeJournal(_ text: Rope, forDocument document: String) throws
    /// Removes the recovery file of `document`, if there is one.
    func removeJournal(forDocument document: String)
    /// Removes `file` (``RecoveryOffer/file``), an offered text the user discarded; a recovery
    /// file another running editor writes is kept.
    func discardRecovery(file: String)
    /// Makes the offered `file`, whose `text` the user recovered, this editor's recovery file of
    /// `document` (a recovery file is renamed; a file a save left behind is written as the
    /// recovery file, then removed) and returns true; false when there is no journal (the file
    /// is kept). Throws when it cannot; the error's description names the file and the reason.
    func adoptRecovery(file: String, text: Rope, forDocument document: String) throws -> Bool
    /// The text of the file at `path` (as the user typed it for ^R), bytes as they are.
    /// Throws when it cannot be read or is not UTF-8 text; the error's description is shown as is.
    func read(_ path: String) throws -> String
    /// What `path` (as the user typed it for Write Out) names now.
    func existingItem(at path: String) -> ExistingItem
    /// Writes `text` to a new emergency file for the document Write Out would write to `saveName`
    /// (GNU nano's `NAME.save`, `NAME.save.1`…, else in the home folder, then `/tmp`) and returns
    /// its path. Runs when a signal ends the editor. Throws when no place took it; the error's
    /// description names the file and the system's reason.
    func saveEmergencyCopy(_ text: Rope, forDocument saveName: String) throws -> String
    /// Writes the text to `path` in the format its extension names: `.hocr`, `.tsv`, `.xml`
    /// (ALTO) and `.pdf` are the documents of `pages`, in order (each the documents the sharing
    /// service gave the index ``ExportPage/page``, see ``ProofWord/page``), with each recognized
    /// word as its page's corrections say (nil: as read, "": deleted); any other name is
    /// `save(_:to:format:)`. Returns the written file's version (nil when it cannot be told).
    /// Throws on failure (also when `pages` is empty or a page has no documents); the error's
    /// description is shown to the user as is.
    func save(_ text: Rope, to path: String, format: TextFormat, pages: [ExportPage]) throws -> DiskVersion?
    /// Why Write Out must not write `path` (the photo being edited, an image file name), or nil.
    func refusal(toWrite path: String) -> String?
    /// Why no mail can go to the To field `to` as typed (an address that is not RFC 5322's, a
    /// group, a line break), or nil; asked before the Subject is.
    func refusal(toMail to: String) -> String?
    /// Why no mail can be sent at all (the mail command is found nowhere), or nil; asked with
    /// `refusal(toMail:)`.
    func mailCommandProblem() -> String?
    /// The names in the folder `prefix` points into (its part up to the last "/"; the working
    /// folder when it has none) that start with its last part, a folder's with "/" after it,
    /// sorted: what Tab completes in the file prompts, as nano does. Empty when there is none
    /// or the folder cannot be read.
    func fileNames(completing prefix: String) -> [String]
    /// The folder at `path` (relative to the working folder; `~` is the home folder) for the file
    /// browser: its absolute path without "." or ".." parts, its entries with ".." unless it is
    /// "/" (unsorted), and the working folder's absolute path.
    /// - Throws: an error saying which folder and why, when it cannot be read.
    func listFolder(_ path: String) throws -> (path: String, entries: [FolderEntry], workingFolder: String)
}

extension DocumentSharing {
    /// Plain text only: `save(_:to:format:)`.
    public func save(_ text: Rope, to path: String, format: TextFormat, pages: [ExportPage]) throws
        -> DiskVersion?
    {
        try save(text, to: path, format: format)
    }

    /// Nothing refused.
    public func refusal(toWrite path: String) -> String? { nil }
    /// No check: the mail job says what is wrong.
    public func refusal(toMail to: String) -> String? { nil }
    /// No check: the mail job says what is wrong.
    public func mailCommandProblem() -> String? { nil }
    /// No files to complete.
    public func fileNames(completing prefix: String) -> [String] { [] }
    /// No folders: an empty root.
    public func listFolder(_ path: String) throws -> (path: String, entries: [FolderEntry], workingFolder: String) {
        ("/", [], "/")
    }
}

/// One page of an export: a reading of a photo whose words are in the text.
public struct ExportPage: Equatable, Sendable {
    /// The reading's documents: the index ``ProofWord/page`` its words carry.
    public var page: Int
    /// What each of its words (in reading order) reads now: nil as read, "" deleted, else the
    /// text in the buffer.
    public var corrections: [String?]

    /// Page `page` with `corrections`.
    public init(page: Int, corrections: [String?]) {
        self.page = page
        self.corrections = corrections
    }
}

/// Work that runs while the editor goes on drawing and reading keys (a mail command, a ^T
/// command): the run loop polls it and may cancel it.
public protocol BackgroundJob: AnyObject {
    /// How it ended, or nil while it runs; never blocks.
    func poll() -> JobOutcome?
    /// Stops it (idempotent; harmless once it ended). ``poll()`` then reports how it ended.
    func cancel()
}
