import Foundation
import SnapTestSupport
import Testing

/// OCR again (M-O) in the real editor, with the real worker and engine: the languages prompt, M-L
/// for the accurate level, the progress screen, the new reading in place of the text as it was
/// read, undo and redo, and Write Out's export of the new reading.
///
/// `small-text-8px.png` (Tests/Fixtures/make_fixtures.py: the kettle poem in 8 px text) reads
/// "Lenore, the kettle hums your tune," at `--level fast` and "Lenore. the kettle hums your
/// tune." at `--level accurate` (the other three lines are the same), so the replacement shows.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct ReadAgainTmuxTests {
    static let titleRow = 0, statusRow = 21

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    static let rest = [
        "the curtains blush with early June.", "I wrote your name on misted glass",
        "and watched the quiet minutes pass.", "",
    ]

    /// The program's file deleted while the editor runs (a rebuild or an upgrade): M-O still starts
    /// the worker, from the program that is running (`/proc/self/exe`).
    @Test func metaOReadsAgainAfterTheProgramFileWasDeleted() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-gone")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            atPath: TestPaths.fixture("small-text-8px.png"), toPath: dir.appendingPathComponent("poem.png").path)
        let program = dir.appendingPathComponent("lovesnap-copy").path
        try FileManager.default.copyItem(atPath: TestPaths.lovesnap, toPath: program)
        let t = try TmuxSession([program, "poem.png"], in: dir, label: "lsnap-gone")
        defer { t.kill() }
        var screen = try t.waitUntil("the OCR result") { status($0).hasPrefix("[ Read ") }
        #expect(Array(screen[1...5]) == ["Lenore, the kettle hums your tune,"] + Self.rest)

        try FileManager.default.removeItem(atPath: program)
        try t.press("M-o")
        try t.waitFor("Read the photo again, languages: ")
        try t.press("Enter")
        screen = try t.waitUntil("the new reading", timeout: 120) { status($0).hasPrefix("[ Read poem.png again") }
        // One mark: "early", read right at 63, that the second recognizer reads "early." (its
        // cut took the stroke of the next J for a full stop): not lifted.
        #expect(
            status(screen).wholeMatch(
                of: #/\[ Read poem\.png again: 4 lines \(conf \d+, fast\); 1 uncertain; M-U undoes \]/#)
                != nil, "status: \(status(screen))")
        #expect(Array(screen[1...5]) == ["Lenore, the kettle hums your tune,"] + Self.rest)
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
    }

    @Test func metaOReadsThePhotoAgainAccuratelyInPlaceOfTheTextAndUndoBringsItBack() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-again")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            atPath: TestPaths.fixture("small-text-8px.png"), toPath: dir.appendingPathComponent("poem.png").path)
        let t = try TmuxSession([TestPaths.lovesnap, "poem.png"], in: dir, label: "lsnap-again")
        defer { t.kill() }

        var screen = try t.waitUntil("the OCR result") { status($0).hasPrefix("[ Read ") }
        #expect(Array(screen[1...5]) == ["Lenore, the kettle hums your tune,"] + Self.rest)
        // Read, not yet written anywhere: "Modified", as nano marks a buffer from a pipe.
        #expect(screen[Self.titleRow].contains("Modified"))

        // M-O: the languages as the command line gave them; M-L shows the accurate level.
        try t.press("M-o")
        // The prompt and its help bar are drawn in one refresh, but tmux may be asked for the
        // screen between the two lines' updates on a loaded machine: wait for both.
        screen = try t.waitUntil("the read-again prompt and its help bar") {
            $0.count > 23 && $0[Self.statusRow].hasPrefix("Read the photo again, languages: ")
                && $0[22...23].contains { $0.contains("M-L Accurate") }
        }
        #expect(screen[Self.statusRow] == "Read the photo again, languages: eng+fra")
        #expect(screen[22...23].contains { $0.contains("M-L Accurate") })
        try t.press("M-l")
        screen = try t.waitFor("Read the photo again [Accurate], languages: ")
        #expect(screen[Self.statusRow] == "Read the photo again [Accurate], languages: eng+fra")
        try t.press("Enter")

        // Progress like the first reading's, then the new reading in place of the unchanged text.
        // (8 px text at the accurate level is read several times over: tens of seconds here.)
        screen = try t.waitFor("Reading poem.png again (accurate, eng+fra)")
        #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces) == "Esc cancels" })
        #expect(screen[Self.statusRow] == "Esc cancels the OCR")
        screen = try t.waitUntil("the new reading", timeout: 120) { status($0).hasPrefix("[ Read poem.png again") }
        // No mark: "early", read right at 56, is read the same way by the second recognizer.
        #expect(
            status(screen).wholeMatch(
                of: #/\[ Read poem\.png again: 4 lines \(conf \d+, accurate\); M-U undoes \]/#)
                != nil, "status: \(status(screen))")
        #expect(Array(screen[1...5]) == ["Lenore. the kettle hums your tune."] + Self.rest)
        // A reading in place of a reading is as unsaved as the first.
        #expect(screen[Self.titleRow].contains("Modified"))

        // One undo step brings the old reading back; redo the new one.
        try t.press("M-u")
        screen = try t.waitFor("Undid replacement")
        #expect(Array(screen[1...5]) == ["Lenore, the kettle hums your tune,"] + Self.rest)
        try t.press("M-e")
        screen = try t.waitFor("Redid replacement")
        #expect(Array(screen[1...5]) == ["Lenore. the kettle hums your tune."] + Self.rest)

        // Write Out's export is the new reading's page, not the old one's (nor both).
        try t.press("C-o")
        try t.waitFor("File Name to Write: poem.txt")
        for _ in 0..<8 { try t.press("BSpace") }
        try t.type("poem.hocr")
        try t.press("Enter")
        screen = try t.waitUntil("the export") { status($0).hasPrefix("[ Wrote") }
        #expect(status(screen) == "[ Wrote 4 lines to poem.hocr ]")

        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
        let hocr = try String(contentsOf: dir.appendingPathComponent("poem.hocr"), encoding: .utf8)
        #expect(hocr.matches(of: /class=["']ocr_page["']/).count == 1)
        let words = hocr.matches(of: /class="ocrx_word"[^>]*>([^<\n]*)/).map { String($0.1) }
        #expect(words.count == 25)
        #expect(Array(words.prefix(6)) == ["Lenore.", "the", "kettle", "hums", "your", "tune."])
    }
}
