import Foundation

/// A plain-text mail, ready to hand to `sendmail -t -i` (RFC 5322 with MIME, RFC 2045–2047).
public struct MailMessage: Equatable, Sendable {
    /// The sender ("addr@host" or "Name <addr@host>"); nil leaves From to the mail command.
    public var from: String?
    /// The recipients, one address per element, each "addr@host" or "Name <addr@host>".
    public var to: [String]
    /// The subject, any Unicode text without CR or LF.
    public var subject: String
    /// The text; LF or CRLF line ends, any Unicode.
    public var body: String
    /// The Date header's moment; it is written in the local time zone.
    public var date: Date
    /// The Message-ID without angle brackets, e.g. "20250101T120000.1f2e@host.example".
    public var messageID: String

    /// Makes a message; a nil `messageID` gets a new unique one whose domain is this host's name.
    public init(
        from: String? = nil, to: [String], subject: String, body: String,
        date: Date = Date(), messageID: String? = nil
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.body = body
        self.date = date
        self.messageID = messageID ?? MailMessage.newMessageID(date: date)
    }

    /// The message the editor's Mail (M-M) and `lovesnap ocr --mail` send: `body` to the
    /// mailboxes of the To field `toField` (RFC 5322 §3.4 address list, as typed), with
    /// `subject`, from `from` (see ``MailSender``), validated.
    ///
    /// - Throws: `ShareError.noRecipients`, `ShareError.invalidAddress` (a bad or group
    ///   address, a line break in it), `ShareError.invalidHeader` (a line break in the Subject).
    public static func compose(body: String, toField: String, subject: String, from: String?) throws(ShareError)
        -> MailMessage
    {
        let recipients = MailAddress.recipients(in: toField)
        if recipients.isEmpty { throw .noRecipients }
        let message = MailMessage(from: from, to: recipients, subject: subject, body: body)
        try message.validate()
        return message
    }

    /// The subject offered for a poem: its first non-empty line, blanks around it trimmed ("" for
    /// a text of blank lines), as the editor's Subject prompt offers it.
    public static func defaultSubject(of text: String) -> String {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        return ""
    }

    /// Checks every header value before sending.
    ///
    /// - Throws: `ShareError.noRecipients`; `ShareError.invalidAddress` for an address with a
    ///   control character (CR/LF header injection), blank or non-ASCII in the address itself,
    ///   or no "@"; `ShareError.invalidHeader` for a Subject holding CR or LF.
    public func validate() throws(ShareError) {
        if to.isEmpty { throw .noRecipients }
        for address in (from.map { [$0] } ?? []) + to {
            try MailAddress.validate(address)
        }
        if subject.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw ShareError.invalidHeader(field: "Subject", reason: "contains a line break")
        }
    }

    /// The RFC 5322 message: CRLF line ends, ASCII only.
    ///
    /// Headers: From (when set), To, Subject (RFC 2047 encoded-words when it is not plain
    /// ASCII), Date (RFC 5322 §3.3, English names), Message-ID, MIME-Version: 1.0,
    /// Content-Type: text/plain; charset=UTF-8, and Content-Transfer-Encoding quoted-printable
    /// (RFC 2045 §6.7) or base64 (§6.8), whichever is shorter. Header lines are folded to at
    /// most 78 characters, body lines are at most 76. Decoding the body gives `body` exactly,
    /// with CRLF for its line ends. Values that `validate()` rejects are never written raw: a
    /// CR/LF in the Subject ends up inside an encoded-word, in an address it becomes a space.
    public func rendered() -> [UInt8] {
        var headers: [String] = []
        if let from { headers.append(Self.fold("From:", MailAddress.tokens(for: [from]))) }
        headers.append(Self.fold("To:", MailAddress.tokens(for: to)))
        headers.append(subjectHeader())
        headers.append("Date: " + Self.rfc5322Date(date, timeZone: .current))
        headers.append("Message-ID: <" + Self.sanitizedMessageID(messageID) + ">")
        headers.append("MIME-Version: 1.0")
        headers.append("Content-Type: text/plain; charset=UTF-8")

        let bytes = Array(body.utf8)
        let qp = MIMEEncoding.quotedPrintable(bytes)
        let b64 = MIMEEncoding.base64(Self.crlf(bytes))
        let (encoding, text) =
            qp.utf8.count <= b64.utf8.count
            ? ("quoted-printable", qp) : ("base64", b64)
        headers.append("Content-Transfer-Encoding: " + encoding)
        return Array((headers.joined(separator: "\r\n") + "\r\n\r\n" + text).utf8)
    }

    private func subjectHeader() -> String {
        if MIMEEncoding.isPlainHeaderText(subject) {
            return Self.fold("Subject:", subject.split(separator: " ").map(String.init))
        }
        if subject.isEmpty { return "Subject:" }
        // "Subject: " takes 9 of the 78 characters of the first line.
        return Self.fold("Subject:", MIMEEncoding.encodedWords(subject, firstLimit: 78 - 9))
    }

    /// Joins `tokens` after `field` with single spaces, folding (CRLF + space, RFC 5322 §2.2.3)
    /// before a token that would take the line past 78 characters.
    static func fold(_ field: String, _ tokens: [String]) -> String {
        var out = field
        var lineLength = field.count
        for token in tokens {
            if lineLength + 1 + token.count > 78 {
                out += "\r\n " + token
                lineLength = 1 + token.count
            } else {
                out += " " + token
                lineLength += 1 + token.count
            }
        }
        return out
    }

    /// `date` in RFC 5322 §3.3 form, e.g. "Sat, 29 Nov 2025 16:13:00 +0100", with English day
    /// and month names whatever the locale.
    static func rfc5322Date(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        // Asked for, so present; 0 only if Foundation broke that promise.
        let (year, month, day) = (c.year ?? 0, c.month ?? 1, c.day ?? 0)
        let (hour, minute, second, weekday) = (c.hour ?? 0, c.minute ?? 0, c.second ?? 0, c.weekday ?? 1)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let offset = timeZone.secondsFromGMT(for: date) / 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let zone = (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + two(abs(offset) % 60)
        return "\(days[weekday - 1]), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(hour)):\(two(minute)):\(two(second)) \(zone)"
    }

    /// A new Message-ID (RFC 5322 §3.6.4): time, 128 random bits, "@", this host's name.
    static func newMessageID(date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970)
        let random =
            String(UInt64.random(in: .min ... .max), radix: 36)
            + String(UInt64.random(in: .min ... .max), radix: 36)
        return "\(seconds).\(random)@\(hostDomain())"
    }

    /// This host's name reduced to dot-atom characters, or "localhost".
    public static func hostDomain() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .unicodeScalars
            .filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }
        let host = String(String.UnicodeScalarView(name))
            .split(separator: ".", omittingEmptySubsequences: true).joined(separator: ".")
        return host.isEmpty ? "localhost" : host
    }

    /// A caller-given ID with its brackets and anything that could break the header removed.
    static func sanitizedMessageID(_ id: String) -> String {
        var text = id.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("<") && text.hasSuffix(">") && text.count >= 2 {
            text = String(text.dropFirst().dropLast())
        }
        let kept = text.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F && $0 != "<" && $0 != ">" }
        let clean = String(String.UnicodeScalarView(kept))
        return clean.isEmpty ? newMessageID(date: Date()) : clean
    }

    /// Lone LF → CRLF (RFC 2045 §6.8: text is encoded in canonical form).
    static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 20)
        for (i, byte) in bytes.enumerated() {
            if byte == 0x0A && (i == 0 || bytes[i - 1] != 0x0D) { out.append(0x0D) }
            out.append(byte)
        }
        return out
    }
}
