/// The text being edited: lines, a cursor, and the undo history.
///
/// The text is stored as the lines between `"\n"`s, so `text` is always `lines.joined("\n")`:
/// a final newline is an empty last line (nano shows it as the empty line under the text, where the
/// cursor may go). Nothing is normalised: NFD stays NFD, TAB and `"\r"` stay, and the text
/// round-trips byte for byte. Every change goes through ``Edit`` (see ``perform(_:cursorAfter:grouping:)``).
/// Positions are ``TextPosition``s (grapheme clusters); edits and search results use UTF-8 offsets.
public struct TextBuffer: Equatable, Sendable {
    /// The lines of the text, without their `"\n"`; never empty (an empty text is one empty line).
    public private(set) var lines: [String]
    /// The cursor, always inside the text.
    public internal(set) var cursor: TextPosition = .zero
    /// Undo and redo steps.
    public internal(set) var history = History()
    /// Counts changes of the text (edits, and undos and redos of them); a different value means the
    /// text changed. Steps that only change marks do not count.
    public internal(set) var revision = 0
    /// Anchored ranges of the text (recognized words), sorted by offset; they follow every edit and
    /// come back exactly with undo and redo (see ``TextMark``).
    public internal(set) var marks: [TextMark] = []
    /// The screen column vertical moves aim for (nano's "placewewant"); nil = the cursor's own column.
    var preferredDisplayColumn: Int?

    /// Creates a buffer holding `text` exactly, with the cursor at the start and no history.
    public init(text: String = "", marks: [TextMark] = []) {
        lines = Self.splitLines(text)
        self.marks = marks.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The whole text, byte for byte as loaded and edited.
    public var text: String { lines.joined(separator: "\n") }
    /// Whether the text ends with `"\n"`.
    public var hasFinalNewline: Bool { lines.count > 1 && lines[lines.count - 1].isEmpty }
    /// Number of lines, counting the empty line after a final newline (≥ 1).
    public var lineCount: Int { lines.count }
    /// Whether the text is empty.
    public var isEmpty: Bool { lines.count == 1 && lines[0].isEmpty }
    /// Length of the text in UTF-8 bytes.
    public var utf8Count: Int { lines.reduce(lines.count - 1) { $0 + $1.utf8.count } }
    /// Lines as a program that writes the text would count them (nano's "Wrote N lines"):
    /// 0 for an empty text, and the empty line after a final newline is not counted.
    public var writtenLineCount: Int {
        if isEmpty { return 0 }
        return hasFinalNewline ? lines.count - 1 : lines.count
    }

    /// The characters (grapheme clusters) of line `index`.
    public func characters(inLine index: Int) -> [Character] {
        Array(lines[index])
    }

    /// The number of characters (grapheme clusters) in line `index`.
    public func characterCount(inLine index: Int) -> Int {
        lines[index].count
    }

    // MARK: - Offsets and positions

    /// UTF-8 offset of the first byte of line `index` in ``text``.
    public func startOffset(ofLine index: Int) -> Int {
        var offset = 0
        for i in 0..<min(index, lines.count) { offset += lines[i].utf8.count + 1 }
        return offset
    }

    /// UTF-8 offset in ``text`` of `position` (clamped into the text).
    public func offset(of position: TextPosition) -> Int {
        let p = clamped(position)
        return startOffset(ofLine: p.line) + Self.utf8Offset(ofColumn: p.column, in: lines[p.line])
    }

    /// The position of UTF-8 `offset`; an offset inside a grapheme cluster rounds up to its end.
    public func position(ofOffset offset: Int) -> TextPosition {
        let (line, byte) = lineAndByte(ofOffset: offset)
        let string = lines[line]
        let target = string.utf8.index(string.utf8.startIndex, offsetBy: byte)
        var column = 0
        var index = string.startIndex
        while index < target {
            index = string.index(after: index)
            column += 1
        }
        return TextPosition(line: line, column: column)
    }

    /// The text between two UTF-8 offsets (clamped into the text).
    public func text(inUTF8 range: Range<Int>) -> String {
        let (l1, b1) = lineAndByte(ofOffset: range.lowerBound)
        let (l2, b2) = lineAndByte(ofOffset: range.upperBound)
        let i1 = lines[l1].utf8.index(lines[l1].utf8.startIndex, offsetBy: b1)
        let i2 = lines[l2].utf8.index(lines[l2].utf8.startIndex, offsetBy: b2)
        if l1 == l2 { return String(lines[l1][i1..<i2]) }
        var parts = [String(lines[l1][i1...])]
        parts.append(contentsOf: lines[(l1 + 1)..<l2])
        parts.append(String(lines[l2][..<i2]))
        return parts.joined(separator: "\n")
    }

    /// `position` moved into the text: line in 0..<lineCount, column in 0...that line's count.
    public func clamped(_ position: TextPosition) -> TextPosition {
        let line = min(max(position.line, 0), lines.count - 1)
        let column = min(max(position.column, 0), lines[line].count)
        return TextPosition(line: line, column: column)
    }

    /// The screen column (0-based, tabs and wide characters counted) where `position` is drawn.
    public func displayColumn(of position: TextPosition) -> Int {
        let p = clamped(position)
        var column = 0
        for (i, character) in lines[p.line].enumerated() {
            if i == p.column { break }
            column += DisplayWidth.of(character, atColumn: column)
        }
        return column
    }

    func lineAndByte(ofOffset offset: Int) -> (line: Int, byte: Int) {
        var start = 0
        let target = max(0, offset)
        for (i, line) in lines.enumerated() {
            let end = start + line.utf8.count
            if target <= end { return (i, target - start) }
            start = end + 1
        }
        let last = lines.count - 1
        return (last, lines[last].utf8.count)
    }

    static func utf8Offset(ofColumn column: Int, in line: String) -> Int {
        var index = line.startIndex
        var n = 0
        while n < column, index < line.endIndex {
            index = line.index(after: index)
            n += 1
        }
        return line.utf8.distance(from: line.utf8.startIndex, to: index)
    }

    /// Splits on the byte 0x0A only ("\r\n" is one Character in Swift, so splitting Characters
    /// would miss it); each piece is decoded from valid UTF-8, so bytes are kept exactly.
    static func splitLines(_ text: String) -> [String] {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes -> [String] in
            var result: [String] = []
            var start = 0
            for i in 0..<bytes.count where bytes[i] == 0x0A {
                result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                start = i + 1
            }
            result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]), as: UTF8.self))
            return result
        } ?? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
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
            if let cursorAfter { return buffer.clamped(cursorAfter) }
            let last = edits[edits.count - 1]
            return buffer.position(ofOffset: last.kind == .insert ? last.endOffset : last.offset)
        }
    }

    /// Applies `edits` as one step; `cursorAfter` computes the cursor on the changed text, and
    /// `marksAfter` the marks (default: each mark follows each edit in turn).
    mutating func perform(
        _ edits: [Edit], grouping: History.Grouping?,
        marksAfter: (([TextMark]) -> [TextMark])? = nil,
        cursorAfter: (TextBuffer) -> TextPosition
    ) throws {
        guard !edits.isEmpty else { return }
        let saved = lines
        do {
            for edit in edits { try apply(edit) }
        } catch {
            lines = saved
            throw error
        }
        let before = cursor
        let after = cursorAfter(self)
        let marksBefore = marks
        marks = marksAfter?(marks) ?? marks.applying(edits)
        if grouping == nil { history.closeGroup() }
        history.record(
            History.Step(
                edits: edits, cursorBefore: before, cursorAfter: after, grouping: grouping,
                marksBefore: marksBefore, marksAfter: marks))
        cursor = after
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
            History.Step(edits: [], cursorBefore: cursor, cursorAfter: cursor, marksBefore: marks, marksAfter: changed))
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
        for edit in step.edits.reversed() { try? apply(edit.inverse) }
        if !step.edits.isEmpty { revision += 1 }
        marks = step.marksBefore
        cursor = clamped(step.cursorBefore)
        preferredDisplayColumn = nil
        return true
    }

    /// Redoes the step undone last and puts the cursor where it was after it; false if nothing to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let step = history.popRedo() else { return false }
        for edit in step.edits { try? apply(edit) }
        if !step.edits.isEmpty { revision += 1 }
        marks = step.marksAfter
        cursor = clamped(step.cursorAfter)
        preferredDisplayColumn = nil
        return true
    }

    /// Ends the current typing burst, so the next edit is a separate undo step.
    public mutating func closeUndoGroup() {
        history.closeGroup()
    }

    private mutating func apply(_ edit: Edit) throws {
        let total = utf8Count
        guard edit.offset >= 0, edit.endOffset <= total || (edit.kind == .insert && edit.offset <= total) else {
            throw SnapTextError.offsetOutOfRange(offset: edit.offset, utf8Count: total)
        }
        let (l1, b1) = lineAndByte(ofOffset: edit.offset)
        guard let i1 = Self.scalarIndex(lines[l1], b1) else {
            throw SnapTextError.offsetOutOfRange(offset: edit.offset, utf8Count: total)
        }
        switch edit.kind {
        case .insert:
            let line = lines[l1]
            let joined = String(line[..<i1]) + edit.text + String(line[i1...])
            lines.replaceSubrange(l1...l1, with: Self.splitLines(joined))
        case .remove:
            let (l2, b2) = lineAndByte(ofOffset: edit.endOffset)
            guard let i2 = Self.scalarIndex(lines[l2], b2) else {
                throw SnapTextError.offsetOutOfRange(offset: edit.endOffset, utf8Count: total)
            }
            let present = text(inUTF8: edit.offset..<edit.endOffset)
            guard present.utf8.count == edit.text.utf8.count, present.utf8.elementsEqual(edit.text.utf8) else {
                throw SnapTextError.textMismatch(offset: edit.offset)
            }
            let joined = String(lines[l1][..<i1]) + String(lines[l2][i2...])
            lines.replaceSubrange(l1...l2, with: [joined])
        }
    }

    private static func scalarIndex(_ line: String, _ byte: Int) -> String.Index? {
        guard byte >= 0, byte <= line.utf8.count else { return nil }
        let index = line.utf8.index(line.utf8.startIndex, offsetBy: byte)
        return index.samePosition(in: line.unicodeScalars) == nil ? nil : index
    }
}
