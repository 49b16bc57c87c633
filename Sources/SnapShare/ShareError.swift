import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything that can go wrong while saving or mailing a poem.
///
/// Each case carries the context a user needs (the file name as they typed it, the command as it
/// was configured) and `description` is the one place where the user-facing wording lives.
/// OS reasons are the C library's `strerror(errno)` text, e.g. "Permission denied".
public enum ShareError: Error, Equatable, CustomStringConvertible {
    /// Saving `path` failed; `reason` is `strerror(errno)` of the failing call (open, write,
    /// fsync, close, rename), e.g. "Permission denied". The old file, if any, is unchanged.
    case writeFailed(path: String, reason: String)
    /// The mail command ran and exited with a non-zero `status` (128 + N when killed by signal N);
    /// `stderr` is what it wrote to standard error, trailing blank space removed.
    case mailCommandFailed(command: String, status: Int32, stderr: String)
    /// The mail command exited with status 0 but closed its input after `bytesWritten` of the
    /// `bytesTotal` octets of the message, so the message may not have been sent whole.
    case mailCommandStoppedReading(command: String, bytesWritten: Int, bytesTotal: Int)
    /// The mail command did not finish within `seconds` and was killed (SIGKILL).
    case mailCommandTimedOut(command: String, seconds: Double)
    /// The mail command could not be started: not found in `PATH`, not executable, and so on.
    case mailCommandNotRunnable(command: String, reason: String)
    /// The user cancelled the send (^C) and the mail command was killed (its process group,
    /// SIGKILL); the mail may or may not have gone out.
    case mailCommandCancelled(command: String)
    /// A mail command line (from `--mail-command` or `LOVESNAP_MAIL_COMMAND`) could not be split
    /// into words: unbalanced quotes, a trailing backslash, or no words at all.
    case invalidCommandLine(commandLine: String, reason: String)
    /// A recipient or sender address cannot be put in a header (CR/LF or other control
    /// characters, non-ASCII or blank in the address itself, no "@").
    case invalidAddress(address: String, reason: String)
    /// A header value cannot be sent as given: a Subject (or another field) holding CR or LF
    /// (header injection, RFC 5322 §2.2).
    case invalidHeader(field: String, reason: String)
    /// The message has no recipient.
    case noRecipients
    /// A command line typed for Execute Command (^T) could not be split into words.
    case invalidCommand(commandLine: String, reason: String)
    /// The command typed for ^T could not be started (not found in `PATH`, not executable…).
    case commandNotRunnable(command: String, reason: String)
    /// The command typed for ^T exited with a non-zero `status` (128 + N after signal N);
    /// `stderr` is what it wrote to standard error, trailing blank space removed.
    case commandFailed(command: String, status: Int32, stderr: String)
    /// The command typed for ^T wrote more than `limit` octets.
    case commandOutputTooLarge(command: String, limit: Int)
    /// The user cancelled the command typed for ^T (^C), which was killed (its process group).
    case commandCancelled(command: String)

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .writeFailed(let path, let reason):
            return "\(path): \(reason)"
        case .mailCommandFailed(let command, let status, let stderr):
            let detail = stderr.isEmpty ? "" : ": \(stderr)"
            return "mail command '\(command)' failed with exit status \(status)\(detail)"
        case .mailCommandStoppedReading(let command, let written, let total):
            return
                "mail command '\(command)' stopped reading the message after \(written) of \(total) bytes; it may not have been sent"
        case .mailCommandTimedOut(let command, let seconds):
            return String(
                format: "mail command '%@' did not finish within %g s and was stopped; the mail may not have been sent",
                locale: Locale(identifier: "en_US_POSIX"), command, seconds)
        case .mailCommandNotRunnable(let command, let reason):
            return "cannot run mail command '\(command)': \(reason)"
        case .mailCommandCancelled(let command):
            return "mail command '\(command)' was stopped; the mail may not have been sent"
        case .invalidCommandLine(let commandLine, let reason):
            return "invalid mail command \(visible(commandLine)): \(reason)"
        case .invalidAddress(let address, let reason):
            return "invalid mail address \(visible(address)): \(reason)"
        case .invalidHeader(let field, let reason):
            return "invalid \(field): \(reason)"
        case .noRecipients:
            return "no recipient given"
        case .invalidCommand(let commandLine, let reason):
            return "invalid command \(visible(commandLine)): \(reason)"
        case .commandNotRunnable(let command, let reason):
            return "cannot run '\(command)': \(reason)"
        case .commandFailed(let command, let status, let stderr):
            let detail = stderr.isEmpty ? "" : ": \(stderr)"
            return "'\(command)' failed with exit status \(status)\(detail)"
        case .commandOutputTooLarge(let command, let limit):
            return "'\(command)' wrote more than \(limit / (1024 * 1024)) MiB; nothing was taken"
        case .commandCancelled(let command):
            return "'\(command)' was stopped"
        }
    }

    /// `strerror(code)` as a Swift string, e.g. "No such file or directory".
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// Quotes `text` for an error message, with control characters shown as escapes so a CR/LF
/// in a bad value cannot break the status line.
private func visible(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\r": out += "\\r"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
