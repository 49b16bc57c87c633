/// Why the terminal could not be started.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (redirected or piped).
    case notATerminal
    /// ncurses could not start on this terminal type (`TERM` unknown or missing).
    case cannotStart(term: String)
    /// The terminal type cannot move the cursor (no terminfo `cup`, as `TERM=dumb`).
    case noCursorAddressing(term: String)

    /// The user-facing wording.
    public var description: String {
        switch self {
        case .notATerminal:
            return "Standard input and output must be a terminal"
        case .cannotStart(let term):
            return "Cannot use the terminal type \"\(term)\" (check TERM)"
        case .noCursorAddressing(let term):
            return "TERM \"\(term)\" cannot move the cursor; the editor needs one that can"
        }
    }
}
