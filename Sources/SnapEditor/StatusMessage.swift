import SnapTerminal
import SnapText

/// A status-line message.
public struct StatusMessage: Equatable, Sendable {
    /// The text shown.
    public var text: String
    /// Whether it reports a failure.
    public var isError: Bool

    /// Creates a message.
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
