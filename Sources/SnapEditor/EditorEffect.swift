import SnapText

/// Work ``update(_:_:keymap:)`` asks the run loop to do outside the state (files, mail, OCR).
public enum EditorEffect: Equatable, Sendable {
    /// Write `text` to `path` in `format`; `overwriteConfirmed` is false when the editor should
    /// first ask if `path` is an existing file other than the text's own; `changeConfirmed` is
    /// false when it should first ask if the text's own file changed on disk since it was read
    /// or written (``EditorState/diskState``). For an export (``EditorConfiguration/isExport(_:)``),
    /// `pages` are the photos' pages whose words are in the text, with what each word reads now
    /// (``EditorState/exportPages``). The text is the buffer's rope itself (a snapshot, no copy).
    case save(
        text: Rope, path: String, overwriteConfirmed: Bool, format: TextFormat = TextFormat(),
        pages: [ExportPage] = [], changeConfirmed: Bool = false)
    /// Read the text file at `path` and insert it at the cursor (^R).
    case insertFile(path: String)
    /// Start mailing `text` to `to` (the To field as typed) with `subject`; the run loop goes on
    /// while it runs (``DocumentSharing/startMail(_:to:subject:)``) and reports how it ended
    /// with ``EffectResult/jobEnded(_:)``.
    case mail(text: Rope, to: String, subject: String)
    /// Check the To field `to` as typed (``DocumentSharing/refusal(toMail:)``) before the Subject
    /// is asked; the answer comes back as ``EffectResult/mailToChecked(to:refusal:addressRefused:)``.
    case checkMailTo(to: String)
    /// Start `commandLine` (^T) with `input` on its standard input
    /// (``DocumentSharing/startCommand(_:input:)``); its end comes back as ``EffectResult/jobEnded(_:)``.
    case runCommand(commandLine: String, input: Rope)
    /// Stop the running mail or ^T command (^C).
    case cancelJob
    /// Write `text` to the recovery file of `document` (``DocumentSharing/writeJournal(_:forDocument:)``);
    /// `revision` comes back in ``EffectResult/journalWritten(document:revision:)``.
    case writeJournal(text: Rope, document: String, revision: Int)
    /// Remove the recovery file of `document`.
    case removeJournal(document: String)
    /// Remove `file`, an offered text the user discarded (``DocumentSharing/discardRecovery(file:)``).
    case discardRecovery(file: String)
    /// Make `file`, whose `text` the user recovered, this editor's recovery file of `document`
    /// (``DocumentSharing/adoptRecovery(file:text:forDocument:)``); `revision` comes back in
    /// ``EffectResult/journalWritten(document:revision:)``.
    case adoptRecovery(file: String, text: Rope, document: String, revision: Int)
    /// Start the OCR of the document's photo, held back while a recovery file was offered.
    case startRecognition
    /// Stop the OCR job.
    case cancelRecognition
    /// Repaint the whole screen, whatever the terminal thinks is on it (^L).
    case redrawScreen
    /// Ask for spelling suggestions for `word`, the word of mark `markID`, then open its
    /// alternatives menu (``RecognitionTask/suggestions(for:)``).
    case suggestSpellings(markID: Int, word: String)
    /// Ask the dictionaries which of `confused`'s replacements they know, then offer `series`
    /// with those of them added (``RecognitionTask/isKnownWord(_:)``).
    case checkSeries(SeriesCorrection, confused: [SeriesCorrection.Candidate])
    /// Draw the photo view's picture for `request` (``PhotoRenderer/render(_:)``).
    case renderPhoto(PhotoRequest)
    /// Read `region` (pixels of the upright photo) of `photo` (index `index` of the state's photos)
    /// and insert its text at the cursor, or in place of the marked text.
    case readRegion(photo: PhotoSource, index: Int, region: WordBox)
    /// Read `photo` again with `choice`'s languages and level (M-O); the new reading replaces the
    /// text, or goes below it (``EditorConfiguration/photoRereader``).
    case readAgain(photo: PhotoSource, choice: ReadingChoice)
    /// List the file names that complete `answer`, a file prompt's (Tab;
    /// ``DocumentSharing/fileNames(completing:)``); they come back as
    /// ``EffectResult/fileNamesFound(answer:names:)``.
    case completeFileName(String)
    /// Stop lovesnap as a job of its shell until `fg` (``Terminal/suspend()``).
    case suspend
    /// List a folder for the file browser (``DocumentSharing/listFolder(_:)``), or `fallback` when
    /// it cannot be (a prompt's answer in a folder that does not exist: the working folder, as
    /// nano); it comes back as ``EffectResult/folderListed(path:entries:workingFolder:)`` or
    /// ``EffectResult/folderListFailed(message:)``.
    case listFolder(String, fallback: String? = nil)
    /// Put `text` on the system clipboard through the terminal (OSC 52).
    case copyToClipboard(String)
    /// Write `text` to a new emergency file for the document `saveName` (``DocumentSharing/saveEmergencyCopy(_:forDocument:)``),
    /// because `signal` asks the editor to end.
    case emergencySave(text: Rope, saveName: String, signal: Int32)
}

/// How an ``EditorEffect`` turned out, fed back with ``apply(_:to:)``.
public enum EffectResult: Equatable, Sendable {
    /// The names completing the file prompt's `answer` (``EditorEffect/completeFileName(_:)``).
    case fileNamesFound(answer: String, names: [String])
    /// The terminal could not be suspended, and why (``EditorEffect/suspend``).
    case suspendRefused(reason: String)
    /// A folder listed for the browser: its absolute path, its entries, the working folder.
    case folderListed(path: String, entries: [FolderEntry], workingFolder: String)
    /// A folder that could not be listed, and why.
    case folderListFailed(message: String)
    /// The text was written to `path`, which is now at `version` (nil when unknown).
    case saved(path: String, version: DiskVersion? = nil)
    /// Writing failed; the message names the file and the reason.
    case saveFailed(message: String)
    /// `path` exists and is not this text's file: ask before overwriting.
    case saveNeedsOverwriteConfirmation(path: String)
    /// `path`, the text's own file, changed on disk since it was read or written: ask first.
    case saveNeedsChangeConfirmation(path: String)
    /// The To field `to` was checked: the Subject is asked, or `refusal` says why no mail can go
    /// (`addressRefused`: a bad address, a group, asked again; else the mail command is found nowhere).
    case mailToChecked(to: String, refusal: String?, addressRefused: Bool)
    /// OCR of the photo at `path` started, for its text to be inserted at the cursor.
    case photoInsertionStarted(path: String)
    /// The file at `path` was read: insert `text` at the cursor.
    case fileRead(path: String, text: String)
    /// Reading a file to insert failed.
    case fileReadFailed(message: String)
    /// The running mail or ^T command ended (``Mode/running(_:)``).
    case jobEnded(JobOutcome)
    /// The recovery file of `document` now holds the text of `revision`.
    case journalWritten(document: String, revision: Int)
    /// The recovery file could not be written (`message` names it and the reason).
    case journalFailed(message: String, revision: Int)
    /// The recovery file of `document` was removed.
    case journalRemoved(document: String)
    /// The held-back OCR of the document's photo started.
    case recognitionStarted
    /// It could not start; `message` says why.
    case recognitionNotStarted(message: String)
    /// The photo view's picture was drawn.
    case photoRendered(PhotoRendering)
    /// The photo of `request` could not be drawn; `message` says why.
    case photoFailed(request: PhotoRequest, message: String)
    /// OCR of a region of photo `index` started (`name` says which, for messages); its text goes
    /// in at the cursor, or in place of the marked text.
    case regionReadStarted(index: Int, name: String)
    /// OCR of the photo again (M-O) started, with `choice`.
    case readAgainStarted(choice: ReadingChoice)
    /// The spelling suggestions for the word of mark `markID` (possibly none).
    case suggested(markID: Int, suggestions: [String])
    /// The dictionaries' answer for `checkSeries`: whether each of `confused`'s replacements is
    /// a word they know.
    case seriesChecked(SeriesCorrection, confused: [SeriesCorrection.Candidate], known: [Bool])
    /// The text was rescued to `path`; the editor ends because of `signal`.
    case emergencySaved(path: String, signal: Int32)
    /// The text could not be rescued (`reason` names the file and the system's reason); the editor
    /// ends because of `signal` all the same.
    case emergencySaveFailed(reason: String, signal: Int32)
}

/// How a background job (mail, ^T command) ended.
public enum JobOutcome: Equatable, Sendable {
    /// It succeeded; `output` is a command's standard output (UTF-8, CR LF as LF), "" for mail.
    case finished(output: String)
    /// It failed; `message` names the command and the reason (exit status, its stderr).
    case failed(message: String)
    /// The user stopped it (^C), or the editor did on its way out; `message` says what that means.
    case cancelled(message: String)
}
