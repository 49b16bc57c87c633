import Foundation
import SnapTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

private struct PaneError: Error, CustomStringConvertible {
    let description: String
}

/// A shell (`bash --norc`) in an 80x24 pane of a private tmux server (``TmuxSession``: started
/// with a clean signal mask, so SIGTERM reaches lovesnap), read with `capture-pane -J` (wrapped
/// lines joined, so a long message is one line). ``kill()`` (also `deinit`) kills the server.
private final class ShellPane {
    let session: TmuxSession

    init(in directory: URL) throws {
        session = try TmuxSession(
            ["/bin/bash", "--norc", "--noprofile"], in: directory,
            environment: ["PS1": "$ "], label: "lsnap-emerg")
        try waitUntil("the shell prompt", timeout: 10) { $0.last == "$" }
    }

    deinit { kill() }

    func kill() { session.kill() }
    func type(_ text: String) throws { try session.type(text) }
    func press(_ keys: String...) throws { try session.tmux(["send-keys", "-t", session.target] + keys) }

    /// The screen's lines (wrapped ones joined), trailing blanks and trailing empty lines removed, NFC.
    func screen() throws -> [String] {
        let text = try session.tmux(["capture-pane", "-p", "-J", "-t", session.target])
            .precomposedStringWithCanonicalMapping
        var lines = text.components(separatedBy: "\n")
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A pane format value (`#{alternate_on}` …).
    func format(_ name: String) throws -> String {
        try session.tmux(["display-message", "-p", "-t", session.target, "#{\(name)}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Polls every 50 ms until `condition` holds on the screen; throws with the screen on timeout.
    @discardableResult
    func waitUntil(_ what: String, timeout: TimeInterval = 20, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while true {
            last = try screen()
            if condition(last) { return last }
            if Date() > deadline { break }
            usleep(50_000)
        }
        throw PaneError(
            description: "timed out after \(timeout) s waiting for \(what); screen:\n" + TmuxSession.show(last))
    }
}

/// `lovesnap edit FILE` in a real terminal gets SIGTERM or SIGHUP: like nano, it writes the buffer
/// to FILE.save, restores the terminal, says so on stderr and exits with 128 + the signal. An outside
/// SIGINT does nothing.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct EmergencySaveTests {
    /// A short unique folder (so the message fits the pane) holding a copy of kettle.txt.
    func setUp() throws -> (dir: URL, file: String, original: Data) {
        let dir = URL(fileURLWithPath: "/tmp/lsnap-emerg-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("kettle.txt").path
        try FileManager.default.copyItem(atPath: TestPaths.sample("kettle.txt"), toPath: file)
        return (dir, file, try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// The lovesnap process editing `file` (found by its unique path).
    func editorPID(_ file: String) throws -> pid_t {
        for _ in 0..<250 {
            let editors = ProcessEntry.all().filter {
                $0.state != "Z" && $0.arguments.count == 3 && $0.arguments[1] == "edit" && $0.arguments[2] == file
            }
            if editors.count == 1 { return editors[0].pid }
            usleep(20_000)
        }
        throw PaneError(description: "no single lovesnap process for \(file)")
    }

    /// Starts the editor on `file` in the pane's shell (after `environment`, e.g. "NAME='value' ")
    /// and waits for its first screen.
    private func startEditor(
        _ pane: ShellPane, _ file: String, environment: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try pane.type("\(environment)'\(TestPaths.lovesnap)' edit '\(file)'; echo EXIT=$?")
        try pane.press("Enter")
        try pane.waitUntil("the editor with kettle.txt") { screen in
            screen.first?.contains("kettle.txt") == true && screen.contains { $0.hasPrefix("Lenore, the kettle") }
        }
        #expect(try pane.format("alternate_on") == "1", sourceLocation: sourceLocation)
    }

    /// Types "Hé!" at the start of the text and waits until it shows.
    private func typeSomething(_ pane: ShellPane) throws {
        try pane.type("Hé!")
        try pane.waitUntil("the typed characters") { $0.contains { $0.hasPrefix("Hé!Lenore, the kettle") } }
    }

    func signalledEditorSavesAndExits(_ sig: Int32, name: String) throws {
        let (dir, file, original) = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pane = try ShellPane(in: dir)
        defer { pane.kill() }
        try startEditor(pane, file)
        try typeSomething(pane)
        let pid = try editorPID(file)

        let savePath = file + ".save"
        let sent = Date()
        #expect(kill(pid, sig) == 0)
        // The file appears without a key pressed: the run loop notices the flag at its next key
        // timeout (100 ms). How soon is not asserted (a loaded machine takes seconds); that it
        // comes at all, with no key, is.
        while !FileManager.default.fileExists(atPath: savePath) && Date().timeIntervalSince(sent) < 20 { usleep(2_000) }
        try #require(FileManager.default.fileExists(atPath: savePath), "no emergency file 20 s after \(name)")

        let expectedStatus = 128 + sig
        // The shell prints the status, then its prompt: wait for both (the prompt can lag a redraw).
        let screen = try pane.waitUntil("EXIT=\(expectedStatus) and a fresh prompt") {
            $0.contains("EXIT=\(expectedStatus)") && $0.last == "$"
        }
        // Shell again: the message, the status, a fresh prompt, on the normal screen.
        let message = "lovesnap: received \(name); the text was saved to \(savePath)"
        let at = screen.firstIndex(of: message)
        #expect(at != nil, "no message line in:\n\(screen.joined(separator: "\n"))")
        if let at { #expect(Array(screen[(at + 1)...]) == ["EXIT=\(expectedStatus)", "$"]) }
        #expect(try pane.format("alternate_on") == "0")
        #expect(try pane.format("cursor_flag") == "1")
        #expect(try pane.format("keypad_flag") == "0")

        // The buffer byte for byte; the original untouched; nothing else written.
        let saved = try Data(contentsOf: URL(fileURLWithPath: savePath))
        #expect(saved == Data("Hé!".utf8) + original)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["kettle.txt", "kettle.txt.save"])
        #expect(kill(pid, 0) != 0)  // gone (the shell reaped it)
    }

    @Test func sigtermSavesTheBufferToNameDotSave() throws {
        try signalledEditorSavesAndExits(SIGTERM, name: "SIGTERM")
    }

    @Test func sighupSavesTheBufferToNameDotSave() throws {
        try signalledEditorSavesAndExits(SIGHUP, name: "SIGHUP")
    }

    /// A SIGTERM while a mail command hangs: the editor is not stuck in the send, it rescues the
    /// text first, then stops the mail command (its whole process group) and exits 143.
    @Test func sigtermDuringAHangingMailCommandSavesTheText() throws {
        let (dir, file, original) = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("mailer.pid").path
        let mailer = dir.appendingPathComponent("hang.sh").path
        try Data("#!/bin/sh\ncat > /dev/null\necho $$ > '\(pidFile)'\nexec sleep 1000\n".utf8).write(
            to: URL(fileURLWithPath: mailer))
        chmod(mailer, 0o755)
        let pane = try ShellPane(in: dir)
        defer { pane.kill() }
        try startEditor(pane, file, environment: "LOVESNAP_MAIL_COMMAND='\(mailer)' ")
        try typeSomething(pane)
        try pane.press("M-m")
        try pane.waitUntil("the To prompt") { $0.contains { $0.hasPrefix("To:") } }
        try pane.type("poet@example.org")
        try pane.press("Enter")
        try pane.waitUntil("the Subject prompt") { $0.contains { $0.hasPrefix("Subject: Hé!Lenore") } }
        try pane.press("Enter")
        try pane.waitUntil("the send under way") { $0.contains { $0.contains("[ Sending to poet@example.org… ]") } }
        // The mail command has read the whole message and hangs.
        var mailerPID: pid_t = 0
        for _ in 0..<1000 where mailerPID == 0 {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                mailerPID = pid
            } else {
                usleep(20_000)
            }
        }
        try #require(mailerPID > 0, "the mail command never started")
        // Still reading keys meanwhile: a typed key waits (the text stays as it was sent) and
        // the status line still says what the editor waits for.
        try pane.press("x")
        try pane.waitUntil("the send still under way") {
            $0.contains { $0.contains("[ Sending to poet@example.org… ]") }
        }

        #expect(kill(try editorPID(file), SIGTERM) == 0)
        let screen = try pane.waitUntil("EXIT=143 and a fresh prompt", timeout: 30) {
            $0.contains("EXIT=143") && $0.last == "$"
        }
        let savePath = file + ".save"
        let message = screen.firstIndex(of: "lovesnap: received SIGTERM; the text was saved to \(savePath)")
        #expect(message != nil, "screen:\n\(screen.joined(separator: "\n"))")
        if let message {
            #expect(
                Array(screen[(message + 1)...]) == [
                    "lovesnap: the mail to poet@example.org was stopped; it may not have been sent", "EXIT=143", "$",
                ])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: savePath)) == Data("Hé!".utf8) + original)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
        // The hanging mail command was stopped with the editor (it may be a zombie a moment).
        var gone = false
        for _ in 0..<500 where !gone {
            let stat = try? String(contentsOfFile: "/proc/\(mailerPID)/stat", encoding: .utf8)
            gone = stat == nil || stat?.split(separator: ")").last?.split(separator: " ").first == "Z"
            if !gone { usleep(20_000) }
        }
        #expect(gone, "the mail command \(mailerPID) still runs")
    }

    @Test func existingSaveFileIsKeptAndNumberedOneIsUsed() throws {
        let (dir, file, original) = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("older rescue\n".utf8).write(to: URL(fileURLWithPath: file + ".save"))
        let pane = try ShellPane(in: dir)
        defer { pane.kill() }
        try startEditor(pane, file)
        try typeSomething(pane)
        #expect(kill(try editorPID(file), SIGTERM) == 0)
        try pane.waitUntil("EXIT=143") { $0.contains("EXIT=143") }
        #expect(try pane.screen().contains("lovesnap: received SIGTERM; the text was saved to \(file).save.1"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file + ".save")) == Data("older rescue\n".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file + ".save.1")) == Data("Hé!".utf8) + original)
    }

    @Test func outsideSigintIsIgnored() throws {
        let (dir, file, original) = try setUp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pane = try ShellPane(in: dir)
        defer { pane.kill() }
        try startEditor(pane, file)
        try typeSomething(pane)
        let pid = try editorPID(file)
        #expect(kill(pid, SIGINT) == 0)
        #expect(kill(pid, SIGINT) == 0)
        // Still there and still answering keys.
        try pane.type("Z")
        try pane.waitUntil("the key typed after SIGINT") { $0.contains { $0.hasPrefix("Hé!ZLenore, the kettle") } }
        #expect(kill(pid, 0) == 0)
        try pane.press("C-x")
        try pane.waitUntil("the save question") { $0.contains { $0.hasPrefix("Save modified buffer?") } }
        try pane.type("n")
        let screen = try pane.waitUntil("EXIT=0") { $0.contains("EXIT=0") }
        #expect(!screen.contains { $0.contains("received") })
        #expect(try pane.format("alternate_on") == "0")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["kettle.txt"])
    }
}
