import SnapProcess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command the user typed for the editor's Execute Command (^T, as GNU nano's): split into
/// argv words like a shell would (``ShellWords``), run without a shell, the text piped to its
/// standard input and its standard output read back.
public enum ExternalCommand {
    /// At most this many octets of standard output are taken (16 MiB); more is an error, and the
    /// command is killed as soon as it writes more.
    public static let outputLimit = 16 * 1024 * 1024
    /// At most this many octets of standard error are kept for the error message.
    static let stderrLimit = 64 * 1024

    /// Runs `commandLine` with `input` on its standard input and returns its standard output.
    ///
    /// The program is looked up in `PATH` unless it holds a "/", and started with `posix_spawn`
    /// in a session of its own (no controlling terminal, so it cannot draw on the editor's
    /// screen); its standard error is kept for the message. Blocks until the program ends, or
    /// until `cancellation` is cancelled (then its process group is killed with SIGKILL).
    ///
    /// - Throws: `ShareError.invalidCommand` when the line cannot be split,
    ///   `ShareError.commandNotRunnable` when the program is not found or cannot start,
    ///   `ShareError.commandFailed` for a non-zero exit status (128 + N after signal N),
    ///   `ShareError.commandOutputTooLarge` past ``outputLimit``, `ShareError.commandCancelled`.
    public static func run(_ commandLine: String, input: [UInt8], cancellation: Cancellation? = nil) throws
        -> [UInt8]
    {
        let words: [String]
        switch ShellWords.split(commandLine) {
        case .success(let split): words = split
        case .failure(let problem):
            throw ShareError.invalidCommand(commandLine: commandLine, reason: problem.reason)
        }
        let shown = words.map(ShellWords.quoted).joined(separator: " ")
        guard let path = find(words[0], searchPath: getenv("PATH").map { String(cString: $0) }) else {
            throw ShareError.commandNotRunnable(command: shown, reason: "\(words[0]): command not found in PATH")
        }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(
                path: path, arguments: words, input: input, stderrLimit: stderrLimit, stdoutLimit: outputLimit,
                cancellation: cancellation)
        } catch {
            switch error {
            case .notRunnable(let reason): throw ShareError.commandNotRunnable(command: shown, reason: reason)
            case .cancelled, .timedOut: throw ShareError.commandCancelled(command: shown)
            }
        }
        // Past the limit the command was killed: its status says so, not how it would have ended.
        if result.stdoutTruncated { throw ShareError.commandOutputTooLarge(command: shown, limit: outputLimit) }
        if result.status != 0 {
            throw ShareError.commandFailed(command: shown, status: result.status, stderr: result.stderr)
        }
        return result.stdout
    }

    /// `program` itself when it holds a "/", else the first executable regular file named
    /// `program` in `searchPath` (colon-separated, empty entries mean "."; nil:
    /// `/usr/local/bin:/usr/bin:/bin`), then in `extraFolders`; nil when there is none.
    static func find(_ program: String, searchPath: String?, extraFolders: [String] = []) -> String? {
        if program.contains("/") { return program }
        if program.isEmpty { return nil }
        let path = searchPath ?? "/usr/local/bin:/usr/bin:/bin"
        let folders =
            path.split(separator: ":", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "." : String($0) } + extraFolders
        for folder in folders {
            let candidate = folder + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}
