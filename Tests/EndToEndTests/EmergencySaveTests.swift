import Foundation
import Testing
import SnapTestSupport
#if canImport(Glibc)
import Glibc
#endif

private struct PaneError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `argv` and waits for it; its stdout and stderr (to a temporary file) come back together.
///
/// posix_spawn rather than Foundation's Process: the child starts with no signal blocked and every
/// signal at its default action. Test threads (libdispatch workers) block nearly all signals, and a
/// tmux server that inherits that mask (as it does through Process) can neither reap its panes nor be
/// stopped, and passes the mask on to the shell and to lovesnap, where SIGTERM would stay pending.
private func spawnAndWait(_ argv: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
    let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("lsnap-spawn-\(UUID().uuidString)").path
    defer { unlink(outPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (cArguments + cEnvironment).forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
    guard rc == 0 else { throw PaneError(description: "cannot run \(argv[0]): \(String(cString: strerror(rc)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { throw PaneError(description: "waitpid: \(String(cString: strerror(errno)))") }
    }
    let output = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
    let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (exitStatus, output)
}

/// A shell (`bash --norc`) in an 80x24 pane of a private tmux server (`tmux -L NAME`), with
/// `LANG=C.UTF-8`, driven by `send-keys` and read with `capture-pane -J` (wrapped lines joined).
/// ``kill()`` (also `deinit`) kills the server.
private final class ShellPane {
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    let socket = "lovesnap-emerg-\(UUID().uuidString.prefix(8).lowercased())"
    private var killed = false

    init(in directory: URL) throws {
        try tmux(["new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "-c", directory.path, "--",
                  "/usr/bin/env", "-u", "LC_ALL", "-u", "LOVESNAP_MAIL_COMMAND", "LANG=C.UTF-8", "PS1=$ ",
                  "/bin/bash", "--norc", "--noprofile"])
        try waitUntil("the shell prompt", timeout: 10) { $0.last == "$" }
    }

    deinit { kill() }

    func kill() {
        guard !killed else { return }
        killed = true
        _ = try? tmux(["kill-server"], check: false)
    }

    @discardableResult
    func tmux(_ arguments: [String], check: Bool = true) throws -> String {
        guard let executable = Self.tmux else { throw PaneError(description: "tmux is not installed") }
        var env = ProcessInfo.processInfo.environment
        env["TMUX"] = nil
        env["LANG"] = "C.UTF-8"
        let r = try spawnAndWait([executable, "-u", "-L", socket, "-f", "/dev/null"] + arguments, environment: env)
        if check && r.status != 0 {
            throw PaneError(description: "tmux \(arguments.joined(separator: " ")) failed (\(r.status)): \(r.output)")
        }
        return r.output
    }

    func type(_ text: String) throws { try tmux(["send-keys", "-t", "t", "-l", text]) }
    func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "t"] + keys) }

    /// The screen's lines (wrapped ones joined), trailing blanks and trailing empty lines removed, NFC.
    func screen() throws -> [String] {
        let text = try tmux(["capture-pane", "-p", "-J", "-t", "t"]).precomposedStringWithCanonicalMapping
        var lines = text.components(separatedBy: "\n")
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A pane format value (`#{alternate_on}` …).
    func format(_ name: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "t", "#{\(name)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
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
        throw PaneError(description: "timed out after \(timeout) s waiting for \(what); screen:\n"
                        + last.enumerated().map { String(format: "%2d|", $0.offset) + $0.element }.joined(separator: "\n"))
    }
}

/// `lovesnap edit FILE` in a real terminal gets SIGTERM or SIGHUP: like nano, it writes the buffer
/// to FILE.save, restores the terminal, says so on stderr and exits with 128 + the signal. An outside
/// SIGINT does nothing.
@Suite(.serialized, .enabled(if: ShellPane.tmux != nil, "tmux is not installed: the terminal tests need it"))
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
            let r = try spawnAndWait(["/usr/bin/pgrep", "-f", "lovesnap edit \(file)"],
                                     environment: ProcessInfo.processInfo.environment)
            let pids = r.output.split(separator: "\n").compactMap { pid_t($0) }
            if pids.count == 1 { return pids[0] }
            usleep(20_000)
        }
        throw PaneError(description: "no single lovesnap process for \(file)")
    }

    /// Starts the editor on `file` in the pane's shell and waits for its first screen.
    private func startEditor(_ pane: ShellPane, _ file: String) throws {
        try pane.type("'\(TestPaths.lovesnap)' edit '\(file)'; echo EXIT=$?")
        try pane.press("Enter")
        try pane.waitUntil("the editor with kettle.txt") { screen in
            screen.first?.contains("kettle.txt") == true && screen.contains { $0.hasPrefix("Lenore, the kettle") }
        }
        #expect(try pane.format("alternate_on") == "1")
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
        // The file appears promptly: the run loop notices the flag within its 100 ms key timeout.
        while !FileManager.default.fileExists(atPath: savePath) && Date().timeIntervalSince(sent) < 10 { usleep(2_000) }
        let elapsed = Date().timeIntervalSince(sent)
        #expect(elapsed < 1.5, "the emergency file took \(elapsed) s")

        let expectedStatus = 128 + sig
        let screen = try pane.waitUntil("EXIT=\(expectedStatus)") { $0.contains("EXIT=\(expectedStatus)") }
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
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["kettle.txt", "kettle.txt.save"])
        #expect(kill(pid, 0) != 0)   // gone (the shell reaped it)
    }

    @Test func sigtermSavesTheBufferToNameDotSave() throws {
        try signalledEditorSavesAndExits(SIGTERM, name: "SIGTERM")
    }

    @Test func sighupSavesTheBufferToNameDotSave() throws {
        try signalledEditorSavesAndExits(SIGHUP, name: "SIGHUP")
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
