import Testing

@testable import SnapOCR

@Suite struct WordCorrectionsTests {
    @Test(arguments: [
        ("|", "I"), ("|’m", "I’m"), ("|'ll", "I'll"), ("|’ve", "I’ve"), ("|’d", "I’d"),
        ("|’Antiquité", "l’Antiquité"), ("|'homme", "l'homme"), ("|’dée", "l’dée"),
        ("a|b", "a|b"), ("||", "||"), ("love", "love"), ("|x", "|x"),
    ])
    func barsThatStandForLetters(word: String, expected: String) {
        #expect(WordCorrections.corrected(word) == expected)
    }
}
