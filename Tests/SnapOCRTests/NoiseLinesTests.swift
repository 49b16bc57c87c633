import Testing

@testable import SnapOCR

@Suite struct NoiseLinesTests {
    func line(_ index: Int, _ words: [(String, Double)]) -> [LaidOutWord] {
        words.map { text, confidence in
            LaidOutWord(
                word: RecognizedWord(
                    text: text, boundingBox: BoundingBox(x: 0, y: 40 * index, width: 10, height: 30),
                    confidence: confidence, line: index), block: 0)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var words: [String]
        var confidences: [Double]
        var noise: Bool
        var testDescription: String { words.joined(separator: " ") }
    }

    static let cases: [Case] = [
        // Read from a coffee stain (corpus stained-paper.png): short fragments, weighted confidence 24.
        Case(words: ["ru", "1", "ee", "ner\"", "mb"], confidences: [36.4, 42.4, 20.9, 20.8, 5.3], noise: true),
        // The same fragments read confidently (a line of initials, prices): kept.
        Case(words: ["ru", "1", "ee", "ner\"", "mb"], confidences: [80, 90, 85, 75, 70], noise: false),
        // A doubted line of long words (a machine-readable zone, a blurred line): kept.
        Case(words: ["P<UTOERIKSSON<<ANNA", "L898902C36UTO"], confidences: [20, 25], noise: false),
        // Weighted by length: one confident long word outweighs doubtful short ones (weighted 55.5).
        Case(words: ["Coffee", "I", "KE", "TT"], confidences: [93.5, 10, 10, 10], noise: false),
        // Exactly at the bounds: confidence 40 is not under 40, mean length 4 is not under 4.
        Case(words: ["ab", "cd"], confidences: [40, 40], noise: false),
        Case(words: ["abcd", "efgh"], confidences: [10, 10], noise: false),
    ]

    @Test(arguments: cases)
    func shortDoubtedFragmentsAreNoise(_ c: Case) {
        let words = zip(c.words, c.confidences).map { (text: $0.0, confidence: $0.1) }
        #expect(NoiseLines.isNoise(words) == c.noise)
    }

    @Test func noiseLinesAreLeftOutAndTheRestRenumbered() {
        let words =
            line(0, [("ru", 10), ("ee", 12)]) + line(1, [("Coffee", 93), ("is", 96), ("brewed", 95)])
            + line(2, [("ait", 36), ("à", 39), ("Le.", 11)]) + line(3, [("tea.", 90)])
        let (kept, leftOut) = NoiseLines.removed(from: words)
        #expect(leftOut == ["ru ee", "ait à Le."])
        #expect(kept.map(\.word.text) == ["Coffee", "is", "brewed", "tea."])
        #expect(kept.map(\.word.line) == [0, 0, 0, 1])
        #expect(NoiseLines.removed(from: []).leftOut.isEmpty)
    }
}
