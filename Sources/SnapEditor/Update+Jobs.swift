import SnapTerminal
import SnapText

// Work that runs in the background (mail, ^T commands) and what comes of it; the recovery
// journal's clock; the questions about an empty mail, a file changed on disk and a recovery file.

// MARK: - Background jobs

/// A key while a mail or ^T command runs: ^C stops it; the other keys wait (the text must stay as
/// it was given to the command).
func updateRunning(_ state: inout EditorState, _ job: RunningJob, _ key: KeyEvent, keymap: Keymap) -> [EditorEffect] {
    guard keymap.runningCommand(for: key) == .cancelJob else { return [] }
    return [.cancelJob]
}

/// The running job ended.
func jobEnded(_ outcome: JobOutcome, in state: inout EditorState) {
    guard case .running(let job) = state.mode else { return }  // nothing runs: a late report
    state.mode = .editing
    switch (job, outcome) {
    case (.mail(let to), .finished):
        state.status = StatusMessage("Mail sent to \(to)")
    case (.command(let commandLine, let region), .finished(let output)):
        let result = CommandOutput(commandLine: commandLine, output: output, region: region)
        if RunningJob.pipedCommand(commandLine) != nil {
            replace(with: result, in: &state)
        } else {
            state.mode = .commandOutput(result)
        }
    case (_, .failed(let message)):
        state.status = StatusMessage(message, isError: true)
    case (_, .cancelled(let message)):
        state.status = StatusMessage(message)
    }
}

/// The answer to "Replace … with this output?" after ^T: Y replaces the region (or the whole text),
/// I inserts at the cursor, both one undo step; N and ^C drop the output.
func updateCommandOutput(_ state: inout EditorState, _ output: CommandOutput, _ answer: Answer?) {
    guard let answer, answer.isAvailable(in: state.mode) else { return }
    let lines = TextBuffer(text: output.output).writtenLineCount
    switch answer {
    case .yes:
        replace(with: output, in: &state)
    case .insert:
        state.buffer.closeUndoGroup()
        state.buffer.insert(output.output)
        state.buffer.closeUndoGroup()
        state.markAnchor = nil
        state.status = StatusMessage("Inserted \(plural(lines, "line")) of output")
    case .no, .cancel:
        state.status = StatusMessage("Output discarded")
    case .all, .below:
        return
    }
    state.mode = .editing
}

/// The region the command was given (or the whole text) replaced by its output, one undo step.
private func replace(with output: CommandOutput, in state: inout EditorState) {
    let lines = TextBuffer(text: output.output).writtenLineCount
    let whole = 0..<state.buffer.utf8Count
    let range = output.region.map { $0.clamped(to: whole) } ?? whole
    // The text as it was (`|cat`): nothing to replace, and its marks stay.
    if state.buffer.text(inUTF8: range) == output.output {
        state.status = StatusMessage("The output is the \(output.region == nil ? "text" : "region") as it was")
        return
    }
    state.buffer.closeUndoGroup()
    if !(range.isEmpty && output.output.isEmpty) { try? state.buffer.replace([range], with: output.output) }
    state.buffer.closeUndoGroup()
    state.isModified = state.buffer.textState != state.cleanTextState
    state.markAnchor = nil
    state.status = StatusMessage(
        "\(output.region == nil ? "Text" : "Region") replaced by \(plural(lines, "line")) of output")
}

/// The question before mailing an empty text: Y goes on to the To prompt.
func updateEmptyMailQuestion(_ state: inout EditorState, _ answer: Answer?) {
    switch answer {
    case .yes?:
        state.mode = .prompt(Prompt(kind: .mailTo))
    case .no?, .cancel?:
        state.mode = .editing
        state.status = StatusMessage("Cancelled")
    case .all?, .insert?, .below?, nil:
        break
    }
}

// MARK: - Recovery

/// The choice at the recovery question.
func updateRecovery(
    _ state: inout EditorState, _ offer: RecoveryOffer, _ choice: RecoveryChoice?, startsRecognition: Bool
) -> [EditorEffect] {
    switch choice {
    case .recover?:
        state.mode = .editing
        // One undo step over the text as opened: M-U gives the file's text back.
        if (try? state.buffer.replace(0..<state.buffer.utf8Count, with: offer.text, marks: [])) == nil {
            state.buffer = TextBuffer(text: offer.text)
        }
        state.buffer.moveCursor(toOffset: 0)
        state.topLine = 0
        state.words = []
        state.proofreading.cursorMarkID = nil
        state.proofreading.typedMarkID = nil
        state.proofreading.seriesOffered = [:]
        state.isModified = true
        state.cleanTextState = nil
        // The offered file becomes this editor's recovery file (the others stay for next time).
        state.journal.seenRevision = state.buffer.revision
        let kept = state.recovery.pendingRecoveries.count
        state.recovery.pendingRecoveries = []
        let lines = plural(state.buffer.writtenLineCount, "line")
        if offer.fileIsNewer {
            state.status = StatusMessage(
                "Recovered \(lines); the file on disk is newer: M-U gives it back", isError: true)
        } else {
            state.status = StatusMessage(
                "Recovered \(lines) written \(offer.written); save it to keep it"
                    + (kept > 0 ? " (\(plural(kept, "other text")) kept for next time)" : ""))
        }
        if case .recoveryFileInUse = offer.kind {
            // Another editor still writes that file: this editor keeps a copy of its own.
            return [
                .writeJournal(text: state.buffer.content, document: state.saveName, revision: state.buffer.revision)
            ]
        }
        return [
            .adoptRecovery(
                file: offer.file, text: state.buffer.content, document: state.saveName, revision: state.buffer.revision)
        ]
    case .discard?:
        var effects: [EditorEffect] = []
        if case .recoveryFileInUse(let pid) = offer.kind {
            state.status = StatusMessage("Kept: lovesnap \(pid) still writes that recovery file")
        } else {
            effects.append(.discardRecovery(file: offer.file))
            state.status = StatusMessage(offer.kind == .recoveryFile ? "Recovery file discarded" : "Discarded")
        }
        if !state.recovery.pendingRecoveries.isEmpty {
            state.mode = .recoveryOffer(state.recovery.pendingRecoveries.removeFirst())
            return effects
        }
        state.mode = .editing
        return effects + (startsRecognition ? [.startRecognition] : [])
    case .readOnly?:
        state.mode = .editing
        state.isReadOnly = true
        state.journal.isEnabled = false
        state.recovery.pendingRecoveries = []
        state.status = StatusMessage("Read-only; the recovery file is kept")
        return startsRecognition ? [.startRecognition] : []
    case .exit?:
        state.exitCode = 0
        return []
    case nil:
        return []
    }
}

// MARK: - The journal's clock

/// Tells the state the time (seconds of a monotonic clock) and returns the journal work due then:
/// the text is written to the recovery file once it has rested ``JournalState/idleDelay``
/// seconds after a change, or ``JournalState/maximumDelay`` seconds after the first change not
/// yet written (while typing goes on); an OCR result not yet written is kept the same way (it may
/// have taken a minute to read). Once the text is saved (neither modified nor unsaved) the file is
/// removed.
/// The run loop calls it on every turn (at least every 100 ms).
public func apply(clock now: Double, to state: inout EditorState) -> [EditorEffect] {
    var journal = state.journal
    defer { state.journal = journal }
    guard journal.isEnabled else { return [] }
    let revision = state.buffer.revision
    if revision != journal.seenRevision {
        journal.seenRevision = revision
        journal.lastChange = now
        if journal.firstUnwritten == nil { journal.firstUnwritten = now }
    }
    guard state.isModified || state.hasUnsavedText else {
        journal.firstUnwritten = nil
        if let document = journal.writtenDocument { return [.removeJournal(document: document)] }
        return []
    }
    var effects: [EditorEffect] = []
    if let document = journal.writtenDocument, document != state.saveName {
        // Written out under another name while modified: the journal follows the name.
        effects.append(.removeJournal(document: document))
        journal.writtenDocument = nil
        journal.firstUnwritten = journal.firstUnwritten ?? now
    }
    let upToDate = journal.writtenDocument != nil && journal.writtenRevision == revision
    guard !upToDate, journal.failedRevision != revision else { return effects }
    let rested = now - (journal.lastChange ?? now) >= JournalState.idleDelay
    let overdue = now - (journal.firstUnwritten ?? now) >= JournalState.maximumDelay
    if rested || overdue || journal.lastChange == nil {
        journal.firstUnwritten = nil
        effects.append(.writeJournal(text: state.buffer.content, document: state.saveName, revision: revision))
    }
    return effects
}

/// The work left when the editor ends: a clean exit (not a termination signal) removes the
/// recovery file this editor wrote, as the text was saved or the user chose not to save it.
public func finishingEffects(_ state: EditorState) -> [EditorEffect] {
    guard state.termination == nil, let document = state.journal.writtenDocument else { return [] }
    return [.removeJournal(document: document)]
}

// MARK: - View mode

/// Whether `command` changes the text (refused in read-only mode).
func changesText(_ command: Command) -> Bool {
    switch command {
    case .cutLine, .paste, .indent, .unindent, .undo, .redo, .newline, .justify, .justifyAll, .tab, .deleteBackward,
        .deleteForward,
        .replace, .insertFile, .acceptWord, .alternatives, .executeCommand, .readAgain:
        return true
    default:
        return false
    }
}
