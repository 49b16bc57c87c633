import Foundation

/// The local program that takes a whole message on standard input and sends it, by default
/// `sendmail -t -i` (recipients from the headers, a lone "." line is not end of input).
///
/// The command is an argv array; no shell is ever run, so quotes, `$(…)` or backquotes in a
/// subject or address stay text.
public struct MailCommand: Equatable, Sendable {
    /// `sendmail -t -i`: read recipients from To/Cc/Bcc, do not treat "." as end of input.
    public static let defaultArguments = ["sendmail", "-t", "-i"]
    /// The environment variable that overrides the default command: "LOVESNAP_MAIL_COMMAND".
    public static let environmentVariable = "LOVESNAP_MAIL_COMMAND"
    /// Folders searched after `PATH`, because sendmail lives in /usr/sbin (or /usr/lib), which
    /// an ordinary user's `PATH` on Debian lacks.
    static let fallbackFolders = ["/usr/sbin", "/sbin", "/usr/lib"]
    /// At most this many octets of the command's standard error are kept for the error message.
    static let stderrLimit = 64 * 1024

    /// The program (a name looked up in `PATH`, or a path containing "/") and its arguments.
    public var arguments: [String]
    /// Seconds the command may take (default `defaultTimeout`).
    public var timeout: Double = MailCommand.defaultTimeout

    /// Makes a command from ready-split arguments; `arguments[0]` is the program.
    public init(arguments: [String]) {
        self.arguments = arguments
    }

    /// Splits a command line like a POSIX shell would split words (single/double quotes,
    /// backslash), without ever running a shell; throws on unbalanced quotes or an empty command.
    ///
    /// Follows the quoting rules of POSIX.1-2017 XCU §2.2: inside '…' every character is
    /// literal; inside "…" a backslash escapes only `$`, backquote, `"`, `\` and newline;
    /// outside quotes a backslash escapes the next character and backslash-newline is removed.
    /// Nothing is expanded: `$HOME`, `~`, `*` and `$(…)` stay as written.
    ///
    /// - Throws: `ShareError.invalidCommandLine(commandLine:reason:)`.
    public static func parse(_ commandLine: String) throws -> MailCommand {
        func bad(_ reason: String) -> ShareError {
            .invalidCommandLine(commandLine: commandLine, reason: reason)
        }
        let scalars = Array(commandLine.unicodeScalars)
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            switch c {
            case " ", "\t", "\n", "\r":
                if inWord {
                    words.append(String(word))
                    word = .init()
                    inWord = false
                }
            case "'":
                inWord = true
                guard let close = scalars[(i + 1)...].firstIndex(of: "'") else {
                    throw bad("unbalanced single quote")
                }
                word.append(contentsOf: scalars[(i + 1)..<close])
                i = close
            case "\"":
                inWord = true
                i += 1
                var closed = false
                while i < scalars.count {
                    let d = scalars[i]
                    if d == "\"" {
                        closed = true
                        break
                    }
                    if d == "\\", i + 1 < scalars.count, "$`\"\\\n".unicodeScalars.contains(scalars[i + 1]) {
                        if scalars[i + 1] != "\n" { word.append(scalars[i + 1]) }
                        i += 2
                        continue
                    }
                    word.append(d)
                    i += 1
                }
                if !closed { throw bad("unbalanced double quote") }
            case "\\":
                guard i + 1 < scalars.count else { throw bad("ends with a backslash") }
                if scalars[i + 1] != "\n" {
                    word.append(scalars[i + 1])
                    inWord = true
                }
                i += 1
            default:
                word.append(c)
                inWord = true
            }
            i += 1
        }
        if inWord { words.append(String(word)) }
        if words.isEmpty { throw bad("empty command") }
        return MailCommand(arguments: words)
    }

    /// The command from `--mail-command` if given, else env LOVESNAP_MAIL_COMMAND, else the default.
    ///
    /// An environment variable that is empty or blank counts as unset; an explicit empty
    /// option is an error.
    ///
    /// - Throws: `ShareError.invalidCommandLine` when the chosen command line cannot be split.
    public static func resolve(option: String?, environment: [String: String]) throws -> MailCommand {
        if let option { return try parse(option) }
        if let value = environment[environmentVariable],
            value.unicodeScalars.contains(where: { !" \t\r\n".unicodeScalars.contains($0) })
        {
            return try parse(value)
        }
        return MailCommand(arguments: defaultArguments)
    }

    /// The command as a user would type it, for messages: `sendmail -t -i`.
    public var displayString: String {
        arguments.map(Self.shellQuoted).joined(separator: " ")
    }

    /// Runs the command (argv, PATH lookup, no shell), writes the message to its stdin, waits;
    /// throws with the exit status and stderr on failure.
    ///
    /// The program is found in `PATH` (then /usr/sbin, /sbin, /usr/lib) unless it contains "/",
    /// and started with `posix_spawn`. The whole `message.rendered()` is written to its standard
    /// input, which is then closed; standard output is read and dropped (it must not reach the
    /// terminal), standard error is kept. All three pipes are served together, so a command
    /// that writes much before reading cannot deadlock us. The call blocks until the command
    /// exits.
    ///
    /// - Throws: what `message.validate()` throws; `ShareError.invalidCommandLine` for an
    ///   empty argument list; `ShareError.mailCommandNotRunnable` when the program is not found
    ///   or cannot be started; `ShareError.mailCommandFailed` for a non-zero exit status (128 + N
    ///   after signal N); `ShareError.mailCommandStoppedReading` when it exited 0 without reading
    ///   the whole message.
    /// Seconds a mail command may take before it is killed (SIGKILL) and
    /// `ShareError.mailCommandTimedOut` is thrown: a `sendmail` stuck on DNS or a queue lock must
    /// not hold the editor, and the user's buffer, hostage.
    public static let defaultTimeout: Double = 60

    /// Pipes `message` (RFC 5322, validated first) to the mail command's standard input and
    /// waits for it, at most `timeout` seconds.
    /// - Throws: `ShareError` when the message is invalid or the command fails or times out.
    public func send(_ message: MailMessage) throws {
        try message.validate()
        guard let program = arguments.first, !program.isEmpty else {
            throw ShareError.invalidCommandLine(commandLine: displayString, reason: "empty command")
        }
        let path = try executablePath(for: program)
        let input = message.rendered()
        let result = try ChildProcess.run(
            path: path, arguments: arguments, input: input,
            stderrLimit: Self.stderrLimit, command: displayString, timeout: timeout)
        if result.status != 0 {
            throw ShareError.mailCommandFailed(
                command: displayString, status: result.status,
                stderr: result.stderr)
        }
        if result.bytesWritten < input.count {
            throw ShareError.mailCommandStoppedReading(
                command: displayString,
                bytesWritten: result.bytesWritten,
                bytesTotal: input.count)
        }
    }

    /// `program` itself when it holds a "/", else the first executable regular file named
    /// `program` in `PATH` (empty entries mean "."), then in `fallbackFolders`.
    func executablePath(
        for program: String,
        searchPath: String? = getenv("PATH").map { String(cString: $0) }
    ) throws -> String {
        if program.contains("/") { return program }
        let path = searchPath ?? "/usr/local/bin:/usr/bin:/bin"
        let folders =
            path.split(separator: ":", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "." : String($0) } + Self.fallbackFolders
        for folder in folders {
            let candidate = folder + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                access(candidate, X_OK) == 0
            {
                return candidate
            }
        }
        throw ShareError.mailCommandNotRunnable(command: displayString, reason: "\(program): command not found in PATH")
    }

    private static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
