import Foundation
import SnapTestSupport
import Testing

/// Files as nano treats them, in the real editor in tmux: DOS and Latin-1 files open as lines and
/// are written back byte for byte (only the edit differs), and the final-newline rule.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct FileFormatTmuxTests {
    // Screen rows at 80x24: 0 title, 1...20 text, 21 status/prompt, 22...23 help lines.
    static let statusRow = 21

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    /// Opens `name` holding `bytes`, types `typed` at the start, saves with ^S, exits, and returns
    /// the status line after opening and after saving, the first text rows, and the file's bytes.
    func edit(
        _ bytes: [UInt8], name: String, typing typed: String, label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws
        -> (opened: String, wrote: String, rows: [String], bytes: [UInt8])
    {
        let dir = TestPaths.temporaryDirectory(label)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        if !bytes.isEmpty { try Data(bytes).write(to: file) }
        let t = try TmuxSession([TestPaths.lovesnap, "edit", name], in: dir, label: label)
        defer { t.kill() }
        let opened = status(try t.waitUntil("the file read") { status($0).hasPrefix("[ ") })
        try t.type(typed)
        try t.press("C-s")
        let screen = try t.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        try t.press("C-x")
        #expect(try t.waitForExit() == 0, sourceLocation: sourceLocation)
        return (opened, status(screen), Array(screen[1...3]), Array(try Data(contentsOf: file)))
    }

    /// nano 7.2's ^Q (search backward), M-Q / M-W (previous / next match) and M-T (cut to the
    /// end), in the real terminal (issue 43).
    @Test func backwardSearchAndCutTillEndAsInNano() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-nanokeys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("the raven\nthe door\nthe end\n".utf8).write(to: notes)
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "notes.txt"], in: dir, label: "lsnap-nanokeys")
        defer { t.kill() }
        try t.waitUntil("the text file read") { status($0).hasPrefix("[ Read") }
        let cursor = t.cursorPosition
        try t.press("M-/")
        try t.press("C-q")
        try t.waitFor("Search [Backwards]:")
        try t.type("the")
        try t.press("Enter")
        try t.waitUntil("the last 'the'") { _ in (try? cursor()) == "3,0" }
        try t.press("M-q")
        try t.waitUntil("the one before") { _ in (try? cursor()) == "2,0" }
        try t.press("M-w")
        try t.waitUntil("the next one") { _ in (try? cursor()) == "3,0" }
        try t.press("M-q")
        try t.waitUntil("back to the door") { _ in (try? cursor()) == "2,0" }
        try t.press("M-t")
        let screen = try t.waitUntil("the cut") { $0[2].isEmpty && $0[3].isEmpty }
        #expect(Array(screen[1...2]) == ["the raven", ""])
        try t.press("C-s")
        try t.waitUntil("the save") { status($0).hasPrefix("[ Wrote") }
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(try String(contentsOf: notes, encoding: .utf8) == "the raven\n")
    }

    /// Tab in ^R's prompt completes the file name from the folder, as nano does (issue 43).
    @Test func tabCompletesTheFileToInsert() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-tab")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("x\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Data("Lenore\n".utf8).write(to: dir.appendingPathComponent("kettle-lines.txt"))
        try Data("Hélène\n".utf8).write(to: dir.appendingPathComponent("kettle-words.txt"))
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "notes.txt"], in: dir, label: "lsnap-tab")
        defer { t.kill() }
        try t.waitUntil("the text file read") { status($0).hasPrefix("[ Read") }
        try t.press("C-r")
        try t.waitFor("File to insert:")
        try t.type("ke")
        try t.press("Tab")
        var screen = try t.waitFor("File to insert: kettle-")
        #expect(screen[20] == "kettle-lines.txt  kettle-words.txt")
        try t.type("l")
        try t.press("Tab")
        screen = try t.waitFor("File to insert: kettle-lines.txt")
        try t.press("Enter")
        screen = try t.waitUntil("the insertion") { status($0).hasPrefix("[ Inserted") }
        #expect(Array(screen[1...2]) == ["Lenore", "x"])
        try t.press("C-x")
        try t.waitFor("Save modified buffer?")
        try t.type("n")
        #expect(try t.waitForExit() == 0)
    }

    /// `lovesnap notes.txt` (nano's habit) on a text file opens it as `lovesnap edit` does, and a
    /// save writes it back; on a missing one named as text it says how to start one rather than
    /// "No such file or directory"; a missing photo still says it is missing.
    @Test func aTextFileOpenedAsAPhotoIsEditedAsText() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-astext")
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("Lenore\nthe raven\n".utf8).write(to: notes)
        let t = try TmuxSession([TestPaths.lovesnap, "notes.txt"], in: dir, label: "lsnap-astext")
        defer { t.kill() }
        var screen = try t.waitUntil("the text file read") { status($0).hasPrefix("[ Read") }
        #expect(status(screen) == "[ Read 2 lines ]")
        #expect(Array(screen[1...2]) == ["Lenore", "the raven"])
        try t.type("My ")
        try t.press("C-s")
        screen = try t.waitUntil("the save") { status($0).hasPrefix("[ Wrote") }
        #expect(status(screen) == "[ Wrote 2 lines ]")
        #expect(!screen[0].contains("Modified"))
        // As in nano 7.2: an edit makes it "Modified", undoing it back to the text written does
        // not, and ^X then leaves without asking.
        try t.type("!")
        screen = try t.waitUntil("the edit") { $0[0].contains("Modified") }
        try t.press("M-u")
        screen = try t.waitUntil("the undo") { !$0[0].contains("Modified") }
        #expect(screen[1] == "My Lenore")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(try Data(contentsOf: notes) == Data("My Lenore\nthe raven\n".utf8))

        let cases = [
            ("new notes.txt", "new notes.txt: no such file; to start a text file: lovesnap edit 'new notes.txt'"),
            ("gone.jpg", "[ gone.jpg: No such file or directory ]"),
        ]
        for (name, said) in cases {
            let t = try TmuxSession([TestPaths.lovesnap, name], in: dir, label: "lsnap-astext")
            defer { t.kill() }
            let screen = try t.waitUntil("the photo's failure") { status($0).contains(name) }
            #expect(status(screen) == said)
            try t.press("C-x")
            _ = try t.waitForExit()
        }
    }

    @Test func aDOSFileOpensAsLinesAndIsWrittenBackAsDOS() throws {
        let r = try edit(Array("a\r\nb\r\nc\r\n".utf8), name: "dos.txt", typing: "x", label: "lsnap-dos")
        #expect(r.opened == "[ Read 3 lines (Converted from DOS format) ]")
        #expect(r.rows == ["xa", "b", "c"])
        #expect(r.wrote == "[ Wrote 3 lines ]")
        #expect(r.bytes == Array("xa\r\nb\r\nc\r\n".utf8))
    }

    /// A file whose name is not UTF-8 (Latin-1 "ex\xFD.txt", given as bytes) is shown as
    /// `ex\xFD.txt`, offered by Write Out under that name, and written under its own bytes, as
    /// it is or new; a name typed with `\xFD` in it is that byte too. Nothing is written under
    /// another name.
    @Test(arguments: [true, false])
    func aFileWhoseNameIsNotUTF8IsWrittenUnderItsOwnName(exists: Bool) throws {
        let label = exists ? "lsnap-rawname" : "lsnap-rawname-new"
        let dir = TestPaths.temporaryDirectory(label)
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = Array("ex".utf8) + [0xFD] + Array(".txt".utf8)
        let path = (Array(dir.path.utf8) + [UInt8(ascii: "/")] + name).map { CChar(bitPattern: $0) } + [0]
        if exists {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            #expect(fd >= 0 && write(fd, "hello\n", 6) == 6)
            close(fd)
        }
        let t = try TmuxSession(
            ["/bin/sh", "-c", "exec \"$1\" edit \"$(printf 'ex\\375.txt')\"", "sh", TestPaths.lovesnap], in: dir,
            label: label)
        defer { t.kill() }
        let opened = try t.waitUntil("the file read") { status($0).hasPrefix("[ ") }
        #expect(status(opened) == (exists ? "[ Read 1 line ]" : "[ New File ]"))
        #expect(opened[0].contains("ex\\xFD.txt"))
        try t.type("X")
        try t.press("C-s")
        _ = try t.waitUntil("the write") { status($0) == "[ Wrote 1 line ]" }
        try t.press("C-o")
        _ = try t.waitUntil("Write Out's prompt") { status($0) == "File Name to Write: ex\\xFD.txt" }
        try t.press("Enter")
        _ = try t.waitUntil("the second write") { status($0) == "[ Wrote 1 line ]" }
        // The offered name edited (ex\xFD2.txt): its \xFD is the byte still.
        try t.press("C-o")
        _ = try t.waitUntil("Write Out's prompt again") { status($0) == "File Name to Write: ex\\xFD.txt" }
        try t.press("Left", "Left", "Left", "Left")
        try t.type("2")
        try t.press("Enter")
        _ = try t.waitUntil("the copy") { status($0) == "[ Wrote 1 line ]" }
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        let copy = Array("ex".utf8) + [0xFD] + Array("2.txt".utf8)
        #expect(TestPaths.entryNames(in: dir.path) == [name, copy])
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &bytes, bytes.count)
        #expect(Array(bytes.prefix(max(0, n))) == Array((exists ? "Xhello\n" : "X\n").utf8))
    }

    @Test func aLatin1FileOpensWithANoticeAndIsWrittenBackAsLatin1() throws {
        let poem: [UInt8] = Array("po".utf8) + [0xE8] + Array("me\ncaf".utf8) + [0xE9, 0x0A]
        let r = try edit(poem, name: "latin1.txt", typing: "!", label: "lsnap-latin1")
        #expect(r.opened == "[ Read 2 lines (not UTF-8: read as Latin-1) ]")
        #expect(r.rows == ["!poème", "café", ""])
        #expect(r.bytes == [0x21] + poem)
    }

    /// Write Out's M-L turns "[Latin-1]" off: the file is written as UTF-8, byte for byte the
    /// same text (and its DOS line ends kept).
    @Test func aLatin1FileIsWrittenAsUTF8WhenWriteOutSaysSo() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-latin1-utf8")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("latin1.txt")
        try Data(Array("po".utf8) + [0xE8] + Array("me\r\ncaf".utf8) + [0xE9, 0x0D, 0x0A]).write(to: file)
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "latin1.txt"], in: dir, label: "lsnap-latin1-utf8")
        defer { t.kill() }
        let opened = status(try t.waitUntil("the file read") { status($0).hasPrefix("[ ") })
        #expect(opened == "[ Read 2 lines (Converted from DOS format; not UTF-8: read as Latin-1) ]")
        try t.press("C-o")
        // The prompt and its help bar together: a capture between the two rows' updates saw the
        // prompt over the editor's own help bar (a fresh-clone run, beside the whole suite).
        let prompt = try t.waitUntil("the Write Out prompt and its help") {
            status($0) == "File Name to Write [DOS Format] [Latin-1]: latin1.txt" && $0.count > 23
                && $0[23].contains("M-L")
        }
        #expect(prompt[23].contains("M-L Latin-1"))
        try t.press("M-l")
        _ = try t.waitUntil("Latin-1 turned off") { status($0) == "File Name to Write [DOS Format]: latin1.txt" }
        try t.press("Enter")
        _ = try t.waitUntil("the write") { status($0) == "[ Wrote 2 lines ]" }
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(Array(try Data(contentsOf: file)) == Array("poème\r\ncafé\r\n".utf8))
    }

    @Test func aFinalNewlineIsAddedUnlessTheFileHadNone() throws {
        let new = try edit([], name: "new.txt", typing: "Lenore", label: "lsnap-newline")
        #expect(new.opened == "[ New File ]")
        #expect(new.bytes == Array("Lenore\n".utf8))
        let none = try edit(Array("a\nb".utf8), name: "none.txt", typing: "x", label: "lsnap-nonewline")
        #expect(none.bytes == Array("xa\nb".utf8))
    }
}
