import Foundation
import SnapSpelling

/// A reason to doubt a recognized word, beside its confidence.
public enum WordDoubt: String, Codable, CaseIterable, Sendable, CustomStringConvertible {
    /// Tesseract's confidence is below the threshold (`--uncertain-below`).
    case lowConfidence
    /// The engine weighed another character strongly (``RecognizedWord/runnerUpConfidence`` at or
    /// above ``Proofreading/disagreementConfidence``).
    case readingsDisagree
    /// No spelling dictionary of the languages accepts it, and it does not recur confidently
    /// elsewhere in the text (a recurring unknown word is probably a name: Lenore, Hélène).
    case unknownWord
    /// Characters unusual inside a word: a symbol between letters, letters and digits mixed, a
    /// capital after a small letter.
    case unusualCharacters
    /// The dictionary of the line's language knows the word only with accents it was read without
    /// (``RecognizedWord/withAccents``: `hate` for `hâte` in a French line).
    case missingAccent
    /// The learned recognizer (``RecognizedWord/learnedReading``) read another word there, sure
    /// of it (``Proofreading/learnedDisagreementConfidence``), where Tesseract was not sure enough
    /// (under ``Proofreading/learnedCheckBelow``); not when they differ only by punctuation at the
    /// word's ends (`LearnedReading.differsOnlyAtTheEdges`).
    case learnedReadingDiffers

    /// The user-facing wording ("low confidence").
    public var description: String {
        switch self {
        case .lowConfidence: return "low confidence"
        case .readingsDisagree: return "readings disagree"
        case .unknownWord: return "not in the dictionary"
        case .unusualCharacters: return "unusual characters"
        case .missingAccent: return "accent missing"
        case .learnedReadingDiffers: return "second recognizer differs"
        }
    }
}

/// Which recognized words a proofreader should look at, and why: pure rules over the words of one
/// ``RecognitionResult``.
///
/// A word is *uncertain* when it has any ``WordDoubt``. The rules were chosen by measurement
/// (scripts/mark-quality.py over the team's corpus: docs/measurements/uncertain-marks.md).
public struct Proofreading: Sendable {
    /// The default confidence threshold (0–100): words read with less are uncertain.
    public static let defaultThreshold = 88.0
    /// A runner-up character at or above this confidence (0–100) means the readings disagree.
    public static let disagreementConfidence = 60.0
    /// An unknown word is taken for a name when it recurs elsewhere with at least this confidence.
    public static let nameConfidence = 90.0

    /// The learned recognizer is asked about the words read under this confidence (0–100), or
    /// whose readings disagree, that have no other doubt (`asksLearnedReading`).
    public static let learnedCheckBelow = 93.0
    /// A learned reading that differs is a doubt when the learned recognizer is at least this
    /// sure of it (0–100).
    public static let learnedDisagreementConfidence = 90.0
    /// The doubts a learned reading that agrees lifts: Tesseract's own hesitation. A word no
    /// dictionary knows, with unusual characters or missing an accent stays doubted (the learned
    /// recognizer knows few accents, and reads a misprint as printed).
    public static let liftedByAgreement: Set<WordDoubt> = [.lowConfidence, .readingsDisagree]

    /// Words with a confidence (0–100) below this are uncertain.
    public var uncertainBelow: Double

    /// Rules with the threshold `uncertainBelow` (0–100).
    public init(uncertainBelow: Double = Proofreading.defaultThreshold) {
        self.uncertainBelow = uncertainBelow
    }

    /// The doubts about each word of `words`, parallel to it (empty: the word is not uncertain).
    /// A word whose only doubts are Tesseract's hesitation (`liftedByAgreement`) has none when
    /// the learned recognizer read it the same way.
    public func doubts(about words: [RecognizedWord]) -> [[WordDoubt]] {
        let others = Self.otherSignals(words)
        return words.indices.map { i in
            let all = (words[i].confidence < uncertainBelow ? [WordDoubt.lowConfidence] : []) + others[i]
            return words[i].learnedAgrees && Self.liftedByAgreement.isSuperset(of: all) ? [] : all
        }
    }

    /// Whether the learned recognizer is asked about `word`, whose doubts other than its
    /// confidence are `otherDoubts`: when its reading could lift them or raise one, read under
    /// `learnedCheckBelow` or with disagreeing readings, and no other doubt.
    public static func asksLearnedReading(_ word: RecognizedWord, otherDoubts: [WordDoubt]) -> Bool {
        (word.confidence < learnedCheckBelow || otherDoubts.contains(.readingsDisagree))
            && liftedByAgreement.isSuperset(of: otherDoubts)
    }

    /// The doubts that do not depend on the threshold, parallel to `words`: disagreement, unknown
    /// word (names excepted: one that recurs read surely, one capitalised and read surely; mail and
    /// web addresses), unusual characters (addresses and units after a number excepted), missing
    /// accent.
    public static func otherSignals(_ words: [RecognizedWord]) -> [[WordDoubt]] {
        var confidentCount: [String: Int] = [:]
        for word in words where word.confidence >= nameConfidence {
            confidentCount[key(word.text), default: 0] += 1
        }
        return words.indices.map { i in
            let word = words[i]
            var doubts: [WordDoubt] = []
            if word.runnerUpConfidence >= disagreementConfidence { doubts.append(.readingsDisagree) }
            if word.isKnownWord == false && !isAddress(word.text) {
                let own = word.confidence >= nameConfidence ? 1 : 0
                let recurs = confidentCount[key(word.text), default: 0] - own > 0
                // A capitalised word read surely is a name (KLABNIK, Tarzana, Contoso), not an error.
                let name =
                    word.confidence >= nameConfidence && WordEvidence.core(of: word.text).first?.isUppercase == true
                if !recurs && !name { doubts.append(.unknownWord) }
            }
            let unit = i > 0 && words[i - 1].line == word.line && isUnit(word.text, after: words[i - 1].text)
            if !unit && !isAddress(word.text) && hasUnusualCharacters(word.text) { doubts.append(.unusualCharacters) }
            if !word.withAccents.isEmpty { doubts.append(.missingAccent) }
            if word.learnedAlternative != nil, word.confidence < learnedCheckBelow,
                word.learnedConfidence >= learnedDisagreementConfidence
            {
                doubts.append(.learnedReadingDiffers)
            }
            return doubts
        }
    }

    /// Whether `text` is a mail address or a web address (punctuation around it ignored): neither
    /// a word of a dictionary nor unusual.
    static func isAddress(_ text: String) -> Bool {
        let core = text.trimmingCharacters(in: CharacterSet(charactersIn: "()[]<>«»\"'.,;:"))
        return core.wholeMatch(of: /[\w.+\-]+@[\w\-]+(\.[\w\-]+)+/) != nil
            || core.wholeMatch(of: /(https?:\/\/|www\.)[^\s]+/) != nil
    }

    /// Whether a lone letter `text` is a unit after the number `previous` (`100 g`, `2 h`).
    static func isUnit(_ text: String, after previous: String) -> Bool {
        text.count == 1 && text.first?.isLetter == true && previous.contains(where: \.isNumber)
            && previous.allSatisfy { $0.isNumber || ".,".contains($0) }
    }

    /// The word without the punctuation around it, lowercased: what recurrences are counted by.
    static func key(_ text: String) -> String {
        let core = WordEvidence.core(of: text)
        return core.isEmpty ? text : core.lowercased()
    }

    /// Letters that are words on their own in English or French, as written in running text; a
    /// capital of one of the small ones is one too (`À`, `Ô`, `Y`).
    static let loneLetters: Set<Character> = ["a", "à", "y", "I", "O", "ô", "ò", "ö"]
    /// What a word without letters or digits may be made of.
    static let punctuation = Set("—–-&«»…*•·/:;,.!?()\"'“”‘’[]%+=#$€£¥")

    /// Whether `text` holds characters unusual inside a word: a lone letter that is no word of its
    /// own (`e`, `p`), a lone symbol that is no punctuation or currency sign (`¢`, `@`); between
    /// its first and last letter or digit, anything but letters, digits, apostrophes, hyphens, a
    /// full stop, comma, colon or slash between digits and a dash or slash between letters;
    /// letters and digits mixed (ordinals such as 1er, 2nd, 19th and times such as 12h42
    /// excepted); a capital right after a small letter.
    static func hasUnusualCharacters(_ text: String) -> Bool {
        let isCore: (Character) -> Bool = { $0.isLetter || $0.isNumber }
        // A lone letter that is no word of its own, a lone symbol that is no punctuation (¢, @, |).
        if text.count == 1, let c = text.first, c.isLetter {
            return !loneLetters.contains(c) && !(c.isUppercase && loneLetters.contains(Character(c.lowercased())))
        }
        guard let first = text.firstIndex(where: isCore), let last = text.lastIndex(where: isCore) else {
            return !text.allSatisfy { punctuation.contains($0) }
        }
        let core = Array(text[first...last])
        let hasLetter = core.contains(where: \.isLetter)
        let hasDigit = core.contains(where: \.isNumber)
        for (i, c) in core.enumerated() where !isCore(c) {
            let between = i > 0 && i < core.count - 1 && core[i - 1].isNumber && core[i + 1].isNumber
            let joins = i > 0 && i < core.count - 1 && core[i - 1].isLetter && core[i + 1].isLetter
            // Apostrophes and hyphens; a decimal point, a date's or a time's separator between
            // digits (3,50 09/23/2017 13:48); a dash or slash joining words (played—only, n/a).
            if "'’-".contains(c) || (".,:/".contains(c) && between) || ("—–/".contains(c) && joins) { continue }
            return true
        }
        if hasLetter && hasDigit {
            let letters = String(core.filter(\.isLetter)).lowercased()
            let ordinal =
                core.first?.isNumber == true && ["st", "nd", "rd", "th", "er", "re", "e", "ème"].contains(letters)
            // A time written the French way: 12h42, 9h.
            let time = String(core).wholeMatch(of: /[0-9]{1,2}h([0-9]{2})?/) != nil
            if !ordinal && !time { return true }
        }
        for i in 1..<max(1, core.count) where core[i].isUppercase && core[i - 1].isLowercase {
            return true
        }
        return false
    }

    /// Whether the dictionaries know each of `tokens` as `checkingSpelling` judges a word's text
    /// (`SpellChecker.wordsAsked(byToken:)`, `SpellChecker.languagesKnowingToken`): nil for a
    /// token without letters. `knownIn` answers which languages know each word asked.
    static func knownTokens(_ tokens: [String], knownIn: ([String]) -> [String: Set<String>]) -> [String: Bool?] {
        guard !tokens.isEmpty else { return [:] }
        let asked = knownIn(Array(Set(tokens.flatMap { SpellChecker.wordsAsked(byToken: $0) })))
        return Dictionary(
            tokens.map { t in (t, SpellChecker.languagesKnowingToken(t) { asked[$0] ?? [] }.map { !$0.isEmpty }) },
            uniquingKeysWith: { a, _ in a })
    }

    /// `result` with each word's ``RecognizedWord/isKnownWord`` and
    /// ``RecognizedWord/withAccents`` set by `spelling`. Suggestions are not asked for here:
    /// Hunspell takes 0.1–0.2 s per unknown word (9 s for a page of 50); the editor asks for them
    /// when its menu opens.
    public static func checkingSpelling(_ result: RecognitionResult, with spelling: SpellChecker) -> RecognitionResult {
        checkingSpelling(result) { words in
            Dictionary(words.map { ($0, spelling.languagesKnowing($0)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// `checkingSpelling(_:with:)` with `knownIn` as the dictionaries: given words, the Tesseract
    /// languages whose dictionaries know each (a word left out: none). It is asked twice: about
    /// the words `SpellChecker.wordsAsked(byToken:)` lists for each word's text and the words
    /// broken at a line's end (`WordEvidence.brokenWord`: both parts are known when the whole
    /// is), then about the accented spellings of the words their line's language does not know
    /// (`Accents.spellingsToAsk`; a word in capitals known so is known, `Accents.isKnownInCapitals`).
    public static func checkingSpelling(
        _ result: RecognitionResult, knownIn: ([String]) -> [String: Set<String>]
    ) -> RecognitionResult {
        var result = result
        let words = result.words
        // A word broken at the end of its line ("func-", "tion.") is judged whole, both parts.
        let broken = words.indices.dropLast().compactMap { i -> (Int, String)? in
            guard words[i + 1].line != words[i].line else { return nil }
            return WordEvidence.brokenWord(words[i].text, words[i + 1].text).map { (i, $0) }
        }
        let asked = knownIn(
            Array(Set(words.flatMap { SpellChecker.wordsAsked(byToken: $0.text) } + broken.map(\.1))))
        var known = words.map { SpellChecker.languagesKnowingToken($0.text) { asked[$0] ?? [] } }
        for (i, whole) in broken {
            guard let languages = asked[whole], !languages.isEmpty else { continue }
            known[i] = languages
            known[i + 1] = languages
        }
        let lineLanguage = Accents.lineLanguages(
            lines: words.map(\.line), known: known,
            languages: words.map { ($0.language, $0.text.filter(\.isLetter).count) })
        var capitals: [Int: Int] = [:]
        for word in words {
            for c in word.text where c.isLetter { capitals[word.line, default: 0] += c.isUppercase ? 1 : -1 }
        }
        // Mail and web addresses are spelled as they are (www.fete-du-village.fr).
        let language = { (i: Int) in isAddress(words[i].text) ? nil : lineLanguage[words[i].line] }
        let spellings = words.indices.flatMap { i in
            language(i).map { Accents.spellingsToAsk(for: words[i].text, knownIn: known[i], language: $0) } ?? []
        }
        let respellings = spellings.isEmpty ? [:] : knownIn(Array(Set(spellings)))
        for i in words.indices {
            let language = language(i)
            let isKnown = { (w: String) in language.map { respellings[w]?.contains($0) ?? false } ?? false }
            let inCapitals =
                language.map {
                    Accents.isKnownInCapitals(words[i].text, knownIn: known[i], language: $0, isKnown: isKnown)
                } ?? false
            result.words[i].isKnownWord = inCapitals ? true : known[i].map { !$0.isEmpty }
            // A sentence starts a line or follows its end: what makes a lone A an À.
            let startsSentence =
                i == 0 || words[i - 1].line != words[i].line
                || words[i - 1].text.last.map { ".!?…:".contains($0) } == true
            result.words[i].withAccents =
                language.map {
                    Accents.respelled(
                        words[i].text, knownIn: known[i], language: $0,
                        lineIsCapitals: capitals[words[i].line, default: 0] > 0, startsSentence: startsSentence,
                        isKnown: isKnown)
                } ?? []
        }
        return result
    }
}
