/// E-mail addresses, web addresses and telephone numbers.
public enum Contacts {
    /// The e-mail addresses of one line: `local@domain.tld` (RFC 5322 §3.4.1 `addr-spec` in its
    /// dot-atom form, as printed on cards and letters: letters, digits and `. _ % + -` before the
    /// `@`, a dotted domain with a top-level part of 2+ letters after it). Value: the address with
    /// its domain in lower case (domains are case-insensitive, RFC 1035 §2.3.3; local parts are not).
    public static func findEmails(in line: String) -> [Detection] {
        let scan = LineScanner(line: line)
        let pattern = #/[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}/#
        return line.matches(of: pattern).compactMap { m in
            guard scan.standsAlone(m.range, alsoExcluded: ["@"]) else { return nil }
            let text = String(line[m.range])
            guard let at = text.lastIndex(of: "@"), !text.hasPrefix("."), !text[..<at].hasSuffix(".") else {
                return nil
            }
            let value = text[..<at] + "@" + text[text.index(after: at)...].lowercased()
            return Detection(
                kind: .email, text: text, value: String(value),
                range: scan.offset(m.range.lowerBound)..<scan.offset(m.range.upperBound), line: 0)
        }
    }

    /// The web addresses of one line: from `http://`, `https://` or `www.` to the next space,
    /// without the punctuation that ends a sentence (`.`, `,`, `;`, `:`, `!`, `?`, quotes, and a
    /// closing bracket that opens nowhere in the address). Value: as written.
    public static func findURLs(in line: String) -> [Detection] {
        let scan = LineScanner(line: line)
        return line.matches(of: #/(?i)(?:https?://|www\.)[^\s<>"]+/#).compactMap { m in
            if m.range.lowerBound > line.startIndex {
                let before = line[line.index(before: m.range.lowerBound)]
                if before.isLetter || before.isNumber { return nil }
            }
            var text = Substring(line[m.range])
            while let last = text.last {
                if ".,;:!?'\"’”".contains(last) {
                    text.removeLast()
                } else if last == ")" && text.filter({ $0 == "(" }).count < text.filter({ $0 == ")" }).count {
                    text.removeLast()
                } else if last == "]" && !text.contains("[") {
                    text.removeLast()
                } else {
                    break
                }
            }
            guard text.count > (text.lowercased().hasPrefix("www.") ? 6 : 9) else { return nil }
            let start = scan.offset(m.range.lowerBound)
            return Detection(
                kind: .url, text: String(text), value: String(text), range: start..<(start + text.utf8.count), line: 0)
        }
    }

    /// The telephone numbers of one line, values in E.164 (`+` country code and number):
    /// - international: `+` and 8–15 digits with spaces, dots, dashes or brackets between groups
    ///   (`+33 6 12 34 56 78`, `+1 (415) 555-0132`, `+44 20 7946 0958`; a `(0)` after the country
    ///   code is dropped, as it is not dialled from abroad);
    /// - French: ten digits from `0` and a digit 1–9, in pairs or not (`06 12 34 56 78`,
    ///   `01.23.45.67.89`, `0612345678`): +33 and the nine after the `0`;
    /// - North American (NANP): `(415) 555-0132`, `415-555-0132`, `415.555.0132`, `1-415-555-0132`
    ///   (area code and exchange from 2–9, a separator before the last four): +1 and the ten digits.
    public static func findPhones(in line: String) -> [Detection] {
        let scan = LineScanner(line: line)
        var found: [Detection] = []
        func add(_ range: Range<String.Index>, _ value: String) {
            found.append(
                Detection(
                    kind: .phone, text: String(line[range]), value: value,
                    range: scan.offset(range.lowerBound)..<scan.offset(range.upperBound), line: 0))
        }
        func digits(_ s: Substring) -> String { String(s.filter { $0.isASCII && $0.isNumber }) }
        let international = #/\+[1-9]\d{0,2}(?:[ .\-]?\(0\))?(?:[ .\-]?\(?\d{1,4}\)?){2,7}/#
        for m in line.matches(of: international) where scan.standsAlone(m.range) {
            var text = line[m.range]
            if let zero = text.firstRange(of: "(0)") { text.removeSubrange(zero) }
            let d = digits(text)
            guard (8...15).contains(d.count) else { continue }
            add(m.range, "+" + d)
        }
        let french = #/0[1-9](?:[ .\-]?\d{2}){4}/#
        for m in line.matches(of: french) where scan.standsAlone(m.range, alsoExcluded: ["+", "/"]) {
            let text = line[m.range]
            // Either no separators or the same one between every pair.
            let separators = Set(text.filter { !$0.isNumber })
            guard separators.count <= 1 else { continue }
            if separators.count == 1, text.split(whereSeparator: { !$0.isNumber }).map(\.count) != [2, 2, 2, 2, 2] {
                continue
            }
            add(m.range, "+33" + digits(text).dropFirst())
        }
        let american = #/(?:1[ .\-])?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .\-])[2-9]\d{2}[ .\-]\d{4}/#
        for m in line.matches(of: american) where scan.standsAlone(m.range, alsoExcluded: ["+"]) {
            let d = digits(line[m.range])
            add(m.range, "+1" + (d.count == 11 ? String(d.dropFirst()) : d))
        }
        return found
    }
}
