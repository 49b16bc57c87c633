/// Calendar dates and card expiry dates.
public enum Dates {
    /// Month names, English and French, full and abbreviated (lower case, without a final dot),
    /// to their numbers.
    static let months: [String: Int] = {
        var m: [String: Int] = [:]
        let english = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        let french = [
            "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre",
        ]
        for (i, name) in english.enumerated() {
            m[name] = i + 1
            m[String(name.prefix(3))] = i + 1
        }
        m["sept"] = 9
        for (i, name) in french.enumerated() { m[name] = i + 1 }
        for (abbreviation, month) in [
            ("janv", 1), ("févr", 2), ("fevrier", 2), ("avr", 4), ("juil", 7), ("aout", 8), ("oct", 10),
            ("nov", 11), ("déc", 12), ("decembre", 12),
        ] {
            m[abbreviation] = month
        }
        return m
    }()

    /// The number of days of `month` (1–12) in `year` (Gregorian), 0 for a month out of range.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        default: return 0
        }
    }

    /// `YYYY-MM-DD`, or nil when the day does not exist. A two-digit year is 20YY.
    static func iso(year: Int, month: Int, day: Int) -> String? {
        let y = year < 100 ? 2000 + year : year
        guard (1000...9999).contains(y), day >= 1, day <= daysIn(month: month, year: y) else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(month))-\(two(day))"
    }

    /// The dates of one line: `2025-03-14`; `14/03/2025`, `14.03.2025`, `14/03/25` (day first, as
    /// in French and British use; month first when the second number cannot be a month: `03/14/2025`);
    /// `14 March 2025`, `March 14, 2025`, `14 mars 2025`, `1er mai 2025`. Values in ISO 8601.
    public static func findDates(in line: String) -> [Detection] {
        let scan = LineScanner(line: line)
        var found: [Detection] = []
        func add(_ range: Range<String.Index>, _ value: String?) {
            guard let value else { return }
            found.append(
                Detection(
                    kind: .date, text: String(line[range]), value: value,
                    range: scan.offset(range.lowerBound)..<scan.offset(range.upperBound), line: 0))
        }
        for m in line.matches(of: #/(\d{4})-(\d{2})-(\d{2})/#) where scan.standsAlone(m.range, alsoExcluded: ["-"]) {
            add(m.range, iso(year: Int(m.1)!, month: Int(m.2)!, day: Int(m.3)!))
        }
        for m in line.matches(of: #/(\d{1,2})([/.])(\d{1,2})\2(\d{4}|\d{2})/#)
        where scan.standsAlone(m.range, alsoExcluded: ["/", "."]) {
            let a = Int(m.1)!
            let b = Int(m.3)!
            let year = Int(m.4)!
            let (day, month) = b > 12 && a <= 12 ? (b, a) : (a, b)
            guard (1...12).contains(month) else { continue }
            add(m.range, iso(year: year, month: month, day: day))
        }
        let dayFirst = #/(?i)(\d{1,2})(?:er|st|nd|rd|th)?\s+(\p{L}+)\.?\s+(\d{4})/#
        for m in line.matches(of: dayFirst) where scan.standsAlone(m.range) {
            guard let month = months[m.2.lowercased()] else { continue }
            add(m.range, iso(year: Int(m.3)!, month: month, day: Int(m.1)!))
        }
        let monthFirst = #/(?i)(\p{L}+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})/#
        for m in line.matches(of: monthFirst) where scan.standsAlone(m.range) {
            guard let month = months[m.1.lowercased()] else { continue }
            add(m.range, iso(year: Int(m.3)!, month: month, day: Int(m.2)!))
        }
        return found
    }

    /// The card expiry dates of one line: `MM/YY` (month 01–12, a space allowed around the
    /// slash), not part of a longer date. Values `MM/YY`.
    public static func findExpiryDates(in line: String) -> [Detection] {
        let scan = LineScanner(line: line)
        return line.matches(of: #/(0[1-9]|1[0-2]) ?/ ?(\d{2})/#).compactMap { m in
            guard scan.standsAlone(m.range, alsoExcluded: ["/", ".", "-"]) else { return nil }
            return Detection(
                kind: .expiryDate, text: String(line[m.range]), value: "\(m.1)/\(m.2)",
                range: scan.offset(m.range.lowerBound)..<scan.offset(m.range.upperBound), line: 0)
        }
    }
}
