/// Why the terminal could not be started.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (redirected or piped).
    case notATerminal
    /// ncurses could not start on this terminal type (`TERM` unknown or missing).
    case cannotStart(term: String)

    /// The user-facing wording.
    public var description: String {
        switch self {
        case .notATerminal:
            return "Standard input and output must be a terminal"
        case .cannotStart(let term):
            return "Cannot use the terminal type \"\(term)\" (check TERM)"
        }
    }
}
