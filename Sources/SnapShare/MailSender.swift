#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who a mail is from: the From header (RFC 5322 §3.6.2) of every message lovesnap sends.
public enum MailSender {
    /// The environment variable read when `--from` is not given: "EMAIL" (as git, mutt and
    /// Debian's tools read it).
    public static let environmentVariable = "EMAIL"

    /// The sender: `option` (`--from`) if given, else `$EMAIL` when it is set and not blank, else
    /// `user@host` (this process's user name, then `$USER`, `$LOGNAME`, and this host's name,
    /// as `MailMessage.hostDomain()` gives it). A user name that is not a dot-atom is quoted.
    ///
    /// - Throws: `ShareError.invalidAddress` when the chosen value is not one mailbox (a line
    ///   break, several addresses, a group, no "@": ``MailAddress/parse(_:)``).
    public static func resolve(
        option: String?, environment: [String: String], userName: String? = currentUserName(),
        host: String = MailMessage.hostDomain()
    ) throws(ShareError) -> String {
        if let option { return try single(option) }
        if let value = environment[environmentVariable], !value.allSatisfy({ $0.isWhitespace }) {
            return try single(value)
        }
        let user = userName ?? environment["USER"] ?? environment["LOGNAME"] ?? "lovesnap"
        let dotAtom =
            !user.isEmpty && !user.hasPrefix(".") && !user.hasSuffix(".") && !user.contains("..")
            && user.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "." || MailAddress.isAtext($0)) }
        let local =
            dotAtom
            ? user
            : "\""
                + String(
                    String.UnicodeScalarView(
                        user.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }.flatMap {
                            $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0]
                        })) + "\""
        return try single(local + "@" + host)
    }

    /// `text` if it is exactly one mailbox.
    private static func single(_ text: String) throws(ShareError) -> String {
        let trimmed = String(
            text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        let entries = MailAddress.recipients(in: trimmed)
        if entries.count > 1 {
            throw .invalidAddress(address: text, reason: "the sender must be one address, not a list")
        }
        try MailAddress.validate(trimmed)
        return trimmed
    }

    /// This process's user name (`getpwuid(geteuid())`), or nil.
    public static func currentUserName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        let text = String(cString: name)
        return text.isEmpty ? nil : text
    }
}
