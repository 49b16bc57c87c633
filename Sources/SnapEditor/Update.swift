import SnapTerminal
import SnapText

/// Handles one key: changes `state` only, and returns the work the run loop must do.
///
/// Pure apart from `state`: no drawing, no files. The key goes to the OCR screen while the OCR
/// runs, else to what the mode says: the text (`Update+Editing.swift`), the open prompt
/// (`Update+Prompt.swift`), a question (below, and the replace loop in `Update+Replace.swift`) or
/// the help screen. What the effects turn out to be comes back through `apply`
/// (`Update+Effects.swift`).
public func update(_ state: inout EditorState, _ key: KeyEvent, keymap: Keymap = .nano) -> [EditorEffect] {
    if key == .resize {
        // Not scrolled here: render fits the view to each size, and the remembered top line
        // brings back the same region when the terminal grows again after being tiny. The photo
        // is drawn again for the new size.
        return photoEffects(state)
    }
    if state.isRecognizing { return updateWhileRecognizing(&state, key, keymap: keymap) }
    let revision = state.buffer.revision
    let inText = state.mode == .editing
    var effects: [EditorEffect] = []
    switch state.mode {
    case .editing:
        state.status = nil
        effects = updateEditing(&state, key, keymap: keymap)
    case .prompt(let prompt):
        effects = updatePrompt(&state, prompt, key, keymap: keymap)
    case .confirmReplace(let session):
        updateReplace(&state, session, keymap.answer(for: key))
    case .confirmSave:
        updateSaveQuestion(&state, keymap.answer(for: key))
    case .confirmOverwrite(let path):
        effects = updateOverwriteQuestion(&state, path: path, keymap.answer(for: key))
    case .help:
        updateHelp(&state, keymap.helpAction(for: key), keymap: keymap)
    case .alternatives(let menu):
        effects = updateAlternatives(&state, menu, keymap.menuAction(for: key))
    case .confirmSeries(let series):
        updateSeries(&state, series, keymap.answer(for: key))
    case .confirmEmptyMail:
        updateEmptyMailQuestion(&state, keymap.answer(for: key))
    case .confirmChangedOnDisk(let path):
        effects = updateOverwriteQuestion(&state, path: path, keymap.answer(for: key), changeConfirmed: true)
    case .running(let job):
        effects = updateRunning(&state, job, key, keymap: keymap)
    case .commandOutput(let output):
        updateCommandOutput(&state, output, keymap.answer(for: key))
    case .recoveryOffer(let offer):
        effects = updateRecovery(
            &state, offer, keymap.recoveryChoice(for: key), startsRecognition: state.recovery.recognitionOnHold)
    case .photo(let view):
        effects = updatePhoto(&state, view, key, keymap: keymap)
    case .data(let menu):
        effects = updateDataMenu(&state, menu, keymap.dataMenuAction(for: key))
    case .confirmReading(let reading):
        updateReadingQuestion(&state, reading, keymap.answer(for: key))
    case .browser(let browser):
        effects = updateBrowser(&state, browser, keymap.browserAction(for: key))
    }
    effects += offerSeriesOnLeavingWord(&state, typed: inText && state.buffer.revision != revision)
    // Changed text is modified unless it is back in the state last loaded, read or written.
    if state.buffer.revision != revision { state.isModified = state.buffer.textState != state.cleanTextState }
    state.scrollToCursor()
    state.keepLineData()
    return effects + photoEffects(state)
}

/// Tells the state the terminal's size, which paging and scrolling use (the run loop does before
/// each key).
public func apply(screenSize: TerminalSize, to state: inout EditorState) {
    state.screenSize = screenSize
}

/// "1 line", "2 lines" (nano's plural forms).
func plural(_ n: Int, _ word: String) -> String {
    n == 1 ? "1 \(word)" : "\(n) \(word)s"
}

// MARK: - OCR screen

private func updateWhileRecognizing(_ state: inout EditorState, _ key: KeyEvent, keymap: Keymap) -> [EditorEffect] {
    switch keymap.recognizingCommand(for: key) {
    case .cancelRecognition? where state.rereading != nil, .exit? where state.rereading != nil:
        // Reading the photo again (M-O): the text stays as it was.
        cancelRereading(&state)
        return [.cancelRecognition]
    case .cancelRecognition? where state.insertion != nil, .exit? where state.insertion != nil:
        // Reading a photo for ^R: the text stays, nothing is inserted.
        state.insertion = nil
        state.inserting.replaces = nil
        state.inserting.photo = nil
        state.recognition = .cancelled
        state.status = StatusMessage("OCR cancelled; nothing inserted")
        return [.cancelRecognition]
    case .cancelRecognition?:
        state.recognition = .cancelled
        state.buffer = TextBuffer()
        state.status = StatusMessage(
            state.isOpenedOnPhoto ? "OCR cancelled; M-O reads the photo again" : "OCR cancelled")
        return [.cancelRecognition]
    case .exit?:
        state.recognition = .cancelled
        state.exitCode = 0
        return [.cancelRecognition]
    default:
        // Typed ahead: kept for the text, once the reading is in (or inserted, or answered for).
        if state.heldKeys.count < EditorState.maximumHeldKeys { state.heldKeys.append(key) }
        return []
    }
}

/// The keys typed while a photo was read (``EditorState/heldKeys``), for the run loop to feed to
/// ``update(_:_:keymap:)`` in order once the reading is over: after the text read is in, or a
/// photo's text inserted (^R, a region), in the text or the photo view they were typed in. A
/// question the reading's end asks (M-O's new reading of a changed text) is never answered by
/// them: they wait until it is. Empty before that; they are taken out of the state.
public func takeHeldKeys(from state: inout EditorState) -> [KeyEvent] {
    guard !state.heldKeys.isEmpty, !state.isRecognizing else { return [] }
    switch state.mode {
    case .editing, .photo, .prompt, .help, .alternatives, .data, .browser:
        defer { state.heldKeys = [] }
        return state.heldKeys
    case .confirmReplace, .confirmSave, .confirmOverwrite, .confirmSeries, .confirmEmptyMail, .confirmChangedOnDisk,
        .running, .commandOutput, .recoveryOffer, .confirmReading:
        return []
    }
}

// MARK: - Questions about saving

/// "Save modified buffer?" (from ^X): Y goes through Write Out, then exits.
private func updateSaveQuestion(_ state: inout EditorState, _ answer: Answer?) {
    switch answer {
    case .yes?:
        state.exitAfterSave = true
        state.mode = .prompt(Prompt(kind: .writeOut, answer: state.saveName))
    case .no?:
        state.exitCode = 0
    case .cancel?:
        state.mode = .editing
        state.status = StatusMessage("Cancelled")
    case .all?, .insert?, .below?, nil:
        break
    }
}

/// "File "x" exists; OVERWRITE?" and "File … has changed on disk; overwrite?": Y writes anyway
/// (`changeConfirmed` when the question was the changed-on-disk one), N asks for another name.
private func updateOverwriteQuestion(
    _ state: inout EditorState, path: String, _ answer: Answer?, changeConfirmed: Bool = false
) -> [EditorEffect] {
    switch answer {
    case .yes?:
        state.mode = .editing
        return [
            .save(
                text: state.buffer.content, path: path, overwriteConfirmed: true, format: state.format,
                pages: state.exportPages, changeConfirmed: changeConfirmed)
        ]
    case .no?:
        state.mode = .prompt(Prompt(kind: .writeOut, answer: path))
    case .cancel?:
        state.mode = .editing
        state.exitAfterSave = false
        state.status = StatusMessage("Cancelled")
    case .all?, .insert?, .below?, nil:
        break
    }
    return []
}

// MARK: - Help screen

/// Scrolls the help text, or closes it (any key not bound on the help screen closes it too).
private func updateHelp(_ state: inout EditorState, _ action: HelpAction?, keymap: Keymap) {
    let rows = state.layout.textRows.count
    let page = max(1, rows - 2)
    let last = max(0, keymap.helpScreen(width: state.screenSize.columns).count - rows)
    switch action {
    case .lineUp?: state.helpTopLine -= 1
    case .lineDown?: state.helpTopLine += 1
    case .pageUp?: state.helpTopLine -= page
    case .pageDown?: state.helpTopLine += page
    case .close?, nil:
        state.mode = .editing
        state.helpTopLine = 0
    }
    state.helpTopLine = min(max(0, state.helpTopLine), last)
}
