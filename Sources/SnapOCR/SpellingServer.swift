import Foundation
import SnapSpelling

/// The spelling process's half of the worker–spelling protocol: `lovesnap __spelling LANGS`
/// loads the Hunspell dictionaries of the Tesseract languages `LANGS` (`fra+eng`, as `-l` takes
/// them) and answers, for each line of words it reads, which of them the dictionaries know.
///
/// On its standard output, one JSON object per line (JSON Lines, UTF-8, LF), each with `v`:
///
/// ```
/// {"dictionaries":["fr","en_US","en_GB"],"v":2}  once loaded (or {"failed":"…","v":2}, and exit 1)
/// {"known":[true,false,true],"knownIn":[["fra"],[],["eng","fra"]],"v":2}
///                                                for the line ["fenêtre","fenètre","cousin"] on stdin
/// ```
/// (`known`: whether each language's main dictionary knows each word, `SpellChecker.isKnown`, what
/// readings are weighed with; `knownIn`: the Tesseract languages whose dictionaries, any of them,
/// know each word, `SpellChecker.languagesKnowing`, what words are marked by.)
/// It ends at the end of its standard input. Hunspell's dictionaries for English and French hold
/// about 21 MiB; in the worker they raised its peak by that much on every doubtful page
/// (docs/measurements/speed.md). `SpellingProcess` is the worker's half.
public struct SpellingServer {
    /// The protocol version this build speaks and reads.
    public static let version = 2

    /// One answer line.
    struct Answer: Codable, Equatable, HelperLine {
        var v = SpellingServer.version
        var dictionaries: [String]?
        var known: [Bool]?
        var knownIn: [[String]]?
        var failed: String?
    }

    private let output: FileHandle

    /// - Parameter output: where the answers go (the standard output in the process).
    public init(output: FileHandle) {
        self.output = output
    }

    /// Loads the dictionaries of `languages` and answers the lines of `questions` until its end
    /// (each a JSON array of words; a line that is not one is answered `failed`).
    /// - Returns: false when no dictionary could be loaded (`SpellingError.noDictionary`, said
    ///   in a `failed` line) or an answer could not be written.
    public func serve(languages: [String], questions: FileHandle) -> Bool {
        let checker: SpellChecker
        do {
            checker = try SpellChecker(languages: languages)
        } catch {
            _ = send(Answer(failed: "\(error)"))
            return false
        }
        guard send(Answer(dictionaries: checker.dictionaryNames)) else { return false }
        var written = true
        WorkerClient.readLines(questions) { line in
            guard written else { return }
            guard let words = try? JSONDecoder().decode([String].self, from: line) else {
                written = send(Answer(failed: "not a JSON array of words"))
                return
            }
            written = send(
                Answer(known: words.map(checker.isKnown), knownIn: words.map { checker.languagesKnowing($0).sorted() }))
        }
        return written
    }

    private func send(_ answer: Answer) -> Bool {
        guard let line = try? answer.encodedLine() else { return false }
        return (try? output.write(contentsOf: line)) != nil
    }
}
