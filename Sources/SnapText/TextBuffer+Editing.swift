/// Typing, deleting and cutting at the cursor; each goes through ``TextBuffer/perform(_:cursorAfter:grouping:)``.
extension TextBuffer {
    /// Inserts `text` at the cursor and moves the cursor after it.
    ///
    /// Text without a newline joins the current typing burst (one undo step); text with one
    /// (Enter, a paste) is a step of its own. A combining mark merges into the previous character.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        let edit = Edit.insert(text, at: caret.at.offset)
        let grouping: History.Grouping? = text.utf8.contains(0x0A) ? nil : .typing
        try? perform([edit], grouping: grouping) { _ in edit.endOffset }
    }

    /// Pastes `text` at the cursor as one undo step of its own (``History/Grouping/pasting``) and
    /// moves the cursor after it.
    public mutating func paste(_ text: String) {
        guard !text.isEmpty else { return }
        let edit = Edit.insert(text, at: caret.at.offset)
        try? perform([edit], grouping: .pasting) { _ in edit.endOffset }
    }

    /// Inserts `text` at UTF-8 `offset` with `marks` of its own (ranges within `text`, shifted here
    /// to the buffer), as ONE undo step; the cursor goes after it. Throws ``SnapTextError`` (and
    /// changes nothing) when `offset` is not in the text.
    public mutating func insert(_ text: String, at offset: Int, marks newMarks: [TextMark]) throws {
        guard !text.isEmpty else { return }
        let edit = Edit.insert(text, at: offset)
        let shifted = newMarks.map { mark -> TextMark in
            var m = mark
            m.range = (mark.range.lowerBound + offset)..<(mark.range.upperBound + offset)
            return m
        }
        try perform(
            [edit], grouping: nil,
            marksAfter: { ($0.applying([edit]) + shifted).sorted { $0.range.lowerBound < $1.range.lowerBound } },
            cursorAfter: { _ in edit.endOffset })
    }

    /// Replaces the UTF-8 `range` with `text` and its `newMarks` (ranges relative to `text`), as ONE
    /// undo step: the marks inside `range` go, the others follow, the cursor ends after `text`.
    /// An empty `range` is ``insert(_:at:marks:)``.
    /// - Throws: ``SnapTextError`` when `range` is outside the text or cuts a character.
    public mutating func replace(_ range: Range<Int>, with text: String, marks newMarks: [TextMark]) throws {
        guard !range.isEmpty else { return try insert(text, at: range.lowerBound, marks: newMarks) }
        let removed = self.text(inUTF8: range)
        guard removed.utf8.count == range.count else {
            throw SnapTextError.offsetOutOfRange(offset: range.upperBound, utf8Count: utf8Count)
        }
        let edits =
            [Edit.remove(removed, at: range.lowerBound)]
            + (text.isEmpty ? [] : [Edit.insert(text, at: range.lowerBound)])
        let shifted = newMarks.map { mark -> TextMark in
            var m = mark
            m.range = (mark.range.lowerBound + range.lowerBound)..<(mark.range.upperBound + range.lowerBound)
            return m
        }
        try perform(
            edits, grouping: nil,
            marksAfter: { ($0.applying(edits) + shifted).sorted { $0.range.lowerBound < $1.range.lowerBound } },
            cursorAfter: { _ in range.lowerBound + text.utf8.count })
    }

    /// Deletes the character (grapheme cluster) before the cursor, or joins with the previous line
    /// at a line start (Backspace). Returns false at the start of the text.
    @discardableResult
    public mutating func deleteBackward() -> Bool {
        let to = caret.at.offset
        guard to > 0 else { return false }
        let from = caret.previous?.offset ?? to - 1  // at a line start: the "\n" before it
        let removed = text(inUTF8: from..<to)
        try? perform([.remove(removed, at: from)], grouping: .deletingBackward) { _ in from }
        return true
    }

    /// Deletes the character under the cursor, or joins with the next line at a line end (Delete).
    /// Returns false at the end of the text.
    @discardableResult
    public mutating func deleteForward() -> Bool {
        let from = caret.at.offset
        let lineEnd = endOffset(ofLine: caret.at.line)
        if from == lineEnd && caret.at.line == lineCount - 1 { return false }
        let to =
            from == lineEnd
            ? from + 1 : advance(caret, lineEnd: lineEnd, until: .column(caret.at.column + 1)).at.offset
        let removed = text(inUTF8: from..<to)
        try? perform([.remove(removed, at: from)], grouping: .deletingForward) { _ in from }
        return true
    }

    /// Removes the cursor's whole line with its newline (nano's ^K) and returns what was removed;
    /// on the last line only its text goes. Returns "" when there is nothing to cut.
    ///
    /// Consecutive cuts with nothing in between join one undo step (call ``closeUndoGroup()``
    /// first to start a new one).
    @discardableResult
    public mutating func cutLine() -> String {
        let line = caret.at.line
        let from = startOffset(ofLine: line)
        let to = line < lineCount - 1 ? startOffset(ofLine: line + 1) : endOffset(ofLine: line)
        guard to > from else { return "" }
        let removed = text(inUTF8: from..<to)
        try? perform([.remove(removed, at: from)], grouping: .cutting) { _ in from }
        return removed
    }

    /// Puts a TAB at the start of each non-empty line of `lines` (nano's M-}), as ONE undo step;
    /// the cursor stays on its character. Returns how many lines changed.
    @discardableResult
    public mutating func indent(lines range: ClosedRange<Int>) -> Int {
        let range = max(0, range.lowerBound)...min(lineCount - 1, range.upperBound)
        let chosen = range.filter { !lineIsEmpty($0) }
        // Last line first: each edit's offset is still right when it is applied.
        let edits = chosen.reversed().map { Edit.insert("\t", at: startOffset(ofLine: $0)) }
        guard !edits.isEmpty else { return 0 }
        let after = caret.at.offset + chosen.filter { $0 <= caret.at.line }.count
        try? perform(edits, grouping: nil) { _ in after }
        return edits.count
    }

    /// Takes one TAB, or up to `tabSize` spaces, from the start of each line of `lines` (nano's
    /// M-{), as ONE undo step; the cursor stays on its character. Returns how many lines changed.
    @discardableResult
    public mutating func unindent(lines range: ClosedRange<Int>, tabSize: Int = 8) -> Int {
        let range = max(0, range.lowerBound)...min(lineCount - 1, range.upperBound)
        var edits: [Edit] = []
        var after = caret.at.offset
        for line in range.reversed() {
            let start = startOffset(ofLine: line)
            let head = content.bytes(in: start..<min(endOffset(ofLine: line), start + tabSize))
            let count = head.first == 0x09 ? 1 : head.prefix { $0 == 0x20 }.count
            guard count > 0 else { continue }
            edits.append(.remove(String(decoding: head[..<count], as: UTF8.self), at: start))
            if line < caret.at.line { after -= count }
            if line == caret.at.line { after -= min(count, caret.at.column) }
        }
        guard !edits.isEmpty else { return 0 }
        try? perform(edits, grouping: nil) { [after] _ in after }
        return edits.count
    }

    /// Removes the text between UTF-8 offsets `range` (a marked region, nano's ^K with the mark
    /// set) and returns it; the cursor goes to its start. Joins the undo step of cuts just before
    /// it, as ``cutLine()`` does. Returns "" for an empty range.
    @discardableResult
    public mutating func cut(_ range: Range<Int>) -> String {
        let range = Self.clamp(range, utf8Count)
        guard !range.isEmpty else { return "" }
        let removed = text(inUTF8: range)
        try? perform([.remove(removed, at: range.lowerBound)], grouping: .cutting) { _ in range.lowerBound }
        return removed
    }
}
