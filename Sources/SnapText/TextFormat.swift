/// How a text file's bytes become a buffer's text and back, as GNU nano reads and writes files.
///
/// Reading (``decode(_:)``):
/// - **Encoding**: bytes that are valid UTF-8 are UTF-8 (a byte-order mark stays in the text, as
///   U+FEFF, and is written back); any other bytes are read as **Latin-1** (ISO 8859-1: each byte
///   is the character of the same number), so every file opens and no byte is lost.
/// - **Line ends**: the first line end decides, as in nano. `CR LF` first: a DOS file, every
///   `CR LF` becomes `"\n"`. A lone `CR` first: an old Mac file, every `CR` not followed by `LF`
///   becomes `"\n"`. Otherwise the bytes stay as they are.
/// - **Final newline**: remembered; a file that had none when opened is written back without one.
///
/// Writing (``encode(_:)``) reverses each step: a final newline is added to a non-empty text that
/// lacks one (nano's default, unless the file had none), `"\n"` becomes `CR LF` or `CR` again, and
/// the text is encoded back in the file's encoding. A file read and written unedited comes back
/// byte for byte (a DOS file that mixed `LF` and `CR LF` line ends gets `CR LF` everywhere, as in nano).
public struct TextFormat: Equatable, Hashable, Sendable {
    /// How lines end in the file.
    public enum LineEnding: Equatable, Hashable, Sendable {
        /// `LF` (Unix).
        case unix
        /// `CR LF` (DOS, Windows).
        case dos
        /// `CR` (classic Mac OS).
        case mac
    }

    /// The character encoding of the file.
    public enum Encoding: Equatable, Hashable, Sendable {
        /// UTF-8.
        case utf8
        /// ISO 8859-1: one byte per character, U+0000…U+00FF.
        case latin1
    }

    /// How lines end when written.
    public var lineEnding: LineEnding
    /// How characters are written.
    public var encoding: Encoding
    /// Whether writing adds `"\n"` to a non-empty text that does not end with one (false for a
    /// file that had no final newline when it was opened).
    public var addsFinalNewline: Bool

    /// A format; the default is nano's for a new file: UTF-8, `LF`, a final newline added.
    public init(lineEnding: LineEnding = .unix, encoding: Encoding = .utf8, addsFinalNewline: Bool = true) {
        self.lineEnding = lineEnding
        self.encoding = encoding
        self.addsFinalNewline = addsFinalNewline
    }

    /// What the status line says about a file read in this format beside "Read N lines", or nil
    /// when there is nothing to say: "Converted from DOS format", "Converted from Mac format",
    /// "not UTF-8: read as Latin-1", joined with "; ".
    public var readNotice: String? {
        var parts: [String] = []
        switch lineEnding {
        case .dos: parts.append("Converted from DOS format")
        case .mac: parts.append("Converted from Mac format")
        case .unix: break
        }
        if encoding == .latin1 { parts.append("not UTF-8: read as Latin-1") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The text of a file's `bytes`, and the format to write it back in.
    public static func decode(_ bytes: [UInt8]) -> (text: String, format: TextFormat) {
        var format = TextFormat()
        var bytes = bytes
        if let firstEnd = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }), bytes[firstEnd] == 0x0D {
            let isDOS = firstEnd + 1 < bytes.count && bytes[firstEnd + 1] == 0x0A
            format.lineEnding = isDOS ? .dos : .mac
            bytes = isDOS ? fromDOS(bytes) : fromMac(bytes)
        }
        format.addsFinalNewline = bytes.isEmpty || bytes.last == 0x0A
        if let text = String(validating: bytes, as: UTF8.self) {  // keeps a byte-order mark
            return (text, format)
        }
        format.encoding = .latin1
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return (String(scalars), format)
    }

    /// The bytes to write for `text` in this format.
    ///
    /// - Throws: ``SnapTextError/notEncodable(character:line:encoding:)`` for the first character
    ///   Latin-1 cannot hold (only in ``Encoding/latin1``).
    public func encode(_ text: String) throws(SnapTextError) -> [UInt8] {
        var bytes: [UInt8]
        switch encoding {
        case .utf8:
            bytes = Array(text.utf8)
        case .latin1:
            bytes = []
            bytes.reserveCapacity(text.unicodeScalars.count)
            for scalar in text.unicodeScalars {
                guard scalar.value <= 0xFF else { throw Self.notEncodable(scalar, in: text) }
                bytes.append(UInt8(scalar.value))
            }
        }
        if addsFinalNewline, let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
        switch lineEnding {
        case .unix: return bytes
        case .dos: return bytes.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
        case .mac: return bytes.map { $0 == 0x0A ? 0x0D : $0 }
        }
    }

    private static func notEncodable(_ scalar: Unicode.Scalar, in text: String) -> SnapTextError {
        let index = text.unicodeScalars.firstIndex(of: scalar) ?? text.startIndex
        let line = text.unicodeScalars[..<index].reduce(1) { $0 + ($1 == "\n" ? 1 : 0) }
        return .notEncodable(character: Character(scalar), line: line, encoding: "Latin-1")
    }

    private static func fromDOS(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for (i, byte) in bytes.enumerated() where !(byte == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A) {
            result.append(byte)
        }
        return result
    }

    private static func fromMac(_ bytes: [UInt8]) -> [UInt8] {
        bytes.indices.map { i in
            bytes[i] == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A) ? 0x0A : bytes[i]
        }
    }
}
