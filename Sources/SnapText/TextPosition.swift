/// A cursor position in a ``TextBuffer``: a line and a grapheme-cluster index within it.
///
/// `line` is 0-based and counts `"\n"`-separated lines; `column` is 0-based and counts Swift
/// `Character`s (extended grapheme clusters), so `"e\u{301}"` is one column step and a 4-byte emoji
/// is one step. Screen columns are a different unit: see ``DisplayWidth``.
public struct TextPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 0-based line index.
    public var line: Int
    /// The 0-based grapheme-cluster index within the line (0 ... the line's character count).
    public var column: Int

    /// Creates a position from a 0-based line and a 0-based grapheme-cluster index.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of the text: line 0, column 0.
    public static let zero = TextPosition(line: 0, column: 0)

    /// Orders positions by line, then by column.
    public static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        lhs.line != rhs.line ? lhs.line < rhs.line : lhs.column < rhs.column
    }

    /// `(line, column)`, both 0-based.
    public var description: String { "(\(line), \(column))" }
}
