/// A range of a ``TextBuffer``'s text that follows its edits: a word OCR recognized, anchored.
///
/// Offsets are UTF-8 bytes of the whole text, as in ``Edit``. Text inserted before the mark (also
/// right at its start) moves it; text inserted inside it, or removed from it in part, changes its
/// text: the range grows or shrinks, the mark counts as edited and stops asking for attention.
/// Text inserted right at its end joins it unless it holds white space (typing the end of a word
/// again, adding a comma), so a new word typed after it stays outside. A mark whose whole text is removed is dropped; one
/// whose whole text is replaced covers the replacement. Undo and redo restore marks exactly as they
/// were (each ``History/Step`` keeps them from before and after).
public struct TextMark: Equatable, Sendable {
    /// The caller's identifier (the editor's index of the recognized word).
    public var id: Int
    /// The marked UTF-8 byte range of ``TextBuffer/text``; never empty.
    public var range: Range<Int>
    /// Whether the mark asks for attention (an uncertain word); an edit of its text clears it.
    public var isFlagged: Bool
    /// Whether its text was edited since the mark was made.
    public var isEdited: Bool

    /// A mark of `range` (UTF-8 offsets).
    public init(id: Int, range: Range<Int>, isFlagged: Bool = false, isEdited: Bool = false) {
        self.id = id
        self.range = range
        self.isFlagged = isFlagged
        self.isEdited = isEdited
    }

    /// The mark after the bytes `from..<to` were replaced by `length` bytes (an insert is an empty
    /// `from..<to`, a remove a `length` of 0); nil when its whole text was removed. An insert right
    /// at the mark's end joins it when `joinsAtEnd`.
    public func replacing(_ from: Int, _ to: Int, length: Int, joinsAtEnd: Bool = false) -> TextMark? {
        let lower = range.lowerBound
        let upper = range.upperBound
        let delta = length - (to - from)
        if to <= lower {
            var moved = self
            moved.range = (lower + delta)..<(upper + delta)
            return moved
        }
        let joins = joinsAtEnd && from == upper && to == from && length > 0
        if from >= upper && !joins { return self }
        var changed = self
        changed.isEdited = true
        changed.isFlagged = false
        if joins {
            changed.range = lower..<(upper + length)
            return changed
        }
        if from <= lower && to >= upper {
            guard length > 0 else { return nil }
            changed.range = from..<(from + length)
            return changed
        }
        let newLower = min(lower, from)
        let newUpper = to < upper ? upper + delta : from + length
        guard newUpper > newLower else { return nil }
        changed.range = newLower..<newUpper
        return changed
    }

    /// The mark after `edit`; nil when the edit removed its whole text.
    public func applying(_ edit: Edit) -> TextMark? {
        switch edit.kind {
        case .insert:
            let joins = !edit.text.contains { $0.isWhitespace || $0.isNewline }
            return replacing(edit.offset, edit.offset, length: edit.text.utf8.count, joinsAtEnd: joins)
        case .remove: return replacing(edit.offset, edit.endOffset, length: 0)
        }
    }
}

extension Array where Element == TextMark {
    /// The marks after `edits`, applied in order; the marks whose whole text went are dropped.
    func applying(_ edits: [Edit]) -> [TextMark] {
        edits.reduce(self) { marks, edit in marks.compactMap { $0.applying(edit) } }
    }

    /// The marks after each of `ranges` (sorted, non-overlapping UTF-8 ranges of the old text) was
    /// replaced by `length` bytes, each replacement taken as one change (see ``TextMark/replacing(_:_:length:)``).
    func replacing(_ ranges: [Range<Int>], length: Int) -> [TextMark] {
        ranges.reversed().reduce(self) { marks, r in
            marks.compactMap { $0.replacing(r.lowerBound, r.upperBound, length: length) }
        }
    }

    /// As ``replacing(_:length:)``, range `i` replaced by `lengths[i]` bytes.
    func replacing(_ ranges: [Range<Int>], lengths: [Int]) -> [TextMark] {
        zip(ranges, lengths).reversed().reduce(self) { marks, change in
            marks.compactMap { $0.replacing(change.0.lowerBound, change.0.upperBound, length: change.1) }
        }
    }
}
