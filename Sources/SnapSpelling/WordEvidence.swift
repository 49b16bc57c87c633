/// How much of a text reads as words of its languages: the letters in words a dictionary knows,
/// and the letters in words it does not.
///
/// A reading that finds the text well has many known letters and few unknown ones; one that
/// misses lines has fewer known letters; one that reads noise as text has many unknown ones.
/// Tokens are split on white space; punctuation around a token is ignored, a typographic
/// apostrophe counts as `'`, a token joined by hyphens, dashes or slashes is known when each of
/// its parts is, and a possessive when its word is.
/// Tokens holding a digit (amounts, dates) and one-letter tokens count as neither. Known words
/// count only from `minimumKnownLetters` letters on: noise read as text is full of short
/// fragments that happen to be words ("le", "et", "an", "the").
public struct WordEvidence: Equatable, Sendable {
    /// Letters (Unicode letters, counted as grapheme clusters) in tokens of at least
    /// `minimumKnownLetters` letters that a dictionary accepts.
    public var knownLetters: Int
    /// Letters in tokens no dictionary accepts.
    public var unknownLetters: Int

    /// Counts the evidence in `text`, asking `isKnown` about each token (already stripped of
    /// surrounding punctuation, NFC).
    public init(text: String, isKnown: (String) -> Bool) {
        var known = 0
        var unknown = 0
        for (word, letters) in WordEvidence.judged(in: text) {
            if WordEvidence.isKnown(word: word, isKnown) {
                if letters >= WordEvidence.minimumKnownLetters { known += letters }
            } else {
                unknown += letters
            }
        }
        knownLetters = known
        unknownLetters = unknown
    }

    /// Every word `init(text:isKnown:)` may ask about in `text`: each token judged and, when
    /// joined, its parts (and the word a possessive stands on); for asking a dictionary in another
    /// process all at once.
    public static func wordsAsked(in text: String) -> [String] {
        judged(in: text).flatMap { word, _ in wordsAsked(word: word) }
    }

    /// The tokens of `text` that count (`judgedWord(_:)`), with their letters.
    private static func judged(in text: String) -> [(word: String, letters: Int)] {
        text.split(whereSeparator: { $0.isWhitespace }).compactMap { token in
            judgedWord(String(token)).map { ($0, $0.filter(\.isLetter).count) }
        }
    }

    /// The word `token` stands for (punctuation around it ignored, `’` read as `'`), or nil when
    /// there is nothing to judge: a digit, no letter, a single character.
    static func judgedWord(_ token: String) -> String? {
        let word = core(of: token.replacingOccurrences(of: "\u{2019}", with: "'"))
        guard word.count >= 2, word.contains(where: \.isLetter), !word.contains(where: \.isNumber) else { return nil }
        return word
    }

    /// Whether `word` is known by `isKnown`: as it is; or joined by hyphens, dashes or slashes
    /// (`bien-aimée`, `played—only`, `PLAY/STOP`), each of its parts; or a possessive (`Sequencer's`),
    /// its word without `'s`.
    static func isKnown(word: String, _ isKnown: (String) -> Bool) -> Bool {
        let parts = self.parts(of: word)
        if isKnown(word) || (parts.count > 1 && parts.allSatisfy(isKnown)) { return true }
        return possessed(word).map(isKnown) ?? false
    }

    /// The words `isKnown(word:_:)` may ask about: `word`, its parts when joined, the word it
    /// possesses.
    static func wordsAsked(word: String) -> [String] {
        let parts = self.parts(of: word)
        return [word] + (parts.count > 1 ? parts : []) + (possessed(word).map { [$0] } ?? [])
    }

    /// The characters that join two words into one token.
    static let joiners: Set<Character> = ["-", "\u{2014}", "\u{2013}", "/"]

    /// The parts of `word` between joiners (`joiners`), empty parts left out.
    static func parts(of word: String) -> [String] {
        word.split(whereSeparator: { joiners.contains($0) }).map(String.init)
    }

    /// The word a possessive `word` (`Sequencer's`, `'` already for `’`) stands on; nil otherwise.
    static func possessed(_ word: String) -> String? {
        guard word.count > 3, word.hasSuffix("'s") || word.hasSuffix("'S") else { return nil }
        return String(word.dropLast(2))
    }

    /// The word a line-end break splits in two (`func-` at the end of a line, `tion.` starting
    /// the next: `function`), from the two tokens; nil when `first` does not end in a hyphen after
    /// a letter or `next` does not start with a small letter.
    public static func brokenWord(_ first: String, _ next: String) -> String? {
        guard first.hasSuffix("-"), first.dropLast().last?.isLetter == true, next.first?.isLowercase == true,
            let head = judgedWord(String(first.dropLast())), let tail = judgedWord(next) ?? core(of: next).nilIfEmpty
        else { return nil }
        return head + tail
    }

    /// The shortest known word that counts as evidence (letters).
    public static let minimumKnownLetters = 4

    /// The evidence as one number for comparing readings of the same photo: known letters minus
    /// unknown letters. Measured on pairs of readings of the same photos (a plain and a prepared
    /// one), this picked the better reading more often, and lost less when it picked the worse,
    /// than known letters alone or known minus half the unknown (scripts/ocr-benchmark.py).
    public var score: Int { knownLetters - unknownLetters }

    /// `token` without the punctuation and symbols around it (from its first letter or digit to its
    /// last; "" when it has none): the word a token stands for, here and in the proofreading rules.
    public static func core(of token: String) -> String {
        let isEdge: (Character) -> Bool = { !($0.isLetter || $0.isNumber) }
        guard let first = token.firstIndex(where: { !isEdge($0) }),
            let last = token.lastIndex(where: { !isEdge($0) })
        else { return "" }
        return String(token[first...last])
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
