import Foundation

/// Mail addresses: one mailbox of RFC 5322 §3.4 is "addr@host" or "Display Name <addr@host>".
public enum MailAddress {
    /// The recipients typed in a To prompt: split at commas, blanks around each trimmed, empty
    /// entries dropped ("ana@x.org, ben@y.org," → two). Each is checked when the message is
    /// (`MailMessage.validate()`).
    public static func recipients(in field: String) -> [String] {
        field.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Checks one mailbox ("addr@host" or "Name <addr@host>").
    /// - Throws: `ShareError.invalidAddress` naming `mailbox` as given and why: a control
    ///   character (CR/LF header injection), empty, blank or non-ASCII in the address, no "@".
    public static func validate(_ mailbox: String) throws(ShareError) {
        if case .failure(let error) = parse(mailbox) { throw error }
    }

    /// Splits and checks one mailbox; the error names the address as given.
    static func parse(_ raw: String) -> Result<(name: String?, address: String), ShareError> {
        func bad(_ reason: String) -> Result<(name: String?, address: String), ShareError> {
            .failure(.invalidAddress(address: raw, reason: reason))
        }
        if raw.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return bad("contains a line break or control character")
        }
        let text = raw.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return bad("empty") }
        var name: String? = nil
        var address = text
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            var display = text[..<open].trimmingCharacters(in: .whitespaces)
            if display.count >= 2, display.hasPrefix("\""), display.hasSuffix("\"") {
                display = String(display.dropFirst().dropLast())
                    .replacingOccurrences(of: "\\\"", with: "\"")
                    .replacingOccurrences(of: "\\\\", with: "\\")
            }
            name = display.isEmpty ? nil : display
            address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
                .trimmingCharacters(in: .whitespaces)
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~.@[]")
        guard address.allSatisfy({ allowed.contains($0) }) else {
            return bad("the address part may hold only ASCII letters, digits and !#$%&'*+-/=?^_`{|}~.")
        }
        guard let at = address.lastIndex(of: "@"), at != address.startIndex,
            address.index(after: at) != address.endIndex
        else {
            return bad("expected name@domain")
        }
        return .success((name, address))
    }

    /// Header tokens for a list of mailboxes, commas attached, ready for `MailMessage.fold`.
    /// Invalid input is defused (control characters become spaces) rather than rejected;
    /// `MailMessage.validate()` is where it is rejected.
    static func tokens(for list: [String]) -> [String] {
        var tokens: [String] = []
        for (n, raw) in list.enumerated() {
            var these: [String]
            switch parse(raw) {
            case .success(let (name, address)):
                these = (name.map(phrase) ?? []) + [name == nil ? address : "<\(address)>"]
            case .failure:
                let defused = raw.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) }
                let text = String(defused)
                these =
                    MIMEEncoding.isPlainHeaderText(text)
                    ? text.split(separator: " ").map(String.init)
                    : MIMEEncoding.encodedWords(text)
            }
            if n < list.count - 1, !these.isEmpty { these[these.count - 1] += "," }
            tokens += these
        }
        return tokens
    }

    /// A display name as atoms, one quoted-string, or RFC 2047 encoded-words (§5 (3)).
    private static func phrase(_ name: String) -> [String] {
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ")
        if MIMEEncoding.isPlainHeaderText(name) {
            if name.allSatisfy({ atext.contains($0) }) {
                return name.split(separator: " ").map(String.init)
            }
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
            return ["\"" + escaped + "\""]
        }
        return MIMEEncoding.encodedWords(name)
    }
}
