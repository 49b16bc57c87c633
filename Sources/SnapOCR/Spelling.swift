import SnapSpelling

/// The spelling dictionaries a recognition weighs its readings with and marks its words by:
/// Hunspell in this process (`SpellChecker`), or in the spelling process (`SpellingProcess`, in
/// the worker). Asked a list of words at a time, as a process answers best. Not thread-safe: one
/// recognition's thread uses it.
final class Spelling {
    private var apart: SpellingProcess?
    private var here: SpellChecker?
    private let languages: [String]

    /// Loads the dictionaries of `languages` in the spelling process started from `executable`,
    /// or in this process when `executable` is nil or the process cannot load them.
    /// - Throws: `SpellingError.noDictionary` when none of the languages has a dictionary.
    init(languages: [String], executable: String?) throws {
        self.languages = languages
        if let executable {
            let process = try? SpellingProcess(executable: executable, languages: languages)
            if let process, (try? process.dictionaryNames()) != nil {
                apart = process
                return
            }
            process?.cancel()
        }
        here = try SpellChecker(languages: languages)
    }

    /// Stops the spelling process, if there is one.
    func cancel() { apart?.cancel() }

    /// The words among `words` that a language's main dictionary knows (`SpellChecker.isKnown`):
    /// what readings are weighed with.
    func known(among words: [String]) -> Set<String> {
        let distinct = Array(Set(words))
        return Set(zip(distinct, asking { try $0.known(distinct) } ?? distinct.map(isKnownHere)).filter(\.1).map(\.0))
    }

    /// The Tesseract languages whose dictionaries know each of `words`
    /// (`SpellChecker.languagesKnowing`): what words are marked by.
    func knownIn(among words: [String]) -> [String: Set<String>] {
        let distinct = Array(Set(words))
        let known = asking { try $0.knownIn(distinct) } ?? distinct.map { here?.languagesKnowing($0) ?? [] }
        return Dictionary(uniqueKeysWithValues: zip(distinct, known))
    }

    private func isKnownHere(_ word: String) -> Bool { here?.isKnown(word) ?? false }

    /// `question` answered by the spelling process; nil when there is none. A spelling process
    /// that fails leaves its dictionaries to be loaded here (an empty answer if that fails too).
    private func asking<T>(_ question: (SpellingProcess) throws -> T) -> T? {
        guard let apart else { return nil }
        if let answer = try? question(apart) { return answer }
        apart.cancel()
        self.apart = nil
        here = try? SpellChecker(languages: languages)
        return nil
    }

    /// `WordEvidence` of each of `texts`, the dictionaries asked once for all of them.
    func evidence(of texts: [String]) -> [WordEvidence] {
        let known = known(among: texts.flatMap(WordEvidence.wordsAsked(in:)))
        return texts.map { WordEvidence(text: $0, isKnown: known.contains) }
    }

    /// `result` with each word's `isKnownWord` and `withAccents` set
    /// (`Proofreading.checkingSpelling`).
    func checking(_ result: RecognitionResult) -> RecognitionResult {
        Proofreading.checkingSpelling(result, knownIn: knownIn(among:))
    }
}
