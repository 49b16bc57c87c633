/// The MIME encoders behind `MailMessage`: quoted-printable and base64 bodies (RFC 2045 §6.7,
/// §6.8) and RFC 2047 encoded-words for headers. All output is 7-bit ASCII.
enum MIMEEncoding {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// Quoted-printable text body per RFC 2045 §6.7, lines separated by CRLF.
    ///
    /// `bytes` is text: LF or CRLF ends a line (a lone CR is encoded as `=0D`). Output lines
    /// are at most 76 characters, soft breaks ("=" at the end) split long lines, `=` and all
    /// non-printable or non-ASCII octets become `=XX`, a space or tab at the end of a line is
    /// encoded, and a line that would begin with "." or "From " starts with an escape instead
    /// (so SMTP dot-stuffing and mbox "From " quoting cannot alter it). The result ends with
    /// CRLF; when the text has no final line break it ends with a soft break, so decoding gives
    /// back exactly the input (with CRLF line ends).
    static func quotedPrintable(_ bytes: [UInt8]) -> String {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for i in bytes.indices where bytes[i] == 0x0A {
            let end = (i > start && bytes[i - 1] == 0x0D) ? i - 1 : i
            lines.append(bytes[start..<end])
            start = i + 1
        }
        let endsWithBreak = start == bytes.count
        if !endsWithBreak { lines.append(bytes[start...]) }

        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 2)
        for line in lines {
            encodeLine(line, into: &out)
            out += [0x0D, 0x0A]
        }
        if !endsWithBreak, !lines.isEmpty {
            // "=\r\n" instead of the last CRLF: decodes to nothing, keeps "no final newline".
            out.removeLast(2)
            out += Array("=\r\n".utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func encodeLine(_ line: ArraySlice<UInt8>, into out: inout [UInt8]) {
        var column = 0
        var i = line.startIndex
        while i < line.endIndex {
            let byte = line[i]
            let isLast = i == line.index(before: line.endIndex)
            var token = token(for: byte, at: i, in: line, column: column, isLast: isLast)
            // Leave room for the "=" of a soft break unless this is the line's last token.
            let limit = isLast ? 76 : 75
            if column + token.count > limit {
                out += [0x3D, 0x0D, 0x0A]
                column = 0
                token = self.token(for: byte, at: i, in: line, column: 0, isLast: isLast)
            }
            out += token
            column += token.count
            i = line.index(after: i)
        }
    }

    private static func token(
        for byte: UInt8, at i: Int, in line: ArraySlice<UInt8>,
        column: Int, isLast: Bool
    ) -> [UInt8] {
        let literal: Bool
        switch byte {
        case 0x21...0x7E where byte != 0x3D:
            if column == 0 && byte == 0x2E {  // "." opening a line
                literal = false
            } else if column == 0 && byte == 0x46 && line[i...].starts(with: Array("From ".utf8)) {
                literal = false
            } else {
                literal = true
            }
        case 0x20, 0x09:
            literal = !isLast  // trailing blank would be lost
        default:
            literal = false
        }
        return literal ? [byte] : [0x3D, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
    }

    /// Base64 per RFC 2045 §6.8 (alphabet of RFC 4648 §4), `lineLength` characters per line
    /// (76 for bodies, 0 for one unbroken line), each line ending in CRLF.
    static func base64(_ bytes: [UInt8], lineLength: Int = 76) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 4 / 3 + bytes.count / 38 + 8)
        var column = 0
        func emit(_ c: UInt8) {
            if lineLength > 0 && column == lineLength {
                out += [0x0D, 0x0A]
                column = 0
            }
            out.append(c)
            column += 1
        }
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            emit(alphabet[Int(b0 >> 2)])
            emit(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            emit(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : 0x3D)
            emit(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : 0x3D)
            i += 3
        }
        if lineLength > 0 && !out.isEmpty { out += [0x0D, 0x0A] }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` can stand in an unstructured header as it is: printable ASCII words
    /// separated by single spaces, nothing that a reader would take for an encoded-word, and
    /// every word short enough to fold.
    static func isPlainHeaderText(_ text: String, maxWord: Int = 60) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return false }
        guard !text.contains("=?"), !text.hasPrefix(" "), !text.hasSuffix(" "),
            !text.contains("  ")
        else { return false }
        return text.split(separator: " ").allSatisfy { $0.utf8.count <= maxWord }
    }

    /// Encodes `text` as RFC 2047 encoded-words in UTF-8, each at most 75 characters
    /// (§2), never splitting a Unicode scalar between words (§5). The first word is kept to
    /// `firstLimit` characters so it fits after the field name on the first line. Uses "Q" or
    /// "B" (§4), whichever is shorter; in "Q" only letters, digits and `!*+-/` stay literal, so
    /// the words are valid in any header position.
    static func encodedWords(_ text: String, firstLimit: Int = 75) -> [String] {
        let q = words(text, firstLimit: firstLimit, base64: false)
        let b = words(text, firstLimit: firstLimit, base64: true)
        return q.joined().count <= b.joined().count ? q : b
    }

    private static func words(_ text: String, firstLimit: Int, base64: Bool) -> [String] {
        let prefix = base64 ? "=?UTF-8?B?" : "=?UTF-8?Q?"
        var result: [String] = []
        var pending: [UInt8] = []  // raw octets of the word being built
        func encoded(_ raw: [UInt8]) -> String {
            base64 ? self.base64(raw, lineLength: 0) : qWord(raw)
        }
        func limit() -> Int { result.isEmpty ? min(firstLimit, 75) : 75 }
        for scalar in text.unicodeScalars {
            let raw = Array(String(scalar).utf8)
            let candidate = pending + raw
            if !pending.isEmpty && prefix.count + encoded(candidate).count + 2 > limit() {
                result.append(prefix + encoded(pending) + "?=")
                pending = raw
            } else {
                pending = candidate
            }
        }
        if !pending.isEmpty || result.isEmpty {
            result.append(prefix + encoded(pending) + "?=")
        }
        return result
    }

    private static func qWord(_ raw: [UInt8]) -> String {
        var out: [UInt8] = []
        for byte in raw {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x21, 0x2A, 0x2B, 0x2D, 0x2F:
                out.append(byte)
            case 0x20:
                out.append(0x5F)  // "_" stands for a space (§4.2 (2))
            default:
                out += [0x3D, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
