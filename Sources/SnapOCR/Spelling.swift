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

    /// The words among `words` that a dictionary knows (`SpellChecker.isKnown`). A spelling
    /// process that fails leaves its dictionaries to be loaded here (an empty answer if that
    /// fails too).
    func known(among words: [String]) -> Set<String> {
        let distinct = Array(Set(words))
        if let apart {
            if let known = try? apart.known(distinct) {
                return Set(zip(distinct, known).filter(\.1).map(\.0))
            }
            apart.cancel()
            self.apart = nil
            here = try? SpellChecker(languages: languages)
        }
        guard let here else { return [] }
        return Set(distinct.filter(here.isKnown))
    }

    /// `WordEvidence` of each of `texts`, the dictionaries asked once for all of them.
    func evidence(of texts: [String]) -> [WordEvidence] {
        let known = known(among: texts.flatMap(WordEvidence.wordsAsked(in:)))
        return texts.map { WordEvidence(text: $0, isKnown: known.contains) }
    }

    /// `result` with each word's `isKnownWord` set (`Proofreading.checkingSpelling`).
    func checking(_ result: RecognitionResult) -> RecognitionResult {
        let known = known(among: result.words.flatMap { SpellChecker.wordsAsked(byToken: $0.text) })
        return Proofreading.checkingSpelling(result, isKnown: known.contains)
    }
}
