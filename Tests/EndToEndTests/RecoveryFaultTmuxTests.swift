import Foundation
import SnapTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41's faults around the recovery journal and saves, in a real terminal: two editors on
/// one file, and saves killed half-way (strace delays one system call of the save, then kill -9).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct RecoveryFaultTmuxTests {
    static let statusRow = 21

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    /// A folder holding a copy of kettle.txt, its path and text, and a state folder for recovery files.
    func setUp(_ label: String) throws -> (dir: URL, file: String, original: String, state: String) {
        let dir = TestPaths.temporaryDirectory(label)
        let file = dir.appendingPathComponent("kettle.txt").path
        try FileManager.default.copyItem(atPath: TestPaths.sample("kettle.txt"), toPath: file)
        return (dir, file, try String(contentsOfFile: file, encoding: .utf8), dir.appendingPathComponent("state").path)
    }

    func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// Waits (up to 20 s) until a recovery file in `folder` holds `text`; returns its path.
    func recoveryFile(in folder: String, holding text: String) throws -> String {
        for _ in 0..<400 {
            for name in names(folder) where name.hasSuffix(".recovery") {
                if FileManager.default.contents(atPath: folder + "/" + name) == Data(text.utf8) {
                    return folder + "/" + name
                }
            }
            usleep(50_000)
        }
        throw FaultTestError(description: "no recovery file holding the text in \(folder): \(names(folder))")
    }

    /// Sets `path`'s modification time `seconds` back (the time a later opening comes at).
    func age(_ path: String, _ seconds: Int) {
        var info = stat()
        stat(path, &info)
        var times = [
            timespec(tv_sec: info.st_mtim.tv_sec - seconds, tv_nsec: 0),
            timespec(tv_sec: info.st_mtim.tv_sec - seconds, tv_nsec: 0),
        ]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    /// The first child of process `pid` (lovesnap under strace), waiting up to 10 s for it.
    func child(of pid: Int32) throws -> Int32 {
        for _ in 0..<200 {
            if let data = FileManager.default.contents(atPath: "/proc/\(pid)/task/\(pid)/children"),
                let first = String(decoding: data, as: UTF8.self).split(separator: " ").first, let child = Int32(first)
            {
                return child
            }
            usleep(50_000)
        }
        throw FaultTestError(description: "process \(pid) has no child")
    }

    /// Whether process `pid` is stopped in the system call `name` (its `/proc/PID/syscall`
    /// number, x86-64's table), or in the delay strace put before it.
    func waitUntilStopped(_ pid: Int32, inSyscall number: Int, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for task in names("/proc/\(pid)/task") {
                if let data = FileManager.default.contents(atPath: "/proc/\(pid)/task/\(task)/syscall"),
                    String(decoding: data, as: UTF8.self).split(separator: " ").first == Substring("\(number)")
                {
                    return
                }
            }
            usleep(20_000)
        }
        throw FaultTestError(description: "process \(pid) never reached system call \(number)")
    }

    /// Kills `editor` (stopped by strace) and strace itself (`tracer`), and waits until the editor
    /// is gone or a zombie: a traced process with SIGKILL pending ends only once its tracer lets
    /// it go (an untraced `kill -9` ends it at once).
    func killTraced(_ editor: Int32, tracer: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(kill(editor, SIGKILL) == 0, sourceLocation: sourceLocation)
        _ = kill(tracer, SIGKILL)
        for _ in 0..<400 {
            guard let data = FileManager.default.contents(atPath: "/proc/\(editor)/stat") else { return }
            let text = String(decoding: data, as: UTF8.self)
            if let close = text.lastIndex(of: ")"), text[text.index(after: close)...].hasPrefix(" Z") { return }
            usleep(50_000)
        }
        throw FaultTestError(description: "process \(editor) did not end")
    }

    static var straceWorks: Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = ["-o", "/dev/null", "-e", "trace=none", "/bin/true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test func twoEditorsOnOneFileKeepEachOthersTextSafe() throws {
        let (dir, file, original, state) = try setUp("lsnap-two")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journals = state + "/lovesnap"
        let environment = ["XDG_STATE_HOME": state]

        let a = try TmuxSession(
            [TestPaths.lovesnap, "edit", "kettle.txt"], in: dir, environment: environment, label: "lsnap-two")
        defer { a.kill() }
        try a.waitFor("Lenore, the kettle hums your tune,")
        try a.type("A typed ")
        let aText = "A typed " + original
        _ = try recoveryFile(in: journals, holding: aText)

        // B opens the same file: A's recovery file is offered as still in use, and kept.
        let b = try TmuxSession(
            [TestPaths.lovesnap, "edit", "kettle.txt"], in: dir, environment: environment, label: "lsnap-two")
        defer { b.kill() }
        var screen = try b.waitFor("Recovery file of running lovesnap")
        #expect(
            status(screen).hasPrefix("Recovery file of running lovesnap \(try a.panePID()) written "),
            "\(status(screen))")
        try b.type("d")
        try b.waitFor("Lenore, the kettle hums your tune,")
        try b.type("B typed ")
        let bText = "B typed " + original
        let bFile = try recoveryFile(in: journals, holding: bText)
        #expect(names(journals).count == 2)

        // A saves and exits: its own recovery file goes, B's stays.
        try a.press("C-s")
        try a.waitUntil("A's write") { status($0).hasPrefix("[ Wrote") }
        try a.press("C-x")
        #expect(try a.waitForExit() == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == aText)
        #expect(names(journals) == [(bFile as NSString).lastPathComponent])

        // kill -9 B; the next editor gets B's text back.
        #expect(kill(try b.panePID(), SIGKILL) == 0)
        #expect(try b.waitForExit() == 128 + SIGKILL)
        let c = try TmuxSession(
            [TestPaths.lovesnap, "edit", "kettle.txt"], in: dir, environment: environment, label: "lsnap-two")
        defer { c.kill() }
        // A saved after B's text was kept: the question says the file is newer.
        screen = try c.waitFor("the file is newer")
        #expect(status(screen).hasPrefix("Recovery file written "), "\(status(screen))")
        #expect(screen[1].hasPrefix("B typed Lenore"), "\(TmuxSession.show(screen))")
        try c.type("r")
        screen = try c.waitUntil("the recovered text") { status($0).hasPrefix("[ Recovered") }
        #expect(status(screen) == "[ Recovered 4 lines; the file on disk is newer: M-U gives it back ]")
        try c.press("C-s")
        try c.waitUntil("C's write") { status($0).hasPrefix("[ Wrote") }
        try c.press("C-x")
        #expect(try c.waitForExit() == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == bText)
        #expect(names(journals) == [])
    }

    @Test(.enabled(if: RecoveryFaultTmuxTests.straceWorks, "strace cannot trace here"))
    func aSaveKilledHalfWayLeavesItsFilesOffered() throws {
        let (dir, file, original, state) = try setUp("lsnap-killed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journals = state + "/lovesnap"
        let environment = ["XDG_STATE_HOME": state]
        let twin = dir.appendingPathComponent("twin.txt").path

        // 1. A plain file, the save killed before its rename (x86-64: rename is 82; the first
        //    rename is the recovery file's): the new text stays in `.kettle.txt.lovesnap-XXXXXX`.
        var t = try TmuxSession(
            [
                "/usr/bin/strace", "-f", "-o", "/dev/null", "-e", "trace=rename", "-e",
                "inject=rename:delay_enter=30000000:when=2",
                TestPaths.lovesnap, "edit", "kettle.txt",
            ], in: dir, environment: environment, columns: 120, label: "lsnap-killed")
        try t.waitFor("Lenore, the kettle hums your tune,")
        let tracer = try t.panePID()
        let editor = try child(of: tracer)
        try t.press("C-k")  // the first line cut: a shorter text
        let cut = String(original.drop { $0 != "\n" }.dropFirst())
        let journal = try recoveryFile(in: journals, holding: cut)
        try t.press("C-s")
        try waitUntilStopped(editor, inSyscall: 82)
        try killTraced(editor, tracer: tracer)
        t.kill()
        #expect(try String(contentsOfFile: file, encoding: .utf8) == original)
        let temporary = try #require(names(dir.path).first { $0.hasPrefix(".kettle.txt.lovesnap-") })
        #expect(FileManager.default.contents(atPath: dir.path + "/" + temporary) == Data(cut.utf8))
        // A minute later (a save still running writes its file): both are offered, newest first.
        age(dir.path + "/" + temporary, 120)
        age(journal, 180)
        age(file, 300)
        t = try TmuxSession(
            [TestPaths.lovesnap, "edit", "kettle.txt"], in: dir, environment: environment, columns: 120,
            label: "lsnap-killed")
        var screen = try t.waitFor("Unfinished save")
        #expect(
            status(screen).hasPrefix("Unfinished save of \"kettle.txt\" (\(temporary)) written "), "\(status(screen))")
        #expect(status(screen).hasSuffix("; 1 of 2):"), "\(status(screen))")
        try t.type("d")  // discarded: the file goes
        screen = try t.waitFor("Recovery file")
        #expect(status(screen).hasSuffix("; 2 of 2):"), "\(status(screen))")
        #expect(!names(dir.path).contains(temporary))
        try t.type("d")
        try t.waitUntil("the editor") { status($0) == "[ Recovery file discarded ]" }
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        t.kill()
        #expect(names(journals) == [])

        // 2. A hard-linked file, rewritten in place, killed before it is cut to the new length
        //    (ftruncate is 77): both names hold the new text with the old end; the old text
        //    stays in `kettle.txt.lovesnap-backup-XXXXXX`, which is offered by its name.
        #expect(link(file, twin) == 0)
        t = try TmuxSession(
            [
                "/usr/bin/strace", "-f", "-o", "/dev/null", "-e", "trace=ftruncate", "-e",
                "inject=ftruncate:delay_enter=30000000", TestPaths.lovesnap, "edit", "kettle.txt",
            ], in: dir,
            environment: environment, columns: 120, label: "lsnap-killed")
        try t.waitFor("Lenore, the kettle hums your tune,")
        let rewriterTracer = try t.panePID()
        let rewriter = try child(of: rewriterTracer)
        try t.press("C-k")
        _ = try recoveryFile(in: journals, holding: cut)
        try t.press("C-s")
        try waitUntilStopped(rewriter, inSyscall: 77)
        try killTraced(rewriter, tracer: rewriterTracer)
        t.kill()
        let torn = try String(contentsOfFile: twin, encoding: .utf8)
        #expect(torn.hasPrefix(cut) && torn != cut)  // the new text, then the old end
        let backup = try #require(names(dir.path).first { $0.hasPrefix("kettle.txt.lovesnap-backup-") })
        #expect(FileManager.default.contents(atPath: dir.path + "/" + backup) == Data(original.utf8))
        age(dir.path + "/" + backup, 120)
        for name in names(journals) { age(journals + "/" + name, 180) }
        t = try TmuxSession(
            [TestPaths.lovesnap, "edit", "kettle.txt"], in: dir, environment: environment, columns: 120,
            label: "lsnap-killed")
        defer { t.kill() }
        screen = try t.waitFor("Old text in")  // the question's short form, at 120 columns
        #expect(status(screen).hasPrefix("Old text in \(backup) written "), "\(status(screen))")
        #expect(status(screen).hasSuffix("(\(original.utf8.count) bytes; 1 of 2):"), "\(status(screen))")
        try t.type("r")  // the old text back, then saved through both names
        try t.waitUntil("the recovered text") { status($0).hasPrefix("[ Recovered") }
        try t.press("C-s")
        try t.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(try String(contentsOfFile: twin, encoding: .utf8) == original)
        #expect(!names(dir.path).contains(backup))
    }
}

/// What went wrong waiting for a file or a process.
struct FaultTestError: Error, CustomStringConvertible {
    let description: String
}
