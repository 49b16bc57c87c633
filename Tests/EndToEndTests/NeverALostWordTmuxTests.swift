import Foundation
import SnapTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The editor in a real terminal: the recovery journal survives a SIGKILL, Write Out asks before
/// overwriting a file another program changed (and keeps its hard links), and ^T runs a command
/// on the marked region, or is stopped with ^C.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct NeverALostWordTmuxTests {
    static let statusRow = 21

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    /// A short folder holding a copy of kettle.txt, and its text.
    func setUp(_ label: String) throws -> (dir: URL, file: String, original: String) {
        let dir = TestPaths.temporaryDirectory(label)
        let file = dir.appendingPathComponent("kettle.txt").path
        try FileManager.default.copyItem(atPath: TestPaths.sample("kettle.txt"), toPath: file)
        return (dir, file, try String(contentsOfFile: file, encoding: .utf8))
    }

    /// The files of `folder`, sorted (none when it does not exist).
    func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func typedTextSurvivesSigkillAndIsRecoveredByteForByte() throws {
        let (dir, file, original) = try setUp("lsnap-recover")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state").path
        let journalFolder = state + "/lovesnap"

        let first = try TmuxSession(
            [TestPaths.lovesnap, "edit", "kettle.txt"], in: dir, environment: ["XDG_STATE_HOME": state],
            label: "lsnap-recover")
        defer { first.kill() }
        try first.waitFor("Lenore, the kettle hums your tune,")
        try first.press("Down", "End")
        try first.type(" — Hé, œuvre!")
        try first.press("Enter")
        try first.type("a new line")
        try first.waitFor("a new line")
        let typed = original.replacingOccurrences(
            of: "June.\n", with: "June. — Hé, œuvre!\na new line\n", options: [], range: nil)
        #expect(typed != original)

        // The journal catches up within a few seconds of the last key (the recovery file itself,
        // not the hidden temporary file it is written to before the rename).
        var recovery: String?
        for _ in 0..<400 where recovery == nil {
            if let name = names(journalFolder).first(where: { $0.hasSuffix(".recovery") }),
                let data = FileManager.default.contents(atPath: journalFolder + "/" + name),
                data == Data(typed.utf8)
            {
                recovery = journalFolder + "/" + name
            } else {
                usleep(50_000)
            }
        }
        let recoveryFile = try #require(recovery, "no recovery file with the typed text in \(journalFolder)")
        var info = stat()
        #expect(stat(recoveryFile, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(names(journalFolder).count == 1)

        // kill -9: nothing runs on the way out, the file stays as it was.
        #expect(kill(try first.panePID(), SIGKILL) == 0)
        #expect(try first.waitForExit() == 128 + SIGKILL)
        first.kill()
        #expect(try String(contentsOfFile: file, encoding: .utf8) == original)
        #expect(FileManager.default.contents(atPath: recoveryFile) == Data(typed.utf8))

        // Opening the file again offers the recovery file, with its time and size.
        let second = try TmuxSession(
            [TestPaths.lovesnap, "edit", "kettle.txt"], in: dir, environment: ["XDG_STATE_HOME": state],
            label: "lsnap-recover")
        defer { second.kill() }
        var screen = try second.waitFor("Recovery file of")
        let question = status(screen)
        #expect(
            question.wholeMatch(
                of: #/Recovery file of "kettle\.txt" written \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(\d+ bytes\):/#)
                != nil, "question: \(question)")
        #expect(question.hasSuffix("(\(typed.utf8.count) bytes):"))
        #expect(screen[22].hasPrefix(" R Recover"))
        #expect(screen[2] == "the curtains blush with early June. — Hé, œuvre!")  // its text is shown
        try second.type("r")
        screen = try second.waitUntil("the recovered text") { status($0).hasPrefix("[ Recovered") }
        #expect(screen[0].hasSuffix("Modified"))
        try second.press("C-s")
        screen = try second.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == typed)
        #expect(FileManager.default.contents(atPath: file) == Data(typed.utf8))
        try second.press("C-x")
        #expect(try second.waitForExit() == 0)
        // Saved: the recovery file is gone.
        #expect(names(journalFolder) == [])
        #expect(names(dir.path) == ["kettle.txt", "state"])
    }

    @Test func writeOutAsksWhenAnotherProgramChangedTheFileAndKeepsItsHardLinks() throws {
        let (dir, file, original) = try setUp("lsnap-changed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let twin = dir.appendingPathComponent("twin.txt").path
        #expect(link(file, twin) == 0)

        let t = try TmuxSession(
            [TestPaths.lovesnap, "--backup", "edit", "kettle.txt"], in: dir, label: "lsnap-changed")
        defer { t.kill() }
        try t.waitFor("Lenore, the kettle hums your tune,")
        try t.type("Hé! ")
        try t.waitFor("Hé! Lenore")

        // Another program rewrites the file (same inode: it is hard-linked) after lovesnap read it.
        let theirs = "written by another program\n"
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(theirs.utf8))
        try handle.close()
        var info = stat()
        stat(file, &info)
        var times = [
            timespec(tv_sec: info.st_mtim.tv_sec + 5, tv_nsec: 0),
            timespec(tv_sec: info.st_mtim.tv_sec + 5, tv_nsec: 0),
        ]
        utimensat(AT_FDCWD, file, &times, 0)

        try t.press("C-s")
        var screen = try t.waitFor("has changed on disk")
        #expect(screen[Self.statusRow] == #"File "kettle.txt" has changed on disk; overwrite?"#)
        try t.type("n")  // another name?
        screen = try t.waitFor("File Name to Write: ")
        #expect(screen[Self.statusRow] == "File Name to Write: kettle.txt")
        try t.press("C-c")
        try t.waitUntil("the cancel") { status($0) == "[ Cancelled ]" }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == theirs)

        try t.press("C-o")
        try t.waitFor("File Name to Write: kettle.txt")
        try t.press("Enter")
        try t.waitFor("has changed on disk")
        try t.type("y")
        screen = try t.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        let ours = "Hé! " + original
        #expect(try String(contentsOfFile: file, encoding: .utf8) == ours)
        // Both names see the new text: the file was written in place, its links kept.
        #expect(try String(contentsOfFile: twin, encoding: .utf8) == ours)
        var a = stat()
        var b = stat()
        stat(file, &a)
        stat(twin, &b)
        #expect(a.st_ino == b.st_ino && a.st_nlink == 2)

        // Saved by us since: no question any more.
        try t.type("!")
        try t.press("C-s")
        try t.waitUntil("the second write") { status($0).hasPrefix("[ Wrote") && $0[1].hasPrefix("Hé! !") }
        #expect(try String(contentsOfFile: twin, encoding: .utf8) == "Hé! !" + original)
        // --backup: the file as it was before this save, as NAME~ (a copy: the file has links).
        #expect(try String(contentsOfFile: file + "~", encoding: .utf8) == ours)
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(names(dir.path) == ["kettle.txt", "kettle.txt~", "twin.txt"])
    }

    @Test func executeCommandSortsTheMarkedLinesAndAHangingOneIsStopped() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-exec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("list.txt").path
        try Data("title\npêche\nabricot\nÉté\n—\n".utf8).write(to: URL(fileURLWithPath: file))

        let t = try TmuxSession(
            [TestPaths.lovesnap, "edit", "list.txt"], in: dir, environment: ["LC_ALL": "C.UTF-8"], label: "lsnap-exec")
        defer { t.kill() }
        try t.waitFor("abricot")
        try t.press("Down", "M-a", "Down", "Down", "Down")  // pêche, abricot, Été marked
        try t.press("C-t")
        try t.waitFor("Command to execute: ")
        try t.type("sort")
        try t.press("Enter")
        var screen = try t.waitFor("with this output")
        #expect(screen[Self.statusRow] == "Replace the marked text with this output (3 lines)?")
        #expect(Array(screen[1...3]) == ["abricot", "pêche", "Été"])  // the output, shown
        try t.type("y")
        screen = try t.waitUntil("the replacement") { status($0).hasPrefix("[ Region replaced") }
        #expect(Array(screen[1...5]) == ["title", "abricot", "pêche", "Été", "—"])
        try t.press("M-u")
        screen = try t.waitUntil("the undo") { status($0) == "[ Undid replacement ]" }
        #expect(Array(screen[1...5]) == ["title", "pêche", "abricot", "Été", "—"])
        try t.press("M-e")
        try t.waitUntil("the redo") { status($0) == "[ Redid replacement ]" }

        // nano's "|cmd": the whole text piped through it and replaced at once; M-U undoes it.
        try t.press("C-t")
        try t.waitFor("Command to execute: ")
        try t.type("|tr a-z A-Z")
        try t.press("Enter")
        screen = try t.waitUntil("the pipe") { status($0).hasPrefix("[ Text replaced") }
        #expect(status(screen) == "[ Text replaced by 5 lines of output ]")
        #expect(Array(screen[1...5]) == ["TITLE", "ABRICOT", "PêCHE", "ÉTé", "—"])  // tr is bytewise
        try t.press("M-u")
        screen = try t.waitUntil("the undo") { status($0) == "[ Undid replacement ]" }
        #expect(Array(screen[1...5]) == ["title", "abricot", "pêche", "Été", "—"])

        // A command that hangs: the editor keeps drawing, ^C stops it and its children.
        let pidFile = dir.appendingPathComponent("pid").path
        try t.press("C-t")
        try t.waitFor("Command to execute: ")
        try t.type("sh -c 'echo $$ > \(pidFile); sleep 1000'")
        try t.press("Enter")
        try t.waitFor("[ Running sh -c 'echo $$ > \(pidFile); sleep 1000'… ]")
        var shell: pid_t = 0
        for _ in 0..<400 where shell == 0 {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                shell = pid
            } else {
                usleep(50_000)
            }
        }
        try #require(shell > 0)
        try t.press("C-c")
        screen = try t.waitUntil("the stop") { status($0).hasSuffix("was stopped ]") }
        #expect(status(screen) == "[ 'sh -c 'echo $$ > \(pidFile); sleep 1000'' was stopped ]")
        #expect(Array(screen[1...5]) == ["title", "abricot", "pêche", "Été", "—"])
        var gone = false
        for _ in 0..<200 where !gone {
            let stat = try? String(contentsOfFile: "/proc/\(shell)/stat", encoding: .utf8)
            gone = stat == nil || stat?.split(separator: ")").last?.split(separator: " ").first == "Z"
            if !gone { usleep(50_000) }
        }
        #expect(gone)

        try t.press("C-s")
        try t.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "title\nabricot\npêche\nÉté\n—\n")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
    }
}

/// `--backup` with `lovesnap ocr -o`: the file written over stays as NAME~.
@Suite struct BackupOptionTests {
    @Test func ocrOutputKeepsTheOldFileAsNameTilde() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("kettle.txt").path
        try Data("an older reading\n".utf8).write(to: URL(fileURLWithPath: out))
        let r = try lovesnap(["ocr", "--backup", "-o", out, TestPaths.sample("kettle.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            try String(contentsOfFile: out, encoding: .utf8)
                == (try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)))
        #expect(try String(contentsOfFile: out + "~", encoding: .utf8) == "an older reading\n")
        let plain = try lovesnap([
            "ocr", "-o", dir.appendingPathComponent("other.txt").path, TestPaths.sample("kettle.png"),
        ])
        #expect(plain.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                "kettle.txt", "kettle.txt~", "other.txt",
            ])
    }
}
