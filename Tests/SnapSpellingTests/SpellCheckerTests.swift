import Testing

@testable import SnapSpelling

/// The real Hunspell dictionaries Debian installs (hunspell-en-us, hunspell-en-gb, hunspell-fr).
@Suite struct SpellCheckerTests {
    @Test func englishAndFrenchWordsAreKnownTogether() throws {
        let checker = try SpellChecker(languages: ["fra", "eng"])
        #expect(checker.dictionaryNames == ["fr", "en_US", "en_GB"])
        #expect(checker.dictionaryLanguages == ["fra", "eng", "eng"])
        #expect(checker.isKnown("kettle"))
        #expect(checker.isKnown("fenêtre"))
        #expect(checker.isKnown("cœur"))
        #expect(checker.isKnown("j'attends"))
        // A name the English dictionary holds, in capitals too; not in lower case.
        #expect(checker.isKnown("Lenore"))
        #expect(checker.isKnown("LENORE"))
        #expect(checker.isKnown("lenore") == false)
    }

    /// British spellings are no errors in an English text (issue 42: "harbour" was marked).
    @Test func britishAndAmericanSpellingsAreBothEnglish() throws {
        let checker = try SpellChecker(languages: ["eng", "fra"])
        #expect(checker.languagesKnowing("harbour") == ["eng"])
        #expect(checker.languagesKnowing("harbor") == ["eng"])
        #expect(checker.languagesKnowing("hate") == ["eng"])
        #expect(checker.languagesKnowing("hâte") == ["fra"])
        #expect(checker.languagesKnowing("de") == ["eng", "fra"])
        #expect(checker.languagesKnowing("xqzv") == [])
        // Readings are weighed with each language's main dictionary (en_US, fr): as measured.
        #expect(checker.isKnown("harbour") == false && checker.isKnownInAnySpelling("harbour"))
        #expect(checker.isKnownToken("harbour,") == true)
    }

    @Test func aHyphenatedWordIsKnownInTheLanguagesThatKnowEachPart() {
        let known: [String: Set<String>] = ["peut": ["fra"], "être": ["fra"], "well": ["eng"], "known": ["eng"]]
        let knownIn = { (w: String) in known[w] ?? [] }
        #expect(SpellChecker.languagesKnowingToken("peut-être,", knownIn: knownIn) == ["fra"])
        #expect(SpellChecker.languagesKnowingToken("well-être", knownIn: knownIn) == [])
        #expect(SpellChecker.languagesKnowingToken("1962", knownIn: knownIn) == nil)
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
        #expect(try SpellChecker(languages: ["osd", "eng"]).dictionaryNames == ["en_US", "en_GB"])
        #expect(throws: SpellingError.noDictionary(languages: ["osd"], directory: "/usr/share/hunspell")) {
            try SpellChecker(languages: ["osd"])
        }
        #expect(throws: SpellingError.noDictionary(languages: ["eng"], directory: "/nonexistent")) {
            try SpellChecker(languages: ["eng"], directory: "/nonexistent")
        }
    }
}
