import SnapText

// OCR again, without leaving (M-O): after a cancelled or failed reading, or a poor one, the photo
// is read again with the languages and level the user chooses. A text that is still the photo's
// reading (or blank) is replaced at once; a text changed since it was read is only replaced when
// the user says so, or the new reading goes below it. Either way one undo step.

/// M-O: the prompt for the languages (the last ones), M-L toggling the level.
func openReadAgain(_ state: inout EditorState) {
    guard state.isOpenedOnPhoto, !state.photos.isEmpty else {
        state.status = StatusMessage("No photo to read again: this text was not read from one")
        return
    }
    state.mode = .prompt(Prompt(kind: .readAgain, answer: state.readingChoice.languages))
}

/// The languages were given: the photo the editor was opened on is read again.
func acceptReadAgain(_ answer: String, in state: inout EditorState) -> [EditorEffect] {
    let languages = answer.trimmingWhitespace()
    guard !languages.isEmpty, state.isOpenedOnPhoto, let photo = state.photos.first else {
        state.status = StatusMessage("Cancelled")
        return []
    }
    state.readingChoice.languages = languages
    return [.readAgain(photo: photo, choice: state.readingChoice)]
}

/// The new reading's OCR started.
func readAgainStarted(_ choice: ReadingChoice, in state: inout EditorState) {
    let name = state.photos.first?.name ?? state.displayName
    state.rereading = Rereading(name: name, choice: choice, previous: state.recognition)
    state.recognition = .running(percent: 0)
}

/// Esc (or ^X) while the photo is read again: the text stays as it was.
func cancelRereading(_ state: inout EditorState) {
    guard let rereading = state.rereading else { return }
    state.rereading = nil
    state.recognition = rereading.previous
    state.status = StatusMessage("OCR cancelled; the text is as it was")
}

/// The new reading failed: the text stays, the message says why.
func rereadingFailed(_ message: String, in state: inout EditorState) {
    guard let rereading = state.rereading else { return }
    state.rereading = nil
    state.recognition = rereading.previous
    state.status = StatusMessage(message, isError: true)
}

/// The new reading is there: it replaces a text that is still the photo's reading (or blank) at
/// once; for a changed text, the user is asked.
func rereadingFinished(
    text: String, confidence: Int, words: [ProofWord], rotation: Int, in state: inout EditorState
) {
    guard let rereading = state.rereading else { return }
    state.rereading = nil
    state.recognition = rereading.previous
    guard !text.allSatisfy(\.isWhitespace) else {
        state.status = StatusMessage("No text found in \(rereading.name) this time; the text is as it was")
        return
    }
    let reading = NewReading(
        text: text, meanConfidence: min(max(confidence, 0), 100), words: words, rotationDegrees: rotation,
        choice: rereading.choice, previous: rereading.previous)
    if state.buffer.text.allSatisfy(\.isWhitespace) || state.readTextState == state.buffer.textState {
        place(reading, replacing: true, in: &state)
    } else {
        state.mode = .confirmReading(reading)
    }
}

/// The answer to "Replace the changed text with the new reading?": Y replaces it, B puts the new
/// reading below it, N and ^C drop the new reading.
func updateReadingQuestion(_ state: inout EditorState, _ reading: NewReading, _ answer: Answer?) {
    guard let answer, answer.isAvailable(in: state.mode) else { return }
    switch answer {
    case .yes:
        state.mode = .editing
        place(reading, replacing: true, in: &state)
    case .below:
        state.mode = .editing
        place(reading, replacing: false, in: &state)
    case .no, .cancel:
        state.mode = .editing
        state.status = StatusMessage("New reading dropped; the text is as it was")
    case .all, .insert:
        break
    }
}

/// Puts the new reading in the text with its words as marks, in place of the whole text or below
/// it (after an empty line), as one undo step; its words refer to a new entry of the photos (the
/// same photo, with this reading's turn).
private func place(_ reading: NewReading, replacing: Bool, in state: inout EditorState) {
    guard let photo = state.photos.first else { return }
    let photoIndex = state.photos.count
    let first = state.words.count
    let wasModified = state.isModified
    let existing = state.buffer.text
    let hadText = !existing.allSatisfy(\.isWhitespace)
    let separator = replacing || existing.isEmpty ? "" : existing.hasSuffix("\n") ? "\n" : "\n\n"
    let shift = separator.utf8.count
    let marks = reading.words.enumerated().compactMap { i, word -> TextMark? in
        guard !word.range.isEmpty, word.range.upperBound <= reading.text.utf8.count else { return nil }
        return TextMark(
            id: first + i, range: (word.range.lowerBound + shift)..<(word.range.upperBound + shift),
            isFlagged: word.isUncertain)
    }
    let range = replacing ? 0..<state.buffer.utf8Count : state.buffer.utf8Count..<state.buffer.utf8Count
    let start = range.lowerBound + shift
    state.buffer.closeUndoGroup()
    guard (try? state.buffer.replace(range, with: separator + reading.text, marks: marks)) != nil else { return }
    state.buffer.closeUndoGroup()
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: start))
    state.photos.append(PhotoSource(path: photo.path, name: photo.name, rotationDegrees: reading.rotationDegrees))
    state.words += reading.words.map { word in
        var word = word
        word.photo = photoIndex
        return word
    }
    state.markAnchor = nil
    state.recognition = .finished(meanConfidence: reading.meanConfidence)
    state.hasUnsavedText = true
    // A reading in place of an unchanged reading that was never written is as unsaved as the
    // first; any other text changed.
    state.isModified = !replacing || wasModified || state.savesToOwnFile
    state.cleanTextState = state.isModified ? nil : state.buffer.textState
    state.readTextState = replacing ? state.buffer.textState : nil
    if replacing { state.topLine = 0 }
    let lines = TextBuffer(text: reading.text).writtenLineCount
    let uncertain = marks.filter(\.isFlagged).count
    let what = "\(plural(lines, "line")) (conf \(reading.meanConfidence), \(reading.choice.levelName))"
    state.status = StatusMessage(
        (replacing ? "Read \(photo.name) again: \(what)" : "Added the new reading below: \(what)")
            + (uncertain > 0 ? "; \(uncertain) uncertain" : "")
            + (replacing && hadText ? "; M-U undoes" : ""))
}
