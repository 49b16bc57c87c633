/// Typing, deleting and cutting at the cursor; each goes through ``TextBuffer/perform(_:cursorAfter:grouping:)``.
extension TextBuffer {
    /// Inserts `text` at the cursor and moves the cursor after it.
    ///
    /// Text without a newline joins the current typing burst (one undo step); text with one
    /// (Enter, a paste) is a step of its own. A combining mark merges into the previous character.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        let edit = Edit.insert(text, at: offset(of: cursor))
        let grouping: History.Grouping? = text.utf8.contains(0x0A) ? nil : .typing
        try? perform([edit], grouping: grouping)
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
            cursorAfter: { $0.position(ofOffset: edit.endOffset) })
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
            cursorAfter: { $0.position(ofOffset: range.lowerBound + text.utf8.count) })
    }

    /// Deletes the character (grapheme cluster) before the cursor, or joins with the previous line
    /// at a line start (Backspace). Returns false at the start of the text.
    @discardableResult
    public mutating func deleteBackward() -> Bool {
        guard cursor != .zero else { return false }
        let start =
            cursor.column > 0
            ? TextPosition(line: cursor.line, column: cursor.column - 1)
            : TextPosition(line: cursor.line - 1, column: characterCount(inLine: cursor.line - 1))
        let from = offset(of: start)
        let removed = text(inUTF8: from..<offset(of: cursor))
        try? perform([.remove(removed, at: from)], cursorAfter: start, grouping: .deletingBackward)
        return true
    }

    /// Deletes the character under the cursor, or joins with the next line at a line end (Delete).
    /// Returns false at the end of the text.
    @discardableResult
    public mutating func deleteForward() -> Bool {
        let atLineEnd = cursor.column >= characterCount(inLine: cursor.line)
        if atLineEnd && cursor.line == lineCount - 1 { return false }
        let end =
            atLineEnd
            ? TextPosition(line: cursor.line + 1, column: 0)
            : TextPosition(line: cursor.line, column: cursor.column + 1)
        let from = offset(of: cursor)
        let removed = text(inUTF8: from..<offset(of: end))
        try? perform([.remove(removed, at: from)], cursorAfter: cursor, grouping: .deletingForward)
        return true
    }

    /// Removes the cursor's whole line with its newline (nano's ^K) and returns what was removed;
    /// on the last line only its text goes. Returns "" when there is nothing to cut.
    ///
    /// Consecutive cuts with nothing in between join one undo step (call ``closeUndoGroup()``
    /// first to start a new one).
    @discardableResult
    public mutating func cutLine() -> String {
        let line = cursor.line
        let from = startOffset(ofLine: line)
        let to = line < lineCount - 1 ? startOffset(ofLine: line + 1) : from + lines[line].utf8.count
        guard to > from else { return "" }
        let removed = text(inUTF8: from..<to)
        try? perform([.remove(removed, at: from)], cursorAfter: TextPosition(line: line, column: 0), grouping: .cutting)
        return removed
    }

    /// Puts a TAB at the start of each non-empty line of `lines` (nano's M-}), as ONE undo step;
    /// the cursor stays on its character. Returns how many lines changed.
    @discardableResult
    public mutating func indent(lines range: ClosedRange<Int>) -> Int {
        let range = max(0, range.lowerBound)...min(lineCount - 1, range.upperBound)
        let chosen = range.filter { !lines[$0].isEmpty }
        // Last line first: each edit's offset is still right when it is applied.
        let edits = chosen.reversed().map { Edit.insert("\t", at: startOffset(ofLine: $0)) }
        guard !edits.isEmpty else { return 0 }
        let moved = chosen.contains(cursor.line)
        let after = TextPosition(line: cursor.line, column: cursor.column + (moved ? 1 : 0))
        try? perform(edits, cursorAfter: after)
        return edits.count
    }

    /// Takes one TAB, or up to `tabSize` spaces, from the start of each line of `lines` (nano's
    /// M-{), as ONE undo step; the cursor stays on its character. Returns how many lines changed.
    @discardableResult
    public mutating func unindent(lines range: ClosedRange<Int>, tabSize: Int = 8) -> Int {
        let range = max(0, range.lowerBound)...min(lineCount - 1, range.upperBound)
        var edits: [Edit] = []
        var cursorShift = 0
        for line in range.reversed() {
            let text = lines[line]
            let removed = text.hasPrefix("\t") ? "\t" : String(text.prefix(tabSize).prefix { $0 == " " })
            guard !removed.isEmpty else { continue }
            edits.append(.remove(removed, at: startOffset(ofLine: line)))
            if line == cursor.line { cursorShift = removed.count }
        }
        guard !edits.isEmpty else { return 0 }
        let after = TextPosition(line: cursor.line, column: max(0, cursor.column - cursorShift))
        try? perform(edits, cursorAfter: after)
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
        try? perform([.remove(removed, at: range.lowerBound)], grouping: .cutting)
        return removed
    }
}
