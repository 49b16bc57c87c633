import Foundation
import SnapTestSupport
import Testing

/// A terminal that disappears while SIGHUP is ignored (`nohup`, `trap '' HUP`): every key read then
/// fails at once. lovesnap must not spin; it saves the buffer as for a hangup and ends.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TerminalLossTests {
    @Test func lostTerminalSavesTheBufferAndEnds() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-lost")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("f.txt")
        try "abc\n".write(to: file, atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            ["/bin/sh", "-c", "trap '' HUP; exec \"$0\" edit f.txt", TestPaths.lovesnap], in: dir)
        defer { session.kill() }
        let screen = try session.waitFor("abc")
        #expect(screen[21].trimmingCharacters(in: .whitespaces) == "[ Read 1 line ]")
        try session.type("X")
        _ = try session.waitFor("Xabc")
        session.kill()
        let save = dir.appendingPathComponent("f.txt.save").path
        var alive = true
        for _ in 0..<100 where alive || !FileManager.default.fileExists(atPath: save) {
            usleep(50_000)
            alive = ProcessEntry.all().contains {
                $0.arguments.contains(file.lastPathComponent) && $0.arguments.first?.hasSuffix("lovesnap") == true
                    && $0.state != "Z"
            }
        }
        #expect(!alive, "lovesnap still running after its terminal went away")
        #expect(try String(contentsOfFile: save, encoding: .utf8) == "Xabc\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "abc\n")
    }
}

/// `lovesnap edit` says what it opened, as nano does.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct OpenTextFileStatusTests {
    @Test func newFileSaysNewFileAndSavesWhatIsTyped() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-new")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "poem.txt"], in: dir)
        defer { t.kill() }
        let screen = try t.waitFor("New File")
        #expect(screen[21].trimmingCharacters(in: .whitespaces) == "[ New File ]")
        try t.type("Lenore")
        try t.press("C-o")
        _ = try t.waitFor("File Name to Write: poem.txt")
        try t.press("Enter")
        _ = try t.waitFor("Wrote 1 line")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        // A new file gets a final newline, as in nano.
        #expect(try String(contentsOf: dir.appendingPathComponent("poem.txt"), encoding: .utf8) == "Lenore\n")
    }
}

/// An OCR failure the status line cuts at the screen's width is printed whole when the editor ends.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct OCRFailureInTheEditorTests {
    @Test func missingLanguageIsShownThenPrintedInFull() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-deu")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A copy: the editor may write NAME.save beside the photo, never into the repository.
        try FileManager.default.copyItem(
            atPath: TestPaths.sample("kettle.png"), toPath: dir.appendingPathComponent("kettle.png").path)
        let t = try TmuxSession([TestPaths.lovesnap, "-l", "xyz", "kettle.png"], in: dir)
        defer { t.kill() }
        // Too long for its brackets: shown from the first column, cut with "…".
        let screen = try t.waitFor("Tesseract could not load language 'xyz'")
        #expect(screen[21] == "Tesseract could not load language 'xyz': file not found (/usr/share/tesseract-o…")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        let joined = try t.tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", t.target])  // with the scrolled-off part
        #expect(
            joined.contains(
                "lovesnap: Tesseract could not load language 'xyz': file not found (/usr/share/tesseract-ocr/5/tessdata/xyz.traineddata). Searched the tessdata folder /usr/share/tesseract-ocr/5/tessdata/. Install the language with `apt-get install tesseract-ocr-xyz` or give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files."
            ), "\(joined)")
    }
}
