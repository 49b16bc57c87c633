import Foundation
import SnapProcess

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

    /// Splits a command line into words as a POSIX shell would (``ShellWords/split(_:)``),
    /// without ever running a shell.
    ///
    /// - Throws: `ShareError.invalidCommandLine(commandLine:reason:)` on unbalanced quotes, a
    ///   trailing backslash or no words at all.
    public static func parse(_ commandLine: String) throws -> MailCommand {
        switch ShellWords.split(commandLine) {
        case .success(let words): return MailCommand(arguments: words)
        case .failure(let problem):
            throw ShareError.invalidCommandLine(commandLine: commandLine, reason: problem.reason)
        }
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

    /// Seconds a mail command may take before it is killed (SIGKILL) and
    /// `ShareError.mailCommandTimedOut` is thrown: a `sendmail` stuck on DNS or a queue lock must
    /// not hold the user's buffer hostage.
    public static let defaultTimeout: Double = 60

    /// Pipes `message` (RFC 5322, validated first) to the mail command's standard input and
    /// waits for it, at most ``timeout`` seconds, or until `cancellation` is cancelled.
    ///
    /// The program is found in `PATH` (then /usr/sbin, /sbin, /usr/lib) unless it contains "/",
    /// and started with `posix_spawn` in a session of its own (no controlling terminal). The
    /// whole `message.rendered()` is written to its standard input, which is then closed;
    /// standard output is read and dropped (it must not reach the terminal), standard error is
    /// kept. All three pipes are served together, so a command that writes much before reading
    /// cannot deadlock us. The call blocks until the command exits: the editor calls it on a
    /// thread of its own.
    ///
    /// - Throws: what `message.validate()` throws; `ShareError.invalidCommandLine` for an
    ///   empty argument list; `ShareError.mailCommandNotRunnable` when the program is not found
    ///   or cannot be started; `ShareError.mailCommandFailed` for a non-zero exit status (128 + N
    ///   after signal N); `ShareError.mailCommandStoppedReading` when it exited 0 without reading
    ///   the whole message; `ShareError.mailCommandTimedOut` after ``timeout`` seconds and
    ///   `ShareError.mailCommandCancelled` after a cancel (the command's process group killed).
    public func send(_ message: MailMessage, cancellation: Cancellation? = nil) throws {
        try message.validate()
        let path = try runnablePath()
        let input = message.rendered()
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(
                path: path, arguments: arguments, input: input, stderrLimit: Self.stderrLimit, timeout: timeout,
                cancellation: cancellation)
        } catch {
            switch error {
            case .notRunnable(let reason):
                throw ShareError.mailCommandNotRunnable(command: displayString, reason: reason)
            case .timedOut: throw ShareError.mailCommandTimedOut(command: displayString, seconds: timeout)
            case .cancelled: throw ShareError.mailCommandCancelled(command: displayString)
            }
        }
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

    /// Refuses what ``send(_:cancellation:)`` could not start, before any message is made: an
    /// empty command, or a program found nowhere (the same search as `send`'s).
    /// - Throws: `ShareError.invalidCommandLine` or `ShareError.mailCommandNotRunnable`, as `send` would.
    public func checkRunnable() throws(ShareError) { _ = try runnablePath() }

    /// The program `send` starts: the first argument, found by `executablePath(for:)`.
    /// - Throws: `ShareError.invalidCommandLine` for an empty command,
    ///   `ShareError.mailCommandNotRunnable` for a program found nowhere.
    private func runnablePath() throws(ShareError) -> String {
        guard let program = arguments.first, !program.isEmpty else {
            throw ShareError.invalidCommandLine(commandLine: displayString, reason: "empty command")
        }
        return try executablePath(for: program)
    }

    /// `program` itself when it holds a "/", else the first executable regular file named
    /// `program` in `PATH` (empty entries mean "."), then in `fallbackFolders`.
    func executablePath(
        for program: String,
        searchPath: String? = getenv("PATH").map { String(cString: $0) }
    ) throws(ShareError) -> String {
        guard let path = ExternalCommand.find(program, searchPath: searchPath, extraFolders: Self.fallbackFolders)
        else {
            throw ShareError.mailCommandNotRunnable(
                command: displayString,
                reason: "\(program): command not found in PATH" + Self.hint(forMissing: program, searchPath: searchPath)
            )
        }
        return path
    }

    /// What to do when the default `sendmail` is found nowhere: on Debian the package
    /// msmtp-mta provides it for msmtp (an account in `~/.msmtprc`); with msmtp alone,
    /// `--mail-command` can name it. Empty for any other program.
    static func hint(forMissing program: String, searchPath: String?) -> String {
        guard program == "sendmail" else { return "" }
        if ExternalCommand.find("msmtp", searchPath: searchPath, extraFolders: fallbackFolders) != nil {
            return "; msmtp is here: apt-get install msmtp-mta, or --mail-command 'msmtp -t --read-envelope-from'"
        }
        return "; apt-get install msmtp-mta (your account in ~/.msmtprc), or give --mail-command"
    }

    /// The command as a user would type it, for messages: `sendmail -t -i`.
    public var displayString: String {
        arguments.map(ShellWords.quoted).joined(separator: " ")
    }
}
