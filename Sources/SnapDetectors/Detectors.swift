/// Finds the data a text holds — card numbers, expiry dates, e-mail and web addresses, phone
/// numbers, dates — line by line.
///
/// Pure: the same text gives the same detections. An item never spans a line break. Where two
/// candidates overlap, the one that starts first wins, then the longer, then the kind listed
/// first in ``DetectionKind`` (a card number before a phone number).
public enum Detectors {
    /// Every item of `text`, in text order, with UTF-8 ranges of `text` and lines from 1.
    public static func detect(in text: String) -> [Detection] {
        var found: [Detection] = []
        var offset = 0
        var number = 1
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            for var d in detect(inLine: String(line)) {
                d.range = (d.range.lowerBound + offset)..<(d.range.upperBound + offset)
                d.suspects = d.suspects.map { ($0.lowerBound + offset)..<($0.upperBound + offset) }
                d.line = number
                found.append(d)
            }
            offset += line.utf8.count + 1
            number += 1
        }
        return found
    }

    /// The items of one line (no line break in it), ranges in the line, `line` 0.
    public static func detect(inLine line: String) -> [Detection] {
        guard line.contains(where: { $0.isNumber || $0 == "@" || $0 == "." }) else { return [] }
        // Each regular expression only where it can match: every date, expiry and phone pattern
        // needs a digit, an e-mail address an @, a web address :// or www. (Swift's Regex takes
        // about half a millisecond a line for each, and the editor looks at the line a key changed).
        let hasDigit = line.contains { c in c.isNumber || c.unicodeScalars.contains { $0.properties.numericType != nil }
        }
        let mayHoldURL = line.contains("://") || line.lowercased().contains("www.")
        var all = CardNumbers.find(in: line)
        if hasDigit { all += Dates.findExpiryDates(in: line) }
        if line.contains("@") { all += Contacts.findEmails(in: line) }
        if hasDigit { all += Contacts.findPhones(in: line) }
        if mayHoldURL { all += Contacts.findURLs(in: line) }
        if hasDigit { all += Dates.findDates(in: line) }
        let order = Dictionary(uniqueKeysWithValues: DetectionKind.allCases.enumerated().map { ($1, $0) })
        let ranked = all.sorted {
            if $0.range.lowerBound != $1.range.lowerBound { return $0.range.lowerBound < $1.range.lowerBound }
            if $0.range.count != $1.range.count { return $0.range.count > $1.range.count }
            return order[$0.kind]! < order[$1.kind]!
        }
        var kept: [Detection] = []
        for d in ranked where !kept.contains(where: { $0.range.overlaps(d.range) }) {
            kept.append(d)
        }
        return kept
    }
}
