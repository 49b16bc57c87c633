/// What kind of data a ``Detection`` found.
public enum DetectionKind: String, CaseIterable, Codable, Sendable {
    /// A payment card number (PAN): 13–19 digits, spaces or dashes between groups, valid by the
    /// Luhn checksum (ISO/IEC 7812-1, annex B), the issuer from its prefix (IIN).
    case cardNumber
    /// A card's expiry date, `MM/YY`.
    case expiryDate
    /// An e-mail address (the `addr-spec` of RFC 5322 §3.4.1, in its common dot-atom form).
    case email
    /// A telephone number: international (`+33 6 12 34 56 78`, E.164) or French / US national.
    case phone
    /// A web address: `http://`, `https://` or `www.`.
    case url
    /// A calendar date: ISO 8601 (`2025-03-14`), day/month/year (`14/03/2025`), or with the
    /// month's English or French name (`14 March 2025`, `March 14, 2025`, `14 mars 2025`).
    case date

    /// How the kind is named to the user ("card number").
    public var label: String {
        switch self {
        case .cardNumber: return "card number"
        case .expiryDate: return "expiry date"
        case .email: return "e-mail"
        case .phone: return "phone"
        case .url: return "URL"
        case .date: return "date"
        }
    }
}

/// One piece of data found in a text: what it is, where, and its value in a standard form.
public struct Detection: Equatable, Codable, Sendable {
    /// What it is.
    public var kind: DetectionKind
    /// The characters as they are in the text.
    public var text: String
    /// The value in a standard form: a card number's digits (as read, letters that look like
    /// digits kept), `MM/YY`, the address with its domain in lower case, a phone number in E.164
    /// (`+33612345678`), the URL as written, a date in ISO 8601 (`2025-03-14`).
    public var value: String
    /// Where it is in the text scanned: UTF-8 byte offsets.
    public var range: Range<Int>
    /// Its line in the text scanned, from 1 (as the editor numbers lines).
    public var line: Int
    /// A card number's issuer from its prefix ("Visa", "Mastercard", …), nil when unknown or not
    /// a card number.
    public var issuer: String?
    /// Whether it only almost is one: a card number that fails the Luhn checksum, or holds letters
    /// OCR often reads for digits (`O` for `0`, `l` or `I` for `1`). Never corrected: ``note``
    /// says what to check.
    public var isNearMiss: Bool
    /// What to check, for a near miss: "almost a card number — check these digits: …"; nil otherwise.
    public var note: String?
    /// The characters to check (UTF-8 byte ranges of the text scanned): letters read where digits
    /// belong; empty when the checksum alone failed (any digit may be wrong).
    public var suspects: [Range<Int>]

    /// A detection from its parts (see each property).
    public init(
        kind: DetectionKind, text: String, value: String, range: Range<Int>, line: Int, issuer: String? = nil,
        isNearMiss: Bool = false, note: String? = nil, suspects: [Range<Int>] = []
    ) {
        self.kind = kind
        self.text = text
        self.value = value
        self.range = range
        self.line = line
        self.issuer = issuer
        self.isNearMiss = isNearMiss
        self.note = note
        self.suspects = suspects
    }
}
