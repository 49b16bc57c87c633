import SnapText

// What comes back from outside the state: the OCR job's reports and how the run loop's effects
// turned out.

/// Applies what the OCR job reported.
public func apply(_ event: RecognitionEvent, to state: inout EditorState) {
    guard state.isRecognizing else { return }  // late events after a cancel are dropped
    switch event {
    case .progress(let percent):
        state.recognition = .running(percent: min(max(percent, 0), 100))
    case let .finished(text, confidence, notes):
        state.buffer = TextBuffer(text: text)
        state.topLine = 0
        state.isModified = false
        state.recognition = .finished(meanConfidence: min(max(confidence, 0), 100))
        let lines = state.buffer.writtenLineCount
        state.hasUnsavedText = !text.isEmpty
        state.status = lines == 0
            ? StatusMessage("No text found in \(state.displayName)")
            : StatusMessage((["Read \(plural(lines, "line")) (conf \(min(max(confidence, 0), 100)))"] + notes).joined(separator: "; "))
    case .failed(let message):
        state.buffer = TextBuffer()
        state.recognition = .failed(message: message)
        state.status = StatusMessage(message, isError: true)
    }
}

/// Applies how an ``EditorEffect`` turned out.
public func apply(_ result: EffectResult, to state: inout EditorState) {
    switch result {
    case .saved(let path):
        state.isModified = false
        state.hasUnsavedText = false
        state.displayName = EditorConfiguration.fileName(of: path)   // nano's title follows the file written
        state.saveName = path
        state.savesToOwnFile = true
        state.status = StatusMessage("Wrote \(plural(state.buffer.writtenLineCount, "line"))")
        if state.exitAfterSave { state.exitCode = 0 }
    case .saveFailed(let message):
        state.exitAfterSave = false
        state.status = StatusMessage(message, isError: true)
    case .saveNeedsOverwriteConfirmation(let path):
        state.mode = .confirmOverwrite(path: path)
    case .mailed(let to):
        state.status = StatusMessage("Mail sent to \(to)")
    case .mailFailed(let message):
        state.status = StatusMessage(message, isError: true)
    }
}
