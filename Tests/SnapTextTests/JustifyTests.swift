import Testing

@testable import SnapText

/// Justify (^J) and Full Justify (M-J) against GNU nano 7.2: every expected text below is what
/// nano 7.2 wrote for the same file at the same terminal width (80 columns: lines of at most 72;
/// 40 columns: 32), trailing spaces where it breaks a line included.
struct JustifyTests {
    static let raven =
        "Once upon a midnight dreary,   while I pondered, weak and weary.  Over many a quaint\n"
        + "  and curious volume of forgotten lore.\n"
        + "While I nodded, nearly napping, suddenly there came a tapping,\n" + "\n"
        + "    Indented start of a para\n"
        + "  second line is less indented and this line is quite long so that it must wrap somewhere here ok\n"
        + "\n" + "short\n"

    @Test func aParagraphIsFilledAsNanoFillsItAndTheCursorGoesToTheNext() throws {
        var buffer = TextBuffer(text: Self.raven)
        // A line indented apart from the one before it ends the paragraph (nano's begpar).
        let done1 = buffer.justifyParagraph(width: 72)
        #expect(done1)
        #expect(
            buffer.text.hasPrefix(
                "Once upon a midnight dreary, while I pondered, weak and weary.  Over \n"
                    + "  many a quaint and curious volume of forgotten lore.\nWhile I nodded,"))
        #expect(buffer.cursor == TextPosition(line: 2, column: 0))
        // The next paragraph is one line that fits: unchanged, the cursor on the blank line.
        let done2 = buffer.justifyParagraph(width: 72)
        #expect(done2)
        #expect(buffer.cursor == TextPosition(line: 3, column: 0))
        // From a blank line, the next paragraph; its lines after the first take the second's indent.
        let done3 = buffer.justifyParagraph(width: 72)
        #expect(done3)
        #expect(
            buffer.text.hasSuffix(
                "\n\n    Indented start of a para second line is less indented and this line \n"
                    + "  is quite long so that it must wrap somewhere here ok\n\nshort\n"))
        #expect(buffer.cursor == TextPosition(line: 6, column: 0))
        let done4 = buffer.justifyParagraph(width: 72)
        #expect(done4)  // "short"
        let done5 = buffer.justifyParagraph(width: 72)
        #expect(!done5)  // nothing after it
    }

    @Test func fullJustifyIsOneUndoStep() throws {
        var buffer = TextBuffer(text: Self.raven)
        let done6 = buffer.justifyAll(width: 72)
        #expect(done6)
        #expect(
            buffer.text
                == "Once upon a midnight dreary, while I pondered, weak and weary.  Over \n"
                + "  many a quaint and curious volume of forgotten lore.\n"
                + "While I nodded, nearly napping, suddenly there came a tapping,\n" + "\n"
                + "    Indented start of a para second line is less indented and this line \n"
                + "  is quite long so that it must wrap somewhere here ok\n" + "\n" + "short\n")
        #expect(buffer.history.undoSteps.count == 1)
        #expect(buffer.history.undoSteps.last?.grouping == .justifying)
        let done7 = buffer.undo()
        #expect(done7)
        #expect(buffer.text == Self.raven)
    }

    @Test func sentenceEndsKeepTwoSpacesAndTheBreakKeepsItsGap() throws {
        var buffer = TextBuffer(
            text: "Lenore,  the kettle hums  your tune?\"  The curtains\n"
                + "blush.\tEarly June (indeed!)  ends   here.   \n")
        let done8 = buffer.justifyParagraph(width: 32)
        #expect(done8)
        #expect(
            buffer.text
                == "Lenore, the kettle hums your \ntune?\"  The curtains blush. \nEarly June (indeed!)  ends here.\n")

        buffer = TextBuffer(
            text: "aaaa bbbb cccc dddd eeee ffff.  Gggg hhhh iiii.  \n  jjjj kkkk llll mmmm nnnn oooo pppp qqqq rrrr\n")
        let done9 = buffer.justifyParagraph(width: 32)
        #expect(done9)
        #expect(
            buffer.text
                == "aaaa bbbb cccc dddd eeee ffff.  \n  Gggg hhhh iiii.  jjjj kkkk \n"
                + "  llll mmmm nnnn oooo pppp qqqq \n  rrrr\n")
    }

    @Test func aLineHoldsWordsEndingWithinTheWidthAndALongWordAlone() throws {
        let a70 = String(repeating: "a", count: 70)
        let a71 = String(repeating: "a", count: 71)
        let x90 = String(repeating: "x", count: 90)
        var buffer = TextBuffer(text: "\(a70) b c\n\n\(a71) b c\n\n\(x90) y\n")
        let done10 = buffer.justifyAll(width: 72)
        #expect(done10)
        #expect(buffer.text == "\(a70) b \nc\n\n\(a71) \nb c\n\n\(x90) \ny\n")
    }

    @Test func wordsKeepTheirMarksAndUndoBringsBackTheLines() throws {
        let text = "Lenore, je t'écris\nà la fenêtre,\n"
        var buffer = TextBuffer(
            text: text,
            marks: [
                TextMark(id: 0, range: 11..<19, isFlagged: true),  // t'écris
                TextMark(id: 1, range: 26..<35, isFlagged: true),  // fenêtre,
            ])
        #expect(buffer.text(inUTF8: 11..<19) == "t'écris" && buffer.text(inUTF8: 26..<35) == "fenêtre,")
        let done11 = buffer.justifyParagraph(width: 72)
        #expect(done11)
        #expect(buffer.text == "Lenore, je t'écris à la fenêtre,\n")
        #expect(buffer.marks.map { buffer.text(inUTF8: $0.range) } == ["t'écris", "fenêtre,"])
        #expect(buffer.marks.map(\.isFlagged) == [true, true])
        let done12 = buffer.undo()
        #expect(done12)
        #expect(buffer.text == text)
        #expect(buffer.marks.map(\.range) == [11..<19, 26..<35])
    }
}
