import Foundation
import SnapTestSupport
import Testing

/// Write Out picks the format by the file name's extension, in the real editor in tmux: the
/// corrected words (a name replaced, a first letter mended) are what the hOCR and the PDF carry,
/// and the photo itself is never written.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct ExportTmuxTests {
    static let statusRow = 21

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    /// ^O, the default name replaced by `name`, Enter; the status line after it.
    func writeOut(_ t: TmuxSession, _ name: String, expect: String) throws -> String {
        try t.press("C-o")
        _ = try t.waitFor("File Name to Write")
        for _ in 0..<12 { try t.press("BSpace") }
        try t.type(name)
        try t.press("Enter")
        return status(try t.waitUntil(expect) { status($0).contains(expect) })
    }

    /// A PDF is not poured onto the terminal (a new user's screen filled with it), and nothing is
    /// read: refused before the OCR, a usage error, as gzip refuses.
    @Test func aPDFIsNotWrittenToATerminal() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-pdftty")
        defer { try? FileManager.default.removeItem(at: dir) }
        // stderr to a file (tmux may clear a pane's first row when its program ends at once);
        // standard output is the terminal.
        let t = try TmuxSession(
            [
                "/bin/sh", "-c", #"exec "$0" ocr --format pdf "$1" 2>err.txt"#, TestPaths.lovesnap,
                TestPaths.sample("kettle.png"),
            ], in: dir, label: "lsnap-pdftty")
        defer { t.kill() }
        #expect(try t.waitForExit() == 2)
        let stderr = try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8)
        #expect(stderr == "lovesnap: not writing a binary PDF to the terminal; give -o FILE or redirect it\n")
        #expect(try t.screen().allSatisfy { $0.isEmpty || $0.hasPrefix("Pane is dead") })  // no PDF shown
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["err.txt"])
    }

    /// A photo read along its detected lines has no documents (Tesseract's renderers follow its
    /// page layout): Write Out of a .pdf says so, and what makes one, on one 80-column line.
    @Test func aPhotoReadAlongItsLinesHasNoPDFAndSaysWhatMakesOne() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-nopdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            atPath: TestPaths.fixture("light-print-on-dark-card.jpg"),
            toPath: dir.appendingPathComponent("card.jpg").path)
        let t = try TmuxSession([TestPaths.lovesnap, "card.jpg"], in: dir, label: "lsnap-nopdf")
        defer { t.kill() }
        _ = try t.waitUntil("the reading") { status($0).hasPrefix("Read 7 lines") }
        let message = "No .pdf of text read by lines or a region: lovesnap --reading page makes one"
        let said = try writeOut(t, "card.pdf", expect: "No .pdf")
        #expect(said == "[ \(message) ]")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("card.pdf").path))
    }

    @Test func writeOutExportsTheCorrectedWordsAndRefusesThePhoto() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-export")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = dir.appendingPathComponent("kettle.png")
        try FileManager.default.copyItem(atPath: TestPaths.sample("kettle.png"), toPath: photo.path)
        let original = try Data(contentsOf: photo)
        let t = try TmuxSession([TestPaths.lovesnap, "kettle.png"], in: dir, label: "lsnap-export")
        defer { t.kill() }
        _ = try t.waitUntil("the reading") { status($0).hasPrefix("[ Read 4 lines") }
        // Replace-all: Lenore → Hélène.
        try t.press("C-\\")
        _ = try t.waitFor("Search (to replace)")
        try t.type("Lenore")
        try t.press("Enter")
        _ = try t.waitFor("Replace with")
        try t.type("Hélène")
        try t.press("Enter")
        _ = try t.waitFor("Replace this instance?")
        try t.press("a")
        _ = try t.waitUntil("the replacement") { status($0).contains("Replaced 1 occurrence") }
        // A first letter mended as nano users do: ^W kettle ⏎ (the cursor on its "k"), Delete, N.
        try t.press("C-w")
        _ = try t.waitFor("Search")
        try t.type("kettle")
        try t.press("Enter")
        try t.press("DC")
        try t.type("N")
        _ = try t.waitFor("the Nettle hums")

        #expect(try writeOut(t, "poem.hocr", expect: "Wrote") == "[ Wrote 4 lines to poem.hocr ]")
        #expect(try writeOut(t, "poem.pdf", expect: "Wrote") == "[ Wrote 4 lines to poem.pdf ]")
        #expect(
            try writeOut(t, "kettle.png", expect: "photo")
                == "[ kettle.png is the photo being edited; lovesnap will not overwrite it ]")
        #expect(
            try writeOut(t, "other.jpg", expect: "image")
                == "[ other.jpg is an image; write text or .hocr .tsv .xml .pdf ]")
        // A device is refused at once: "OVERWRITE?" was asked first, then the write refused.
        #expect(try writeOut(t, "/dev/full", expect: "regular") == "[ /dev/full: Not a regular file ]")
        // So is a folder that makes no file (as root; another user cannot open the file to write).
        #expect(
            try writeOut(t, "/proc/version", expect: "/proc/version:")
                == (geteuid() == 0
                    ? "[ /proc/version: cannot create a file in /proc: No such file or directory ]"
                    : "[ /proc/version: Permission denied ]"))
        try t.press("C-x")
        _ = try t.waitFor("Save modified buffer?")
        try t.press("n")
        #expect(try t.waitForExit() == 0)

        #expect(try Data(contentsOf: photo) == original)
        let hocr = try String(contentsOf: dir.appendingPathComponent("poem.hocr"), encoding: .utf8)
        let words = hocr.matches(of: /class="ocrx_word"[^>]*>([^<\n]*)/).map { String($0.1) }
        #expect(Array(words.prefix(3)) == ["Hélène,", "the", "Nettle"])
        #expect(words.count == 25)
        let pdf = try run("/usr/bin/pdftotext", [dir.appendingPathComponent("poem.pdf").path, "-"])
        #expect(normalizedWhitespace(pdf.stdout).hasPrefix("Hélène, the Nettle hums your tune,"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("other.jpg").path))
    }
}
