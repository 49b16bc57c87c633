import SnapText
import SnapTerminal

/// Handles one key: changes `state` only, and returns the work the run loop must do.
///
/// Pure apart from `state`: no drawing, no files. The key goes to the OCR screen while the OCR
/// runs, else to the open prompt or question, else through `keymap` to a ``Command``.
public func update(_ state: inout EditorState, _ key: KeyEvent, keymap: Keymap = .nano) -> [EditorEffect] {
    if key == .resize {
        // Not scrolled here: render fits the view to each size, and the remembered top line
        // brings back the same region when the terminal grows again after being tiny.
        return []
    }
    if state.isRecognizing { return updateWhileRecognizing(&state, key, keymap: keymap) }
    let revision = state.buffer.revision
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
    }
    if state.buffer.revision != revision { state.isModified = true }
    state.scrollToCursor()
    return effects
}

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

/// "1 line", "2 lines" (nano's plural forms).
func plural(_ n: Int, _ word: String) -> String {
    n == 1 ? "1 \(word)" : "\(n) \(word)s"
}

// MARK: - OCR screen

private func updateWhileRecognizing(_ state: inout EditorState, _ key: KeyEvent, keymap: Keymap) -> [EditorEffect] {
    switch keymap.recognizingCommand(for: key) {
    case .cancelRecognition?:
        state.recognition = .cancelled
        state.buffer = TextBuffer()
        state.status = StatusMessage("OCR cancelled")
        return [.cancelRecognition]
    case .exit?:
        state.recognition = .cancelled
        state.exitCode = 0
        return [.cancelRecognition]
    default:
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
    case .all?, nil:
        break
    }
}

/// "File "x" exists; OVERWRITE?": N asks for another name.
private func updateOverwriteQuestion(_ state: inout EditorState, path: String, _ answer: Answer?) -> [EditorEffect] {
    switch answer {
    case .yes?:
        state.mode = .editing
        return [.save(text: state.buffer.text, path: path, overwriteConfirmed: true)]
    case .no?:
        state.mode = .prompt(Prompt(kind: .writeOut, answer: path))
    case .cancel?:
        state.mode = .editing
        state.exitAfterSave = false
        state.status = StatusMessage("Cancelled")
    case .all?, nil:
        break
    }
    return []
}

// MARK: - Help screen

/// Scrolls the help text, or closes it (any key not bound on the help screen closes it too).
private func updateHelp(_ state: inout EditorState, _ action: HelpAction?, keymap: Keymap) {
    let rows = state.layout.textRows.count
    let page = max(1, rows - 2)
    let last = max(0, keymap.helpScreen.count - rows)
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

// MARK: - Editing

// Keys in the text: typing, pasting, and the keymap's commands.

func updateEditing(_ state: inout EditorState, _ key: KeyEvent, keymap: Keymap) -> [EditorEffect] {
    var key = key
    if state.pendingEscape {
        // nano: Esc then a key, however slowly typed, is Meta + key; Esc Esc drops the prefix.
        state.pendingEscape = false
        switch key {
        case .character(let c): key = .meta(for: c)
        case .escape: return []
        default: break
        }
    } else if key == .escape {
        state.pendingEscape = true
        return []
    }
    let wasCut = state.lastCommandWasCut
    state.lastCommandWasCut = false
    switch key {
    case .character(let character):
        state.buffer.insert(String(character))
        return []
    case .paste(let text):
        state.buffer.closeUndoGroup()
        state.buffer.insert(text)
        state.buffer.closeUndoGroup()
        return []
    default:
        break
    }
    guard let command = keymap.command(for: key) else { return [] }
    return perform(command, on: &state, afterCut: wasCut)
}

private func perform(_ command: Command, on state: inout EditorState, afterCut: Bool) -> [EditorEffect] {
    switch command {
    case .help:
        state.mode = .help
        state.helpTopLine = 0
    case .exit:
        if state.isModified || state.hasUnsavedText {
            state.mode = .confirmSave
        } else {
            state.exitCode = 0
        }
    case .writeOut:
        state.exitAfterSave = false
        state.mode = .prompt(Prompt(kind: .writeOut, answer: state.saveName))
    case .save:
        return [.save(text: state.buffer.text, path: state.saveName, overwriteConfirmed: state.savesToOwnFile)]
    case .whereIs:
        state.mode = .prompt(Prompt(kind: .search))
    case .findNext:
        if state.lastSearch.isEmpty {
            state.status = StatusMessage("No current search pattern")
        } else {
            find(state.lastSearch, in: &state)
        }
    case .replace:
        state.mode = .prompt(Prompt(kind: .replaceSearch))
    case .undo:
        let kind = state.buffer.history.undoSteps.last.map(describe)
        state.status = StatusMessage(state.buffer.undo() ? "Undid \(kind ?? "action")" : "Nothing to undo")
    case .redo:
        let kind = state.buffer.history.redoSteps.last.map(describe)
        state.status = StatusMessage(state.buffer.redo() ? "Redid \(kind ?? "action")" : "Nothing to redo")
    case .mail:
        state.mode = .prompt(Prompt(kind: .mailTo, answer: state.promptHistory[.recipient]?.last ?? ""))
    case .cutLine:
        let cut = state.buffer.cutLine()
        state.cutBuffer = afterCut ? state.cutBuffer + cut : cut
        state.lastCommandWasCut = true
    case .paste:
        if state.cutBuffer.isEmpty {
            state.status = StatusMessage("Cutbuffer is empty")
        } else {
            state.buffer.closeUndoGroup()
            state.buffer.insert(state.cutBuffer)
            state.buffer.closeUndoGroup()
        }
    case .location:
        state.status = StatusMessage(location(of: state.buffer))
    case .refresh:
        return [.redrawScreen]
    case .cancelRecognition:
        break
    case .moveUp: state.buffer.moveUp()
    case .moveDown: state.buffer.moveDown()
    case .moveLeft: state.buffer.moveLeft()
    case .moveRight: state.buffer.moveRight()
    case .lineStart: state.buffer.moveToLineStart()
    case .lineEnd: state.buffer.moveToLineEnd()
    case .pageUp, .pageDown:
        let page = max(1, state.layout.textRows.count - 2)
        let delta = command == .pageUp ? -page : page
        state.topLine = min(max(0, state.topLine + delta), max(0, state.buffer.lineCount - 1))
        state.buffer.moveLines(by: delta)
    case .firstLine: state.buffer.moveToStart()
    case .lastLine: state.buffer.moveToEnd()
    case .newline:
        state.buffer.insert("\n")
    case .tab:
        state.buffer.insert("\t")
    case .deleteBackward:
        state.buffer.deleteBackward()
    case .deleteForward:
        state.buffer.deleteForward()
    }
    return []
}

private func describe(_ step: History.Step) -> String {
    if step.edits.count > 1 { return "replacement" }
    guard let edit = step.edits.first else { return "action" }
    if edit.text == "\n" { return edit.kind == .insert ? "line break" : "line join" }
    return edit.kind == .insert ? "addition" : "deletion"
}

/// nano's ^C report: "line 2/7 (28%), col 3/11 (27%), char 15/73 (20%)".
private func location(of buffer: TextBuffer) -> String {
    let cursor = buffer.cursor
    var charsBefore = 0
    var total = 0
    for i in 0..<buffer.lineCount {
        let n = buffer.characterCount(inLine: i)
        if i < cursor.line { charsBefore += n + 1 }
        total += n + (i < buffer.lineCount - 1 ? 1 : 0)
    }
    let lineLength = buffer.characterCount(inLine: cursor.line) + 1
    func percent(_ a: Int, _ b: Int) -> Int { b == 0 ? 0 : 100 * a / b }
    let line = cursor.line + 1, col = cursor.column + 1, char = charsBefore + cursor.column + 1
    return "line \(line)/\(buffer.lineCount) (\(percent(line, buffer.lineCount))%), "
        + "col \(col)/\(lineLength) (\(percent(col, lineLength))%), "
        + "char \(char)/\(total + 1) (\(percent(char, total + 1))%)"
}

// MARK: - Search

/// Moves to the next match after the cursor, wrapping; the status says how it went (nano's words).
func find(_ search: String, in state: inout EditorState) {
    let from = state.buffer.offset(of: state.buffer.cursor)
    guard let match = try? state.buffer.nextMatch(of: search, from: from, skippingCurrent: true,
                                                  caseSensitive: state.caseSensitive) else {
        state.status = StatusMessage("\"\(search)\" not found")
        return
    }
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: match.range.lowerBound))
    if match.wrapped && match.range.lowerBound == from {
        state.status = StatusMessage("This is the only occurrence")
    } else if match.wrapped {
        state.status = StatusMessage("Search Wrapped")
    }
}

// MARK: - Prompts

// Keys in a one-line prompt: the answer is typed, edited and accepted here.

func updatePrompt(_ state: inout EditorState, _ prompt: Prompt, _ key: KeyEvent, keymap: Keymap) -> [EditorEffect] {
    var prompt = prompt
    switch key {
    case .character(let c):
        prompt.answer.insert(c, at: prompt.cursor)
        prompt.cursor += 1
        state.mode = .prompt(prompt)
        return []
    case .paste(let text):
        let characters = Array(text.filter { $0 != "\n" && $0 != "\r\n" })
        prompt.answer.insert(contentsOf: characters, at: prompt.cursor)
        prompt.cursor += characters.count
        state.mode = .prompt(prompt)
        return []
    default:
        break
    }
    guard let action = keymap.promptAction(for: key), action.isAvailable(in: prompt.kind) else { return [] }
    switch action {
    case .deleteBackward:
        if prompt.cursor > 0 {
            prompt.answer.remove(at: prompt.cursor - 1)
            prompt.cursor -= 1
        }
    case .deleteForward:
        if prompt.cursor < prompt.answer.count { prompt.answer.remove(at: prompt.cursor) }
    case .moveLeft:
        prompt.cursor = max(0, prompt.cursor - 1)
    case .moveRight:
        prompt.cursor = min(prompt.answer.count, prompt.cursor + 1)
    case .moveToStart:
        prompt.cursor = 0
    case .moveToEnd:
        prompt.cursor = prompt.answer.count
    case .olderAnswer, .newerAnswer:
        browseHistory(&prompt, older: action == .olderAnswer, history: state.promptHistory[prompt.kind.historyKey] ?? [])
    case .clear:
        prompt.answer.removeAll()
        prompt.cursor = 0
    case .cancel:
        state.mode = .editing
        state.exitAfterSave = false
        state.status = StatusMessage("Cancelled")
        return []
    case .switchToReplace:
        prompt.kind = .replaceSearch
    case .toggleCaseSensitivity:
        state.caseSensitive.toggle()
    case .accept:
        state.mode = .editing
        return accept(prompt, in: &state)
    }
    state.mode = .prompt(prompt)
    return []
}

private func browseHistory(_ prompt: inout Prompt, older: Bool, history: [String]) {
    guard !history.isEmpty else { return }
    var index = prompt.historyIndex ?? history.count
    index = older ? max(0, index - 1) : index + 1
    if index >= history.count {
        prompt.historyIndex = nil
        prompt.answer = []
    } else {
        prompt.historyIndex = index
        prompt.answer = Array(history[index])
    }
    prompt.cursor = prompt.answer.count
}

private func remember(_ answer: String, for kind: PromptKind, in state: inout EditorState) {
    guard !answer.isEmpty else { return }
    var list = state.promptHistory[kind.historyKey] ?? []
    list.removeAll { $0 == answer }
    list.append(answer)
    state.promptHistory[kind.historyKey] = list
}

/// The answer given: search, go on to the next prompt, or ask the run loop to write or mail.
private func accept(_ prompt: Prompt, in state: inout EditorState) -> [EditorEffect] {
    let answer = prompt.text
    remember(answer, for: prompt.kind, in: &state)
    switch prompt.kind {
    case .search, .replaceSearch:
        let search = answer.isEmpty ? state.lastSearch : answer
        guard !search.isEmpty else {
            state.status = StatusMessage(SnapTextError.emptySearch.description)
            return []
        }
        state.lastSearch = search
        if prompt.kind == .search {
            find(search, in: &state)
        } else {
            state.mode = .prompt(Prompt(kind: .replaceWith(search: search)))
        }
    case .replaceWith(let search):
        beginReplace(search: search, replacement: answer, in: &state)
    case .writeOut:
        guard !answer.isEmpty else {
            state.exitAfterSave = false
            state.status = StatusMessage("Cancelled")
            return []
        }
        let own = state.savesToOwnFile && answer == state.saveName
        return [.save(text: state.buffer.text, path: answer, overwriteConfirmed: own)]
    case .mailTo:
        let to = answer.trimmingWhitespace()
        guard !to.isEmpty else {
            state.status = StatusMessage("Cancelled")
            return []
        }
        state.mode = .prompt(Prompt(kind: .mailSubject(to: to), answer: defaultSubject(of: state.buffer)))
    case .mailSubject(let to):
        return [.mail(text: state.buffer.text, to: to, subject: answer)]
    }
    return []
}

/// The poem's first non-empty line, trimmed: the default mail subject.
func defaultSubject(of buffer: TextBuffer) -> String {
    buffer.lines.lazy.map { $0.trimmingWhitespace() }.first { !$0.isEmpty } ?? ""
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}

// MARK: - Replace loop

// The replace loop: "Replace this instance?" at each match, from the cursor to the end, then from
// the top back to where it started (nano's order).

/// Finds the first match from the cursor and asks about it; "not found" when there is none.
func beginReplace(search: String, replacement: String, in state: inout EditorState) {
    let from = state.buffer.offset(of: state.buffer.cursor)
    guard let match = try? state.buffer.nextMatch(of: search, from: from, skippingCurrent: false,
                                                  caseSensitive: state.caseSensitive) else {
        state.status = StatusMessage("\"\(search)\" not found")
        return
    }
    let session = ReplaceSession(search: search, replacement: replacement, match: match.range, stopOffset: from,
                                 wrapped: match.wrapped, count: 0, originalCursor: from, caseSensitive: state.caseSensitive)
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: match.range.lowerBound))
    state.mode = .confirmReplace(session)
}

/// The answer to "Replace this instance?".
func updateReplace(_ state: inout EditorState, _ session: ReplaceSession, _ answer: Answer?) {
    var session = session
    let identical = session.caseSensitive && session.search.utf8.elementsEqual(session.replacement.utf8)
    let cs = session.caseSensitive
    switch answer {
    case .yes?:
        let match = session.match
        if !identical {
            try? state.buffer.replace([match], with: session.replacement)
            session.count += 1
            shift(&session, for: [match])
        }
        let next = match.lowerBound + session.replacement.utf8.count
        advance(&state, &session, from: identical ? match.upperBound : next)
    case .no?:
        advance(&state, &session, from: session.match.lowerBound + 1)
    case .all?:
        var ranges: [Range<Int>] = []
        if session.wrapped {
            ranges = (try? state.buffer.matches(of: session.search, startingIn: session.match.lowerBound..<session.stopOffset,
                                                caseSensitive: cs)) ?? []
        } else {
            let end = state.buffer.utf8Count
            let before = (try? state.buffer.matches(of: session.search, startingIn: 0..<session.stopOffset,
                                                    endingBy: session.match.lowerBound, caseSensitive: cs)) ?? []
            let after = (try? state.buffer.matches(of: session.search, startingIn: session.match.lowerBound..<end,
                                                   caseSensitive: cs)) ?? []
            ranges = before + after
        }
        if !identical && !ranges.isEmpty {
            try? state.buffer.replace(ranges, with: session.replacement)
            session.count += ranges.count
            shift(&session, for: ranges)
        }
        finishReplace(&state, session)
    case .cancel?:
        finishReplace(&state, session)
    case nil:
        break
    }
}

/// Keeps the loop's stop point and the original cursor on the same text after `ranges` were replaced.
private func shift(_ session: inout ReplaceSession, for ranges: [Range<Int>]) {
    let delta = session.replacement.utf8.count - session.search.utf8.count
    let beforeStop = ranges.filter { $0.upperBound <= session.stopOffset }.count
    let beforeCursor = ranges.filter { $0.upperBound <= session.originalCursor }.count
    session.stopOffset += beforeStop * delta
    session.originalCursor += beforeCursor * delta
}

/// Finds the next match from `offset`: to the end, then from the top up to the starting point.
private func advance(_ state: inout EditorState, _ session: inout ReplaceSession, from offset: Int) {
    let end = state.buffer.utf8Count
    var next: Range<Int>?
    if !session.wrapped {
        next = try? state.buffer.firstMatch(of: session.search, startingIn: offset..<end,
                                            caseSensitive: session.caseSensitive)
        if next == nil {
            session.wrapped = true
            next = try? state.buffer.firstMatch(of: session.search, startingIn: 0..<session.stopOffset,
                                                caseSensitive: session.caseSensitive)
        }
    } else {
        next = try? state.buffer.firstMatch(of: session.search, startingIn: offset..<session.stopOffset,
                                            caseSensitive: session.caseSensitive)
    }
    guard let match = next else {
        finishReplace(&state, session)
        return
    }
    session.match = match
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: match.lowerBound))
    state.mode = .confirmReplace(session)
}

private func finishReplace(_ state: inout EditorState, _ session: ReplaceSession) {
    state.mode = .editing
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: session.originalCursor))
    state.status = StatusMessage("Replaced \(plural(session.count, "occurrence"))")
}
