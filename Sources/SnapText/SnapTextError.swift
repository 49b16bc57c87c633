/// Errors thrown by the text model.
public enum SnapTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A search (or replace) was asked for with an empty search text.
    case emptySearch
    /// An edit's offset lies outside the text or not on a Unicode-scalar boundary.
    case offsetOutOfRange(offset: Int, utf8Count: Int)
    /// A remove edit's text is not what the buffer holds at its offset.
    case textMismatch(offset: Int)

    /// The user-facing wording.
    public var description: String {
        switch self {
        case .emptySearch:
            return "Nothing to search for"
        case .offsetOutOfRange(let offset, let count):
            return "Offset \(offset) is outside the text (\(count) bytes)"
        case .textMismatch(let offset):
            return "The text at offset \(offset) is not the text to remove"
        }
    }
}
