import Foundation

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
        let (content, format) = decodeContent(bytes)
        return (String(content), format)
    }

    /// The text of a file's `bytes` as a ``Rope`` (built in one pass, without a copy of the whole
    /// text in between), and the format to write it back in.
    public static func decodeContent(_ bytes: [UInt8]) -> (content: Rope, format: TextFormat) {
        bytes.withUnsafeBufferPointer { decodeContent($0) }
    }

    /// ``decodeContent(_:)-([UInt8])`` of the bytes in `bytes`.
    public static func decodeContent(_ bytes: UnsafeBufferPointer<UInt8>) -> (content: Rope, format: TextFormat) {
        var format = TextFormat()
        if let firstEnd = firstLineEnd(bytes), bytes[firstEnd] == 0x0D {
            format.lineEnding = firstEnd + 1 < bytes.count && bytes[firstEnd + 1] == 0x0A ? .dos : .mac
        }
        let last = bytes.last
        format.addsFinalNewline = last == nil || last == 0x0A || (format.lineEnding == .mac && last == 0x0D)
        if !isValidUTF8(bytes) { format.encoding = .latin1 }  // CR and LF changes keep it (in)valid
        var builder = RopeBuilder()
        switch (format.encoding, format.lineEnding) {
        case (.utf8, .unix):
            builder.append(bytes)
        case (.utf8, .dos):
            // Every CR of a CR LF goes; the bytes between go as they are.
            var start = 0
            var i = 0
            while i + 1 < bytes.count {
                if bytes[i] == 0x0D && bytes[i + 1] == 0x0A {
                    builder.append(UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    start = i + 1
                }
                i += 1
            }
            builder.append(UnsafeBufferPointer(rebasing: bytes[start...]))
        default:
            var block: [UInt8] = []
            block.reserveCapacity(128 * 1024)
            for i in bytes.indices {
                let b = bytes[i]
                if b == 0x0D {
                    let beforeLF = i + 1 < bytes.count && bytes[i + 1] == 0x0A
                    switch format.lineEnding {
                    case .dos where beforeLF: continue
                    case .mac where !beforeLF: block.append(0x0A)
                    default: block.append(b)
                    }
                } else if b < 0x80 || format.encoding == .utf8 {
                    block.append(b)
                } else {  // Latin-1: the character U+0080…U+00FF, two bytes in UTF-8
                    block.append(0xC0 | (b >> 6))
                    block.append(0x80 | (b & 0x3F))
                }
                if block.count >= 64 * 1024 {
                    block.withUnsafeBufferPointer { builder.append($0) }
                    block.removeAll(keepingCapacity: true)
                }
            }
            block.withUnsafeBufferPointer { builder.append($0) }
        }
        return (builder.finish(), format)
    }

    /// The offset of the first CR or LF in `bytes`.
    private static func firstLineEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let lf = memchr(base, 0x0A, bytes.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        let cr = memchr(base, 0x0D, lf ?? bytes.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        return cr ?? lf
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF), as `String(validating:as:)` decides.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            // Eight ASCII bytes at a time.
            if i + 8 <= n, let base = bytes.baseAddress {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
                i + k < n && range.contains(bytes[i + k])
            }
            switch b {
            case 0xC2...0xDF:
                guard continuation(1) else { return false }
                i += 2
            case 0xE0:
                guard continuation(1, 0xA0...0xBF), continuation(2) else { return false }
                i += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard continuation(1), continuation(2) else { return false }
                i += 3
            case 0xED:
                guard continuation(1, 0x80...0x9F), continuation(2) else { return false }
                i += 3
            case 0xF0:
                guard continuation(1, 0x90...0xBF), continuation(2), continuation(3) else { return false }
                i += 4
            case 0xF1...0xF3:
                guard continuation(1), continuation(2), continuation(3) else { return false }
                i += 4
            case 0xF4:
                guard continuation(1, 0x80...0x8F), continuation(2), continuation(3) else { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }

    /// The bytes to write for `text` in this format.
    ///
    /// - Throws: ``SnapTextError/notEncodable(character:line:encoding:)`` for the first character
    ///   Latin-1 cannot hold (only in ``Encoding/latin1``).
    public func encode(_ text: String) throws(SnapTextError) -> [UInt8] {
        try encode(Rope(text))
    }

    /// The bytes to write for `content` in this format, made in one pass over its chunks.
    ///
    /// - Throws: ``SnapTextError/notEncodable(character:line:encoding:)`` for the first character
    ///   Latin-1 cannot hold (only in ``Encoding/latin1``).
    public func encode(_ content: Rope) throws(SnapTextError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(content.utf8Count + (lineEnding == .dos ? content.newlineCount + 2 : 2))
        var line = 1
        var failure: SnapTextError?
        let lineEnding = self.lineEnding
        func newline() {
            switch lineEnding {
            case .unix: bytes.append(0x0A)
            case .dos: bytes.append(contentsOf: [0x0D, 0x0A])
            case .mac: bytes.append(0x0D)
            }
        }
        // Leaves hold whole scalars, so a chunk never ends inside one.
        content.forEachChunk(in: 0..<content.utf8Count) { chunk in
            if encoding == .utf8 && lineEnding == .unix {
                bytes.append(contentsOf: chunk)
                return true
            }
            var i = 0
            while i < chunk.count {
                let b = chunk[i]
                if b == 0x0A {
                    newline()
                    line += 1
                    i += 1
                } else if b < 0x80 || encoding == .utf8 {
                    bytes.append(b)
                    i += 1
                } else if (b == 0xC2 || b == 0xC3) && i + 1 < chunk.count {
                    bytes.append((b & 0x03) << 6 | (chunk[i + 1] & 0x3F))
                    i += 2
                } else {
                    var iterator = chunk[i...].makeIterator()
                    var decoder = UTF8()
                    let scalar: Unicode.Scalar
                    if case .scalarValue(let s) = decoder.decode(&iterator) { scalar = s } else { scalar = "\u{FFFD}" }
                    failure = .notEncodable(character: Character(scalar), line: line, encoding: "Latin-1")
                    return false
                }
            }
            return true
        }
        if let failure { throw failure }
        if addsFinalNewline && !content.isEmpty && content.byte(at: content.utf8Count - 1) != 0x0A { newline() }
        return bytes
    }
}
