import SnapText

/// Work ``update(_:_:keymap:)`` asks the run loop to do outside the state (files, mail, OCR).
public enum EditorEffect: Equatable, Sendable {
    /// Write `text` to `path` in `format`; `overwriteConfirmed` is false when the editor should
    /// first ask if `path` is an existing file other than the text's own. The text is the
    /// buffer's rope itself (a snapshot, no copy).
    case save(
        text: Rope, path: String, overwriteConfirmed: Bool, format: TextFormat = TextFormat(),
        corrections: [String?] = [])
    /// Read the text file at `path` and insert it at the cursor (^R).
    case insertFile(path: String)
    /// Mail `text` to `to` with `subject`.
    case mail(text: String, to: String, subject: String)
    /// Stop the OCR job.
    case cancelRecognition
    /// Repaint the whole screen, whatever the terminal thinks is on it (^L).
    case redrawScreen
    /// Ask for spelling suggestions for `word`, the word of mark `markID`, then open its
    /// alternatives menu (``RecognitionTask/suggestions(for:)``).
    case suggestSpellings(markID: Int, word: String)
    /// Draw the photo view's picture for `request` (``PhotoRenderer/render(_:)``).
    case renderPhoto(PhotoRequest)
    /// Read `region` (pixels of the upright photo) of `photo` (index `index` of the state's photos)
    /// and insert its text at the cursor, or in place of the marked text.
    case readRegion(photo: PhotoSource, index: Int, region: WordBox)
    /// Put `text` on the system clipboard through the terminal (OSC 52).
    case copyToClipboard(String)
    /// Write `text` to a new emergency file for the document `saveName` (``DocumentSharing/saveEmergencyCopy(_:forDocument:)``),
    /// because `signal` asks the editor to end.
    case emergencySave(text: Rope, saveName: String, signal: Int32)
}

/// How an ``EditorEffect`` turned out, fed back with ``apply(_:to:)``.
public enum EffectResult: Equatable, Sendable {
    /// The text was written to `path`.
    case saved(path: String)
    /// Writing failed; the message names the file and the reason.
    case saveFailed(message: String)
    /// `path` exists and is not this text's file: ask before overwriting.
    case saveNeedsOverwriteConfirmation(path: String)
    /// OCR of the photo at `path` started, for its text to be inserted at the cursor.
    case photoInsertionStarted(path: String)
    /// The file at `path` was read: insert `text` at the cursor.
    case fileRead(path: String, text: String)
    /// Reading a file to insert failed.
    case fileReadFailed(message: String)
    /// The mail was handed over for `to`.
    case mailed(to: String)
    /// Mailing failed.
    case mailFailed(message: String)
    /// The photo view's picture was drawn.
    case photoRendered(PhotoRendering)
    /// The photo of `request` could not be drawn; `message` says why.
    case photoFailed(request: PhotoRequest, message: String)
    /// OCR of a region of photo `index` started (`name` says which, for messages); its text goes
    /// in at the cursor, or in place of the marked text.
    case regionReadStarted(index: Int, name: String)
    /// The spelling suggestions for the word of mark `markID` (possibly none).
    case suggested(markID: Int, suggestions: [String])
    /// The text was rescued to `path`; the editor ends because of `signal`.
    case emergencySaved(path: String, signal: Int32)
    /// The text could not be rescued (`reason` names the file and the system's reason); the editor
    /// ends because of `signal` all the same.
    case emergencySaveFailed(reason: String, signal: Int32)
}
