import Foundation
import SnapTestSupport
import Testing

/// nano's keys in the real editor in tmux: go to line (^_), the mark (M-A) with Ctrl-Right, a
/// region cut (^K) and paste (^U), line numbers (M-#), word count (M-D), "Unbound key".
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct NanoKeysTmuxTests {
    // Screen rows at 80x24: 0 title, 1...20 text, 21 status/prompt, 22...23 help lines.
    static let statusRow = 21

    /// lovesnap opened on a copy of the French letter photo (`lettre.jpg`) in a folder of its own.
    func editingTheLetter(label: String) throws -> (TmuxSession, URL) {
        let dir = TestPaths.temporaryDirectory(label)
        try FileManager.default.copyItem(
            atPath: TestPaths.fixture("lost-accents-letter.jpg"), toPath: dir.appendingPathComponent("lettre.jpg").path)
        return (try TmuxSession([TestPaths.lovesnap, "lettre.jpg"], in: dir, label: label), dir)
    }

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    @Test func goToLineMarkCutPasteLineNumbersAndUnboundKeys() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-keys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("raven.txt")
        try Data("Once upon a midnight dreary,\nwhile I pondered,\nweak and weary\n".utf8).write(to: file)
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "raven.txt"], in: dir, label: "lsnap-keys")
        defer { t.kill() }
        try t.waitFor("[ Read 3 lines ]")

        // ^_ -3,7 ⏎: line 2 (-1 is the empty line after the final newline, as in nano), before "I".
        try t.press("C-_")
        try t.waitFor("Enter line number, column number: ")
        try t.type("-3,7")
        try t.press("Enter")
        try t.waitUntil("the prompt closed") { !$0[Self.statusRow].hasPrefix("Enter line") }
        // M-A, Ctrl-Right, ^K: "I " cut; End, ^U puts it at the end of the line.
        try t.press("M-a")
        try t.waitFor("[ Mark Set ]")
        try t.press("C-Right")
        try t.press("C-k")
        try t.waitFor("while pondered,")
        try t.press("End")
        try t.press("C-u")
        var screen = try t.waitFor("while pondered,I")
        #expect(screen[2] == "while pondered,I")

        try t.press("M-d")
        screen = try t.waitUntil("the word count") { status($0).hasPrefix("[ 10 words") }
        #expect(status(screen) == "[ 10 words,  3 lines,  62 characters ]")
        try t.press("M-#")
        // Until the whole buffer is repainted with its numbers: a capture taken while ncurses
        // paints can hold line 1 numbered and lines 2–4 not yet (seen once under CI's load).
        let numbered = ["1 Once upon a midnight dreary,", "2 while pondered,I", "3 weak and weary", "4"]
        screen = try t.waitUntil("the line numbers") { Array($0[1...4]) == numbered }
        #expect(Array(screen[1...4]) == numbered)
        try t.press("M-k")
        screen = try t.waitFor("Unbound key")
        #expect(status(screen) == "[ Unbound key: M-K ]")

        try t.press("C-s")
        try t.waitFor("[ Wrote 3 lines ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(
            try Data(contentsOf: file) == Data("Once upon a midnight dreary,\nwhile pondered,I \nweak and weary\n".utf8)
        )
    }

    /// M-R in the replace prompt: groups in the replacement; a bad pattern is a message, and the
    /// editor goes on. An NFD search finds NFC text.
    @Test func regexReplaceWithGroupsBadPatternAndCanonicalSearch() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-regex")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("names.txt")
        try Data("Lenore Smith\nLenore Jones\nla for\u{EA}t.\n".utf8).write(to: file)
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "names.txt"], in: dir, label: "lsnap-regex")
        defer { t.kill() }
        try t.waitFor("[ Read 3 lines ]")

        try t.press("C-w")
        try t.waitFor("Search: ")
        try t.press("M-r")
        try t.waitFor("Search [Regexp]: ")
        try t.type("a(b")
        try t.press("Enter")
        var screen = try t.waitFor("Bad regex")
        #expect(status(screen) == "[ Bad regex \"a(b\": expected ')' ]")

        try t.press("C-\\")
        try t.waitFor("Search (to replace) [Regexp]")
        try t.type("^(\\w+) (\\w+)$")
        try t.press("Enter")
        try t.waitFor("Replace with: ")
        try t.type("$2, \\1")
        try t.press("Enter")
        try t.waitFor("Replace this instance?")
        try t.type("a")
        screen = try t.waitUntil("the replace count") { status($0).hasPrefix("[ Replaced") }
        #expect(status(screen) == "[ Replaced 2 occurrences ]")
        #expect(Array(screen[1...3]) == ["Smith, Lenore", "Jones, Lenore", "la forêt."])

        // Plain text again (M-R off), searched for in NFD: the NFC "forêt" is found.
        try t.press("C-w")
        try t.waitFor("Search [Regexp]")
        try t.press("M-r")
        try t.waitUntil("regex off") { !$0[Self.statusRow].contains("Regexp") }
        try t.type("fore\u{302}t")
        try t.press("Enter")
        try t.press("C-c")
        screen = try t.waitFor("line 3/4")
        #expect(status(screen) == "[ line 3/4 (75%), col 4/10 (40%), char 32/39 (82%) ]")
        // M-A: accents ignored, "foret" finds "forêt" (the only one).
        try t.press("C-w")
        try t.waitFor("Search [")
        try t.press("M-a")
        try t.waitFor("[Accents Ignored]")
        try t.type("foret")
        try t.press("Enter")
        screen = try t.waitFor("[ This is the only occurrence ]")

        try t.press("C-s")
        try t.waitFor("[ Wrote 3 lines ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(try Data(contentsOf: file) == Data("Smith, Lenore\nJones, Lenore\nla for\u{EA}t.\n".utf8))
    }

    /// ^G at 20x6: the help text is wrapped to 20 columns, scrolls to its last line, and any other
    /// key closes it.
    @Test func theHelpScreenFitsAndScrollsAt20x6() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-help")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("Lenore\n".utf8).write(to: dir.appendingPathComponent("p.txt"))
        let t = try TmuxSession(
            [TestPaths.lovesnap, "edit", "p.txt"], in: dir, columns: 20, rows: 6, label: "lsnap-help")
        defer { t.kill() }
        try t.waitFor("Lenore")
        try t.press("C-g")
        var screen = try t.waitFor("LoveInASnap: fix the")
        #expect(Array(screen[1...2]) == ["LoveInASnap: fix the", "poem read from the"])
        #expect(screen[4].hasPrefix("^X Close"))
        // One line a page at this size: more pages than the help has lines, in one tmux call.
        // The last binding is the file browser's (M-/).
        _ = try t.tmux(["send-keys", "-t", t.target] + Array(repeating: "C-v", count: 600))
        screen = try t.waitUntil("the last page", timeout: 60) {
            Array($0[1...2]) == ["M-\\ the first entry", "M-/ the last entry"]
        }
        try t.type("q")
        screen = try t.waitUntil("the text again") { $0[1] == "Lenore" }
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
    }

    /// TERM=dumb cannot move the cursor: one clear line and exit 1, before anything is drawn.
    @Test func aDumbTerminalIsAClearErrorBeforeDrawing() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-dumb")
        defer { try? FileManager.default.removeItem(at: dir) }
        // stderr to a file: tmux may clear a pane's first row when its program ends at once.
        let t = try TmuxSession(
            ["/bin/sh", "-c", "exec \"$0\" edit p.txt 2>err.txt", TestPaths.lovesnap], in: dir,
            environment: ["TERM": "dumb"], label: "lsnap-dumb")
        defer { t.kill() }
        #expect(try t.waitForExit() == 1)
        let stderr = try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8)
        #expect(stderr == "lovesnap: TERM \"dumb\" cannot move the cursor; the editor needs one that can\n")
        #expect(try t.screen().allSatisfy { $0.isEmpty || $0.hasPrefix("Pane is dead") })  // nothing drawn
    }

    /// nano 7.2's Suspend: ^Z says how ("^T^Z"); ^T ^Z stops lovesnap as a job of its shell, `fg`
    /// brings it back with the text as it was, and the editor goes on.
    @Test func controlTControlZSuspendsUntilFg() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-suspend")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("raven.txt")
        try Data("Once upon a midnight dreary,\n".utf8).write(to: file)
        let t = try TmuxSession(["/bin/bash", "--norc", "--noprofile", "-i"], in: dir, label: "lsnap-suspend")
        defer { t.kill() }
        try t.type("PS1='shell> '; \(TestPaths.lovesnap) edit raven.txt")
        try t.press("Enter")
        try t.waitFor("[ Read 1 line ]")
        try t.type("Lo, ")
        try t.press("C-z")
        var screen = try t.waitUntil("the hint") { status($0) == "[ To suspend, type ^T^Z ]" }
        #expect(screen[1] == "Lo, Once upon a midnight dreary,")
        try t.press("C-t")
        screen = try t.waitFor("Command to execute")
        #expect(screen.joined(separator: "\n").contains("^Z Suspend"))
        try t.press("C-z")
        screen = try t.waitFor("Stopped")
        #expect(screen.contains("Use \"fg\" to return to lovesnap."))
        #expect(screen.contains { $0.hasPrefix("[1]+  Stopped") })
        try t.type("fg")
        try t.press("Enter")
        screen = try t.waitUntil("the editor back") { $0[1] == "Lo, Once upon a midnight dreary," }
        #expect(screen[0].hasSuffix("Modified"))
        // It reads keys as before: raw mode is back (^C is not an interrupt), and so are saves.
        try t.press("C-c")
        try t.waitFor("[ line 1/2 (50%)")
        try t.press("C-s")
        try t.waitFor("[ Wrote 1 line ]")
        try t.press("C-x")
        try t.waitUntil("the shell's prompt") { $0.last { !$0.isEmpty } == "shell>" }
        // A shell's `fg` ends with the job: its status is lovesnap's.
        try t.type("echo \"exit status $?\"")
        try t.press("Enter")
        try t.waitFor("exit status 0")
        #expect(try String(contentsOf: file, encoding: .utf8) == "Lo, Once upon a midnight dreary,\n")
    }

    /// Run as the terminal's own command (no shell to `fg` it), ^T ^Z is refused, not a stop
    /// nobody could end.
    @Test func suspendIsRefusedWithoutAShell() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-nosuspend")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("Once\n".utf8).write(to: dir.appendingPathComponent("once.txt"))
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "once.txt"], in: dir, label: "lsnap-nosuspend")
        defer { t.kill() }
        try t.waitFor("[ Read 1 line ]")
        try t.press("C-t")
        try t.waitFor("Command to execute")
        try t.press("C-z")
        let screen = try t.waitFor("Cannot suspend")
        #expect(status(screen) == "[ Cannot suspend: no shell to return to (lovesnap is not a shell's job) ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
    }

    /// ^J and M-J justify as nano 7.2 does (lines of at most 72 columns at 80), one undo step
    /// each; the words read from a photo keep their marks through them.
    @Test func controlJJustifiesAndTheMarksStay() throws {
        let (t, dir) = try editingTheLetter(label: "lsnap-justify")
        defer {
            t.kill()
            try? FileManager.default.removeItem(at: dir)
        }
        var screen = try t.waitUntil("the OCR result") { status($0).contains("Read 8 lines (conf ") }
        #expect(screen[0].contains("2 uncertain"))
        let stanza = [
            "Ma chère amie, j'ai hate de te revoir,", "de marcher avec toi au bord de la rivière",
            "quand le soleil descend sur les toits.",
        ]
        #expect(Array(screen[3...5]) == stanza)
        try t.press("C-n", "C-n")
        try t.press("C-j")
        screen = try t.waitFor("[ Justified paragraph ]")
        // (tmux's capture drops the space nano leaves at the end of a broken line.)
        #expect(screen[3] == "Ma chère amie, j'ai hate de te revoir, de marcher avec toi au bord de la")
        #expect(screen[4] == "rivière quand le soleil descend sur les toits.")
        #expect(screen[0].contains("2 uncertain"))
        #expect(try t.cursorPosition() == "5,0")  // the line after the paragraph
        // "hate" is still the uncertain word it was, found by M-] and said why.
        try t.press("M-\\")
        try t.press("M-]")
        screen = try t.waitUntil("the mark's reason") { status($0).contains("accent missing") }
        try t.press("M-u")
        screen = try t.waitFor("[ Undid justification ]")
        #expect(Array(screen[3...5]) == stanza)
        try t.press("M-j")
        screen = try t.waitFor("[ Justified file ]")
        #expect(screen[6] == "A bientôt, mon amour, je pense à toi chaque soir à la fenêtre de ma")
        #expect(screen[7] == "chambre.")
        #expect(screen[0].contains("2 uncertain"))
    }

    /// Keys typed while the photo is read go into its text once it is in, in order (they were
    /// dropped): nothing a user typed is lost.
    @Test func keysTypedWhileThePhotoIsReadGoIntoItsText() throws {
        let (t, dir) = try editingTheLetter(label: "lsnap-typeahead")
        defer {
            t.kill()
            try? FileManager.default.removeItem(at: dir)
        }
        var screen = try t.waitFor("Cancel OCR")
        #expect(!screen[0].contains("uncertain"))  // still reading
        try t.type("Ma ")
        try t.press("End")
        try t.type(" !")
        screen = try t.waitUntil("the keys in the text") { $0[1] == "Ma Lettre à Hélène !" }
        #expect(screen[0].contains("2 uncertain"))
        #expect(screen[3] == "Ma chère amie, j'ai hate de te revoir,")
        #expect(try t.cursorPosition() == "1,20")
        // The same while a photo is read for ^R: the keys go into the text once it is inserted.
        try t.press("C-r")
        try t.waitFor("File to insert")
        try t.type("lettre.jpg")
        try t.press("Enter")
        try t.waitFor("Cancel OCR")
        try t.press("M-\\")
        try t.type("Oh ")
        screen = try t.waitUntil("the inserted text and the keys") { $0[1] == "Oh Ma Lettre à Hélène !" }
        #expect(screen[0].contains("4 uncertain"))
    }

    /// nano's file browser, ^T in the File to insert and File Name to Write prompts: folders
    /// first, Enter opens a folder or takes a file at once; ^X goes back to the prompt as it was.
    @Test func controlTInTheFilePromptsBrowses() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-browse")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.resolvingSymlinksInPath().path
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("Lenore\n".utf8).write(to: dir.appendingPathComponent("sub/verse.txt"))
        try Data(repeating: 0x41, count: 3000).write(to: dir.appendingPathComponent("a.txt"))
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "poem.txt"], in: dir, label: "lsnap-browse")
        defer { t.kill() }
        try t.waitFor("New File")
        try t.press("C-r")
        try t.waitFor("File to insert")
        try t.press("C-t")
        var screen = try t.waitFor("DIR: ")
        #expect(screen[0].trimmingCharacters(in: .whitespaces) == "DIR: \(folder)/")
        #expect(
            screen[1].replacingOccurrences(of: " +", with: " ", options: .regularExpression)
                == ".. (parent dir) sub (dir) a.txt 2 KB")
        try t.press("Right")
        try t.press("Enter")
        screen = try t.waitFor("DIR: \(folder)/sub/")
        #expect(
            screen[1].replacingOccurrences(of: " +", with: " ", options: .regularExpression)
                == ".. (parent dir) verse.txt 7 B")
        try t.press("Right")
        try t.press("Enter")
        screen = try t.waitFor("Inserted 1 line")
        #expect(status(screen) == "[ Inserted 1 line from verse.txt ]")
        #expect(screen[1] == "Lenore")
        // From Write Out: ^X brings the prompt back with its answer.
        try t.press("C-o")
        try t.waitFor("File Name to Write: poem.txt")
        try t.press("C-t")
        try t.waitFor("DIR: \(folder)/")
        try t.press("C-x")
        screen = try t.waitFor("File Name to Write: poem.txt")
        // A folder that does not exist: the working folder, as nano opens.
        try t.press("C-k")
        try t.type("no-such-folder/x")
        try t.press("C-t")
        screen = try t.waitFor("DIR: \(folder)/")
        try t.press("C-x")
        try t.waitFor("File Name to Write: no-such-folder/x")
        try t.press("C-k")
        try t.type("poem.txt")
        try t.press("Enter")
        try t.waitFor("[ Wrote 1 line ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(try String(contentsOf: dir.appendingPathComponent("poem.txt"), encoding: .utf8) == "Lenore\n")
    }

    /// A name that is not UTF-8 (Latin-1 "café.txt") is listed, completed and taken as the
    /// editor shows such names, `\xE9`, and the file it names is the one read and asked about
    /// (the browser listed "caf\u{FFFD}.txt" and wrote a new file of that name).
    @Test func theBrowserAndTabKeepANameThatIsNotUTF8() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-latin1-name")
        defer { try? FileManager.default.removeItem(at: dir) }
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
        let path = Array(dir.path.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644)
        }
        #expect(fd >= 0)
        _ = write(fd, "latin1 name\n", 12)
        close(fd)
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "poem.txt"], in: dir, label: "lsnap-latin1")
        defer { t.kill() }
        try t.waitFor("New File")
        try t.press("C-r")
        try t.waitFor("File to insert")
        try t.type("caf")
        try t.press("Tab")
        try t.waitFor("File to insert: caf\\xE9.txt")
        try t.press("C-k")
        try t.press("C-t")
        var screen = try t.waitFor("DIR: ")
        #expect(
            screen[1].replacingOccurrences(of: " +", with: " ", options: .regularExpression)
                == ".. (parent dir) caf\\xE9.txt 12 B")
        try t.press("Right")
        try t.press("Enter")
        screen = try t.waitFor("Inserted 1 line")
        #expect(status(screen) == "[ Inserted 1 line from caf\\xE9.txt ]")
        #expect(screen[1] == "latin1 name")
        try t.press("C-o")
        try t.waitFor("File Name to Write")
        try t.press("C-t")
        try t.waitFor("DIR: ")
        try t.press("Right")
        try t.press("Enter")
        screen = try t.waitFor("OVERWRITE?")
        #expect(status(screen).hasPrefix("File \"caf\\xE9.txt\" exists; OVERWRITE?"))
        try t.press("C-c")
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.press("n")
        #expect(try t.waitForExit() == 0)
        // Nothing was written: the folder holds the one file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == 1)
    }
}
