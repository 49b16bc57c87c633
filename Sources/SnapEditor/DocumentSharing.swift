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
    /// encoding and line ends, a final newline added unless the file had none).
    /// Throws on failure (also a character the encoding cannot hold); the error's description is
    /// shown to the user as is (it should name the file and the system's reason).
    func save(_ text: Rope, to path: String, format: TextFormat) throws
    /// Sends `text` by mail to `to` with `subject`.
    /// Throws on failure; the error's description is shown to the user as is.
    func mail(_ text: String, to: String, subject: String) throws
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
    /// (ALTO) and `.pdf` are the photos' documents with each recognized word as `corrections`
    /// says (index = the word's index in ``EditorState/words``; nil: as read, "": deleted);
    /// any other name is `save(_:to:format:)`.
    /// Throws on failure; the error's description is shown to the user as is.
    func save(_ text: Rope, to path: String, format: TextFormat, corrections: [String?]) throws
    /// Why Write Out must not write `path` (the photo being edited, an image file name), or nil.
    func refusal(toWrite path: String) -> String?
}

extension DocumentSharing {
    /// Plain text only: `save(_:to:format:)`.
    public func save(_ text: Rope, to path: String, format: TextFormat, corrections: [String?]) throws {
        try save(text, to: path, format: format)
    }

    /// Nothing refused.
    public func refusal(toWrite path: String) -> String? { nil }
}
