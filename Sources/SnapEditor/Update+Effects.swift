import SnapText

// What comes back from outside the state: the OCR job's reports, how the run loop's effects turned
// out, and a termination signal.

/// Applies what the OCR job reported.
public func apply(_ event: RecognitionEvent, to state: inout EditorState) {
    guard state.isRecognizing else { return }  // late events after a cancel are dropped
    switch event {
    case .progress(let percent):
        state.recognition = .running(percent: min(max(percent, 0), 100))
    case .finished(let text, let confidence, _, let words, let rotation) where state.rereading != nil:
        rereadingFinished(text: text, confidence: confidence, words: words, rotation: rotation, in: &state)
    case .failed(let message) where state.rereading != nil:
        rereadingFailed(message, in: &state)
    case .finished(let text, let confidence, _, let words, let rotation) where state.insertion != nil:
        if let photo = state.inserting.photo, state.inserting.isNewPhoto, state.photos.indices.contains(photo) {
            state.photos[photo].rotationDegrees = rotation  // a photo inserted with ^R
        }
        insertRecognized(text: text, confidence: confidence, words: words, into: &state)
    case .failed(let message) where state.insertion != nil:
        state.insertion = nil
        state.inserting.replaces = nil
        state.recognition = .failed(message: message)
        state.status = StatusMessage(message, isError: true)
    case .finished(let text, let confidence, let notes, let words, let rotation):
        if !state.photos.isEmpty { state.photos[0].rotationDegrees = rotation }
        let count = text.utf8.count
        let placed = words.enumerated().filter { !$0.element.range.isEmpty && $0.element.range.upperBound <= count }
        state.buffer = TextBuffer(
            text: text,
            marks: placed.map { TextMark(id: $0.offset, range: $0.element.range, isFlagged: $0.element.isUncertain) })
        state.words = words
        state.proofreading.cursorMarkID = nil
        state.proofreading.typedMarkID = nil
        state.proofreading.seriesOffered = [:]
        state.topLine = 0
        state.isModified = false
        state.cleanTextState = state.buffer.textState
        state.readTextState = state.buffer.textState
        state.recognition = .finished(meanConfidence: min(max(confidence, 0), 100))
        let lines = state.buffer.writtenLineCount
        let uncertain = state.uncertainMarks.count
        state.hasUnsavedText = !text.isEmpty
        state.status =
            lines == 0
            ? StatusMessage("No text found in \(state.displayName)")
            : StatusMessage(
                (["Read \(plural(lines, "line")) (conf \(min(max(confidence, 0), 100)))"]
                    + (uncertain > 0 ? ["\(uncertain) uncertain"] : []) + notes).joined(
                        separator: "; "))
    case .failed(let message):
        state.buffer = TextBuffer()
        state.recognition = .failed(message: message)
        state.status = StatusMessage(message, isError: true)
    }
}

/// A photo read for ^R: its text goes where the cursor was, its words join the marks (one undo step).
private func insertRecognized(text: String, confidence: Int, words: [ProofWord], into state: inout EditorState) {
    guard let insertion = state.insertion else { return }
    let replaced = state.inserting.replaces
    let photo = state.inserting.photo
    state.insertion = nil
    state.inserting.replaces = nil
    state.inserting.photo = nil
    state.inserting.isNewPhoto = false
    // The title keeps the text's own reading; a text without one takes the inserted reading's.
    if case .finished = state.inserting.previousRecognition {
        state.recognition = state.inserting.previousRecognition
    } else {
        state.recognition = .finished(meanConfidence: min(max(confidence, 0), 100))
    }
    // A photo's lines are a block: with the cursor inside a line they go below it, not into it
    // (nano's ^R of a text file inserts at the cursor; a file's text has no place of its own).
    let (at, before) =
        replaced == nil && text.contains("\n")
        ? blockInsertion(at: insertion.offset, in: state.buffer) : (insertion.offset, "")
    let first = state.words.count
    let marks = words.enumerated().compactMap { i, word -> TextMark? in
        guard !word.range.isEmpty, word.range.upperBound <= text.utf8.count else { return nil }
        let shift = before.utf8.count
        return TextMark(
            id: first + i, range: (word.range.lowerBound + shift)..<(word.range.upperBound + shift),
            isFlagged: word.isUncertain)
    }
    // A region's text has no line end of its own when it replaces a part of a line.
    let inserted =
        replaced != nil && text.hasSuffix("\n") && !text.dropLast().contains("\n")
        ? String(text.dropLast()) : before + text
    state.buffer.closeUndoGroup()
    let range = replaced ?? at..<at
    guard !text.isEmpty, (try? state.buffer.replace(range, with: inserted, marks: marks)) != nil else {
        state.status = StatusMessage("No text found in \(insertion.name)")
        return
    }
    state.markAnchor = nil
    state.words += words.map { word in
        var word = word
        if let photo { word.photo = photo }
        return word
    }
    state.isModified = true
    let lines = TextBuffer(text: text).writtenLineCount
    let uncertain = marks.filter(\.isFlagged).count
    state.status = StatusMessage(
        "Inserted \(plural(lines, "line")) from \(insertion.name) (conf \(confidence))"
            + (uncertain > 0 ? "; \(uncertain) uncertain" : ""))
}

/// Where a block of lines goes for a cursor at `offset`: there when it starts a line; else the
/// start of the next line, or the end of the text after a line end when the line is the last.
func blockInsertion(at offset: Int, in buffer: TextBuffer) -> (offset: Int, before: String) {
    let line = buffer.line(containing: offset)
    if offset == buffer.startOffset(ofLine: line) { return (offset, "") }
    if line + 1 < buffer.lineCount { return (buffer.startOffset(ofLine: line + 1), "") }
    return (buffer.utf8Count, "\n")
}

/// Applies how an ``EditorEffect`` turned out.
public func apply(_ result: EffectResult, to state: inout EditorState) {
    switch result {
    case .fileNamesFound(let answer, let names):
        completeFileName(answer, names: names, in: &state)
    case .folderListed(let path, let entries, let workingFolder):
        folderListed(path, entries: entries, workingFolder: workingFolder, in: &state)
    case .folderListFailed(let message):
        state.status = StatusMessage(message, isError: true)
    case .suspendRefused(let reason):
        state.status = StatusMessage("Cannot suspend: \(reason)", isError: true)
    case .saved(let path, _) where EditorConfiguration.isExport(path):
        // An export is a copy in another format: the text itself is still unsaved, and ^S still
        // writes the text file (whose version on disk is still the one known).
        let unplaced = state.unplacedWordCount
        state.status = StatusMessage(
            "Wrote \(plural(state.buffer.writtenLineCount, "line")) to \(EditorConfiguration.fileName(of: path))"
                + (unplaced > 0 ? "; \(plural(unplaced, "typed word")) not in it (no box)" : ""))
        if state.exitAfterSave { state.exitCode = 0 }
    case .saved(let path, let version):
        state.diskState = version.map(DiskState.present)
        state.isModified = false
        // A later edit is a new undo step: undoing back to here clears "Modified" again.
        state.buffer.closeUndoGroup()
        state.cleanTextState = state.buffer.textState
        state.hasUnsavedText = false
        state.displayName = EditorConfiguration.fileName(of: path)  // nano's title follows the file written
        state.saveName = path
        state.savesToOwnFile = true
        state.status = StatusMessage("Wrote \(plural(state.buffer.writtenLineCount, "line"))")
        if state.exitAfterSave { state.exitCode = 0 }
    case .saveFailed(let message):
        state.exitAfterSave = false
        state.status = StatusMessage(message, isError: true)
    case .saveNeedsOverwriteConfirmation(let path):
        state.mode = .confirmOverwrite(path: path)
    case .saveNeedsChangeConfirmation(let path):
        state.mode = .confirmChangedOnDisk(path: path)
    case .mailToChecked(let to, let refusal?, let addressRefused):
        state.status = StatusMessage(refusal, isError: true)
        // A bad address is asked again with what was typed, the reason in the prompt: nothing
        // to type anew. A missing mail command is no fault of the address: back to the text.
        if addressRefused { state.mode = .prompt(Prompt(kind: .mailTo, answer: to, problem: refusal)) }
    case .mailToChecked(let to, nil, _):
        state.mode = .prompt(Prompt(kind: .mailSubject(to: to), answer: defaultSubject(of: state.buffer)))
    case .fileRead(let path, let text):
        // One undo step, whatever was typed before.
        state.buffer.closeUndoGroup()
        state.buffer.insert(text)
        state.buffer.closeUndoGroup()
        if !text.isEmpty { state.isModified = true }
        let lines = TextBuffer(text: text).writtenLineCount
        state.status = StatusMessage("Inserted \(plural(lines, "line")) from \(EditorConfiguration.fileName(of: path))")
    case .photoInsertionStarted(let path):
        state.insertion = (state.buffer.offset(of: state.buffer.cursor), EditorConfiguration.fileName(of: path))
        state.photos.append(PhotoSource(path: path, name: EditorConfiguration.fileName(of: path)))
        state.inserting.photo = state.photos.count - 1
        state.inserting.isNewPhoto = true
        state.inserting.previousRecognition = state.recognition
        state.recognition = .running(percent: 0)
    case .readAgainStarted(let choice):
        readAgainStarted(choice, in: &state)
    case .regionReadStarted(let index, let name):
        let region = state.markedRegion
        state.insertion = (region?.lowerBound ?? state.buffer.offset(of: state.buffer.cursor), name)
        state.inserting.replaces = region
        state.inserting.photo = index
        state.inserting.isNewPhoto = false
        state.inserting.previousRecognition = state.recognition
        state.recognition = .running(percent: 0)
    case .photoRendered(let rendering):
        state.photoRendering = rendering
        state.photoFailure = nil
    case .photoFailed(let request, let message):
        state.photoFailure = (request, message)
    case .fileReadFailed(let message):
        state.status = StatusMessage(message, isError: true)
    case .jobEnded(let outcome):
        jobEnded(outcome, in: &state)
    case .journalWritten(let document, let revision):
        state.journal.writtenDocument = document
        state.journal.writtenRevision = revision
        state.journal.failedRevision = nil
        state.journal.failureMessage = nil
    case .journalFailed(let message, let revision):
        state.journal.failedRevision = revision
        let said = "Cannot write the recovery file: \(message)"
        if state.journal.failureMessage == nil { state.status = StatusMessage(said, isError: true) }
        state.journal.failureMessage = said
    case .journalRemoved(let document):
        if state.journal.writtenDocument == document { state.journal.writtenDocument = nil }
    case .recognitionStarted:
        state.recovery.recognitionOnHold = false
        state.recognition = .running(percent: 0)
    case .recognitionNotStarted(let message):
        state.recovery.recognitionOnHold = false
        state.recognition = .failed(message: message)
        state.status = StatusMessage(message, isError: true)
    case .suggested(let markID, let suggestions):
        guard state.words.indices.contains(markID) else { return }
        state.words[markID].suggestions = suggestions
        _ = openAlternatives(&state)
    case .seriesChecked(let series, let confused, let known):
        startSeries(&state, series, adding: zip(confused, known).filter(\.1).map(\.0))
    case .emergencySaved(let path, let signal):
        end(&state, TerminationReport(signal: signal, outcome: .saved(path: path)))
    case .emergencySaveFailed(let reason, let signal):
        end(&state, TerminationReport(signal: signal, outcome: .failed(reason: reason)))
    }
}

/// A termination signal (SIGTERM, SIGHUP) arrived: the editor ends with 128 + the signal.
///
/// As nano, only a changed buffer (or an OCR result never written) is rescued, with an
/// ``EditorEffect/emergencySave(text:saveName:signal:)`` whose result ends the editor; an untouched
/// one ends it at once, so closing a terminal on an untouched file leaves no `NAME.save` behind.
public func apply(terminationSignal signal: Int32, to state: inout EditorState) -> [EditorEffect] {
    guard state.isModified || state.hasUnsavedText else {
        end(&state, TerminationReport(signal: signal, outcome: .nothingToSave))
        return []
    }
    return [.emergencySave(text: state.buffer.content, saveName: state.saveName, signal: signal)]
}

private func end(_ state: inout EditorState, _ report: TerminationReport) {
    state.termination = report
    state.exitCode = report.exitCode
}
