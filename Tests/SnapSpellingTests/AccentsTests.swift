import Testing

@testable import SnapSpelling

/// `Accents`: the accented spellings asked about, the language of a line, and a word respelled
/// with the accents its line's language needs, with dictionaries given as tables.
@Suite struct AccentsTests {
    @Test func spellingsAddOneAccentThenTwoTheFrequentFirst() {
        #expect(
            Accents.spellings(of: "hate", in: "fra") == ["hàte", "hâte", "haté", "hatè", "hatê", "hatë"]
                + ["hàté", "hàtè", "hàtê", "hàtë", "hâté", "hâtè", "hâtê", "hâtë"])
        #expect(Accents.spellings(of: "Ete", in: "fra").prefix(4) == ["Éte", "Ète", "Ête", "Ëte"])
        #expect(Accents.spellings(of: "ete", in: "fra").contains("été"))
        #expect(Accents.spellings(of: "hate", in: "eng") == [])
        #expect(Accents.spellings(of: "rhythm", in: "fra") == ["rhÿthm"])
        #expect(Accents.spellings(of: "aeiouaeiouaeiou", in: "fra", limit: 50).count == 50)
    }

    @Test func aLineIsInTheLanguageWhoseDictionaryKnowsMoreOfItsWords() {
        // Line 0: "j'ai hate de te" (fra knows 3, eng 2); line 1: "the cat" (eng); line 2: "de ai"
        // (both know both: Tesseract's models read more of its letters in French); line 3: "xq"
        // (no dictionary, no model: the whole text's language, English, known in 6 words to 5).
        let lines = [0, 0, 0, 0, 1, 1, 2, 2, 3]
        let known: [Set<String>?] = [
            ["fra"], ["eng"], ["fra", "eng"], ["fra"], ["eng"], ["eng"], ["fra", "eng"], ["fra", "eng"], [],
        ]
        let languages: [(language: String?, letters: Int)] = [
            ("fra", 4), ("eng", 4), ("eng", 2), ("fra", 2), ("eng", 3), ("eng", 3), ("eng", 2), ("fra", 3), (nil, 2),
        ]
        #expect(
            Accents.lineLanguages(lines: lines, known: known, languages: languages) == [
                0: "fra", 1: "eng", 2: "fra", 3: "eng",
            ])
        // Nothing decides: no language.
        #expect(Accents.lineLanguages(lines: [0], known: [nil], languages: [(nil, 0)]) == [:])
    }

    @Test func aWordIsRespelledOnlyWhenItsLinesDictionaryKnowsItOnlyWithAccents() {
        let french: Set<String> = ["hâte", "fenêtre", "été", "prés", "près"]
        let isKnown = { french.contains($0) }
        func respelled(
            _ token: String, _ knownIn: Set<String>?, _ language: String = "fra", capitals: Bool = false,
            startsSentence: Bool = true
        ) -> [String] {
            Accents.respelled(
                token, knownIn: knownIn, language: language, lineIsCapitals: capitals, startsSentence: startsSentence,
                isKnown: isKnown)
        }
        #expect(respelled("hate", ["eng"]) == ["hâte"])
        #expect(respelled("«fenetre,", []) == ["«fenêtre,"])
        #expect(respelled("ete", []) == ["été"])
        // Every spelling the dictionary knows, é before è: the line decides, the reader chooses.
        #expect(respelled("pres", []) == ["prés", "près"])
        // Known to French as read (a real word either way), or in an English line: left alone.
        #expect(respelled("cote", ["fra"]) == [])
        #expect(respelled("hate", ["eng"], "eng") == [])
        // Nothing French with accents: left alone.
        #expect(respelled("xqzv", []) == [])
        // A lone capital A starting a French sentence is À; not the verb in a line of capitals
        // (IL Y A), not inside a sentence (vitamine A), not an initial (A. Rimbaud).
        #expect(respelled("A", nil) == ["À"])
        #expect(respelled("A", nil, capitals: true) == [])
        #expect(respelled("A", nil, startsSentence: false) == [])
        #expect(respelled("A.", nil) == [])
        #expect(respelled("A", nil, "eng") == [])
        #expect(respelled("a", nil) == [])
    }
}
