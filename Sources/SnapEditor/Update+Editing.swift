import SnapTerminal
import SnapText

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
    if state.isReadOnly {
        let typed: Bool
        switch key {
        case .character, .paste: typed = true
        default: typed = keymap.command(for: key).map(changesText) ?? false
        }
        if typed {
            state.status = StatusMessage("Key is invalid in view mode")
            return []
        }
    }
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
    guard let command = keymap.command(for: key) else {
        state.status = StatusMessage("Unbound key: \(key.helpName)")
        return []
    }
    if command == .suspendHint {
        // nano 7.2's "[ To suspend, type ^T^Z ]", from the keys bound here.
        let execute = keymap.editing.first { $0.action == .executeCommand }?.keys.first?.helpName ?? "^T"
        let suspend = keymap.prompt.first { $0.action == .suspend }?.keys.first?.helpName ?? "^Z"
        state.status = StatusMessage("To suspend, type \(execute)\(suspend)")
        return []
    }
    return perform(command, on: &state, afterCut: wasCut)
}

func perform(_ command: Command, on state: inout EditorState, afterCut: Bool) -> [EditorEffect] {
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
        return [
            .save(
                text: state.buffer.content, path: state.saveName, overwriteConfirmed: state.savesToOwnFile,
                format: state.format, pages: state.exportPages)
        ]
    case .insertFile:
        state.mode = .prompt(Prompt(kind: .insertFile))
    case .whereIs, .whereWas:
        // As nano 7.2: ^W searches forward, ^Q backward (M-B in the prompt turns it round).
        state.search.searchesBackwards = command == .whereWas
        state.mode = .prompt(Prompt(kind: .search))
    case .findNext, .findPrevious:
        if state.search.lastSearch.isEmpty {
            state.status = StatusMessage("No current search pattern")
        } else {
            // M-W goes forward and M-Q backward, whichever way the search prompt went (nano 7.2).
            state.search.searchesBackwards = command == .findPrevious
            find(state.search.lastSearch, in: &state)
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
        // Each mail starts with an empty To (earlier ones are on Up); an empty text asks first.
        let empty = state.buffer.text.allSatisfy { $0.isWhitespace }
        state.mode = empty ? .confirmEmptyMail : .prompt(Prompt(kind: .mailTo))
    case .executeCommand:
        state.mode = .prompt(Prompt(kind: .executeCommand))
    case .cancelJob:
        break
    case .cutLine:
        if !afterCut { state.buffer.closeUndoGroup() }  // a new series of cuts: a new undo step
        let cut = state.markedRegion.map { state.buffer.cut($0) } ?? state.buffer.cutLine()
        state.markAnchor = nil
        state.cutBuffer = afterCut ? state.cutBuffer + cut : cut
        state.lastCommandWasCut = true
    case .cutToEnd:
        if !afterCut { state.buffer.closeUndoGroup() }
        let cut = state.buffer.cut(state.buffer.offset(of: state.buffer.cursor)..<state.buffer.utf8Count)
        state.markAnchor = nil
        state.cutBuffer = afterCut ? state.cutBuffer + cut : cut
        state.lastCommandWasCut = true
    case .copy:
        let copied = state.buffer.text(inUTF8: state.markedRegion ?? lineRange(of: state.buffer))
        state.markAnchor = nil
        state.cutBuffer = afterCut ? state.cutBuffer + copied : copied
        state.lastCommandWasCut = true
    case .setMark:
        if state.markAnchor == nil {
            state.markAnchor = state.buffer.cursor
            state.status = StatusMessage("Mark Set")
        } else {
            state.markAnchor = nil
            state.status = StatusMessage("Mark Unset")
        }
    case .goToLine:
        state.mode = .prompt(Prompt(kind: .goToLine))
    case .wordCount:
        state.status = StatusMessage(wordCount(of: state))
    case .toggleLineNumbers:
        state.showsLineNumbers.toggle()
    case .indent: state.buffer.indent(lines: markedLines(state))
    case .unindent: state.buffer.unindent(lines: markedLines(state))
    case .previousWord: state.buffer.moveToPreviousWord()
    case .nextWord: state.buffer.moveToNextWord()
    case .paste:
        if state.cutBuffer.isEmpty {
            state.status = StatusMessage("Cutbuffer is empty")
        } else {
            state.buffer.paste(state.cutBuffer)
        }
    case .location:
        state.status = StatusMessage(location(of: state.buffer))
    case .refresh:
        return [.redrawScreen]
    case .suspendHint:
        break  // a message naming keys: `updateEditing`
    case .cancelRecognition:
        break
    case .nextUncertain: moveToUncertain(&state, forward: true)
    case .previousUncertain: moveToUncertain(&state, forward: false)
    case .acceptWord: acceptWord(&state)
    case .alternatives: return openAlternatives(&state)
    case .photoView: return openPhotoView(&state)
    case .listData: openDataMenu(&state)
    case .copyToClipboard: return copyToClipboard(&state)
    case .readAgain: openReadAgain(&state)
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
    case .justify, .justifyAll:
        // nano's default fill (-8): the text area's width less 8 columns.
        let width = max(1, state.textAreaColumns - 8)
        let justified =
            command == .justify ? state.buffer.justifyParagraph(width: width) : state.buffer.justifyAll(width: width)
        state.status = StatusMessage(
            !justified ? "No paragraph to justify" : command == .justify ? "Justified paragraph" : "Justified file")
    case .tab:
        state.buffer.insert("\t")
    case .deleteBackward:
        state.buffer.deleteBackward()
    case .deleteForward:
        state.buffer.deleteForward()
    }
    return []
}

/// The lines M-} and M-{ work on: those the marked region touches (not the last one when the
/// region ends at its start), else the cursor's line.
private func markedLines(_ state: EditorState) -> ClosedRange<Int> {
    let cursor = state.buffer.cursor
    guard let anchor = state.markAnchor.map(state.buffer.clamped) else { return cursor.line...cursor.line }
    let (top, bottom) = anchor.line <= cursor.line ? (anchor, cursor) : (cursor, anchor)
    let last = bottom.column == 0 && bottom.line > top.line ? bottom.line - 1 : bottom.line
    return top.line...last
}

/// The cursor line with its newline (UTF-8 offsets): what M-6 copies without a mark.
func lineRange(of buffer: TextBuffer) -> Range<Int> {
    let line = buffer.cursor.line
    let start = buffer.startOffset(ofLine: line)
    let end = line < buffer.lineCount - 1 ? buffer.startOffset(ofLine: line + 1) : buffer.utf8Count
    return start..<end
}

/// nano's M-D report: "12 words,  3 lines,  45 characters", "In Selection:  …" for a region.
/// Words are runs of non-whitespace (as `wc -w`); lines as "Wrote N lines" counts them (a region
/// ending at a line start does not count that line); characters are grapheme clusters, a line
/// break counting one.
func wordCount(of state: EditorState) -> String {
    let region = state.markedRegion
    let counts = state.buffer.counts(inUTF8: region ?? 0..<state.buffer.utf8Count)
    return (region == nil ? "" : "In Selection:  ")
        + "\(plural(counts.words, "word")),  \(plural(counts.lines, "line")),  \(plural(counts.characters, "character"))"
}

private func describe(_ step: History.Step) -> String {
    if step.grouping == .cutting { return "cut" }
    if step.grouping == .pasting { return "paste" }
    if step.grouping == .justifying { return "justification" }
    if step.edits.count > 1 || step.replaced != nil { return "replacement" }
    guard let edit = step.edits.first else { return step.marksBefore != step.marksAfter ? "acceptance" : "action" }
    if edit.text == "\n" { return edit.kind == .insert ? "line break" : "line join" }
    return edit.kind == .insert ? "addition" : "deletion"
}

/// nano's ^C report: "line 2/7 (28%), col 3/11 (27%), char 15/73 (20%)".
private func location(of buffer: TextBuffer) -> String {
    // Characters of each line, a line break counting one (a CR before it is a character of its own).
    func characters(_ range: Range<Int>) -> Int {
        let counts = buffer.counts(inUTF8: range)
        return counts.characters + counts.crlf
    }
    let cursor = buffer.cursor
    let charsBefore = characters(0..<buffer.startOffset(ofLine: cursor.line))
    let total = characters(0..<buffer.utf8Count)
    let lineLength = buffer.characterCount(inLine: cursor.line) + 1
    func percent(_ a: Int, _ b: Int) -> Int { b == 0 ? 0 : 100 * a / b }
    let line = cursor.line + 1
    let col = cursor.column + 1
    let char = charsBefore + cursor.column + 1
    return "line \(line)/\(buffer.lineCount) (\(percent(line, buffer.lineCount))%), "
        + "col \(col)/\(lineLength) (\(percent(col, lineLength))%), "
        + "char \(char)/\(total + 1) (\(percent(char, total + 1))%)"
}

// MARK: - Search

/// The next match of `search` from `offset` (the previous one when `backwards`) in the search's
/// case and regex modes, or nil with nano's "not found", or the bad pattern's error, on the
/// status line.
func nextMatch(
    of search: String, from offset: Int, skippingCurrent: Bool, backwards: Bool = false,
    in state: inout EditorState
) -> SearchMatch? {
    let (cs, accents, rx) = (state.search.caseSensitive, state.search.accentSensitive, state.search.regularExpression)
    do {
        let found =
            backwards
            ? try state.buffer.previousMatch(
                of: search, from: offset, skippingCurrent: skippingCurrent, caseSensitive: cs,
                accentSensitive: accents, regularExpression: rx)
            : try state.buffer.nextMatch(
                of: search, from: offset, skippingCurrent: skippingCurrent, caseSensitive: cs,
                accentSensitive: accents, regularExpression: rx)
        if let found { return found }
        state.status = StatusMessage("\"\(search)\" not found")
    } catch {
        state.status = StatusMessage("\(error)", isError: true)
    }
    return nil
}

/// Moves to the next match after the cursor, wrapping; the status says how it went (nano's words).
func find(_ search: String, in state: inout EditorState) {
    let from = state.buffer.offset(of: state.buffer.cursor)
    guard
        let match = nextMatch(
            of: search, from: from, skippingCurrent: true, backwards: state.search.searchesBackwards, in: &state)
    else { return }
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: match.range.lowerBound))
    if match.wrapped && match.range.lowerBound == from {
        state.status = StatusMessage("This is the only occurrence")
    } else if match.wrapped {
        state.status = StatusMessage("Search Wrapped")
    }
}
