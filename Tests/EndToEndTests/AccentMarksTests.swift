import Foundation
import SnapTestSupport
import Testing

/// Issue 42: a French letter whose print lost two accents (`lost-accents-letter.jpg`, made by
/// Tests/Fixtures/make_fixtures.py: "hate" printed for "hâte", "A" for "À"), read by the real
/// Tesseract and checked by the real Hunspell dictionaries. Both words are read as printed and
/// confidently ("hate" is an English word); the French dictionary of their line's language knows
/// only the accented spellings, so both are marked, and M-Space offers the accented word first.
@Suite struct AccentMarksTests {
    static let letter = TestPaths.fixture("lost-accents-letter.jpg")

    @Test func wordsMissingTheirLinesAccentsAreMarkedWithTheAccentedSpelling() throws {
        let r = try lovesnap(["ocr", "--json", Self.letter])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let printed = try String(contentsOfFile: TestPaths.fixture("lost-accents-letter.txt"), encoding: .utf8)
        #expect(doc["text"] as? String == printed)
        let words = try #require(doc["words"] as? [[String: Any]])
        let respelled = words.filter { ($0["withAccents"] as? [String])?.isEmpty == false }.map {
            "\($0["text"] as? String ?? "?")→\(($0["withAccents"] as? [String] ?? []).joined(separator: "|"))"
        }
        #expect(respelled == ["hate→hâte", "A→À"])
        let accentDoubts = words.filter { ($0["doubts"] as? [String])?.contains("missingAccent") == true }
        #expect(accentDoubts.map { $0["text"] as? String } == ["hate", "A"])
        #expect(accentDoubts.allSatisfy { $0["uncertain"] as? Bool == true })
        // Every other word of the letter is right, and none of them is doubted for its accents.
        #expect(words.count == 43)
    }

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
    func theAccentedSpellingComesFirstInTheMenuAndEnterPutsItIn() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-accent")
        try FileManager.default.copyItem(atPath: Self.letter, toPath: dir.appendingPathComponent("lettre.jpg").path)
        let t = try TmuxSession([TestPaths.lovesnap, "lettre.jpg"], in: dir, label: "lsnap-accent")
        defer { t.kill() }
        var screen = try t.waitUntil("the OCR result") { $0.count > 21 && $0[21].contains("Read 8 lines (conf ") }
        // The text read exists nowhere on disk: "Modified", as nano marks a buffer from a pipe.
        #expect(screen[0].contains("2 uncertain  Modified  conf 95"))
        #expect(screen[3] == "Ma chère amie, j'ai hate de te revoir,")
        try t.press("M-]")
        try t.press("M-Space")
        screen = try t.waitFor("Replace \"hate\" with:")
        #expect(screen[4].hasPrefix("de marcher avec toi > hâte  (accent)"))
        #expect(screen[5].hasPrefix("quand le soleil desc  hate  (as it is)"))
        try t.press("Enter")
        screen = try t.waitFor("Ma chère amie, j'ai hâte de te revoir,")
        try t.press("M-]")
        try t.press("M-Space")
        screen = try t.waitFor("Replace \"A\" with:")
        #expect(screen[8].hasPrefix("> À  (accent)"))
        try t.press("Enter")
        screen = try t.waitFor("À bientôt, mon amour, je pense à toi")
        #expect(screen[0].contains("no uncertain words"))
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
    }
}
