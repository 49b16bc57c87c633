import Testing

@testable import SnapSpelling

/// Word evidence counted against a small fixed dictionary, so each count can be checked by hand.
@Suite struct WordEvidenceTests {
    let dictionary: Set<String> = ["lenore", "fenêtre", "the", "kettle", "hums", "bien", "aimée", "j'attends", "le"]

    func evidence(_ text: String) -> WordEvidence {
        WordEvidence(text: text) { dictionary.contains($0.lowercased()) }
    }

    @Test func knownWordsOfFourLettersOrMoreCount() {
        // "Lenore," 6 + "kettle" 6 + "hums" 4; "the" is known but short; "xqzt" unknown (4).
        let e = evidence("Lenore, the kettle hums xqzt")
        #expect(e == WordEvidence(knownLetters: 16, unknownLetters: 4))
        #expect(e.score == 12)
    }

    @Test func punctuationAroundATokenIsIgnoredAndTypographicApostrophesMatch() {
        // "fenêtre" 7 + "j'attends" 8 (the apostrophe is no letter).
        #expect(evidence("«fenêtre»  j’attends.") == WordEvidence(knownLetters: 15, unknownLetters: 0))
    }

    @Test func hyphenatedWordsAreKnownWhenEveryPartIs() {
        #expect(evidence("bien-aimée") == WordEvidence(knownLetters: 9, unknownLetters: 0))
        #expect(evidence("bien-xqz") == WordEvidence(knownLetters: 0, unknownLetters: 7))
    }

    @Test func wordsJoinedByADashOrASlashAndPossessivesAreTheirWords() {
        // "kettle—hums" 10 + "THE/KETTLE" 9 + "Lenore's" 7 (the apostrophe is no letter).
        #expect(evidence("kettle—hums THE/KETTLE Lenore's") == WordEvidence(knownLetters: 26, unknownLetters: 0))
        #expect(evidence("kettle–xqz") == WordEvidence(knownLetters: 0, unknownLetters: 9))
        #expect(
            WordEvidence.wordsAsked(in: "kettle—hums Lenore’s") == [
                "kettle—hums", "kettle", "hums", "Lenore's", "Lenore",
            ])
    }

    @Test func aWordBrokenAtALinesEndIsJoined() {
        #expect(WordEvidence.brokenWord("func-", "tion.") == "function")
        #expect(WordEvidence.brokenWord("«fenê-", "tre»,") == "fenêtre")
        // Not a break: a dash alone, a capital after it (a name, a new sentence), no hyphen.
        #expect(WordEvidence.brokenWord("-", "tion") == nil)
        #expect(WordEvidence.brokenWord("Jean-", "Pierre") == nil)
        #expect(WordEvidence.brokenWord("func", "tion") == nil)
    }

    @Test func numbersSymbolsAndSingleLettersCountAsNeither() {
        #expect(evidence("12,50 € 3rd — a I ; ::") == WordEvidence(knownLetters: 0, unknownLetters: 0))
    }

    @Test func noiseReadAsTextWeighsAgainstAReading() {
        let clean = evidence("Lenore the kettle hums")
        let noisy = evidence("Lenore the kettle hums ee Ses oA Wis LEUR Sy")
        // ee 2 + Ses 3 + oA 2 + Wis 3 + LEUR 4 + Sy 2 unknown letters.
        #expect(clean.score == 16)
        #expect(noisy.score == 16 - 16)
        #expect(noisy.score < clean.score)
    }
}

extension WordEvidence {
    init(knownLetters: Int, unknownLetters: Int) {
        self.init(text: "") { _ in false }
        self.knownLetters = knownLetters
        self.unknownLetters = unknownLetters
    }
}
