import SnapDetectors
import SnapTerminal
import SnapText

/// Builds the whole screen for `state` at `size`: title bar, text (or OCR progress, or help),
/// status/prompt line, two help lines, and the cursor. The help screen and the help lines come
/// from `keymap`.
///
/// Pure: the same state and size give the same frame. Nothing is drawn outside `size`, at any size
/// down to 0x0; a wide character that does not fit whole is shown as blanks.
public func render(_ state: EditorState, size: TerminalSize, keymap: Keymap = .nano) -> Frame {
    var frame = Frame(size: size)
    guard size.rows > 0, size.columns > 0 else { return frame }
    let layout = Layout(size: size, wantsStatusRow: state.wantsStatusRow)
    if let row = layout.titleRow { drawTitle(&frame, row: row, state) }
    if state.isRecognizing {
        drawProgress(&frame, rows: layout.textRows, state)
    } else if state.mode == .help {
        drawHelpScreen(
            &frame, rows: layout.textRows, lines: keymap.helpScreen(width: size.columns), top: state.helpTopLine)
    } else if let preview = state.preview {
        // A ^T command's output or a recovery file's text, shown in place of the text.
        var shown = state
        shown.buffer = preview
        shown.markAnchor = nil
        shown.words = []
        shown.topLine = 0
        shown.mode = .editing
        drawText(&frame, rows: layout.textRows, shown)
    } else if case .photo = state.mode {
        drawPhotoView(&frame, rows: layout.textRows, state)
    } else if case .browser(let browser) = state.mode {
        if let row = layout.titleRow { drawBrowserTitle(&frame, row: row, browser) }
        drawBrowser(&frame, rows: layout.textRows, browser)
    } else {
        drawText(&frame, rows: layout.textRows, state)
        if case .alternatives(let menu) = state.mode { drawMenu(&frame, rows: layout.textRows, menu) }
        if case .data(let menu) = state.mode { drawDataMenu(&frame, rows: layout.textRows, menu) }
    }
    if let row = layout.statusRow { drawStatus(&frame, row: row, state, textRows: layout.textRows.count) }
    drawHelpBar(&frame, rows: layout.helpRows, items: keymap.helpBar(for: state))
    return frame
}

// MARK: - Writing strings into a frame

extension Frame {
    /// Writes `string` from `column` on `row`, stopping before `limit` (default: the row's end);
    /// returns the column after the last cell written. Control characters are shown as `^X`.
    @discardableResult
    mutating func write(_ string: String, row: Int, column: Int, limit: Int? = nil, style: Style = .normal) -> Int {
        let limit = min(limit ?? size.columns, size.columns)
        var x = column
        for character in string {
            let cells = glyphs(character, atColumn: x)
            let total = cells.reduce(0) { $0 + $1.width }
            guard x + total <= limit else { break }
            for cell in cells {
                put(cell.content, width: cell.width, row: row, column: x, style: style)
                x += cell.width
            }
        }
        return x
    }
}

/// What a character looks like in cells: itself, or blanks for a TAB, or `^X` for a control.
func glyphs(_ character: Character, atColumn column: Int) -> [Cell] {
    let width = DisplayWidth.of(character, atColumn: column)
    if character == "\t" { return Array(repeating: Cell.blank(), count: width) }
    guard let first = character.unicodeScalars.first else { return [] }
    if DisplayWidth.isControl(first) {
        let shown: Character = first.value < 0x80 ? Character(Unicode.Scalar(UInt8(first.value ^ 0x40))) : "?"
        return [Cell(content: "^"), Cell(content: String(shown))]
    }
    if first.properties.isGraphemeExtend || first.properties.generalCategory == .spacingMark {
        return [Cell(content: " " + String(character))]  // a mark with no base: show it on a space
    }
    return [Cell(content: String(character), width: width)]
}

/// The display column of the cursor line's first shown column (nano's `get_page_start`).
func pageStart(cursorColumn column: Int, width: Int) -> Int {
    if column == 0 || column + 2 < width { return 0 }
    if width > 8 { return column - 6 - (column - 6) % (width - 8) }
    if width > 2 { return column - (width - 2) }
    return column
}

private func displayWidth(_ s: String) -> Int { DisplayWidth.of(s) }

// MARK: - Parts

private func drawTitle(_ frame: inout Frame, row: Int, _ state: EditorState) {
    let columns = frame.size.columns
    frame.setStyle(.reverse, row: row, columns: 0..<columns)
    var right: [String] = []
    if !state.words.isEmpty && !state.isRecognizing {
        let uncertain = state.uncertainMarks.count
        right.append(uncertain == 0 ? "no uncertain words" : "\(uncertain) uncertain")
    }
    if state.isModified || state.hasUnsavedText { right.append("Modified") }
    if state.isReadOnly { right.append("View") }
    if case .finished(let confidence) = state.recognition { right.append("conf \(confidence)") }
    let rightText = right.joined(separator: "  ")
    let name = state.displayName
    let left = "  LoveInASnap"
    let rightWidth = rightText.isEmpty ? 0 : displayWidth(rightText) + 1
    let nameWidth = displayWidth(name)
    let showLeft = displayWidth(left) + nameWidth + rightWidth + 4 <= columns
    if showLeft { frame.write(left, row: row, column: 0, style: .reverse) }
    let nameLimit = max(0, columns - (rightWidth > 0 ? rightWidth + 1 : 0))
    let nameStart = max(showLeft ? displayWidth(left) + 2 : 0, (columns - nameWidth) / 2)
    frame.write(
        name, row: row, column: min(nameStart, max(0, nameLimit - nameWidth)), limit: nameLimit, style: .reverse)
    if rightWidth > 0 && rightWidth <= columns {
        frame.write(rightText, row: row, column: columns - rightWidth, style: .reverse)
    }
}

private func drawText(_ frame: inout Frame, rows: Range<Int>, _ state: EditorState) {
    let buffer = state.buffer
    // Line numbers (M-#): right-aligned in a margin of the widest number plus a space, left out
    // when they would leave fewer than 4 columns for the text.
    let digits = String(buffer.lineCount).count
    let margin = state.showsLineNumbers && frame.size.columns - digits - 1 >= 4 ? digits + 1 : 0
    let width = frame.size.columns - margin  // `EditorState.textAreaColumns` when the frame is the screen
    let top = EditorState.top(
        for: state.topLine, cursorLine: buffer.cursor.line, rows: rows.count,
        lineCount: buffer.lineCount)
    var highlight: Range<Int>?
    if case .confirmReplace(let session) = state.mode { highlight = session.match }
    if case .confirmSeries(let series) = state.mode, let id = series.pending.first?.markID {
        highlight = buffer.marks.first { $0.id == id }?.range
    }
    let region = state.markedRegion
    // Uncertain words: underlined (visible without colour) and in the warning colour.
    let uncertain = state.uncertainMarks.map(\.range)
    var nextUncertain = 0
    for (i, row) in rows.enumerated() {
        let index = top + i
        guard index < buffer.lineCount else { break }
        // Data found in the line (card numbers, dates, addresses…): underlined; a near miss in
        // the warning colour too. Not looked for in lines too long to be a poem's or a card's
        // (a megabyte line would be scanned on every key).
        let lineStart = buffer.startOffset(ofLine: index)
        let found = state.lineData.detections(inLine: LineData.detectableText(ofLine: index, in: buffer)).map {
            (range: ($0.range.lowerBound + lineStart)..<($0.range.upperBound + lineStart), nearMiss: $0.isNearMiss)
        }
        if margin > 0 {
            let number = String(index + 1)
            frame.write(String(repeating: " ", count: digits - number.count) + number, row: row, column: 0)
        }
        // Only the characters that show are walked: the viewport's columns of the line.
        let isCursorLine = index == buffer.cursor.line
        let cursorColumn = isCursorLine ? buffer.cursorDisplayColumn : 0
        let start = isCursorLine ? pageStart(cursorColumn: cursorColumn, width: width) : 0
        let line = buffer.glyphs(inLine: index, displayColumns: start..<(start + max(0, width)))
        for glyph in line.glyphs {
            let byte = glyph.offset
            let length = glyph.length
            let x = glyph.displayColumn - start
            var style: Style = .normal
            if let item = found.first(where: { byte < $0.range.upperBound && byte + length > $0.range.lowerBound }) {
                style = item.nearMiss ? [.underline, .warning] : .underline
            }
            while nextUncertain < uncertain.count && uncertain[nextUncertain].upperBound <= byte { nextUncertain += 1 }
            if nextUncertain < uncertain.count && uncertain[nextUncertain].lowerBound < byte + length {
                style = [.underline, .warning]
            }
            if let r = region, byte < r.upperBound, byte + length > r.lowerBound { style = .reverse }
            if let h = highlight, byte < h.upperBound, byte + length > h.lowerBound { style = .reverse }
            var cx = x
            for cell in glyphs(glyph.character, atColumn: glyph.displayColumn) {
                if cx >= 0 && cx + cell.width <= width {
                    frame.put(cell.content, width: cell.width, row: row, column: margin + cx, style: style)
                } else {  // half outside: never cut a wide character, show blanks instead
                    for b in max(0, cx)..<max(max(0, cx), min(width, cx + cell.width)) {
                        frame.put(" ", row: row, column: margin + b, style: style)
                    }
                }
                cx += cell.width
            }
        }
        if width >= 3 {
            if start > 0 { frame.put("<", row: row, column: margin) }
            if line.continues { frame.put(">", row: row, column: margin + width - 1) }
        }
        if isCursorLine {
            frame.cursor = .init(row: row, column: margin + min(max(0, cursorColumn - start), width - 1))
        }
    }
}

/// The alternatives menu under the cursor line (above it when there is no room): one reading a
/// line, `> ` before the highlighted one, the others in reverse video.
private func drawMenu(_ frame: inout Frame, rows: Range<Int>, _ menu: AlternativesMenu) {
    guard let cursor = frame.cursor, !rows.isEmpty else { return }
    let width = frame.size.columns
    let lines = menu.entries.map { "\($0.text)  (\($0.source))" }
    let inner = min(max(1, width - 2), (lines.map(displayWidth).max() ?? 0) + 1)
    let below = rows.upperBound - (cursor.row + 1)
    let above = cursor.row - rows.lowerBound
    let count = min(lines.count, max(below, above))
    guard count > 0 else { return }
    let top = below >= count ? cursor.row + 1 : cursor.row - count
    let left = max(0, min(cursor.column, width - inner - 2))
    let first = max(0, min(menu.selected - count + 1, lines.count - count))
    for i in 0..<count {
        let index = first + i
        let row = top + i
        let selected = index == menu.selected
        let style: Style = selected ? .bold : .reverse
        frame.setStyle(style, row: row, columns: left..<(left + inner + 2))
        for c in left..<min(width, left + inner + 2) { frame.put(" ", row: row, column: c, style: style) }
        frame.write(selected ? ">" : " ", row: row, column: left, style: style)
        frame.write(lines[index], row: row, column: left + 2, limit: left + inner + 2, style: style)
    }
}

private func drawProgress(_ frame: inout Frame, rows: Range<Int>, _ state: EditorState) {
    guard case .running(let percent) = state.recognition, !rows.isEmpty else { return }
    let width = frame.size.columns
    let barWidth = max(0, min(40, width - 7))
    let filled = barWidth * percent / 100
    let bar = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]"
    let name =
        state.insertion?.name ?? state.rereading.map {
            "\($0.name) again (\($0.choice.levelName), \($0.choice.languages))"
        }
        ?? state.displayName
    let lines = ["Reading \(name)", "\(bar) \(percent)%", "Esc cancels"]
    let first = rows.lowerBound + max(0, (rows.count - lines.count) / 2)
    for (i, line) in lines.enumerated() where first + i < rows.upperBound {
        let x = max(0, (width - displayWidth(line)) / 2)
        frame.write(line, row: first + i, column: x)
    }
}

/// The help text from line `top` on (kept so that the last page is full after a resize).
private func drawHelpScreen(_ frame: inout Frame, rows: Range<Int>, lines: [String], top: Int) {
    let first = min(max(0, top), max(0, lines.count - rows.count))
    for (i, row) in rows.enumerated() where first + i < lines.count {
        frame.write(lines[first + i], row: row, column: 0)
    }
}

private func drawStatus(_ frame: inout Frame, row: Int, _ state: EditorState, textRows: Int) {
    let width = frame.size.columns
    switch state.mode {
    case .prompt(let prompt):
        // Tab's file names, above the prompt as nano lists them: as many as fit.
        if !prompt.listed.isEmpty && row > 0 {
            frame.write(String(repeating: " ", count: width), row: row - 1, column: 0)
            frame.write(fitted(prompt.listed.joined(separator: "  "), width: width), row: row - 1, column: 0)
        }
        frame.setStyle(.reverse, row: row, columns: 0..<width)
        drawPrompt(
            &frame, row: row,
            label: label(
                for: prompt.kind, lastSearch: state.search.lastSearch, state: state, problem: prompt.problem,
                width: width), prompt: prompt)
        return
    case .confirmReplace:
        drawQuestion(&frame, row: row, "Replace this instance?")
        return
    case .confirmSave:
        drawQuestion(&frame, row: row, "Save modified buffer? ")
        return
    case .confirmOverwrite(let path):
        let question = "File \"\(path)\" exists; OVERWRITE? "
        drawQuestion(
            &frame, row: row,
            displayWidth(question) <= width
                ? question
                : "File \"\(EditorConfiguration.fileName(of: path))\" exists; OVERWRITE? ")
        return
    case .confirmSeries(let series):
        let word = series.pending.first
        drawQuestion(
            &frame, row: row,
            "Correct \"\(word?.text ?? series.from)\" to \"\(word?.replacement ?? series.to)\" here too?")
        return
    case .alternatives(let menu):
        let word = menu.entries.last?.text ?? ""
        drawQuestion(&frame, row: row, "Replace \"\(word)\" with: ")
        return
    case .confirmEmptyMail:
        drawQuestion(&frame, row: row, "The text is empty; mail it anyway? ")
        return
    case .confirmChangedOnDisk(let path):
        let question = "File \"\(path)\" has changed on disk; overwrite? "
        drawQuestion(
            &frame, row: row,
            displayWidth(question) <= width
                ? question
                : "File \"\(EditorConfiguration.fileName(of: path))\" has changed on disk; overwrite? ")
        return
    case .commandOutput(let output):
        let lines = output.preview.writtenLineCount
        let what = output.region == nil ? "the whole text" : "the marked text"
        drawQuestion(
            &frame, row: row,
            output.output.isEmpty
                ? "The command wrote nothing; replace \(what) with nothing? "
                : "Replace \(what) with this output (\(plural(lines, "line")))? ")
        return
    case .confirmReading(let reading):
        let lines = plural(reading.preview.writtenLineCount, "line")
        let question =
            "The text was changed; replace it with this new reading (\(lines), conf \(reading.meanConfidence))? "
        drawQuestion(
            &frame, row: row, displayWidth(question) <= width ? question : "Replace the changed text with this? ")
        return
    case .recoveryOffer(let offer):
        let size =
            plural(offer.size, "byte") + (offer.fileIsNewer ? "; the file is newer" : "")
            + (offer.count > 1 ? "; \(offer.ordinal) of \(offer.count)" : "")
        let name = "\"\(state.displayName)\""
        // A file a save left is beside the document: its own name says which.
        let leftover = offer.file.split(separator: "/").last.map(String.init) ?? offer.file
        let what: String
        let short: String
        switch offer.kind {
        case .recoveryFile:
            (what, short) = ("Recovery file of \(name)", "Recovery file")
        case .recoveryFileInUse(let pid):
            (what, short) = (
                "Recovery file of \(name) from lovesnap \(pid), still running,",
                "Recovery file of running lovesnap \(pid)"
            )
        case .unfinishedSave:
            (what, short) = ("Unfinished save of \(name) (\(leftover))", "Unfinished save \(leftover)")
        case .oldTextBackup:
            (what, short) = ("Old text of \(name) from an unfinished save (\(leftover))", "Old text in \(leftover)")
        }
        let question = "\(what) written \(offer.written) (\(size)): "
        drawQuestion(
            &frame, row: row,
            displayWidth(question) <= width ? question : "\(short) written \(offer.written) (\(size)): ")
        return
    case .running(let job):
        let text: String
        switch job {
        case .mail(let to): text = "[ Sending to \(to)… ]"
        case .command(let commandLine, _): text = "[ Running \(commandLine)… ]"
        }
        frame.write(text, row: row, column: max(0, (width - displayWidth(text)) / 2), style: .reverse)
        return
    case .data(let menu):
        let item = menu.items[menu.selected]
        let text = item.note ?? "\(item.kind.label) \(item.value)" + (item.issuer.map { " (\($0))" } ?? "")
        frame.write(text, row: row, column: max(0, (width - displayWidth(text)) / 2))
        return
    case .photo where state.status == nil && !state.isRecognizing:
        let report = state.photoReport
        frame.write(report, row: row, column: max(0, (width - displayWidth(report)) / 2))
        return
    case .editing, .help, .photo, .browser:
        break
    }
    if case .running(let percent) = state.recognition {
        let text = textRows >= 3 ? "Esc cancels the OCR" : "\(percent)% \(state.displayName)"
        frame.write(text, row: row, column: 0)
        return
    }
    guard let status = state.status ?? state.journal.failureMessage.map({ StatusMessage($0, isError: true) }) else {
        if state.mode == .editing, let whole = state.wordReport {
            // Cut with "…" when the word's doubts are too long for the row.
            let report = fitted(whole, width: width)
            frame.write(report, row: row, column: max(0, (width - displayWidth(report)) / 2))
        }
        return
    }
    // As nano's statusline(): centred in brackets when there is room for them, else centred
    // without them, or from the first column, cut with "…" when too long for the row.
    let shown = fitted(status.text, width: width)
    let start = (width - displayWidth(shown)) / 2
    let text = start > 1 ? "[ \(shown) ]" : shown
    frame.write(
        text, row: row, column: start > 1 ? start - 2 : max(0, start),
        style: status.isError ? [.reverse, .bold] : .reverse)
}

/// The browser's title row, as nano's: "DIR: " and the folder, centred (its start cut with "…"
/// when too long).
private func drawBrowserTitle(_ frame: inout Frame, row: Int, _ browser: FileBrowser) {
    let columns = frame.size.columns
    for c in 0..<columns { frame.put(" ", row: row, column: c, style: .reverse) }
    let folder = browser.folder.hasSuffix("/") ? browser.folder : browser.folder + "/"
    var text = "DIR: " + folder
    if displayWidth(text) > columns {
        text = "DIR: …" + String(String(folder.reversed()).prefix(max(0, columns - 6)).reversed())
    }
    frame.write(
        fitted(text, width: columns), row: row, column: max(0, (columns - displayWidth(text)) / 2), style: .reverse)
}

/// The browser's grid, as nano's: entries left to right, then down, each a cell of its name and,
/// right-aligned, "(dir)", "(parent dir)" or its size; the highlighted one in reverse. The rows
/// scroll to keep it shown.
private func drawBrowser(_ frame: inout Frame, rows: Range<Int>, _ browser: FileBrowser) {
    guard !rows.isEmpty else { return }
    let width = frame.size.columns
    let cell = FileBrowser.cellWidth(browser.entries, width: width)
    let columns = FileBrowser.columns(browser.entries, width: width)
    let firstRow = max(0, browser.selected / columns - rows.count + 1)
    for (index, entry) in browser.entries.enumerated() {
        let gridRow = index / columns - firstRow
        guard gridRow >= 0, gridRow < rows.count else { continue }
        let row = rows.lowerBound + gridRow
        let start = (index % columns) * cell
        let style: Style = index == browser.selected ? .reverse : .normal
        let inner = max(1, cell - 2)
        let info = entry.info
        let name = fittedKeepingEnd(entry.name, width: max(1, inner - displayWidth(info) - 1))
        for c in start..<min(width, start + inner) { frame.put(" ", row: row, column: c, style: style) }
        frame.write(name, row: row, column: start, style: style)
        frame.write(info, row: row, column: start + inner - displayWidth(info), style: style)
    }
    frame.cursor = nil
}

/// `text` as it fits in `width` columns: whole, or its start cut and "…" before the rest (a long
/// file name keeps its extension, as nano's browser shows it).
func fittedKeepingEnd(_ text: String, width: Int) -> String {
    guard displayWidth(text) > width, width > 0 else { return text }
    var kept = ""
    var used = 0
    for character in text.reversed() {
        let columns = displayWidth(String(character))
        if used + columns > width - 1 { break }
        kept.insert(character, at: kept.startIndex)
        used += columns
    }
    return "…" + kept
}

/// `text` as it fits in `width` columns: whole, or cut at a character and ended with "…".
func fitted(_ text: String, width: Int) -> String {
    guard displayWidth(text) > width, width > 0 else { return text }
    var kept = ""
    var used = 0
    for character in text {
        let columns = displayWidth(String(character))
        if used + columns > width - 1 { break }
        kept.append(character)
        used += columns
    }
    return kept + "…"
}

private func label(
    for kind: PromptKind, lastSearch: String, state: EditorState, problem: String?, width: Int
) -> String {
    let label = label(for: kind, lastSearch: lastSearch, state: state)
    // "To [invalid mail address …]: " — the refused answer's reason before the colon, cut with
    // "…" so that the answer keeps at least half the row.
    guard let problem, label.hasSuffix(": ") else { return label }
    let room = max(8, width / 2 - displayWidth(label) - 3)
    return String(label.dropLast(2)) + " [\(fitted(problem, width: room))]: "
}

private func label(for kind: PromptKind, lastSearch: String, state: EditorState) -> String {
    let format = state.format
    let toggles =
        (state.search.caseSensitive ? " [Case Sensitive]" : "")
        + (state.search.accentSensitive ? "" : " [Accents Ignored]")
        + (state.search.regularExpression ? " [Regexp]" : "")
        + (state.search.searchesBackwards && kind == .search ? " [Backwards]" : "")
    let last = toggles + (lastSearch.isEmpty ? "" : " [\(lastSearch)]")
    switch kind {
    case .search: return "Search\(last): "
    case .replaceSearch: return "Search (to replace)\(last): "
    case .replaceWith: return "Replace with: "
    case .writeOut:
        // nano's order: the format, then the other toggles.
        let lineEnds = [TextFormat.LineEnding.dos: " [DOS Format]", .mac: " [Mac Format]"][format.lineEnding] ?? ""
        return "File Name to Write" + lineEnds + (format.encoding == .latin1 ? " [Latin-1]" : "") + ": "
    case .insertFile: return "File to insert: "
    case .goToLine: return "Enter line number, column number: "
    case .mailTo: return "To: "
    case .mailSubject: return "Subject: "
    case .executeCommand: return "Command to execute: "
    case .readAgain: return "Read the photo again\(state.readingChoice.accurate ? " [Accurate]" : ""), languages: "
    }
}

private func drawPrompt(_ frame: inout Frame, row: Int, label: String, prompt: Prompt) {
    let width = frame.size.columns
    let columns = DisplayWidth.columns(of: prompt.answer)
    let labelWidth = displayWidth(label)
    let room = width - labelWidth
    if room >= 2 {
        let start = pageStart(cursorColumn: columns[prompt.cursor], width: room)
        frame.write(label, row: row, column: 0, style: .reverse)
        for (i, character) in prompt.answer.enumerated() {
            let x = labelWidth + columns[i] - start
            if columns[i] < start { continue }
            guard x + (columns[i + 1] - columns[i]) <= width else { break }
            frame.write(String(character), row: row, column: x, style: .reverse)
        }
        frame.cursor = .init(row: row, column: min(width - 1, labelWidth + columns[prompt.cursor] - start))
    } else {
        // Too narrow for the label: show the answer around the cursor only.
        let start = pageStart(cursorColumn: columns[prompt.cursor], width: width)
        for (i, character) in prompt.answer.enumerated() where columns[i] >= start {
            let x = columns[i] - start
            guard x + (columns[i + 1] - columns[i]) <= width else { break }
            frame.write(String(character), row: row, column: x, style: .reverse)
        }
        frame.cursor = .init(row: row, column: min(width - 1, max(0, columns[prompt.cursor] - start)))
    }
}

private func drawQuestion(_ frame: inout Frame, row: Int, _ question: String) {
    let width = frame.size.columns
    frame.setStyle(.reverse, row: row, columns: 0..<width)
    let end = frame.write(question, row: row, column: 0, style: .reverse)
    frame.cursor = .init(row: row, column: min(width - 1, end))
}

// MARK: - Help lines

/// The help lines: items shown top, bottom, top, bottom…, as many pairs as fit.
private func drawHelpBar(_ frame: inout Frame, rows: Range<Int>, items: [HelpBarItem]) {
    guard rows.count == 2, !items.isEmpty else { return }
    let width = frame.size.columns
    let pairs = (items.count + 1) / 2
    let shown = min(pairs, max(1, width / 13))
    let slot = width / shown
    for p in 0..<shown {
        for (r, row) in rows.enumerated() {
            let index = p * 2 + r
            guard index < items.count else { continue }
            let x = p * slot
            let limit = min(width, x + slot - (p == shown - 1 ? 0 : 1))
            let after = frame.write(items[index].key, row: row, column: x, limit: limit, style: .reverse)
            frame.write(" " + items[index].label, row: row, column: after, limit: limit)
        }
    }
}

// MARK: - Photo view and the list of data

/// The photo view: the photo (as last drawn for this state and size) above, the text below; or
/// why there is no photo (too small a terminal, the photo could not be drawn).
private func drawPhotoView(_ frame: inout Frame, rows: Range<Int>, _ state: EditorState) {
    frame.wantsMouse = true
    guard let layout = state.photoLayout else {
        let message = [
            "The terminal is too small for the photo",
            "(it needs \(PhotoLayout.minimumColumns)×\(PhotoLayout.minimumTextRows + 4)); Esc returns",
        ]
        for (i, line) in message.enumerated() where rows.lowerBound + i < rows.upperBound {
            frame.write(line, row: rows.lowerBound + i, column: max(0, (frame.size.columns - displayWidth(line)) / 2))
        }
        return
    }
    let request = state.photoRequest
    if let rendering = state.photoRendering, rendering.request == request {
        frame.place(rendering.picture, row: layout.photoRows.lowerBound + rendering.row, column: rendering.column)
    } else {
        var text = "Drawing the photo…"
        if let failure = state.photoFailure, failure.request == request { text = failure.message }
        frame.write(
            text, row: layout.photoRows.lowerBound + layout.photoRows.count / 2,
            column: max(0, (frame.size.columns - displayWidth(text)) / 2))
    }
    drawText(&frame, rows: layout.textRows, state)
}

/// The list of data found in the text, over the text: one item a line, the highlighted one bold
/// with `>`, the others in reverse video.
private func drawDataMenu(_ frame: inout Frame, rows: Range<Int>, _ menu: DataMenu) {
    guard !rows.isEmpty else { return }
    let width = frame.size.columns
    let lines = menu.items.map(DataMenu.line)
    let count = min(lines.count, rows.count)
    let first = max(0, min(menu.selected - count + 1, lines.count - count))
    let inner = min(max(1, width - 2), (lines.map(displayWidth).max() ?? 0) + 1)
    for i in 0..<count {
        let index = first + i
        let row = rows.lowerBound + i
        let selected = index == menu.selected
        let style: Style = selected ? .bold : .reverse
        for c in 0..<min(width, inner + 2) { frame.put(" ", row: row, column: c, style: style) }
        frame.write(selected ? ">" : " ", row: row, column: 0, style: style)
        frame.write(lines[index], row: row, column: 2, limit: inner + 2, style: style)
    }
    frame.cursor = nil
}
