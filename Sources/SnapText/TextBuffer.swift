/// The text being edited: a rope of UTF-8 bytes, a cursor, and the undo history.
///
/// The text is the bytes of ``content`` (a ``Rope``); its lines are the runs between `"\n"`s, so a
/// final newline is followed by an empty last line (nano shows it as the empty line under the
/// text, where the cursor may go). Nothing is normalised: NFD stays NFD, TAB and `"\r"` stay, and
/// the text round-trips byte for byte. Every change goes through ``Edit`` (see
/// ``perform(_:cursorAfter:grouping:)``). Positions are ``TextPosition``s (grapheme clusters);
/// edits and search results use UTF-8 offsets.
///
/// Costs do not grow with the text: finding a line, typing, deleting, moving by a character and
/// drawing the screen cost O(log n) in the text's size and do grapheme work only near the
/// cursor. The buffer remembers the cursor's offset and screen column and the start of the
/// character before it, so that even on a line of 100 MB a keystroke walks a few characters
/// only; going to a far column of a long line walks to it once (as `End` must).
public struct TextBuffer: Equatable, Sendable {
    /// The whole text.
    public private(set) var content: Rope
    /// The cursor and what the buffer knows around it; always on a character boundary.
    var caret = Caret()
    /// Undo and redo steps.
    public internal(set) var history = History()
    /// Counts changes of the text (edits, and undos and redos of them); a different value means the
    /// text changed. Steps that only change marks do not count.
    public internal(set) var revision = 0
    /// The state of the text along its undo history (``History/textState``): unlike `revision`,
    /// undoing back to a text gives that text's value again.
    public var textState: Int { history.textState }
    /// Anchored ranges of the text (recognized words), sorted by offset; they follow every edit and
    /// come back exactly with undo and redo (see ``TextMark``).
    public internal(set) var marks: [TextMark] = []
    /// The screen column vertical moves aim for (nano's "placewewant"); nil = the cursor's own column.
    var preferredDisplayColumn: Int?

    /// Creates a buffer holding `text` exactly, with the cursor at the start and no history.
    public init(text: String = "", marks: [TextMark] = []) {
        self.init(content: Rope(text), marks: marks)
    }

    /// Creates a buffer holding `content`, with the cursor at the start and no history.
    public init(content: Rope, marks: [TextMark] = []) {
        self.content = content
        self.marks = marks.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The cursor (line and grapheme column), always inside the text.
    public var cursor: TextPosition { TextPosition(line: caret.at.line, column: caret.at.column) }
    /// The cursor's UTF-8 offset in the text.
    public var cursorOffset: Int { caret.at.offset }
    /// The screen column (0-based, tabs and wide characters counted) the cursor is drawn at.
    public var cursorDisplayColumn: Int { caret.at.displayColumn }

    /// The whole text, byte for byte as loaded and edited (a copy: O(n)).
    public var text: String { String(content) }
    /// Whether the text ends with `"\n"`.
    public var hasFinalNewline: Bool { !content.isEmpty && content.byte(at: content.utf8Count - 1) == 0x0A }
    /// Number of lines, counting the empty line after a final newline (≥ 1).
    public var lineCount: Int { content.newlineCount + 1 }
    /// Whether the text is empty.
    public var isEmpty: Bool { content.isEmpty }
    /// Length of the text in UTF-8 bytes.
    public var utf8Count: Int { content.utf8Count }
    /// Lines as a program that writes the text would count them (nano's "Wrote N lines"):
    /// 0 for an empty text, and the empty line after a final newline is not counted.
    public var writtenLineCount: Int {
        if isEmpty { return 0 }
        return hasFinalNewline ? lineCount - 1 : lineCount
    }

    /// The text of line `index`, without its `"\n"` (O(line length)).
    public func line(_ index: Int) -> String {
        content.string(in: startOffset(ofLine: index)..<endOffset(ofLine: index))
    }

    /// The first characters of line `index` that fit in `maxBytes` UTF-8 bytes (whole characters).
    public func line(_ index: Int, maxBytes: Int) -> String {
        let start = startOffset(ofLine: index)
        let end = endOffset(ofLine: index)
        if end - start <= maxBytes { return content.string(in: start..<end) }
        var cut = start
        forEachCharacter(inLine: index, from: start) { character, offset in
            guard offset + character.utf8.count - start <= maxBytes else { return false }
            cut = offset + character.utf8.count
            return true
        }
        return content.string(in: start..<cut)
    }

    /// Whether line `index` is empty.
    public func lineIsEmpty(_ index: Int) -> Bool { startOffset(ofLine: index) == endOffset(ofLine: index) }

    /// The characters (grapheme clusters) of line `index` (O(line length); the editor itself walks
    /// only the characters it needs).
    public func characters(inLine index: Int) -> [Character] {
        Array(line(index))
    }

    /// The number of characters (grapheme clusters) in line `index` (walks the line).
    public func characterCount(inLine index: Int) -> Int {
        let line = min(max(0, index), lineCount - 1)
        if line == caret.at.line {
            return advance(caret, lineEnd: endOffset(ofLine: line), until: .lineEnd).at.column
        }
        return advance(
            Caret(at: lineStartAnchor(line), previous: nil), lineEnd: endOffset(ofLine: line), until: .lineEnd
        )
        .at.column
    }

    // MARK: - Offsets and positions

    /// UTF-8 offset of the first byte of line `index` in ``text`` (the text's end past the last line).
    public func startOffset(ofLine index: Int) -> Int {
        content.startOffset(ofLine: index)
    }

    /// UTF-8 offset just after the last byte of line `index` (before its `"\n"`).
    public func endOffset(ofLine index: Int) -> Int {
        index < lineCount - 1 ? content.startOffset(ofLine: index + 1) - 1 : content.utf8Count
    }

    /// The line UTF-8 `offset` lies on (0-based).
    public func line(containing offset: Int) -> Int {
        content.line(containing: offset)
    }

    /// UTF-8 offset in ``text`` of `position` (clamped into the text).
    public func offset(of position: TextPosition) -> Int {
        caret(at: position).at.offset
    }

    /// The position of UTF-8 `offset`; an offset inside a grapheme cluster rounds up to its end.
    public func position(ofOffset offset: Int) -> TextPosition {
        let at = caret(atOffset: offset).at
        return TextPosition(line: at.line, column: at.column)
    }

    /// The text between two UTF-8 offsets (clamped into the text).
    public func text(inUTF8 range: Range<Int>) -> String {
        content.string(in: range)
    }

    /// `position` moved into the text: line in 0..<lineCount, column in 0...that line's count.
    public func clamped(_ position: TextPosition) -> TextPosition {
        let at = caret(at: position).at
        return TextPosition(line: at.line, column: at.column)
    }

    /// The screen column (0-based, tabs and wide characters counted) where `position` is drawn.
    public func displayColumn(of position: TextPosition) -> Int {
        caret(at: position).at.displayColumn
    }

    // MARK: - The one door for changes

    /// Applies `edits` in order as ONE undo step and moves the cursor.
    ///
    /// `cursorAfter` defaults to the end of the last insert or the start of the last remove.
    /// Steps with the same `grouping` merge while contiguous (a burst of typing).
    /// Throws ``SnapTextError`` (and changes nothing) when an edit does not fit the text.
    public mutating func perform(
        _ edits: [Edit], cursorAfter: TextPosition? = nil,
        grouping: History.Grouping? = nil
    ) throws {
        try perform(edits, grouping: grouping) { buffer in
            if let cursorAfter { return buffer.caret(at: cursorAfter).at.offset }
            let last = edits[edits.count - 1]
            return last.kind == .insert ? last.endOffset : last.offset
        }
    }

    /// Applies `edits` as one step; `cursorAfter` gives the cursor's offset in the changed text
    /// (rounded up to a character boundary), and `marksAfter` the marks (default: each mark
    /// follows each edit in turn).
    mutating func perform(
        _ edits: [Edit], grouping: History.Grouping?,
        marksAfter: (([TextMark]) -> [TextMark])? = nil,
        cursorAfter: (TextBuffer) -> Int
    ) throws {
        guard let first = edits.map(\.offset).min() else { return }
        let base = anchor(before: first)
        let saved = content
        do {
            for edit in edits { try apply(edit) }
        } catch {
            content = saved
            throw error
        }
        let before = caret.at.offset
        caret = Caret()  // the old caret's columns may be wrong in the new text
        let after = caret(atOffset: cursorAfter(self), from: base)
        let marksBefore = marks
        marks = marksAfter?(marks) ?? marks.applying(edits)
        if grouping == nil { history.closeGroup() }
        history.record(
            History.Step(
                edits: edits, cursorBefore: before, cursorAfter: after.at.offset, grouping: grouping,
                marksBefore: marksBefore, marksAfter: marks))
        caret = after
        preferredDisplayColumn = nil
        revision += 1
    }

    /// Replaces the whole text by `newContent` as ONE undo step kept as the two texts (ropes share
    /// their unchanged chunks), for changes too large to keep as edits (a replace-all).
    /// `firstChange` is the first offset where the texts differ; `cursorAfter` an offset of the new text.
    mutating func replaceContent(
        with newContent: Rope, firstChange: Int, marksAfter: [TextMark], cursorAfter: Int
    ) {
        let base = anchor(before: firstChange)
        let old = content
        content = newContent
        let before = caret.at.offset
        caret = Caret()
        let after = caret(atOffset: cursorAfter, from: base)
        let marksBefore = marks
        marks = marksAfter
        history.closeGroup()
        history.record(
            History.Step(
                edits: [], cursorBefore: before, cursorAfter: after.at.offset, marksBefore: marksBefore,
                marksAfter: marks, replacing: (old, newContent, firstChange)))
        caret = after
        preferredDisplayColumn = nil
        revision += 1
    }

    // MARK: - Marks

    /// Replaces every mark, outside the undo history (the marks of a freshly loaded text).
    public mutating func setMarks(_ marks: [TextMark]) {
        self.marks = marks.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// Changes the marks (not the text) as ONE undo step: undo brings back the marks as they were.
    /// Does nothing when `change` leaves them as they are.
    public mutating func changeMarks(_ change: (inout [TextMark]) -> Void) {
        var changed = marks
        change(&changed)
        changed.sort { $0.range.lowerBound < $1.range.lowerBound }
        guard changed != marks else { return }
        history.closeGroup()
        history.record(
            History.Step(
                edits: [], cursorBefore: caret.at.offset, cursorAfter: caret.at.offset, marksBefore: marks,
                marksAfter: changed))
        history.closeGroup()
        marks = changed
    }

    /// The mark holding UTF-8 `offset` (a cursor on its first character), else the one ending
    /// right at `offset` (a cursor just after a word); nil when there is none.
    public func mark(at offset: Int) -> TextMark? {
        marks.first { $0.range.contains(offset) } ?? marks.first { $0.range.upperBound == offset }
    }

    /// Undoes the newest step and puts the cursor where it was before it; false if nothing to undo.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let step = history.popUndo() else { return false }
        let base = step.firstChange.map { anchor(before: $0) }
        if let replaced = step.replaced {
            content = replaced.before
        } else {
            for edit in step.edits.reversed() { try? apply(edit.inverse) }
        }
        caret = Caret()
        if step.changesText { revision += 1 }
        marks = step.marksBefore
        caret = caret(atOffset: step.cursorBefore, from: base)
        preferredDisplayColumn = nil
        return true
    }

    /// Redoes the step undone last and puts the cursor where it was after it; false if nothing to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let step = history.popRedo() else { return false }
        let base = step.firstChange.map { anchor(before: $0) }
        if let replaced = step.replaced {
            content = replaced.after
        } else {
            for edit in step.edits { try? apply(edit) }
        }
        caret = Caret()
        if step.changesText { revision += 1 }
        marks = step.marksAfter
        caret = caret(atOffset: step.cursorAfter, from: base)
        preferredDisplayColumn = nil
        return true
    }

    /// Ends the current typing burst, so the next edit is a separate undo step.
    public mutating func closeUndoGroup() {
        history.closeGroup()
    }

    private mutating func apply(_ edit: Edit) throws {
        let total = content.utf8Count
        guard edit.offset >= 0, edit.endOffset <= total || (edit.kind == .insert && edit.offset <= total),
            isScalarBoundary(edit.offset)
        else {
            throw SnapTextError.offsetOutOfRange(offset: edit.offset, utf8Count: total)
        }
        switch edit.kind {
        case .insert:
            content.insert(edit.text, at: edit.offset)
        case .remove:
            guard isScalarBoundary(edit.endOffset) else {
                throw SnapTextError.offsetOutOfRange(offset: edit.endOffset, utf8Count: total)
            }
            guard holds(edit.text, at: edit.offset) else { throw SnapTextError.textMismatch(offset: edit.offset) }
            content.remove(edit.offset..<edit.endOffset)
        }
    }

    private func isScalarBoundary(_ offset: Int) -> Bool {
        offset == 0 || offset >= content.utf8Count || content.byte(at: offset) & 0xC0 != 0x80
    }

    /// Whether the text holds exactly `text` from UTF-8 `offset` on.
    private func holds(_ text: String, at offset: Int) -> Bool {
        var text = text
        return text.withUTF8 { expected -> Bool in
            var index = 0
            var same = true
            content.forEachChunk(in: offset..<(offset + expected.count)) { chunk in
                same = chunk.elementsEqual(UnsafeBufferPointer(rebasing: expected[index..<(index + chunk.count)]))
                index += chunk.count
                return same
            }
            return same && index == expected.count
        }
    }
}
