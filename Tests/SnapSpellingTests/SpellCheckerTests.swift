import Testing

@testable import SnapSpelling

/// The real Hunspell dictionaries Debian installs (hunspell-en-us, hunspell-fr).
@Suite struct SpellCheckerTests {
    @Test func englishAndFrenchWordsAreKnownTogether() throws {
        let checker = try SpellChecker(languages: ["fra", "eng"])
        #expect(checker.dictionaryNames == ["fr", "en_US"])
        #expect(checker.isKnown("kettle"))
        #expect(checker.isKnown("fenêtre"))
        #expect(checker.isKnown("cœur"))
        #expect(checker.isKnown("j'attends"))
        // A name the English dictionary holds, in capitals too; not in lower case.
        #expect(checker.isKnown("Lenore"))
        #expect(checker.isKnown("LENORE"))
        #expect(checker.isKnown("lenore") == false)
    }

    @Test func accentsReadWrongAreNotWords() throws {
        let checker = try SpellChecker(languages: ["fra", "eng"])
        #expect(checker.isKnown("blême"))
        #expect(checker.isKnown("bléme") == false)
    }

    @Test func decomposedInputIsCheckedAsComposed() throws {
        let checker = try SpellChecker(languages: ["fra"])
        #expect(checker.isKnown("fene\u{0302}tre"))
    }

    @Test func languagesWithoutADictionaryAreSkippedOrRefused() throws {
        #expect(try SpellChecker(languages: ["osd", "eng"]).dictionaryNames == ["en_US"])
        #expect(throws: SpellingError.noDictionary(languages: ["osd"], directory: "/usr/share/hunspell")) {
            try SpellChecker(languages: ["osd"])
        }
        #expect(throws: SpellingError.noDictionary(languages: ["eng"], directory: "/nonexistent")) {
            try SpellChecker(languages: ["eng"], directory: "/nonexistent")
        }
    }
}
