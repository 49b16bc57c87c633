import SnapTerminal
import SnapText

// Keys in a one-line prompt: the answer is typed, edited and accepted here.

func updatePrompt(_ state: inout EditorState, _ prompt: Prompt, _ key: KeyEvent, keymap: Keymap) -> [EditorEffect] {
    var prompt = prompt
    prompt.listed = []
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
    guard let action = keymap.promptAction(for: key, in: prompt.kind) else { return [] }
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
        browseHistory(
            &prompt, older: action == .olderAnswer, history: state.promptHistory[prompt.kind.historyKey] ?? [])
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
        state.search.caseSensitive.toggle()
    case .toggleAccentSensitivity:
        state.search.accentSensitive.toggle()
    case .toggleRegularExpression:
        state.search.regularExpression.toggle()
    case .toggleBackwards:
        state.search.searchesBackwards.toggle()
    case .toggleDOSFormat:
        state.format.lineEnding = state.format.lineEnding == .dos ? .unix : .dos
    case .toggleMacFormat:
        state.format.lineEnding = state.format.lineEnding == .mac ? .unix : .mac
    case .toggleLatin1:
        state.format.encoding = state.format.encoding == .latin1 ? .utf8 : .latin1
    case .toggleAccurate:
        state.readingChoice.accurate.toggle()
    case .completeFileName:
        state.mode = .prompt(prompt)
        return [.completeFileName(prompt.text)]
    case .suspend:
        state.mode = .editing
        return [.suspend]
    case .browse:
        state.mode = .prompt(prompt)
        let start = browserStartFolder(prompt.text)
        return [.listFolder(start, fallback: start == "." ? nil : ".")]
    case .accept:
        state.mode = .editing
        return accept(prompt, in: &state)
    }
    state.mode = .prompt(prompt)
    return []
}

/// Tab in a file prompt, as in nano: `answer` completed by `names`, the names in its folder that
/// start with its last part (``DocumentSharing/fileNames(completing:)``): the one name, else as
/// far as all of them agree; with several, they are listed above the prompt.
func completeFileName(_ answer: String, names: [String], in state: inout EditorState) {
    guard case .prompt(var prompt) = state.mode, prompt.text == answer else { return }  // typed on since
    let folder = folderPart(of: answer)
    guard let first = names.first else {
        state.status = StatusMessage("No file name starts with \"\(answer.dropFirst(folder.count))\"")
        return
    }
    var common = first
    for name in names.dropFirst() {
        common = String(zip(common, name).prefix { $0 == $1 }.map(\.0))
    }
    prompt.answer = Array(folder + common)
    prompt.cursor = prompt.answer.count
    prompt.listed = names.count > 1 ? names : []
    state.mode = .prompt(prompt)
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

/// The answer given (Enter, or a file taken in the browser): search, go on to the next prompt, or
/// ask the run loop to write or mail.
func accept(_ prompt: Prompt, in state: inout EditorState) -> [EditorEffect] {
    let answer = prompt.text
    remember(answer, for: prompt.kind, in: &state)
    switch prompt.kind {
    case .search, .replaceSearch:
        let search = answer.isEmpty ? state.search.lastSearch : answer
        guard !search.isEmpty else {
            state.status = StatusMessage(SnapTextError.emptySearch.description)
            return []
        }
        state.search.lastSearch = search
        if prompt.kind == .search {
            find(search, in: &state)
        } else {
            // A bad pattern is said now, not once the replacement has been typed too (nano).
            if state.search.regularExpression {
                do { try TextBuffer.checkRegex(search) } catch {
                    state.status = StatusMessage("\(error)", isError: true)
                    return []
                }
            }
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
        return [
            .save(
                text: state.buffer.content, path: answer, overwriteConfirmed: own, format: state.format,
                pages: state.exportPages)
        ]
    case .insertFile:
        guard !answer.isEmpty else {
            state.status = StatusMessage("Cancelled")
            return []
        }
        return [.insertFile(path: answer)]
    case .goToLine:
        guard !answer.trimmingWhitespace().isEmpty else {
            state.status = StatusMessage("Cancelled")
            return []
        }
        guard let position = position(forLineColumn: answer, in: state.buffer) else {
            state.status = StatusMessage("Invalid line or column number", isError: true)
            return []
        }
        state.buffer.moveCursor(to: position)
    case .mailTo:
        let to = answer.trimmingWhitespace()
        guard !to.isEmpty else {
            state.status = StatusMessage("Cancelled")
            return []
        }
        // A bad address is said now, not once the Subject has been typed too.
        return [.checkMailTo(to: to)]
    case .mailSubject(let to):
        // The mail command may take a while (up to its timeout): the editor waits, drawing and
        // reading keys (^C stops it), and the screen says what it waits for.
        state.mode = .running(.mail(to: to))
        return [.mail(text: state.buffer.content, to: to, subject: answer)]
    case .executeCommand:
        guard !answer.trimmingWhitespace().isEmpty else {
            state.status = StatusMessage("Cancelled")
            return []
        }
        let region = state.markedRegion
        let input = region.map { Rope(state.buffer.text(inUTF8: $0)) } ?? state.buffer.content
        state.mode = .running(.command(commandLine: answer, region: region))
        // nano's "|cmd": the text (or the marked region) piped through cmd and replaced by its
        // output at once; without the bar, lovesnap pipes too and asks what to do with it.
        let commandLine = RunningJob.pipedCommand(answer) ?? answer
        return [.runCommand(commandLine: commandLine, input: input)]
    case .readAgain:
        return acceptReadAgain(answer, in: &state)
    }
    return []
}

/// Where "line,column" (nano's Go To Line answer) points in `buffer`, or nil when it is not
/// numbers. Both count from 1; a negative line counts from the end (-1 is the last line) and a
/// negative column from the end of the line (-1 is after its last character); the column is in
/// characters and may be left out ("7"), as may the line (",3": the cursor's line). Numbers past
/// either end go to that end.
func position(forLineColumn answer: String, in buffer: TextBuffer) -> TextPosition? {
    let parts = answer.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        .map { String($0).trimmingWhitespace() }
    guard parts.count <= 2, !parts.allSatisfy(\.isEmpty) else { return nil }
    var line = buffer.cursor.line + 1
    if !parts[0].isEmpty {
        guard let n = Int(parts[0]) else { return nil }
        line = n < 0 ? buffer.lineCount + n + 1 : n
    }
    let index = min(max(line, 1), buffer.lineCount) - 1
    var column = 1
    if parts.count == 2 && !parts[1].isEmpty {
        guard let n = Int(parts[1]) else { return nil }
        column = n < 0 ? buffer.characterCount(inLine: index) + n + 2 : n
    }
    return buffer.clamped(TextPosition(line: index, column: max(column, 1) - 1))
}

/// The poem's first non-empty line, trimmed: the default mail subject.
func defaultSubject(of buffer: TextBuffer) -> String {
    // A line longer than a mail header's is cut (RFC 5322 § 2.1.1: 998 characters at most).
    (0..<min(buffer.lineCount, 1000)).lazy.map { buffer.line($0, maxBytes: 998).trimmingWhitespace() }
        .first { !$0.isEmpty } ?? ""
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
