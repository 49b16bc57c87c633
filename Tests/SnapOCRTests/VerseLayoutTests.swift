import Testing

@testable import SnapOCR

@Suite struct VerseLayoutTests {
    func word(_ text: String, line: Int, y: Int, x: Int = 0, block: Int = 0) -> LaidOutWord {
        LaidOutWord(
            word: RecognizedWord(
                text: text, boundingBox: BoundingBox(x: x, y: y, width: 10 * text.count, height: 30),
                confidence: 90, line: line), block: block)
    }

    @Test func linesStayLinesAndAStanzaGapBecomesAnEmptyLine() {
        let words = [
            word("one", line: 0, y: 0), word("two", line: 0, y: 0, x: 40),
            word("three", line: 1, y: 50), word("four", line: 2, y: 100),
            word("five", line: 3, y: 230),
        ]  // a gap of 2.6 pitches
        #expect(VerseLayout.text(from: words) == "one two\nthree\nfour\n\nfive\n")
    }

    @Test func noWordsNoText() {
        #expect(VerseLayout.text(from: []) == "")
    }
}

@Suite struct IndentationTests {
    @Test func centredLinesAreNotIndented() {
        let words = [
            word("Lenore", line: 0, x: 170), word("my", line: 1, x: 170), word("only", line: 1, x: 200),
            word("everlasting", line: 2, x: 145), word("love", line: 3, x: 180),
        ]
        #expect(VerseLayout.text(from: words) == "Lenore\nmy only\neverlasting\nlove\n")
    }

    @Test func fragmentsFarRightAreNotIndents() {
        let words = [
            word("a", line: 0, x: 0),
            word(
                "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
                line: 0, x: 20),
            word("cc", line: 1, x: 1200),
        ]
        #expect(VerseLayout.text(from: words).hasSuffix("\ncc\n"))
    }

    func word(_ text: String, line: Int, x: Int) -> LaidOutWord {
        // 10 px per character, 30 px high, lines 50 px apart.
        LaidOutWord(
            word: RecognizedWord(
                text: text, boundingBox: BoundingBox(x: x, y: line * 50, width: 10 * text.count, height: 30),
                confidence: 90, line: line), block: 0)
    }

    @Test func indentationIsRebuiltFromTheBoxes() {
        let words = [
            word("Once", line: 0, x: 100), word("upon", line: 1, x: 140), word("a", line: 2, x: 103),
            word("midnight", line: 3, x: 112),
        ]
        // 40 px = 4 characters: indented; 3 px and 12 px (under 2 characters): drift, not indentation.
        #expect(VerseLayout.text(from: words) == "Once\n    upon\na\nmidnight\n")
    }
}

@Suite struct PunctuationJoiningTests {
    func word(_ text: String, x: Int, width: Int) -> LaidOutWord {
        LaidOutWord(
            word: RecognizedWord(
                text: text, boundingBox: BoundingBox(x: x, y: 0, width: width, height: 30),
                confidence: 90, line: 0), block: 0)
    }

    @Test func aCommaSplitFromItsWordIsJoinedBack() {
        // 10 px per character; "Deçà" ends at 40, "," starts at 41; "delà" after a real space.
        let words = [
            word("Deçà", x: 0, width: 40), word(",", x: 41, width: 4), word("delà", x: 55, width: 40),
            word(",", x: 96, width: 4),
        ]
        #expect(VerseLayout.text(from: words) == "Deçà, delà,\n")
    }

    @Test func spacedPunctuationStaysSpaced() {
        // "Où ?" with a French space before "?" (a full character wide), and a dash between words.
        let words = [
            word("Où", x: 0, width: 20), word("?", x: 30, width: 6), word("—", x: 46, width: 10),
            word("oui", x: 66, width: 30),
        ]
        #expect(VerseLayout.text(from: words) == "Où ? — oui\n")
    }

    @Test func openingQuoteHugsTheNextWord() {
        let words = [
            word("dit", x: 0, width: 30), word("«", x: 40, width: 8), word("non", x: 49, width: 30),
            word("»", x: 80, width: 8),
        ]
        #expect(VerseLayout.text(from: words) == "dit «non»\n")
    }
}
