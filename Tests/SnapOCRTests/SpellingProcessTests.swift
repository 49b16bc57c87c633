import Foundation
import SnapSpelling
import SnapTestSupport
import Testing

@testable import SnapOCR

/// The spelling process (`lovesnap __spelling LANGS`, `SpellingServer` and `SpellingProcess`):
/// Hunspell's dictionaries asked in a process of their own, with the answers they give here.
/// In `ReaderProcessTests` (serialized): the worker's helper processes, one at a time.
extension ReaderProcessTests {
    static let words = [
        "fenêtre", "fene\u{0302}tre", "fenètre", "kettle", "Lenore", "LENORE", "lenore", "j'attends", "cœur",
        "xqzv", "Près",
    ]

    @Test func theSpellingProcessAnswersAsHunspellHere() throws {
        let here = try SpellChecker(languages: ["fra", "eng"])
        let process = try SpellingProcess(executable: TestPaths.lovesnap, languages: ["fra", "eng"])
        #expect(try process.dictionaryNames() == ["fr", "en_US", "en_GB"])
        let known = try process.known(Self.words)
        #expect(known == Self.words.map(here.isKnown))
        #expect(try process.knownIn(Self.words) == Self.words.map(here.languagesKnowing))
        #expect(
            try process.knownIn(["hâte", "hate", "de", "harbour"]) == [["fra"], ["eng"], ["eng", "fra"], ["eng"]])
        #expect(known == [true, true, false, true, true, true, false, true, true, false, true])
        // Asked again, and nothing: each question has its own answer.
        #expect(try process.known(["maison", "mxison"]) == [true, false])
        #expect(try process.known([]) == [])
    }

    @Test func aLanguageWithoutADictionaryIsAFailureThatSaysWhy() throws {
        // Tesseract's `chi_sim` has no Hunspell dictionary of lovesnap's (`SpellChecker`).
        let process = try SpellingProcess(executable: TestPaths.lovesnap, languages: ["chi_sim"])
        #expect(throws: SpellingProcess.Failure(reason: "no spelling dictionary for chi_sim in /usr/share/hunspell")) {
            try process.dictionaryNames()
        }
        #expect(throws: SpellingError.noDictionary(languages: ["chi_sim"], directory: SpellChecker.defaultDirectory)) {
            try Spelling(languages: ["chi_sim"], executable: TestPaths.lovesnap)
        }
    }

    @Test func aSpellingProcessThatFailsLeavesTheDictionariesHere() throws {
        let expected = Set(
            zip(Self.words, Self.words.map(try SpellChecker(languages: ["fra", "eng"]).isKnown))
                .filter(\.1).map(\.0))
        // `/bin/false` exits with status 1 without a line; a path that does not exist cannot be started.
        for executable in ["/bin/false", "/nonexistent/lovesnap"] {
            let process = try SpellingProcess(executable: executable, languages: ["fra", "eng"])
            #expect(throws: SpellingProcess.Failure.self) { try process.dictionaryNames() }
            #expect(
                try Spelling(languages: ["fra", "eng"], executable: executable).known(among: Self.words) == expected)
        }
        // Killed once loaded: the next question is answered here.
        let spelling = try Spelling(languages: ["fra", "eng"], executable: TestPaths.lovesnap)
        #expect(spelling.known(among: Self.words) == expected)
        spelling.cancel()
        #expect(spelling.known(among: Self.words) == expected)
    }

    @Test func aSpellingProcessEndsWhenAsked() throws {
        let process = try SpellingProcess(executable: TestPaths.lovesnap, languages: ["eng"])
        #expect(try process.dictionaryNames() == ["en_US", "en_GB"])
        process.cancel()
        #expect(throws: SpellingProcess.Failure(reason: "the spelling process was stopped")) {
            try process.known(["kettle"])
        }
    }
}
