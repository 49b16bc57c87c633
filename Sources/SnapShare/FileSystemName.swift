#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file's name as the file system holds it: bytes. A Linux name is any bytes but NUL (a "/"
/// between components), not always UTF-8 (a Latin-1 `po\xE8me.txt` from an old camera or zip);
/// such a name cannot round-trip through a Swift `String`, so what writes or looks up a file
/// given by such a name takes its bytes.
public struct FileSystemName: Hashable, Sendable, CustomStringConvertible {
    /// The name's octets, without a terminating NUL.
    public var bytes: [UInt8]

    /// The name of `path` (its UTF-8).
    public init(_ path: String) { bytes = Array(path.utf8) }

    /// The name made of `bytes`.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// How the name is shown in the editor, its prompts and messages: valid UTF-8 as it is, every
    /// byte of an invalid sequence or of a control character (ESC, a newline) as `\xNN` and a
    /// backslash as `\\` (as a shell's `$'…'` types them), so that every name has its own
    /// (`init(shown:)` reads it back) and none acts on the terminal.
    public var shown: String { FileSystemName.shown(bytes) }

    /// The name `shown` stands for (see `shown`): `\xNN` is the byte NN, `\\` a backslash, any
    /// other backslash itself, everything else its UTF-8. A name typed in the editor (Write Out,
    /// insert) is read so: the name the editor showed is the file it showed.
    public init(shown: String) {
        var out: [UInt8] = []
        let utf8 = Array(shown.utf8)
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: b - 0x30
            case 0x41...0x46: b - 0x41 + 10
            case 0x61...0x66: b - 0x61 + 10
            default: nil
            }
        }
        var i = 0
        while i < utf8.count {
            let b = utf8[i]
            if b == backslash, i + 1 < utf8.count, utf8[i + 1] == backslash {
                out.append(backslash)
                i += 2
            } else if b == backslash, i + 3 < utf8.count, utf8[i + 1] == UInt8(ascii: "x"),
                let high = hex(utf8[i + 2]), let low = hex(utf8[i + 3])
            {
                out.append(high << 4 | low)
                i += 4
            } else {
                out.append(b)
                i += 1
            }
        }
        bytes = out
    }

    /// `shown`.
    public var description: String { shown }

    /// Whether the name is valid UTF-8 (a `String` holds it as it is).
    public var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The name followed by `suffix` (`NAME~`, `BASE.hocr`).
    public func appending(_ suffix: String) -> FileSystemName { appending(bytes: Array(suffix.utf8)) }

    /// The name followed by the octets `suffix`.
    public func appending(bytes suffix: [UInt8]) -> FileSystemName { FileSystemName(bytes: bytes + suffix) }

    /// The name changed by `transform` as if each byte were a character (ISO 8859-1: one
    /// character a byte), then back to bytes: what works on a name's ASCII parts (its folder, its
    /// extension: `EditorConfiguration.textFileName(forPhoto:)`) works so on any name. A character
    /// past U+00FF that `transform` brings in is written as UTF-8.
    public func mappingAsLatin1(_ transform: (String) -> String) -> FileSystemName {
        let changed = transform(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })))
        var out: [UInt8] = []
        for scalar in changed.unicodeScalars {
            if scalar.value <= 0xFF { out.append(UInt8(scalar.value)) } else { out += Array(String(scalar).utf8) }
        }
        return FileSystemName(bytes: out)
    }

    /// "/", between a path's components.
    static let separator = UInt8(ascii: "/")

    /// NUL-terminated, for the C library's calls.
    var cString: [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    /// `bytes` shown: valid UTF-8 decoded, each byte of an invalid sequence or of a control
    /// character as `\xNN`, a backslash as `\\`.
    static func shown(_ bytes: [UInt8]) -> String {
        func hex(_ b: UInt8) -> String {
            let digits = Array("0123456789ABCDEF")
            return "\\x" + String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
        }
        var out = ""
        var i = 0
        while i < bytes.count {
            // The longest valid UTF-8 sequence starting here (1–4 octets), else one byte escaped.
            var decoded: String?
            for length in 1...4 where i + length <= bytes.count {
                if let s = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
                    decoded = s
                    i += length
                    break
                }
            }
            if let decoded, !decoded.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                out += decoded == "\\" ? "\\\\" : decoded
            } else if let decoded {
                // A control character (ESC, a newline, C1) by its octets: it cannot act on a terminal.
                for b in decoded.utf8 { out += hex(b) }
            } else {
                out += hex(bytes[i])
                i += 1
            }
        }
        return out
    }
}

/// A backslash, the escapes' first octet.
private let backslash = UInt8(ascii: "\\")
