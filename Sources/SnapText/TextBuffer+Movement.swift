/// Cursor movement by grapheme cluster and by line.
extension TextBuffer {
    /// Puts the cursor at `position`, clamped into the text.
    public mutating func moveCursor(to position: TextPosition) {
        cursor = clamped(position)
        preferredDisplayColumn = nil
        history.closeGroup()
    }

    /// One character left, or to the end of the previous line.
    public mutating func moveLeft() {
        if cursor.column > 0 {
            moveCursor(to: TextPosition(line: cursor.line, column: cursor.column - 1))
        } else if cursor.line > 0 {
            moveCursor(to: TextPosition(line: cursor.line - 1, column: characterCount(inLine: cursor.line - 1)))
        }
    }

    /// One character right, or to the start of the next line.
    public mutating func moveRight() {
        if cursor.column < characterCount(inLine: cursor.line) {
            moveCursor(to: TextPosition(line: cursor.line, column: cursor.column + 1))
        } else if cursor.line < lineCount - 1 {
            moveCursor(to: TextPosition(line: cursor.line + 1, column: 0))
        }
    }

    /// To the start of the line (Home).
    public mutating func moveToLineStart() {
        moveCursor(to: TextPosition(line: cursor.line, column: 0))
    }

    /// To the end of the line (End).
    public mutating func moveToLineEnd() {
        moveCursor(to: TextPosition(line: cursor.line, column: characterCount(inLine: cursor.line)))
    }

    /// To the start of the text.
    public mutating func moveToStart() {
        moveCursor(to: .zero)
    }

    /// To the end of the text.
    public mutating func moveToEnd() {
        moveCursor(to: TextPosition(line: lineCount - 1, column: characterCount(inLine: lineCount - 1)))
    }

    /// `delta` lines down (negative: up), keeping the screen column the cursor had before the first
    /// vertical move (nano's "placewewant"); the column lands on the character at or before it.
    public mutating func moveLines(by delta: Int) {
        let wanted = preferredDisplayColumn ?? displayColumn(of: cursor)
        let line = min(max(cursor.line + delta, 0), lineCount - 1)
        let columns = DisplayWidth.columns(of: characters(inLine: line))
        var column = 0
        while column + 1 < columns.count, columns[column + 1] <= wanted { column += 1 }
        cursor = TextPosition(line: line, column: column)
        preferredDisplayColumn = wanted
        history.closeGroup()
    }

    /// To the start of the next word (nano's Ctrl-Right), across lines; to the end of the text
    /// when there is none. A word is a run of letters, digits and marks (`Character.isLetter`,
    /// `isNumber`; `'` and `-` inside a word count, as in "l'âme" and "well-being").
    public mutating func moveToNextWord() {
        var line = cursor.line
        var chars = characters(inLine: line)
        var column = cursor.column
        // Leave the current word, then skip to the next word's first character.
        while column < chars.count && Self.isWordCharacter(chars, column) { column += 1 }
        while true {
            while column < chars.count && !Self.isWordCharacter(chars, column) { column += 1 }
            if column < chars.count || line == lineCount - 1 { break }
            line += 1
            chars = characters(inLine: line)
            column = 0
        }
        moveCursor(to: TextPosition(line: line, column: column))
    }

    /// To the start of this word, or of the previous one (nano's Ctrl-Left), across lines; to the
    /// start of the text when there is none.
    public mutating func moveToPreviousWord() {
        var line = cursor.line
        var chars = characters(inLine: line)
        var column = cursor.column
        while true {
            while column > 0 && !Self.isWordCharacter(chars, column - 1) { column -= 1 }
            if column > 0 || line == 0 { break }
            line -= 1
            chars = characters(inLine: line)
            column = chars.count
        }
        while column > 0 && Self.isWordCharacter(chars, column - 1) { column -= 1 }
        moveCursor(to: TextPosition(line: line, column: column))
    }

    /// Whether `chars[i]` belongs to a word: a letter or digit, or `'`, `’` or `-` between two.
    static func isWordCharacter(_ chars: [Character], _ i: Int) -> Bool {
        let c = chars[i]
        if c.isLetter || c.isNumber { return true }
        guard c == "'" || c == "\u{2019}" || c == "-", i > 0, i + 1 < chars.count else { return false }
        return (chars[i - 1].isLetter || chars[i - 1].isNumber) && (chars[i + 1].isLetter || chars[i + 1].isNumber)
    }

    /// One line up.
    public mutating func moveUp() { moveLines(by: -1) }

    /// One line down.
    public mutating func moveDown() { moveLines(by: 1) }
}
