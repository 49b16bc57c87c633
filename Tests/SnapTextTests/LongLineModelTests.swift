import Testing

@testable import SnapText

/// The buffer keeps the cursor's offset, column, screen column and previous character up to date
/// without walking lines from their start; these tests check it against a plain model (the text
/// as Swift strings, its lines' characters counted from the start) after every step of seeded
/// random edits and moves on long lines of mixed text: accents in NFC and NFD, a lone combining
/// mark, TABs, wide characters, emoji sequences, flags, CR.
struct LongLineModelTests {
    /// SplitMix64: the same steps on every run.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let pieces = [
        "a", "b", " ", "é", "e\u{301}", "\u{301}", "\t", "見", "🌙", "👍🏽", "🇫🇷", "\r", "-", "'", "l'âme",
        "\u{200D}", "x y", "œ", "Ω", "\u{1}", "ab\tc",
    ]

    /// A text of `lines` lines, about `length` scalars each, from `pieces` (nine in ten of them
    /// plain ASCII letters and spaces when `mostlyASCII`, as in prose).
    static func text(_ random: inout Random, lines: Int, length: Int, mostlyASCII: Bool) -> String {
        (0..<lines).map { _ in
            var line = ""
            while line.unicodeScalars.count < length {
                line +=
                    mostlyASCII && random.below(10) > 0
                    ? ["a", "b", " "][random.below(3)] : pieces[random.below(pieces.count)]
            }
            return line
        }.joined(separator: "\n")
    }

    /// The lines of `text`, split at each 0x0A byte (`"\r\n"` is one Swift character, but two bytes).
    static func lines(of text: String) -> [String] {
        text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The line and column of UTF-8 `offset` in `text`, rounded up to a character of its line.
    static func position(of offset: Int, in text: String) -> TextPosition {
        let lines = Self.lines(of: text)
        var start = 0
        for (i, line) in lines.enumerated() {
            if offset <= start + line.utf8.count {
                var column = 0
                var bytes = 0
                for c in line where bytes < offset - start {
                    bytes += c.utf8.count
                    column += 1
                }
                return TextPosition(line: i, column: column)
            }
            start += line.utf8.count + 1
        }
        return TextPosition(line: lines.count - 1, column: lines[lines.count - 1].count)
    }

    /// Checks the buffer's cursor against the model of its own line (the line index itself is
    /// the rope's, checked in RopeTests; the whole text's lines are checked every `wholeTextEvery` steps).
    static func check(
        _ buffer: TextBuffer, _ step: String, wholeText: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let cursor = buffer.cursor
        var lineStart = buffer.startOffset(ofLine: cursor.line)
        var line = buffer.line(cursor.line)
        if wholeText {
            let lines = Self.lines(of: buffer.text)
            #expect(buffer.lineCount == lines.count, "\(step)", sourceLocation: sourceLocation)
            guard cursor.line < lines.count else {
                Issue.record("cursor line \(cursor.line) past \(lines.count) lines after \(step)")
                return
            }
            lineStart = lines[..<cursor.line].reduce(0) { $0 + $1.utf8.count + 1 }
            line = lines[cursor.line]
        }
        let chars = Array(line)
        guard cursor.column <= chars.count else {
            Issue.record("cursor column \(cursor.column) past \(chars.count) after \(step)")
            return
        }
        let bytes = chars[..<cursor.column].reduce(0) { $0 + $1.utf8.count }
        let columns = DisplayWidth.columns(of: chars)
        #expect(buffer.cursorOffset == lineStart + bytes, "offset after \(step)", sourceLocation: sourceLocation)
        #expect(
            buffer.cursorDisplayColumn == columns[cursor.column], "screen column after \(step)",
            sourceLocation: sourceLocation)
        if cursor.column > 0 {
            let previousBytes = chars[..<(cursor.column - 1)].reduce(0) { $0 + $1.utf8.count }
            #expect(
                buffer.caret.previous
                    == Anchor(
                        offset: lineStart + previousBytes, line: cursor.line, column: cursor.column - 1,
                        displayColumn: columns[cursor.column - 1]), "previous character after \(step)",
                sourceLocation: sourceLocation)
        } else {
            #expect(
                buffer.caret.previous == nil, "no previous character at a line start after \(step)",
                sourceLocation: sourceLocation)
        }
        // What the screen shows of the cursor's line, 40 columns from a little before the cursor.
        let from = max(0, columns[cursor.column] - 30)
        let shown = buffer.glyphs(inLine: cursor.line, displayColumns: from..<(from + 40))
        var expected: [LineGlyph] = []
        var offset = lineStart
        for (i, c) in chars.enumerated() {
            if columns[i + 1] > from && columns[i] < from + 40 {
                expected.append(
                    LineGlyph(
                        character: c, offset: offset, length: c.utf8.count, displayColumn: columns[i],
                        width: columns[i + 1] - columns[i]))
            }
            offset += c.utf8.count
        }
        #expect(shown.glyphs == expected, "glyphs after \(step)", sourceLocation: sourceLocation)
        #expect(
            shown.continues == (columns[chars.count] > from + 40), "continues after \(step)",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: [(1, false), (2, true), (3, true)])
    func randomEditsAndMovesKeepTheCursorExact(seed: UInt64, mostlyASCII: Bool) {
        var random = Random(state: seed)
        let original = Self.text(&random, lines: 3, length: mostlyASCII ? 6000 : 3000, mostlyASCII: mostlyASCII)
        var buffer = TextBuffer(text: original)
        Self.check(buffer, "loading")
        var steps = 0
        for _ in 0..<350 {
            let before = buffer.text
            let offset = buffer.cursorOffset
            var name = ""
            switch random.below(16) {
            case 0, 1, 2:
                let piece = Self.pieces[random.below(Self.pieces.count)]
                name = "insert \(piece.unicodeScalars.map { String($0.value, radix: 16) })"
                buffer.insert(piece)
                var expected = Array(before.utf8)
                expected.insert(contentsOf: piece.utf8, at: offset)
                #expect(Array(buffer.text.utf8) == expected, "\(name)")
                #expect(buffer.cursor == Self.position(of: offset + piece.utf8.count, in: buffer.text), "\(name)")
            case 3:
                name = "backspace"
                buffer.deleteBackward()
            case 4:
                name = "delete"
                buffer.deleteForward()
            case 5, 6:
                name = "left"
                let c = buffer.cursor
                buffer.moveLeft()
                let expected =
                    c.column > 0
                    ? TextPosition(line: c.line, column: c.column - 1)
                    : c.line > 0 ? TextPosition(line: c.line - 1, column: buffer.characterCount(inLine: c.line - 1)) : c
                #expect(buffer.cursor == expected, "left from \(c)")
            case 7, 8:
                name = "right"
                let c = buffer.cursor
                buffer.moveRight()
                let count = buffer.characterCount(inLine: c.line)
                let expected =
                    c.column < count
                    ? TextPosition(line: c.line, column: c.column + 1)
                    : c.line < buffer.lineCount - 1 ? TextPosition(line: c.line + 1, column: 0) : c
                #expect(buffer.cursor == expected, "right from \(c)")
            case 9:
                name = random.below(2) == 0 ? "up" : "down"
                buffer.moveLines(by: name == "up" ? -1 : 1)
            case 10:
                name = "to offset"
                let target = random.below(buffer.utf8Count + 1)
                buffer.moveCursor(toOffset: target)
                #expect(buffer.cursor == Self.position(of: target, in: buffer.text), "to offset \(target)")
            case 11:
                name = random.below(2) == 0 ? "end" : "home"
                if name == "end" { buffer.moveToLineEnd() } else { buffer.moveToLineStart() }
            case 12:
                name = random.below(2) == 0 ? "next word" : "previous word"
                if name == "next word" { buffer.moveToNextWord() } else { buffer.moveToPreviousWord() }
            case 13:
                name = "undo"
                buffer.undo()
            case 14:
                name = "redo"
                buffer.redo()
            default:
                name = "to column"
                let line = random.below(buffer.lineCount)
                buffer.moveCursor(to: TextPosition(line: line, column: random.below(3100)))
            }
            steps += 1
            Self.check(buffer, "step \(steps): \(name)", wholeText: steps % 25 == 0)
        }
        // Undo to the start, then redo as many steps as there were to undo: the same text again.
        let edited = buffer.text
        let done = buffer.history.undoSteps.count
        while buffer.undo() {}
        #expect(buffer.text == original)
        for _ in 0..<done { buffer.redo() }
        #expect(buffer.text == edited)
        Self.check(buffer, "undoing all and redoing")
    }
}
