import Foundation
import SnapSpelling
import SnapTestSupport
import Testing

@testable import SnapOCR

private func word(_ text: String, _ confidence: Double, runnerUp: Double = 0, known: Bool? = true) -> RecognizedWord {
    var w = RecognizedWord(
        text: text, boundingBox: BoundingBox(x: 0, y: 0, width: 10, height: 10), confidence: confidence, line: 0)
    w.runnerUpConfidence = runnerUp
    w.isKnownWord = known
    return w
}

@Suite struct ProofreadingTests {
    @Test(arguments: [
        ("Lenore,", false), ("t'écris", false), ("bien-aimée.", false), ("3,50", false), ("1er", false),
        ("19th", false), ("«", false), ("—", false), ("(a)", false),
        ("re|n", true), ("l1ght", true), ("hEllo", true), ("e", true), ("p", true), ("¢", true), ("@", true),
        ("a", false), ("à", false), ("y", false), ("I", false), ("Ô", false), ("À", false), ("Y", false),
        ("É", true), ("i", true),
    ])
    func unusualCharacters(text: String, unusual: Bool) {
        #expect(Proofreading.hasUnusualCharacters(text) == unusual)
    }

    @Test func eachDoubtAndTheThreshold() {
        let words = [
            word("kettle", 41), word("hums", 95), word("vour", 95, runnerUp: 72), word("tnue,", 93, known: false),
            word("p", 93), word("your", 87.9),
        ]
        let rules = Proofreading(uncertainBelow: 88)
        #expect(
            rules.doubts(about: words) == [
                [.lowConfidence], [], [.readingsDisagree], [.unknownWord], [.unusualCharacters], [.lowConfidence],
            ])
        #expect(Proofreading(uncertainBelow: 40).doubts(about: words)[0] == [])
        #expect(Proofreading.defaultThreshold == 88)
    }

    @Test func anUnknownWordThatRecursConfidentlyIsAName() {
        let words = [
            word("zoog,", 91, known: false), word("zoog", 84, known: false), word("vorpal", 95, known: false),
        ]
        // "zoog" recurs at 91 elsewhere: a name, the second time; "vorpal" appears once: doubted.
        #expect(Proofreading.otherSignals(words) == [[.unknownWord], [], [.unknownWord]])
        let twice = [word("zoog,", 91, known: false), word("zoog", 94, known: false)]
        #expect(Proofreading.otherSignals(twice) == [[], []])
    }

    /// Issue 42: a capitalised word no dictionary knows, read surely (at `nameConfidence` or more),
    /// is a name (KLABNIK on a book cover, Tarzana, Hélène): not doubted; read less surely, it is.
    @Test func aCapitalisedUnknownWordReadSurelyIsAName() {
        let words = [
            word("KLABNIK", 93, known: false), word("«Hélène»,", 90, known: false), word("Vorpal", 89, known: false),
            word("tarzana", 96, known: false),
        ]
        #expect(Proofreading.otherSignals(words) == [[], [], [.unknownWord], [.unknownWord]])
    }

    /// Correct tokens that are no words: dates, times, joined words, addresses, currency signs,
    /// units after a number.
    @Test func datesTimesAddressesAndUnitsAreNotUnusual() {
        let words = [
            "09/23/2017", "13:48:15", "12h42", "played—only", "INSERT/COPY", "chris.smith@contoso.com",
            "(https://example.org/a),", "$", "€", "250", "g", "x", "3/4—5",
        ].map { word($0, 95, known: nil) }
        #expect(
            Proofreading.otherSignals(words).map { $0.contains(.unusualCharacters) } == [
                false, false, false, false, false, false, false, false, false, false, false, true, true,
            ])
        #expect(Proofreading.otherSignals([word("chris.smith@contoso.com", 80, known: false)]) == [[]])
    }

    @Test func spellingVerdictsAndSuggestionsComeFromHunspell() throws {
        let spelling = try SpellChecker(languages: ["fra", "eng"])
        let result = RecognitionResult(
            text: "", meanConfidence: 90,
            words: [word("bléme,", 90, known: nil), word("blême,", 90, known: nil), word("1962", 90, known: nil)],
            rotationDegrees: 0)
        let checked = Proofreading.checkingSpelling(result, with: spelling)
        #expect(checked.words.map(\.isKnownWord) == [false, true, nil])
        #expect(spelling.suggestions(for: "bléme,").first == "blême,")
    }

    /// Issue 42: an English word or a word without its accent in a French line is marked, the
    /// accented spelling the French dictionary knows given with it; the same word in an English
    /// line, and the verb in a title in capitals, are not.
    @Test func aWordMissingTheAccentsOfItsLinesLanguageIsMarked() throws {
        let spelling = try SpellChecker(languages: ["eng", "fra"])
        let lines = [
            "Ma chère amie, j'ai hate de te revoir", "A bientôt, mon amour", "I hate rainy Mondays",
            "IL Y A UN JARDIN", "Ô la fenetre de ma maison", "the harbour at dusk",
            "Il prend de la vitamine A chaque matin", "Poèmes de Paul Verlaine et A. Rimbaud",
            "visitez www.fete-du-village.fr pres de chez vous",
        ]
        let words = lines.enumerated().flatMap { n, line in
            line.split(separator: " ").map { t -> RecognizedWord in
                var w = word(String(t), 95, known: nil)
                w.line = n
                return w
            }
        }
        let result = RecognitionResult(text: "", meanConfidence: 95, words: words, rotationDegrees: 0)
        let checked = Proofreading.checkingSpelling(result, with: spelling)
        let respelled = checked.words.filter { !$0.withAccents.isEmpty }.map {
            "\($0.text)→\($0.withAccents.joined(separator: "|"))"
        }
        #expect(respelled == ["hate→hâte", "A→À", "fenetre→fenêtre", "pres→prés|près"])
        let doubted = zip(checked.words, Proofreading.otherSignals(checked.words)).filter { !$0.1.isEmpty }
        #expect(
            doubted.map { "\($0.0.text) \($0.1)" } == ["hate [accent missing]", "A [accent missing]"]
                + ["fenetre [not in the dictionary, accent missing]", "pres [accent missing]"])
        #expect(checked.words.first { $0.text == "harbour" }?.isKnownWord == true)
    }

    /// False alarms on correct words (issue 42, measured over the corpus): words joined by a dash
    /// or a slash, a possessive, a word broken at a line's end, a French word in capitals printed
    /// without its accents. Each is judged as the word(s) it stands for; none is marked.
    @Test func joinedBrokenPossessiveAndCapitalWordsAreJudgedAsTheirWords() throws {
        let spelling = try SpellChecker(languages: ["eng", "fra"])
        let lines = [
            ["recording—while", "the", "Sequencer’s", "PLAY/STOP,", "func-"], ["tion.", "is", "set"],
            ["POESIE", "ET", "REGLEMENT", "DU", "CONCOURS"], ["the", "sequencer", "xqzv—while", "zorp-"],
            ["tion", "here"],
        ]
        let words = lines.enumerated().flatMap { n, line in
            line.map { t -> RecognizedWord in
                var w = word(t, 95, known: nil)
                w.line = n
                // Both dictionaries know ET, DU and CONCOURS (en_GB's "concours d'elegance"): the
                // language Tesseract's models read the line in decides.
                w.language = n == 2 ? "fra" : "eng"
                return w
            }
        }
        let result = RecognitionResult(text: "", meanConfidence: 95, words: words, rotationDegrees: 0)
        let checked = Proofreading.checkingSpelling(result, with: spelling)
        #expect(checked.words.filter { $0.isKnownWord == false }.map(\.text) == ["xqzv—while", "zorp-", "tion"])
        #expect(checked.words.allSatisfy { $0.withAccents.isEmpty })
    }

    @Test func suggestionsComeFromEveryDictionaryInTurn() throws {
        // English first, as `eng+fra` asks: its four suggestions no longer fill the menu. Each
        // dictionary's best is compared; later ones come from Hunspell's searches with a time
        // limit, and differ with the machine's load ("ovo ide," or "ovoid e," fourth).
        let spelling = try SpellChecker(languages: ["eng", "fra"])
        let ovoide = spelling.suggestions(for: "ovoide,")
        #expect(Array(ovoide.prefix(2)) == ["ovoid,", "ovoïde,"] && ovoide.count == 4)
        let ca = spelling.suggestions(for: "cà")
        #expect(Array(ca.prefix(2)) == ["c", "ça"] && ca.count == 4)
    }

    @Test func recognizedWordsKnowTheirPlaceInTheTextAndTheirOtherReadings() throws {
        let result = try Recognizer().recognize(path: TestPaths.sample("fenetre.png"))
        let bytes = Array(result.text.utf8)
        #expect(!result.words.isEmpty)
        for w in result.words {
            #expect(String(decoding: bytes[w.textRange], as: UTF8.self) == w.text)
        }
        // Offsets grow with the reading order.
        #expect(
            zip(result.words, result.words.dropFirst()).allSatisfy {
                $0.textRange.upperBound <= $1.textRange.lowerBound
            })
        // No other reading is only a change of case or of apostrophe.
        for w in result.words {
            for a in w.alternatives {
                #expect(a.lowercased() != w.text.lowercased())
                #expect(a.replacingOccurrences(of: "’", with: "'") != w.text.replacingOccurrences(of: "’", with: "'"))
            }
        }
    }
}

/// Issue 42: the learned recognizer's reading (`RecognizedWord.learnedReading`) lifts Tesseract's
/// own hesitation where it agrees and raises a doubt where it reads another word surely.
@Suite struct LearnedReadingTests {
    private func read(_ w: RecognizedWord, as learned: String?, _ confidence: Double = 97) -> RecognizedWord {
        var w = w
        w.learnedReading = learned
        w.learnedConfidence = learned == nil ? 0 : confidence
        return w
    }

    @Test(arguments: [
        ("frôle", "frole", true), ("tables”.", "tables''.", true), ("l’amour", "l'amour", true),
        ("œuvre", "oeuvre", true), ("sequence—", "sequence-", true), ("pri son.", "prison.", true),
        ("Code", "Code'", true), ("Code", "Codes", false), ("La", "la", false), ("fermes", "femmes", false),
        ("fallait,", "fallait.", false),
        ("150", "150.", false), ("played—only", "played--only", true), ("l'endroit", "lendroit", true),
        ("l’âtre,", "'atre,", false),
    ])
    func agreement(text: String, learned: String, agrees: Bool) {
        #expect(LearnedReading.agrees(text, learned) == agrees)
    }

    @Test func anAgreeingReadingLiftsOnlyTesseractsHesitation() {
        let rules = Proofreading(uncertainBelow: 88)
        let words = [
            read(word("needed", 77.9), as: "needed"),
            read(word("table", 85.9, runnerUp: 64), as: "table"),
            read(word("conpte", 79.6, known: false), as: "conpte"),
            read(word("into", 77.4), as: "in to"),
            read(word("autres.", 87.9), as: nil),
            read(word("prix", 83.1), as: "Prix"),
        ]
        #expect(
            rules.doubts(about: words) == [
                [], [], [.lowConfidence, .unknownWord], [], [.lowConfidence], [.lowConfidence, .learnedReadingDiffers],
            ])
    }

    @Test func aDifferentReadingIsADoubtWhenSureAndTesseractWasNot() {
        let words = [
            read(word("fermes", 90.5), as: "femmes", 97.2),
            read(word("fermes", 90.5), as: "femmes", 89.9),
            read(word("fermes", 93), as: "femmes", 99),
            read(word("I", 91.9), as: "—", 95),
            read(word("ne", 80), as: "", 0),
        ]
        #expect(Proofreading.otherSignals(words) == [[.learnedReadingDiffers], [], [], [], []])
        #expect(Proofreading().doubts(about: words)[0] == [.learnedReadingDiffers])
    }

    /// Not a doubt, nor offered: a reading that took in the next word (`gulls are`), or a non-word
    /// for a word the dictionaries know (`enploi`: m and n confused in typewriting). A known
    /// reading for a known word is; so is any reading for a word no dictionary knows.
    @Test func aNeighbourTakenInOrANonWordForAWordIsNoDoubt() {
        func known(_ w: RecognizedWord, _ learnedKnown: Bool?) -> RecognizedWord {
            var w = w
            w.learnedIsKnownWord = learnedKnown
            return w
        }
        let words = [
            read(word("gulls", 91), as: "gulls are", 95),
            known(read(word("emploi", 89.1), as: "enploi", 99.6), false),
            known(read(word("fermes", 90.5), as: "femmes", 97.2), true),
            known(read(word("linn", 91, known: false), as: "Linn", 97.2), false),
        ]
        #expect(words.map(\.learnedAlternative) == [nil, nil, "femmes", "Linn"])
        #expect(
            Proofreading.otherSignals(words) == [
                [], [], [.learnedReadingDiffers], [.unknownWord, .learnedReadingDiffers],
            ])
    }

    @Test func theDictionariesJudgeAReadingAsAWordsText() {
        let known = Proofreading.knownTokens(["femmes,", "enploi", "10.2", "l'amour"]) { asked in
            Dictionary(
                uniqueKeysWithValues: asked.map { ($0, ["femmes", "amour", "l'amour"].contains($0) ? ["fra"] : []) })
        }
        #expect(known["femmes,"] == .some(true))
        #expect(known["enploi"] == .some(false))
        #expect(known["10.2"] == .some(nil))
        #expect(known["l'amour"] == .some(true))
    }

    @Test func whichWordsTheLearnedRecognizerIsAskedAbout() {
        #expect(Proofreading.learnedCheckBelow == 93)
        #expect(Proofreading.asksLearnedReading(word("hums", 92.9), otherDoubts: []))
        #expect(!Proofreading.asksLearnedReading(word("hums", 93), otherDoubts: []))
        #expect(Proofreading.asksLearnedReading(word("vour", 96, runnerUp: 72), otherDoubts: [.readingsDisagree]))
        #expect(!Proofreading.asksLearnedReading(word("tnue", 60, known: false), otherDoubts: [.unknownWord]))
        #expect(
            !Proofreading.asksLearnedReading(
                word("l1ght", 80, runnerUp: 70), otherDoubts: [.readingsDisagree, .unusualCharacters]))
    }
}

extension LearnedReadingTests {
    @Test(arguments: [
        ("pier.", "pier", true), ("home,", "home", true), ("«Lenore»,", "Lenore", true), ("(a)", "a)", true),
        ("early", "early.", true), ("ellipse(110);", "ellipse(110)", true), ("fallait,", "fallait.", false),
        ("home", "home", false), ("pier.", "pie", false), ("—", "", false), ("(a", "a)", false),
    ])
    func differencesOnlyAtTheEdges(text: String, learned: String, onlyThere: Bool) {
        #expect(LearnedReading.differsOnlyAtTheEdges(text, learned) == onlyThere)
    }
}
