import CHunspell
import Foundation

/// Spelling dictionaries (Hunspell), asked whether a word is a word of any of their languages.
///
/// Not thread-safe: Hunspell's handles keep state between calls; use one checker per thread.
/// Loading takes about 0.3 s for English and French together (the French dictionary is large),
/// so callers load it while other work runs.
public final class SpellChecker {
    private let handles: [OpaquePointer]
    /// The dictionaries loaded, as Hunspell names them (e.g. `en_US`, `en_GB`, `fr`).
    public let dictionaryNames: [String]
    /// The Tesseract language (`eng`, `fra`) of each of `dictionaryNames`.
    public let dictionaryLanguages: [String]
    /// Whether each of `dictionaryNames` is its language's main dictionary (the first loaded).
    private let isMain: [Bool]

    /// Where Debian's hunspell-* packages put their dictionaries.
    public static let defaultDirectory = "/usr/share/hunspell"

    /// Loads the Hunspell dictionaries of each Tesseract language code that has some in `directory`
    /// (`eng` → `en_US` and `en_GB`, `fra` → `fr` or `fr_FR`); codes without one are skipped.
    ///
    /// - Parameters:
    ///   - languages: Tesseract traineddata names, as in `-l eng+fra` (e.g. `["fra", "eng"]`).
    ///   - directory: the folder holding `NAME.aff` and `NAME.dic` pairs.
    /// - Throws: `SpellingError.noDictionary` when none of the languages has a dictionary there.
    public init(languages: [String], directory: String = SpellChecker.defaultDirectory) throws {
        var handles: [OpaquePointer] = []
        var names: [String] = []
        var codes: [String] = []
        for code in languages {
            for choices in SpellChecker.dictionaryNames(forTesseractLanguage: code) {
                for name in choices {
                    let aff = "\(directory)/\(name).aff"
                    let dic = "\(directory)/\(name).dic"
                    guard FileManager.default.isReadableFile(atPath: aff),
                        FileManager.default.isReadableFile(atPath: dic), let handle = Hunspell_create(aff, dic)
                    else { continue }
                    handles.append(handle)
                    names.append(name)
                    codes.append(code)
                    break
                }
            }
        }
        guard !handles.isEmpty else {
            throw SpellingError.noDictionary(languages: languages, directory: directory)
        }
        self.handles = handles
        self.dictionaryNames = names
        self.dictionaryLanguages = codes
        self.isMain = codes.indices.map { i in !codes[..<i].contains(codes[i]) }
    }

    deinit {
        for handle in handles { Hunspell_destroy(handle) }
    }

    /// Whether each language's main dictionary (the first of its lists in
    /// `dictionaryNames(forTesseractLanguage:)`: `en_US`, `fr`) accepts `word` as it is spelled
    /// (Hunspell `Hunspell_spell`; Hunspell itself also accepts a capitalized or all-capitals form
    /// of a lower-case word). What ``WordEvidence`` weighs readings with: the choice between
    /// readings was measured with these (with `en_GB` too, a French page's misreading "theatre"
    /// for "théâtre" counted as a word). The word is passed in UTF-8, NFC: every Debian
    /// dictionary used here declares `SET UTF-8`.
    public func isKnown(_ word: String) -> Bool {
        let nfc = word.precomposedStringWithCanonicalMapping
        return zip(handles, isMain).contains { $0.1 && Hunspell_spell($0.0, nfc) != 0 }
    }

    /// Whether any loaded dictionary accepts `word` (`en_GB`'s `harbour` too): what marks a word
    /// unknown (`languagesKnowing(_:)` is not empty).
    public func isKnownInAnySpelling(_ word: String) -> Bool {
        !languagesKnowing(word).isEmpty
    }

    /// The Tesseract languages (`dictionaryLanguages`) whose dictionaries accept `word` as it is
    /// spelled (Hunspell `Hunspell_spell`, as `isKnown(_:)`); empty when none does.
    public func languagesKnowing(_ word: String) -> Set<String> {
        let nfc = word.precomposedStringWithCanonicalMapping
        return Set(zip(handles, dictionaryLanguages).filter { Hunspell_spell($0.0, nfc) != 0 }.map(\.1))
    }

    /// Whether any loaded dictionary (`isKnownInAnySpelling`) accepts the word in `token`, as ``WordEvidence`` judges
    /// tokens: punctuation around it ignored, a typographic apostrophe read as `'`, words joined by
    /// hyphens, dashes or slashes known when each part is, a possessive when its word is. Nil when there is nothing to judge: no letter, a digit, or a
    /// single character.
    public func isKnownToken(_ token: String) -> Bool? {
        SpellChecker.isKnownToken(token, isKnown: isKnownInAnySpelling)
    }

    /// `isKnownToken(_:)` with `isKnown` as the dictionaries: it is asked about the words
    /// `wordsAsked(byToken:)` lists.
    public static func isKnownToken(_ token: String, isKnown: (String) -> Bool) -> Bool? {
        WordEvidence.judgedWord(token).map { WordEvidence.isKnown(word: $0, isKnown) }
    }

    /// The Tesseract languages whose dictionaries know the word in `token`, judged as
    /// `isKnownToken(_:isKnown:)` judges it (words joined by hyphens, dashes or slashes are known in
    /// a language when each part is; a possessive when its word is); `knownIn` gives the languages knowing each word of `wordsAsked(byToken:)`.
    /// Nil when there is nothing to judge.
    public static func languagesKnowingToken(_ token: String, knownIn: (String) -> Set<String>) -> Set<String>? {
        guard let word = WordEvidence.judgedWord(token) else { return nil }
        let parts = WordEvidence.parts(of: word)
        let byParts = parts.count > 1 ? parts.map(knownIn).reduce(knownIn(parts[0])) { $0.intersection($1) } : []
        let byPossessed = WordEvidence.possessed(word).map(knownIn) ?? []
        return knownIn(word).union(byParts).union(byPossessed)
    }

    /// The words `isKnownToken(_:isKnown:)` may ask about for `token`: its word and, when
    /// joined, the parts, or the word a possessive stands on (none when there is nothing to judge).
    public static func wordsAsked(byToken token: String) -> [String] {
        WordEvidence.judgedWord(token).map(WordEvidence.wordsAsked(word:)) ?? []
    }

    /// Hunspell's suggestions for the word in `token` (punctuation around it kept around each
    /// suggestion), at most `limit`, taken from the loaded dictionaries in turn: each one's best,
    /// then each one's second, and so on (`Hunspell_suggest`, `Hunspell_free_list`). Taken one
    /// dictionary after the other, English filled every place: "ovoide" got ovoid, ovoids,
    /// "ovoid e" and devoid, never the French "ovoïde". Slow for long unknown words (tens of ms).
    public func suggestions(for token: String, limit: Int = 4) -> [String] {
        let core = WordEvidence.core(of: token)
        guard !core.isEmpty, let range = token.range(of: core) else { return [] }
        let prefix = token[..<range.lowerBound]
        let suffix = token[range.upperBound...]
        let nfc = core.precomposedStringWithCanonicalMapping
        let lists = handles.map { handle -> [String] in
            var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            let n = Hunspell_suggest(handle, &list, nfc)
            defer { Hunspell_free_list(handle, &list, n) }
            return (0..<Int(max(0, n))).compactMap { i in
                list?[i].map {
                    String(prefix) + String(cString: $0).precomposedStringWithCanonicalMapping + String(suffix)
                }
            }
        }
        var out: [String] = []
        for rank in 0..<(lists.map(\.count).max() ?? 0) {
            for list in lists where rank < list.count {
                let suggestion = list[rank]
                if suggestion != token && !out.contains(suggestion) { out.append(suggestion) }
            }
        }
        return Array(out.prefix(limit))
    }

    /// The Hunspell dictionaries of a Tesseract language code: each list's first one found is
    /// loaded. English loads both the American and the British spellings (`harbour`, `colour`
    /// are no errors in a British poem).
    static func dictionaryNames(forTesseractLanguage code: String) -> [[String]] {
        switch code {
        case "eng": return [["en_US", "en"], ["en_GB"]]
        case "fra": return [["fr", "fr_FR"]]
        case "deu": return [["de_DE", "de"]]
        case "spa": return [["es_ES", "es"]]
        case "ita": return [["it_IT", "it"]]
        case "por": return [["pt_PT", "pt_BR", "pt"]]
        case "nld": return [["nl_NL", "nl"]]
        default: return []
        }
    }
}

/// Why spelling dictionaries could not be used.
public enum SpellingError: Error, Equatable, CustomStringConvertible {
    /// None of `languages` has a Hunspell `.aff`/`.dic` pair in `directory`.
    case noDictionary(languages: [String], directory: String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .noDictionary(let languages, let directory):
            return "no spelling dictionary for \(languages.joined(separator: "+")) in \(directory)"
        }
    }
}
