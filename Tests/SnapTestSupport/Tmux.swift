import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a tmux-driven test step failed; the description carries the screen as it was last seen.
public struct TmuxError: Error, CustomStringConvertible {
    /// What failed, with the screen.
    public let description: String
}

/// A program running in a real terminal: a detached tmux session on a private server socket
/// (`tmux -L NAME`, never the user's server), driven with `send-keys` and read with `capture-pane`.
///
/// The pane stays after the program ends (`remain-on-exit`), so its exit status can be read.
/// Call ``kill()`` when done (a `defer` right after creating it); `deinit` does it too.
public final class TmuxSession {
    /// The tmux executable, or nil when tmux is not installed.
    public static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        return folders.map { $0 + "/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether tmux is installed.
    public static var isAvailable: Bool { executable != nil }

    /// `TERM` for the program: tmux-256color, else screen-256color, else screen (whichever has a
    /// terminfo entry here).
    public static let terminalType: String = {
        let env = ProcessInfo.processInfo.environment
        let folders =
            [env["TERMINFO"], env["HOME"].map { $0 + "/.terminfo" }].compactMap { $0 }
            + ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
        for name in ["tmux-256color", "screen-256color"] {
            let first = String(name.first!)
            let hex = String(name.unicodeScalars.first!.value, radix: 16)
            for folder in folders {
                for sub in [first, hex] where FileManager.default.fileExists(atPath: "\(folder)/\(sub)/\(name)") {
                    return name
                }
            }
        }
        return "screen"
    }()

    /// The private server's socket name (`tmux -L`).
    public let socketName: String
    /// The session (and target) name.
    public let target = "t"
    /// The terminal size.
    public let columns: Int, rows: Int
    private var socketPath: String?
    private var killed = false
    private let ownsStateFolder: Bool

    /// The program's `XDG_STATE_HOME` (where lovesnap keeps its recovery files): a fresh folder
    /// of this session's own, removed by ``kill()``, unless `environment` names another.
    public let stateFolder: String

    /// Starts `command` (argv, no shell) in a new `columns`×`rows` terminal whose current folder is
    /// `directory`, with `LANG=C.UTF-8`, `TERM=` ``terminalType``, `LC_ALL`, `LOVESNAP_MAIL_COMMAND`
    /// and `EMAIL` unset, `XDG_STATE_HOME` a fresh folder (``stateFolder``, so that no test touches
    /// the user's recovery files), then `environment` on top.
    public init(
        _ command: [String], in directory: URL, environment: [String: String] = [:],
        columns: Int = 80, rows: Int = 24, label: String = "lovesnap"
    ) throws {
        guard Self.isAvailable else { throw TmuxError(description: "tmux is not installed") }
        socketName = "\(label)-\(UUID().uuidString.prefix(8).lowercased())"
        self.columns = columns
        self.rows = rows
        stateFolder = environment["XDG_STATE_HOME"] ?? "/tmp/\(socketName)-state"
        ownsStateFolder = environment["XDG_STATE_HOME"] == nil
        var argv = [
            "/usr/bin/env", "-u", "LC_ALL", "-u", "LOVESNAP_MAIL_COMMAND", "-u", "EMAIL",
            "LANG=C.UTF-8", "TERM=\(Self.terminalType)", "XDG_STATE_HOME=\(stateFolder)",
        ]
        argv += environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        argv += command
        do {
            // One client call: the option is set before the program starts, so even a quick exit is kept.
            try startServer(
                [
                    "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                    "new-session", "-d", "-s", target, "-x", "\(columns)", "-y", "\(rows)",
                    "-c", directory.path, "--",
                ] + argv)
            socketPath = try? tmux(["display-message", "-p", "-t", target, "#{socket_path}"])
                .trimmingCharacters(in: .newlines)
            let size = try tmux(["display-message", "-p", "-t", target, "#{window_width}x#{window_height}"])
                .trimmingCharacters(in: .newlines)
            guard size == "\(columns)x\(rows)" else {
                throw TmuxError(description: "tmux made a \(size) window instead of \(columns)x\(rows)")
            }
        } catch {
            kill()
            throw error
        }
    }

    deinit { kill() }

    /// Kills the private tmux server (and so the program, if it still runs) and removes its socket.
    /// Idempotent.
    public func kill() {
        guard !killed else { return }
        killed = true
        _ = try? tmux(["kill-server"], check: false)
        if let socketPath, !socketPath.isEmpty { try? FileManager.default.removeItem(atPath: socketPath) }
        if ownsStateFolder { try? FileManager.default.removeItem(atPath: stateFolder) }
    }

    /// The terminal's cursor as "row,column" (both from 0), as tmux reports it.
    public func cursorPosition() throws -> String {
        try tmux(["display-message", "-p", "-t", target, "#{cursor_y},#{cursor_x}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a tmux client command against this server; returns its stdout.
    @discardableResult
    public func tmux(_ arguments: [String], check: Bool = true) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["TMUX"] = nil
        env["LANG"] = "C.UTF-8"
        let r = try run(Self.executable!, ["-u", "-L", socketName, "-f", "/dev/null"] + arguments, environment: env)
        if check && r.status != 0 {
            throw TmuxError(description: "tmux \(arguments.joined(separator: " ")) failed (\(r.status)): \(r.stderr)")
        }
        return r.stdout
    }

    /// Runs the client call that starts the server, with no descriptor but /dev/null and a
    /// stderr file.
    ///
    /// The server is forked from this client and keeps whatever it inherited. Through Foundation's
    /// `Process` (or any pipe open in this process, e.g. another test's) it would hold a pipe or the
    /// child-exit watch open until `kill-server`, so `run` would wait for the client forever.
    /// Hence posix_spawn with closefrom(3) (glibc 2.34+, looked up at run time).
    private func startServer(_ arguments: [String]) throws {
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socketName).stderr")
        defer { try? FileManager.default.removeItem(at: errorFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        } else {
            // Older glibc: close every descriptor number in use now, and a margin (EBADF is ignored).
            let inUse = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap {
                Int32($0)
            }
            for fd in 3...((inUse.max() ?? 3) + 256) { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        var env = ProcessInfo.processInfo.environment
        env["TMUX"] = nil
        env["LANG"] = "C.UTF-8"
        let argv = [Self.executable!, "-u", "-L", socketName, "-f", "/dev/null"] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for argument in cArguments { free(argument) }
            for variable in cEnvironment { free(variable) }
        }
        // A clean signal state. The test runner's threads block most signals and a spawned child
        // keeps that mask: the server then never received SIGCHLD, and the program in its pane, which inherits
        // the mask too, survived kill-server (SIGHUP blocked) as an orphan.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard rc == 0 else { throw TmuxError(description: "cannot start tmux: \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var waited: Int32
        repeat { waited = waitpid(pid, &status, 0) } while waited < 0 && errno == EINTR
        // waited < 0 (ECHILD: reaped elsewhere) is judged by the calls that follow.
        let exitedBadly = waited == pid && !(status & 0x7f == 0 && (status >> 8) & 0xff == 0)
        if exitedBadly {
            let message = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw TmuxError(
                description: "tmux \(arguments.joined(separator: " ")) failed (wait status \(status)): \(message)")
        }
    }

    /// Sends keys by tmux name: "Enter", "Escape", "C-o", "C-\\", "M-m", "BSpace"…
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", target] + keys)
    }

    /// Types `text` literally (UTF-8, no key-name lookup; a leading `-` is text, not a flag).
    public func type(_ text: String) throws {
        try tmux(["send-keys", "-t", target, "-l", "--", text])
    }

    /// The screen's rows (at least `rows` of them), trailing blanks removed, NFC-normalised (tmux
    /// gives decomposed accents).
    public func screen() throws -> [String] {
        let text = try tmux(["capture-pane", "-p", "-t", target]).precomposedStringWithCanonicalMapping
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        while lines.count < rows { lines.append("") }  // so that screen[row] never traps
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// How long a wait lasts by default (seconds): a guard against a hang, not a measure of speed.
    /// Beside the whole suite's other OCR runs on two cores, an editor's first reading of a small
    /// photo (0.5 s alone) has taken more than 20 s.
    public static let defaultTimeout: TimeInterval = 60

    /// Polls the screen (every 50 ms, up to `timeout` seconds) until `condition` holds; returns that
    /// screen. Throws with `what` and the last screen on timeout, or if the program ended first.
    @discardableResult
    public func waitUntil(
        _ what: String, timeout: TimeInterval = TmuxSession.defaultTimeout,
        _ condition: ([String]) -> Bool
    ) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while true {
            last = try screen()
            if condition(last) { return last }
            if let status = try exitStatus() {
                throw TmuxError(
                    description: "the program ended (\(status)) while waiting for \(what); screen:\n"
                        + Self.show(last))
            }
            if Date() > deadline { break }
            usleep(50_000)
        }
        throw TmuxError(description: "timed out after \(timeout) s waiting for \(what); screen:\n" + Self.show(last))
    }

    /// Waits until `text` appears anywhere on the screen.
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = TmuxSession.defaultTimeout) throws -> [String] {
        // Rows come without trailing blanks, so "To: " is looked for as "To:".
        let needle = String(text.reversed().drop { $0 == " " }.reversed())
        return try waitUntil("\"\(text)\"", timeout: timeout) { $0.contains { $0.contains(needle) } }
    }

    /// The program's exit status once its pane is dead (128 + N for signal N), -1 while tmux has
    /// not reaped it yet, nil while it runs.
    ///
    /// tmux 3.3a built with libutempter loses the exit status now and then: on the pane's EOF it
    /// runs the utempter helper with SIGCHLD set to SIG_DFL, and a SIGCHLD from the pane's process
    /// arriving in that window is discarded, so the process stays a zombie and
    /// `#{pane_dead_status}` stays empty forever (seen with multi-threaded programs, whose exit
    /// closes the terminal well before the parent is signalled). A dead pane without a status
    /// therefore gets the server a SIGCHLD of our own, which makes it reap the zombie.
    public func exitStatus() throws -> Int32? {
        let out = try tmux([
            "display-message", "-p", "-t", target,
            "#{pane_dead} #{pane_dead_status} #{pane_dead_signal} #{pid}",
        ])
        let fields = out.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: " ", omittingEmptySubsequences: false)
        guard fields.first == "1" else { return nil }
        if fields.count > 1, let status = Int32(fields[1]) { return status }
        if fields.count > 2, let signal = Int32(fields[2]) { return 128 + signal }
        if let server = fields.last.flatMap({ pid_t($0) }), server > 1 { _ = Glibc.kill(server, SIGCHLD) }
        return -1
    }

    /// Waits for the program to end; returns its exit status.
    ///
    /// tmux may see the pane's terminal close before it reaps the process, so a dead pane without
    /// a status yet is polled again (-1 if the status never comes).
    public func waitForExit(timeout: TimeInterval = 20) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        var sawDeadPane = false
        while Date() <= deadline {
            if let status = try exitStatus() {
                if status != -1 { return status }
                sawDeadPane = true
            }
            usleep(50_000)
        }
        if sawDeadPane { return -1 }
        throw TmuxError(description: "the program did not end within \(timeout) s; screen:\n" + Self.show(try screen()))
    }

    /// The pid of the pane's process (the program itself when started through `env`).
    public func panePID() throws -> Int32 {
        let out = try tmux(["display-message", "-p", "-t", target, "#{pane_pid}"])
        guard let pid = Int32(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TmuxError(description: "no pane pid in '\(out)'")
        }
        return pid
    }

    /// A screen as numbered rows, for failure messages.
    public static func show(_ lines: [String]) -> String {
        lines.enumerated().map { String(format: "%2d|", $0.offset) + $0.element }.joined(separator: "\n")
    }
}

/// A process seen in /proc: pid, parent, state letter and argv.
public struct ProcessEntry: CustomStringConvertible {
    /// The process id.
    public let pid: Int32
    /// The parent's process id.
    public let parent: Int32
    /// The state letter of /proc/PID/stat (R, S, Z, …).
    public let state: Character
    /// The command line.
    public let arguments: [String]

    /// One line for test failures.
    public var description: String { "\(pid) (parent \(parent), state \(state)): \(arguments.joined(separator: " "))" }

    /// Every process visible in /proc (a zombie has empty arguments but keeps its parent).
    public static func all() -> [ProcessEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> ProcessEntry? in
            guard let pid = Int32(name), let stat = read("/proc/\(name)/stat"),
                let close = stat.lastIndex(of: UInt8(ascii: ")"))
            else { return nil }
            // After "pid (comm) ": state, then ppid.
            let fields = String(decoding: stat[(close + 2)...], as: UTF8.self).split(separator: " ")
            guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
            let cmdline = read("/proc/\(name)/cmdline") ?? []
            let arguments = cmdline.split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            return ProcessEntry(
                pid: pid, parent: parent, state: state,
                arguments: arguments.last == "" ? Array(arguments.dropLast()) : arguments)
        }
    }

    /// /proc files report size 0: read to the end. A process that ends between the open and the
    /// read makes the read fail (ESRCH): nil then (`readDataToEndOfFile()` would trap).
    private static func read(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return Array(data)
    }
}
