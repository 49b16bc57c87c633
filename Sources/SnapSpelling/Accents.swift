/// Accents that OCR leaves out: the spellings of a word with the accents its language writes,
/// and the language a line of words is written in.
///
/// A French line read with an accent missing is the typical eng+fra error on a poem: "hâte" read
/// "hate" (an English word, read at 96), "fenêtre" read "fenetre", a capital "À" read "A".
/// Pure functions; the dictionaries are asked through closures.
public enum Accents {
    /// For each language that writes accents (Tesseract code), the accented letters each plain
    /// letter may stand for, the most frequent in the language first.
    static let letters: [String: [Character: [Character]]] = [
        "fra": [
            "e": ["é", "è", "ê", "ë"], "a": ["à", "â"], "c": ["ç"], "i": ["î", "ï"], "o": ["ô"],
            "u": ["û", "ù", "ü"], "y": ["ÿ"],
            "E": ["É", "È", "Ê", "Ë"], "A": ["À", "Â"], "C": ["Ç"], "I": ["Î", "Ï"], "O": ["Ô"],
            "U": ["Û", "Ù", "Ü"],
        ]
    ]

    /// Whether `language` (a Tesseract code) writes accents this type knows.
    public static func writesAccents(_ language: String) -> Bool { letters[language] != nil }

    /// The spellings of `word` with one accent added, then with two, each accented letter in the
    /// order of `letters` (é before è): at most `limit`. Empty for a language without accents or a
    /// word without a letter that could take one.
    public static func spellings(of word: String, in language: String, limit: Int = 200) -> [String] {
        guard let table = letters[language] else { return [] }
        let chars = Array(word)
        let places = chars.indices.filter { table[chars[$0]] != nil }
        var out: [String] = []
        for i in places {
            for accented in table[chars[i]] ?? [] {
                var c = chars
                c[i] = accented
                out.append(String(c))
            }
        }
        for (n, i) in places.enumerated() {
            for j in places[(n + 1)...] {
                for a in table[chars[i]] ?? [] {
                    for b in table[chars[j]] ?? [] {
                        var c = chars
                        c[i] = a
                        c[j] = b
                        out.append(String(c))
                        if out.count >= limit { return out }
                    }
                }
            }
        }
        return Array(out.prefix(limit))
    }

    /// The language each line is written in, by the dictionaries: for each line (the `line` of
    /// each word), the language whose dictionary knows more of its words than any other's does;
    /// on a tie, the language Tesseract's models read most of its letters in (`languages`, nil
    /// when unknown); a line still undecided takes the whole text's language, decided the same way.
    ///
    /// - Parameters:
    ///   - lines: the line of each word (parallel to `known`).
    ///   - known: for each word, the languages whose dictionaries know it; nil when there is
    ///     nothing to judge (a digit, a single character).
    ///   - languages: for each word, the language Tesseract read it in
    ///     (`TessResultIteratorWordRecognitionLanguage`), and its letters.
    /// - Returns: the language of each line that has one.
    public static func lineLanguages(
        lines: [Int], known: [Set<String>?], languages: [(language: String?, letters: Int)]
    ) -> [Int: String] {
        func decided(_ indices: [Int]) -> String? {
            var counts: [String: Int] = [:]
            for i in indices { for l in known[i] ?? [] { counts[l, default: 0] += 1 } }
            let best = counts.values.max() ?? 0
            let leaders = counts.filter { $0.value == best && best > 0 }.map(\.key)
            if leaders.count == 1 { return leaders[0] }
            var letters: [String: Int] = [:]
            for i in indices { if let l = languages[i].language { letters[l, default: 0] += languages[i].letters } }
            let candidates = leaders.isEmpty ? Array(letters.keys) : leaders
            let most = candidates.map { letters[$0] ?? 0 }.max() ?? 0
            let winners = candidates.filter { (letters[$0] ?? 0) == most && most > 0 }
            return winners.count == 1 ? winners[0] : nil
        }
        let page = decided(Array(lines.indices))
        var out: [Int: String] = [:]
        for (line, indices) in Dictionary(grouping: lines.indices, by: { lines[$0] }) {
            if let language = decided(indices) ?? page { out[line] = language }
        }
        return out
    }

    /// The spellings of the word in `token` to ask `language`'s dictionary about
    /// (`spellings(of:in:)`), when that dictionary does not know it as read (`knownIn`: the
    /// languages whose dictionaries know it; nil when there is nothing to judge): empty otherwise.
    public static func spellingsToAsk(for token: String, knownIn: Set<String>?, language: String) -> [String] {
        guard writesAccents(language), let knownIn, !knownIn.contains(language) else { return [] }
        let core = WordEvidence.core(of: token)
        return core.count > 24 ? [] : spellings(of: core, in: language)
    }

    /// The spellings of the word `token` stands for with the accents its line's `language` needs,
    /// when that language's dictionary does not know it as read but knows it so (`hate` →
    /// `hâte`, `fenetre,` → `fenêtre,`: punctuation around it kept; `pres` → `prés`, `près`: each
    /// the dictionary knows with the fewest accents added, in the order of `spellings(of:in:)`, at
    /// most `limit`), or when it is
    /// a lone capital `A` starting a French sentence in a line not in capitals (`A bientôt` →
    /// `À bientôt`: the verb rarely starts a French sentence; in a title in capitals it is the
    /// verb, `IL Y A`; `vitamine A` and the initial `A.` are no sentence's start). Never for a word
    /// in capitals (`isKnownInCapitals`). Empty when there is none.
    ///
    /// - Parameters:
    ///   - knownIn: the languages whose dictionaries know the token as read (nil: nothing to judge).
    ///   - lineIsCapitals: whether most letters of the line are capitals.
    ///   - startsSentence: whether the token starts a line or follows a sentence's end (`.`, `!`,
    ///     `?`, `…`, `:`).
    ///   - isKnown: whether `language`'s dictionary knows a spelling (asked about
    ///     `spellingsToAsk(for:knownIn:language:)`).
    public static func respelled(
        _ token: String, knownIn: Set<String>?, language: String, lineIsCapitals: Bool, startsSentence: Bool,
        limit: Int = 3, isKnown: (String) -> Bool
    ) -> [String] {
        let core = WordEvidence.core(of: token)
        guard !core.isEmpty, let range = token.range(of: core) else { return [] }
        if language == "fra" && core == "A" {
            let initial = token[range.upperBound...].hasPrefix(".")
            guard !lineIsCapitals, startsSentence, !initial else { return [] }
            return [token.replacingCharacters(in: range, with: "À")]
        }
        guard !isCapitals(core) else { return [] }
        // The fewest accents added: "hâte", not also "hâté"; "prés" and "près" both.
        let known = spellingsToAsk(for: token, knownIn: knownIn, language: language).filter(isKnown)
        let added = { (s: String) in zip(s, core).filter { $0 != $1 }.count }
        let fewest = known.map(added).min()
        return known.filter { added($0) == fewest }.prefix(limit).map {
            token.replacingCharacters(in: range, with: $0)
        }
    }

    /// Whether `token` is a word in capitals that `language`'s dictionary knows with accents
    /// (`POESIE` for `POÉSIE`): capitals are often printed without their accents in French, so
    /// such a word is neither unknown nor missing an accent. `isKnown` as in `respelled`.
    public static func isKnownInCapitals(
        _ token: String, knownIn: Set<String>?, language: String, isKnown: (String) -> Bool
    ) -> Bool {
        isCapitals(WordEvidence.core(of: token))
            && spellingsToAsk(for: token, knownIn: knownIn, language: language).contains(where: isKnown)
    }

    /// Whether `word` has two letters or more, all capitals.
    static func isCapitals(_ word: String) -> Bool {
        let letters = word.filter(\.isLetter)
        return letters.count >= 2 && letters.allSatisfy(\.isUppercase)
    }
}
