/// Errors thrown by the text model.
public enum SnapTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A search (or replace) was asked for with an empty search text.
    case emptySearch
    /// An edit's offset lies outside the text or not on a Unicode-scalar boundary.
    case offsetOutOfRange(offset: Int, utf8Count: Int)
    /// A remove edit's text is not what the buffer holds at its offset.
    case textMismatch(offset: Int)
    /// A character cannot be written in the encoding chosen for the file (Latin-1 holds
    /// U+0000…U+00FF only).
    case notEncodable(character: Character, line: Int, encoding: String)
    /// A regular expression that does not compile; `reason` is the compiler's.
    case badRegex(pattern: String, reason: String)

    /// The user-facing wording.
    public var description: String {
        switch self {
        case .emptySearch:
            return "Nothing to search for"
        case .offsetOutOfRange(let offset, let count):
            return "Offset \(offset) is outside the text (\(count) bytes)"
        case .textMismatch(let offset):
            return "The text at offset \(offset) is not the text to remove"
        case .notEncodable(let character, let line, let encoding):
            return "\"\(character)\" (line \(line)) cannot be written in \(encoding)"
        case .badRegex(let pattern, let reason):
            return "Bad regex \"\(pattern)\": \(reason)"
        }
    }
}
