import Testing
@testable import SnapOCR

@Suite struct VerseLayoutTests {
    func word(_ text: String, line: Int, y: Int, x: Int = 0, block: Int = 0) -> LaidOutWord {
        LaidOutWord(word: RecognizedWord(text: text, boundingBox: BoundingBox(x: x, y: y, width: 10 * text.count, height: 30),
                                         confidence: 90, line: line), block: block)
    }

    @Test func linesStayLinesAndAStanzaGapBecomesAnEmptyLine() {
        let words = [word("one", line: 0, y: 0), word("two", line: 0, y: 0, x: 40),
                     word("three", line: 1, y: 50), word("four", line: 2, y: 100),
                     word("five", line: 3, y: 230)]     // a gap of 2.6 pitches
        #expect(VerseLayout.text(from: words) == "one two\nthree\nfour\n\nfive\n")
    }

    @Test func noWordsNoText() {
        #expect(VerseLayout.text(from: []) == "")
    }
}
