import Foundation

/// One mailbox of RFC 5322 §3.4: an address, and the display name shown for it.
public struct Mailbox: Equatable, Sendable {
    /// The display name as a person reads it ("Lenore, my love"): quotes and backslash escapes
    /// removed, comments left out, words joined by one space; nil when there is none.
    public var displayName: String?
    /// The addr-spec (§3.4.1), `local-part@domain`, ASCII; a quoted local part keeps its quotes.
    public var address: String

    /// A mailbox from its parts.
    public init(displayName: String? = nil, address: String) {
        self.displayName = displayName
        self.address = address
    }
}

/// Mail addresses as RFC 5322 §3.4 writes them: `addr@host`, `Display Name <addr@host>`,
/// `"Lenore, my love" <l@example.org>`, and lists of them separated by commas.
///
/// Parsed by the grammar of §3.4 with its lexical parts (§3.2.2 comments and folding white
/// space, §3.2.3 atoms, §3.2.4 quoted strings, §3.4.1 domain literals, and the obs-phrase "."
/// of §4.1 in display names, as in "J. Smith"). Non-ASCII is allowed in display names (RFC
/// 6532; they are sent as RFC 2047 encoded-words) but not in the address itself. Groups (§3.4,
/// `Friends: a@x.org, b@y.org;`) are refused with a reason: list the addresses instead.
public enum MailAddress {
    /// The mailboxes typed in a To prompt, as typed: split at the commas that separate
    /// addresses (not those inside quotes, comments, `<…>`, a domain literal or a group), blanks
    /// around each trimmed, empty entries dropped (`ana@x.org, "Poe, Edgar" <e@y.org>,` → two).
    /// Each is checked when the message is (`MailMessage.validate()`); a group stays one entry,
    /// which is refused there.
    public static func recipients(in field: String) -> [String] {
        let scalars = Array(field.unicodeScalars)
        var entries: [String] = []
        var start = 0
        var i = 0
        var angle = false
        var group = false
        while i < scalars.count {
            switch scalars[i] {
            case "\"": i = skipQuoted(scalars, from: i)
            case "(": i = skipComment(scalars, from: i)
            case "[": i = scalars[i...].firstIndex(of: "]") ?? scalars.count - 1
            case "<": angle = true
            case ">": angle = false
            case ":" where !angle: group = true
            case ";" where group: group = false
            case "," where !angle && !group:
                entries.append(String(String.UnicodeScalarView(scalars[start..<i])))
                start = i + 1
            default: break
            }
            i += 1
        }
        entries.append(String(String.UnicodeScalarView(scalars[min(start, scalars.count)...])))
        return entries.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Every mailbox of a To field (``recipients(in:)``, each parsed by ``parse(_:)``).
    /// - Throws: `ShareError.noRecipients` when there is none; else what ``parse(_:)`` throws
    ///   for the first bad one.
    public static func parseList(_ field: String) throws(ShareError) -> [Mailbox] {
        let entries = recipients(in: field)
        if entries.isEmpty { throw .noRecipients }
        var mailboxes: [Mailbox] = []
        for entry in entries { mailboxes.append(try parse(entry)) }
        return mailboxes
    }

    /// Checks one mailbox ("addr@host" or "Name <addr@host>").
    /// - Throws: what ``parse(_:)`` throws.
    public static func validate(_ mailbox: String) throws(ShareError) {
        _ = try parse(mailbox)
    }

    /// Parses one mailbox: `addr-spec` or `[display-name] <addr-spec>` (RFC 5322 §3.4).
    ///
    /// - Throws: `ShareError.invalidAddress` naming `text` as given and why: a line break or
    ///   other control character (header injection), empty, a group, unbalanced quotes,
    ///   parentheses, brackets or `<`, a display name not followed by `<address>`, text after
    ///   `>`, non-ASCII or a special character in the address itself, no "@".
    public static func parse(_ text: String) throws(ShareError) -> Mailbox {
        func bad(_ reason: String) -> ShareError { .invalidAddress(address: text, reason: reason) }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw bad("contains a line break or control character")
        }
        let tokens: [Token]
        switch tokenize(text) {
        case .success(let t): tokens = t
        case .failure(let problem): throw bad(problem.reason)
        }
        if tokens.isEmpty { throw bad("empty") }
        if tokens.contains(.special(":")) || tokens.contains(.special(";")) {
            throw bad("is a group (\"name: address, …;\"), which cannot be mailed to; give the addresses themselves")
        }
        guard let open = tokens.firstIndex(of: .special("<")) else {
            // A bare addr-spec. Words before it without <…> are a display name written wrong.
            if let at = tokens.firstIndex(of: .special("@")), tokens[..<at].filter(\.isWord).count > 1,
                !tokens[..<at].contains(.special("."))
            {
                throw bad("a name needs the address in <…>, as in: Lenore <lenore@example.org>")
            }
            return Mailbox(address: try addrSpec(tokens[...], bad))
        }
        guard let close = tokens[open...].firstIndex(of: .special(">")) else { throw bad("missing \">\"") }
        if close != tokens.count - 1 { throw bad("unexpected text after \">\"") }
        var words: [String] = []
        for token in tokens[..<open] {
            switch token {
            case .atom(let word), .quoted(let word): words.append(word)
            case .special("."): words.append(".")
            default: throw bad("a display name may hold only words, quoted text and dots")
            }
        }
        // "J . Smith" (obs-phrase) reads "J. Smith".
        var name = words.joined(separator: " ").replacingOccurrences(of: " .", with: ".")
        name = name.trimmingCharacters(in: .whitespaces)
        let address = try addrSpec(tokens[(open + 1)..<close], bad)
        return Mailbox(displayName: name.isEmpty ? nil : name, address: address)
    }

    // MARK: - Lexical tokens (RFC 5322 §3.2)

    /// A lexical token; comments and folding white space are dropped between tokens.
    enum Token: Equatable {
        /// An atom (§3.2.3 atext, UTF-8 allowed by RFC 6532).
        case atom(String)
        /// A quoted string's content, escapes resolved (§3.2.4).
        case quoted(String)
        /// A domain literal, brackets included (`[192.0.2.1]`, §3.4.1).
        case literal(String)
        /// One of the specials `()<>[]:;@\,."` (§3.2.3) outside quotes.
        case special(Unicode.Scalar)

        var isWord: Bool {
            switch self {
            case .atom, .quoted: return true
            default: return false
            }
        }
    }

    struct Problem: Error { let reason: String }

    static let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)

    static func isAtext(_ s: Unicode.Scalar) -> Bool {
        if s.value >= 0x80 { return true }
        return ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || atextSymbols.contains(s)
    }

    static func tokenize(_ text: String) -> Result<[Token], Problem> {
        let scalars = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            switch s {
            case " ", "\t":
                i += 1
            case "(":
                let end = skipComment(scalars, from: i)
                if end >= scalars.count { return .failure(Problem(reason: "unbalanced parenthesis")) }
                i = end + 1
            case ")":
                return .failure(Problem(reason: "unbalanced parenthesis"))
            case "\"":
                var content = String.UnicodeScalarView()
                var j = i + 1
                var closed = false
                while j < scalars.count {
                    if scalars[j] == "\\", j + 1 < scalars.count {
                        content.append(scalars[j + 1])
                        j += 2
                        continue
                    }
                    if scalars[j] == "\"" {
                        closed = true
                        break
                    }
                    content.append(scalars[j])
                    j += 1
                }
                if !closed { return .failure(Problem(reason: "unbalanced double quote")) }
                tokens.append(.quoted(String(content)))
                i = j + 1
            case "[":
                guard let end = scalars[i...].firstIndex(of: "]") else {
                    return .failure(Problem(reason: "unbalanced \"[\""))
                }
                tokens.append(.literal(String(String.UnicodeScalarView(scalars[i...end]))))
                i = end + 1
            case "<", ">", ":", ";", "@", ",", ".", "]", "\\":
                tokens.append(.special(s))
                i += 1
            default:
                guard isAtext(s) else { return .failure(Problem(reason: "unexpected character \"\(s)\"")) }
                var j = i
                while j < scalars.count && isAtext(scalars[j]) { j += 1 }
                tokens.append(.atom(String(String.UnicodeScalarView(scalars[i..<j]))))
                i = j
            }
        }
        return .success(tokens)
    }

    /// The index of the `"` closing the quoted string opened at `from` (or the last index).
    static func skipQuoted(_ scalars: [Unicode.Scalar], from: Int) -> Int {
        var j = from + 1
        while j < scalars.count {
            if scalars[j] == "\\" {
                j += 2
                continue
            }
            if scalars[j] == "\"" { return j }
            j += 1
        }
        return scalars.count - 1
    }

    /// The index of the `)` closing the comment opened at `from` (comments nest, §3.2.2), or
    /// `scalars.count` when it is never closed.
    static func skipComment(_ scalars: [Unicode.Scalar], from: Int) -> Int {
        var depth = 0
        var j = from
        while j < scalars.count {
            switch scalars[j] {
            case "\\": j += 1
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return j }
            default: break
            }
            j += 1
        }
        return scalars.count
    }

    /// `local-part "@" domain` (§3.4.1): a dot-atom or quoted local part, a dot-atom or literal
    /// domain, all ASCII.
    private static func addrSpec(_ tokens: ArraySlice<Token>, _ bad: (String) -> ShareError) throws(ShareError)
        -> String
    {
        let asciiOnly = "the address part may hold only ASCII letters, digits and !#$%&'*+-/=?^_`{|}~."
        guard let at = tokens.lastIndex(of: .special("@")) else { throw bad("expected name@domain") }
        let local = tokens[..<at]
        let domain = tokens[(at + 1)...]
        func dotAtom(_ part: ArraySlice<Token>) throws(ShareError) -> String? {
            var text = ""
            var expectAtom = true
            for token in part {
                switch token {
                case .atom(let a) where expectAtom:
                    if a.unicodeScalars.contains(where: { $0.value >= 0x80 }) { throw bad(asciiOnly) }
                    text += a
                    expectAtom = false
                case .special(".") where !expectAtom:
                    text += "."
                    expectAtom = true
                default: return nil
                }
            }
            return expectAtom ? nil : text
        }
        var localText: String
        if local.count == 1, case .quoted(let q) = local.first! {
            if q.unicodeScalars.contains(where: { $0.value >= 0x80 }) { throw bad(asciiOnly) }
            localText =
                "\"" + q.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        } else if let text = try dotAtom(local) {
            localText = text
        } else {
            if local.contains(where: { if case .special(let s) = $0 { s != "." } else { false } }) {
                throw bad(asciiOnly)
            }
            throw bad("expected name@domain")
        }
        let domainText: String
        if domain.count == 1, case .literal(let l) = domain.first! {
            if l.unicodeScalars.contains(where: { $0.value >= 0x80 }) { throw bad(asciiOnly) }
            domainText = l
        } else if let text = try dotAtom(domain) {
            domainText = text
        } else {
            throw bad("expected name@domain")
        }
        if localText.isEmpty { throw bad("expected name@domain") }
        return localText + "@" + domainText
    }

    // MARK: - Header text

    /// Header tokens for a list of mailboxes, commas attached, ready for `MailMessage.fold`.
    /// Invalid input is defused (control characters become spaces) rather than rejected;
    /// `MailMessage.validate()` is where it is rejected.
    static func tokens(for list: [String]) -> [String] {
        var tokens: [String] = []
        for (n, raw) in list.enumerated() {
            var these: [String]
            if let mailbox = try? parse(raw) {
                these =
                    (mailbox.displayName.map(phrase) ?? []) + [
                        mailbox.displayName == nil ? mailbox.address : "<\(mailbox.address)>"
                    ]
            } else {
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
