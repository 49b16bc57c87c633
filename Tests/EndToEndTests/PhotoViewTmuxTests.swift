import Foundation
import SnapTestSupport
import Testing

/// The photo view in a real terminal (tmux, 100×40, chafa's symbols in the 256 colours): it opens
/// on a sample photo and draws, the highlight (pure yellow, palette 226) follows the cursor, a
/// region framed with the keyboard or the mouse is read and inserted; resizing redraws and a tiny
/// terminal says so. Then the clipboard (OSC 52, read back from tmux's paste buffer) and the list
/// of data found on the card fixture.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct PhotoViewTmuxTests {
    static let statusRow = 37

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    /// Whether a row is made only of chafa's symbols (block elements U+2580–U+259F) and spaces,
    /// with at least one symbol.
    func isPicture(_ row: String) -> Bool {
        let symbols = row.unicodeScalars.filter { (0x2580...0x259F).contains($0.value) }.count
        return symbols > 0 && row.unicodeScalars.allSatisfy { $0 == " " || (0x2580...0x259F).contains($0.value) }
    }

    /// The rows (0-based) holding a cell in palette colour 226 (the highlight's yellow).
    func highlightedRows(_ t: TmuxSession) throws -> [Int] {
        let rows = try t.tmux(["capture-pane", "-p", "-e", "-t", t.target]).components(separatedBy: "\n")
        return rows.indices.filter { rows[$0].contains(";5;226m") || rows[$0].contains(";5;226;") }
    }

    /// A word of `lovesnap ocr --json`, as the photo view reports it.
    struct ReadWord: Decodable {
        var text: String
        var confidence: Double
        var box: [Int]
        var line: Int
        var uncertain: Bool

        /// The photo view's status line for the word under the cursor.
        var report: String {
            "\"\(text)\" conf \(Int(confidence.rounded())) at \(box[0]),\(box[1]) \(box[2])×\(box[3]) px"
                + (uncertain ? ", uncertain" : "")
        }
        /// The row (0-based) of a 100 × 20-cell picture from row 5 of a photo `height` pixels high
        /// that the box's middle falls on.
        func middleRow(photoHeight height: Int) -> Int { 5 + (2 * box[1] + box[3]) * 20 / (2 * height) }
    }

    /// The words the same binary reads from `photo` (the expected boxes and confidences follow
    /// the preparation: the photo view must show what OCR found, whatever that is).
    func readWords(_ photo: String) throws -> [ReadWord] {
        let r = try run(TestPaths.lovesnap, ["ocr", "--json", photo])
        struct Document: Decodable { var words: [ReadWord] }
        return try JSONDecoder().decode(Document.self, from: Data(r.stdout.utf8)).words
    }

    /// The region Enter frames on `word`'s line: the line's words' bounds with a margin of a third
    /// of their height (at least 2 px), within the photo (`width` × `height`).
    func lineRegion(_ word: ReadWord, in words: [ReadWord], width: Int, height: Int) -> String {
        let line = words.filter { $0.line == word.line }
        let (left, top) = (line.map { $0.box[0] }.min()!, line.map { $0.box[1] }.min()!)
        let right = line.map { $0.box[0] + $0.box[2] }.max()!
        let bottom = line.map { $0.box[1] + $0.box[3] }.max()!
        let margin = max(2, (bottom - top) / 3)
        let (x, y) = (max(0, left - margin), max(0, top - margin))
        let (w, h) = (min(width, right + margin) - x, min(height, bottom + margin) - y)
        return "\(x),\(y),\(w),\(h)"
    }

    func start(
        _ photo: String, source: String, in dir: URL, graphics: String = "symbols", columns: Int = 100,
        rows: Int = 40
    ) throws -> TmuxSession {
        try FileManager.default.copyItem(atPath: source, toPath: dir.appendingPathComponent(photo).path)
        // `swift test` runs with NO_COLOR=1; an empty NO_COLOR asks for colour (no-color.org).
        return try TmuxSession(
            [TestPaths.lovesnap, photo], in: dir, environment: ["NO_COLOR": "", "LOVESNAP_GRAPHICS": graphics],
            columns: columns, rows: rows, label: "lsnap-photo")
    }

    @Test func aGraphicsProtocolPictureLeavesTheScreenWhole() throws {
        // tmux shows no sixel (it drops the sequence): the photo area stays blank, and the text
        // around it and after Esc is drawn in full (curses repaints what the picture covered).
        let dir = TestPaths.temporaryDirectory("lsnap-sixel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try start("kettle-photo.jpg", source: TestPaths.sample("kettle-photo.jpg"), in: dir, graphics: "sixel")
        defer { t.kill() }
        let first = try #require(try readWords(TestPaths.sample("kettle-photo.jpg")).first)
        #expect(first.text == "Lenore,")
        try t.waitUntil("the OCR result") { status($0).hasPrefix("[ Read 4 lines") }
        try t.press("M-p")
        try t.waitFor(first.report)
        var screen = try t.waitUntil("the picture sent") { $0[1...28].allSatisfy { $0.isEmpty } }
        #expect(screen[29] == "Lenore, the kettle hums your tune,")
        try t.press("Escape")
        screen = try t.waitUntil("the text") { $0[1] == "Lenore, the kettle hums your tune," }
        #expect(screen[4] == "and watched the quiet minutes pass.")
        #expect(screen[5...36].allSatisfy { $0.isEmpty })
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
    }

    @Test func thePhotoViewDrawsFollowsTheCursorAndReadsAFramedRegion() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-photo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try start("kettle-photo.jpg", source: TestPaths.sample("kettle-photo.jpg"), in: dir)
        defer { t.kill() }
        let words = try readWords(TestPaths.sample("kettle-photo.jpg"))
        let (first, and) = (try #require(words.first), try #require(words.first { $0.text == "and" }))
        // The photo is 1100 × 439 pixels.
        let (lineOne, lineFour) = (first.middleRow(photoHeight: 439), and.middleRow(photoHeight: 439))
        #expect((first.text, first.line, and.line) == ("Lenore,", 0, 3))
        try t.waitUntil("the OCR result") { status($0).hasPrefix("[ Read 4 lines") }
        let text = [
            "Lenore, the kettle hums your tune,", "the curtains blush with early June.",
            "I wrote your name on misted glass", "and watched the quiet minutes pass.",
        ]

        try t.press("M-p")
        try t.waitFor(first.report)
        // The photo fills the width: 100 × 20 cells, centred in the 28 rows above the text.
        var screen = try t.waitUntil("the photo") { s in s.indices.filter { isPicture(s[$0]) } == Array(5...24) }
        #expect(Array(screen[29...32]) == text)
        #expect(screen[38].hasPrefix("Esc Text") && screen[39].hasPrefix("Enter Frame"))
        // The highlight: a run of rows around the word's middle, and nowhere else.
        func highlights(_ row: Int) -> Bool {
            guard let rows = try? highlightedRows(t), let low = rows.first, let high = rows.last else { return false }
            return rows == Array(low...high) && rows.contains(row) && high - low <= 3
        }
        try t.waitUntil("the highlight on the first line") { _ in highlights(lineOne) }

        // Down three times: the cursor on "and", the highlight on the fourth line.
        try t.press("Down", "Down", "Down")
        try t.waitFor(and.report)
        try t.waitUntil("the highlight on the fourth line") { _ in highlights(lineFour) }
        #expect(try !highlightedRows(t).contains(lineOne))

        // Enter frames the line; Shift-Right widens it by a cell (11 px); Enter reads it.
        let region = lineRegion(and, in: words, width: 1100, height: 439)
        let r = region.split(separator: ",").map { Int($0)! }
        let wider = "\(r[0]),\(r[1]),\(r[2] + 11),\(r[3])"
        try t.press("Enter")
        try t.waitFor("Region \(region) px: Enter reads it")
        try t.press("S-Right")
        try t.waitFor("Region \(wider) px: Enter reads it")
        try t.press("Enter")
        screen = try t.waitUntil("the region's text") { status($0).hasPrefix("[ Inserted ") }
        #expect(status(screen).hasPrefix("[ Inserted 1 line from region \(wider) of kettle-photo.jpg (conf "))
        #expect(Array(screen[1...5]) == text[0...2] + [text[3], text[3]])
        #expect(screen[0].contains("Modified"))

        // One undo step takes it out again.
        try t.press("M-u")
        screen = try t.waitFor("Undid addition")
        #expect(Array(screen[1...5]) == text + [""])

        // Too small a terminal says so; back at full size the photo is drawn again.
        try t.press("M-p")
        try t.waitFor(and.report)
        try t.tmux(["resize-window", "-t", t.target, "-x", "30", "-y", "10"])
        try t.waitFor("The terminal is too small for")
        try t.tmux(["resize-window", "-t", t.target, "-x", "100", "-y", "40"])
        screen = try t.waitUntil("the photo again") { s in s.indices.filter { isPicture(s[$0]) } == Array(5...24) }
        try t.press("Escape")
        // The whole frame, not a capture taken while it is being written.
        screen = try t.waitUntil("the text without the photo") { s in s[1] == text[0] && !s.contains { isPicture($0) } }
        #expect(!screen.contains { isPicture($0) })

        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
    }

    @Test func theMouseFramesARegion() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-mouse")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try start("kettle-photo.jpg", source: TestPaths.sample("kettle-photo.jpg"), in: dir)
        defer { t.kill() }
        let first = try #require(try readWords(TestPaths.sample("kettle-photo.jpg")).first)
        try t.waitUntil("the OCR result") { status($0).hasPrefix("[ Read 4 lines") }
        try t.press("M-p")
        try t.waitFor(first.report)
        // SGR reports (1-based cells): press at column 12 of row 13, drag, release at column 80 of
        // row 15: the second line of the poem.
        try t.type("\u{1B}[<0;12;13M")
        try t.type("\u{1B}[<32;50;14M")
        try t.type("\u{1B}[<0;80;15m")
        try t.waitFor("Region 121,154,759,66 px: Enter reads it")
        try t.press("Enter")
        let screen = try t.waitUntil("the region's text") { status($0).hasPrefix("[ Inserted ") }
        #expect(screen[1] == "the curtains blush with early June.")
        #expect(screen[2] == "Lenore, the kettle hums your tune,")
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
    }

    @Test func metaCPutsTheLineOnTheClipboardThroughTmux() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-clip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try start("kettle-photo.jpg", source: TestPaths.sample("kettle-photo.jpg"), in: dir)
        defer { t.kill() }
        // tmux takes an application's OSC 52 as a paste buffer when set-clipboard is on.
        try t.tmux(["set-option", "-g", "set-clipboard", "on"])
        try t.waitUntil("the OCR result") { status($0).hasPrefix("[ Read 4 lines") }
        try t.press("M-c")
        try t.waitFor("[ Copied 1 line (35 characters) to the clipboard (OSC 52) ]")
        try t.waitUntil("the paste buffer") { _ in
            (try? t.tmux(["show-buffer"])) == "Lenore, the kettle hums your tune,\n"
        }
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
    }

    @Test func theCardsDataAreUnderlinedListedAndCopied() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-data")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try start("card.png", source: TestPaths.fixture("card-specimen.png"), in: dir)
        defer { t.kill() }
        try t.tmux(["set-option", "-g", "set-clipboard", "on"])
        try t.waitUntil("the OCR result") { status($0).hasPrefix("[ Read 7 lines") }
        // The card numbers are underlined; the one that fails the checksum in the warning colour.
        let styled = try t.tmux(["capture-pane", "-p", "-e", "-t", t.target]).components(separatedBy: "\n")
        #expect(styled[3].contains("\u{1B}[4m4111 1111 1111 1111"), "\(styled[3].debugDescription)")
        #expect(styled[4].contains("31m") && styled[4].contains("5555 5555 5555 4445"), "\(styled[4].debugDescription)")
        try t.press("M-f")
        // The list's rows may reach the terminal in more than one write: wait for its last.
        var screen = try t.waitUntil("the data list") { rows in
            rows.count > 5 && rows[1].contains("> card number  4111 1111 1111 1111  Visa  line 3")
                && rows[5].hasPrefix("  phone  ")
        }
        #expect(screen[2].hasPrefix("  card number  5555 5555 5555 4445  Mastercard  CHECK  line 4"))
        #expect(screen[3].hasPrefix("  expiry date  09/27  line 5"))
        #expect(screen[4].hasPrefix("  e-mail  raven@nevermore.org  line 7"))
        #expect(screen[5].hasPrefix("  phone  +33 6 12 34 56 78  → +33612345678  line 7"))
        try t.press("Down")
        screen = try t.waitFor("almost a card number — check these digits")
        try t.press("Enter")
        try t.waitUntil("the cursor on the second number") { _ in
            (try? t.cursorPosition()) == "4,0"
        }
        // The list opens on the first item at or after the cursor.
        try t.press("M-f")
        try t.waitFor("> card number  5555")
        try t.press("Down", "Down", "M-c")
        try t.waitFor("[ Copied the e-mail raven@nevermore.org to the clipboard (OSC 52) ]")
        try t.waitUntil("the paste buffer") { _ in (try? t.tmux(["show-buffer"])) == "raven@nevermore.org" }
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
    }
}
