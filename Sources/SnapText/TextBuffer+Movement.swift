/// Cursor movement by grapheme cluster and by line.
extension TextBuffer {
    /// Puts the cursor at `position`, clamped into the text.
    public mutating func moveCursor(to position: TextPosition) {
        place(caret(at: position))
    }

    /// Puts the cursor at UTF-8 `offset` (rounded up to a character boundary, clamped into the
    /// text), walking from the nearest known boundary (the cursor's, on its line).
    public mutating func moveCursor(toOffset offset: Int) {
        place(caret(atOffset: offset))
    }

    private mutating func place(_ new: Caret) {
        caret = new
        preferredDisplayColumn = nil
        history.closeGroup()
    }

    /// One character left, or to the end of the previous line.
    public mutating func moveLeft() {
        if let previous = caret.previous {
            place(caret(atOffset: previous.offset))
        } else if caret.at.line > 0 {
            place(caret(atOffset: caret.at.offset - 1))
        }
    }

    /// One character right, or to the start of the next line.
    public mutating func moveRight() {
        let lineEnd = endOffset(ofLine: caret.at.line)
        if caret.at.offset < lineEnd {
            place(advance(caret, lineEnd: lineEnd, until: .column(caret.at.column + 1)))
        } else if caret.at.line < lineCount - 1 {
            place(Caret(at: lineStartAnchor(caret.at.line + 1)))
        }
    }

    /// To the start of the line (Home).
    public mutating func moveToLineStart() {
        place(Caret(at: lineStartAnchor(caret.at.line)))
    }

    /// To the end of the line (End).
    public mutating func moveToLineEnd() {
        place(advance(caret, lineEnd: endOffset(ofLine: caret.at.line), until: .lineEnd))
    }

    /// To the start of the text.
    public mutating func moveToStart() {
        place(Caret())
    }

    /// To the end of the text.
    public mutating func moveToEnd() {
        moveCursor(toOffset: utf8Count)
    }

    /// `delta` lines down (negative: up), keeping the screen column the cursor had before the first
    /// vertical move (nano's "placewewant"); the column lands on the character at or before it.
    public mutating func moveLines(by delta: Int) {
        let wanted = preferredDisplayColumn ?? caret.at.displayColumn
        let line = min(max(caret.at.line + delta, 0), lineCount - 1)
        caret = advance(
            Caret(at: lineStartAnchor(line)), lineEnd: endOffset(ofLine: line), until: .displayColumn(wanted))
        preferredDisplayColumn = wanted
        history.closeGroup()
    }

    /// To the start of the next word (nano's Ctrl-Right), across lines; to the end of the text
    /// when there is none. A word is a run of letters, digits and marks (`Character.isLetter`,
    /// `isNumber`; `'` and `-` inside a word count, as in "l'âme" and "well-being").
    public mutating func moveToNextWord() {
        var line = caret.at.line
        var before: Character? = characterBefore()
        var leaving = true  // first leave the current word, then skip to the next word's first character
        var found: Int?
        // Whether `c` (at `o`) is where the move ends; each character is judged once the one after it is known.
        func judge(_ c: Character, _ o: Int, after: Character?) -> Bool {
            let isWord = Self.isWordCharacter(before, c, after)
            before = c
            if leaving && !isWord { leaving = false }
            if !leaving && isWord { found = o }
            return found != nil
        }
        while true {
            var pending: (Character, Int)?
            let from = line == caret.at.line ? caret.at.offset : startOffset(ofLine: line)
            forEachCharacter(inLine: line, from: from) { character, offset in
                if let (c, o) = pending, judge(c, o, after: character) { return false }
                pending = (character, offset)
                return true
            }
            if found == nil, let (c, o) = pending { _ = judge(c, o, after: nil) }
            if found != nil || line == lineCount - 1 { break }
            line += 1
            before = nil
            leaving = false
        }
        moveCursor(toOffset: found ?? utf8Count)
    }

    /// To the start of this word, or of the previous one (nano's Ctrl-Left), across lines; to the
    /// start of the text when there is none.
    public mutating func moveToPreviousWord() {
        var line = caret.at.line
        var after: Character? = characterAt(caret.at.offset, line: line)
        var inWord = false  // first skip what is not a word, then go to the word's first character
        var target: Int?
        while target == nil {
            var pending: (Character, Int)?
            var lastStart: Int?
            let from = line == caret.at.line ? caret.at.offset : endOffset(ofLine: line)
            forEachCharacterBackward(inLine: line, before: from) { character, offset in
                if let (c, o) = pending {
                    let isWord = Self.isWordCharacter(character, c, after)
                    if !inWord && isWord { inWord = true }
                    if inWord && !isWord {
                        target = lastStart
                        return false
                    }
                    if inWord { lastStart = o }
                    after = c
                }
                pending = (character, offset)
                return true
            }
            if target != nil { break }
            if let (c, o) = pending {
                let isWord = Self.isWordCharacter(nil, c, after)
                if !inWord && isWord { inWord = true }
                if inWord && !isWord {
                    target = lastStart
                    break
                }
                if inWord {
                    target = o
                    break
                }
            }
            if inWord {
                target = lastStart ?? startOffset(ofLine: line)
                break
            }
            if line == 0 {
                target = 0
                break
            }
            line -= 1
            after = nil
        }
        moveCursor(toOffset: target ?? 0)
    }

    /// The character just before the cursor on its line, if any.
    private func characterBefore() -> Character? {
        guard let previous = caret.previous else { return nil }
        return text(inUTF8: previous.offset..<caret.at.offset).first
    }

    /// The character starting at `offset` (a boundary) on `line`, if any.
    private func characterAt(_ offset: Int, line: Int) -> Character? {
        var found: Character?
        forEachCharacter(inLine: line, from: offset) { character, _ in
            found = character
            return false
        }
        return found
    }

    /// Whether `c` belongs to a word: a letter or digit, or `'`, `’` or `-` between two.
    static func isWordCharacter(_ before: Character?, _ c: Character, _ after: Character?) -> Bool {
        if c.isLetter || c.isNumber { return true }
        guard c == "'" || c == "\u{2019}" || c == "-", let before, let after else { return false }
        return (before.isLetter || before.isNumber) && (after.isLetter || after.isNumber)
    }

    /// One line up.
    public mutating func moveUp() { moveLines(by: -1) }

    /// One line down.
    public mutating func moveDown() { moveLines(by: 1) }
}
