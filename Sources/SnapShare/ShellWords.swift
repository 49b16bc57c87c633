import Foundation

/// Command lines split into argv words the way a POSIX shell splits them, without a shell.
public enum ShellWords {
    /// Why a command line cannot be split.
    public struct Problem: Error, Equatable, Sendable {
        /// "unbalanced single quote", "unbalanced double quote", "ends with a backslash",
        /// "empty command".
        public let reason: String
    }

    /// Splits `commandLine` into words (single/double quotes, backslash), never running a shell.
    ///
    /// Follows the quoting rules of POSIX.1-2017 XCU §2.2: inside '…' every character is
    /// literal; inside "…" a backslash escapes only `$`, backquote, `"`, `\` and newline;
    /// outside quotes a backslash escapes the next character and backslash-newline is removed.
    /// Nothing is expanded: `$HOME`, `~`, `*`, `|`, `>` and `$(…)` stay as written (a user who
    /// wants a shell writes `sh -c '…'`).
    ///
    /// - Returns: at least one word, or the ``Problem``.
    public static func split(_ commandLine: String) -> Result<[String], Problem> {
        func bad(_ reason: String) -> Result<[String], Problem> { .failure(Problem(reason: reason)) }
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
                    return bad("unbalanced single quote")
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
                if !closed { return bad("unbalanced double quote") }
            case "\\":
                guard i + 1 < scalars.count else { return bad("ends with a backslash") }
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
        if words.isEmpty { return bad("empty command") }
        return .success(words)
    }

    /// `word` as a user would type it in a shell: as is when it holds only safe characters, else
    /// in single quotes (`'it'\''s'`).
    public static func quoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
