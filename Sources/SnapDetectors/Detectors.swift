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
        let all =
            CardNumbers.find(in: line) + Dates.findExpiryDates(in: line) + Contacts.findEmails(in: line)
            + Contacts.findPhones(in: line) + Contacts.findURLs(in: line) + Dates.findDates(in: line)
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
