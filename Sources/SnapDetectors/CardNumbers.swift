/// Payment card numbers: the Luhn checksum, the issuer from the prefix, and the candidates of a line.
public enum CardNumbers {
    /// Whether `digits` (ASCII 0–9 only) pass the Luhn checksum (ISO/IEC 7812-1, annex B): from
    /// the right, every second digit doubled (9 subtracted above 9), the sum a multiple of 10.
    /// False for an empty string or one holding anything but digits.
    public static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        var count = 0
        for (i, c) in digits.reversed().enumerated() {
            guard let d = c.wholeNumberValue, c.isASCII else { return false }
            let v = i % 2 == 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d
            sum += v
            count += 1
        }
        return count > 0 && sum % 10 == 0
    }

    /// The issuer of a card number from its prefix (the IIN ranges the networks publish) and its
    /// length, or nil when no network issues such numbers: American Express (34, 37; 15 digits),
    /// Visa (4; 13, 16, 19), Mastercard (51–55, 2221–2720; 16), Discover (6011, 644–649, 65;
    /// 16–19), Diners Club (300–305, 36, 38, 39; 14–19), JCB (3528–3589; 16–19), UnionPay (62;
    /// 16–19), Maestro (50, 56–58, 6304, 6759, 6761–6763; 13–19).
    public static func issuer(of digits: String) -> String? {
        let n = digits.count
        func prefix(_ k: Int) -> Int { Int(digits.prefix(k)) ?? -1 }
        if [34, 37].contains(prefix(2)) { return n == 15 ? "American Express" : nil }
        if prefix(1) == 4 { return [13, 16, 19].contains(n) ? "Visa" : nil }
        if (51...55).contains(prefix(2)) || (2221...2720).contains(prefix(4)) { return n == 16 ? "Mastercard" : nil }
        if prefix(4) == 6011 || (644...649).contains(prefix(3)) || prefix(2) == 65 {
            return (16...19).contains(n) ? "Discover" : nil
        }
        if (300...305).contains(prefix(3)) || [36, 38, 39].contains(prefix(2)) {
            return (14...19).contains(n) ? "Diners Club" : nil
        }
        if (3528...3589).contains(prefix(4)) { return (16...19).contains(n) ? "JCB" : nil }
        if prefix(2) == 62 { return (16...19).contains(n) ? "UnionPay" : nil }
        if [50, 56, 57, 58].contains(prefix(2)) || [6304, 6759, 6761, 6762, 6763].contains(prefix(4)) {
            return (13...19).contains(n) ? "Maestro" : nil
        }
        return nil
    }

    /// Letters OCR reads where a digit was printed, and the digit each usually is.
    static let lookalikes: [Character: Character] = [
        "O": "0", "o": "0", "D": "0", "Q": "0", "l": "1", "I": "1", "i": "1", "|": "1", "S": "5", "s": "5",
        "B": "8", "Z": "2", "z": "2", "G": "6", "b": "6", "g": "9",
    ]

    /// The card numbers of one line (no line break in it), with UTF-8 ranges in `line`.
    ///
    /// A candidate is a run of 13–19 digits, single spaces or dashes between them, that starts
    /// and ends with a digit (or a letter that looks like one) and touches no other letter or
    /// digit. It is a card number when it passes the Luhn checksum and is either grouped as cards
    /// print it (fours, 4-6-5, 4-6-4, or no separator) or has a known issuer; it is a near miss
    /// when it holds a look-alike letter, or fails the checksum with a known issuer and a card's
    /// grouping. Nothing else is reported: a random run of digits passes Luhn one time in ten.
    public static func find(in line: String) -> [Detection] {
        let chars = Array(line)
        var offsets: [Int] = [0]
        for c in chars { offsets.append(offsets.last! + c.utf8.count) }
        func isDigitLike(_ c: Character) -> Bool { (c.isASCII && c.isNumber) || lookalikes[c] != nil }
        func isWordish(_ c: Character) -> Bool { c.isLetter || c.isNumber }
        var found: [Detection] = []
        var i = 0
        while i < chars.count {
            guard isDigitLike(chars[i]), i == 0 || !isWordish(chars[i - 1]) else {
                i += 1
                continue
            }
            // Extend over digits and single separators.
            var j = i
            var end = i
            var count = 0
            while j < chars.count {
                if isDigitLike(chars[j]) {
                    count += 1
                    end = j + 1
                    j += 1
                } else if chars[j] == " " || chars[j] == "-", j + 1 < chars.count, isDigitLike(chars[j + 1]),
                    count > 0
                {
                    j += 1
                } else {
                    break
                }
                if count > 19 { break }
            }
            var start = i
            // A first or last group without a digit ("ok 4111 …", "… 1112 ok") is a word beside
            // the number, not part of it.
            func hasDigit(_ r: Range<Int>) -> Bool { chars[r].contains { $0.isASCII && $0.isNumber } }
            while let separator = chars[start..<end].lastIndex(where: { $0 == " " || $0 == "-" }),
                !hasDigit((separator + 1)..<end)
            {
                end = separator
            }
            while let separator = chars[start..<end].firstIndex(where: { $0 == " " || $0 == "-" }),
                !hasDigit(start..<separator)
            {
                start = separator + 1
            }
            count = chars[start..<end].filter(isDigitLike).count
            i = max(i + 1, end)
            guard count >= 13, count <= 19, end >= chars.count || !isWordish(chars[end]) else { continue }
            let run = Array(chars[start..<end])
            if let detection = judge(
                run, range: offsets[start]..<offsets[end], charOffsets: Array(offsets[start...end]))
            {
                found.append(detection)
            } else if chars[start].isLetter {
                // "S 4970 …": the letter was a word, not a digit; the number may start after it.
                i = start + 1
            }
        }
        return found
    }

    private static func judge(_ run: [Character], range: Range<Int>, charOffsets: [Int]) -> Detection? {
        let groups = String(run).split(whereSeparator: { $0 == " " || $0 == "-" }).map(\.count)
        let asRead = String(run.filter { $0 != " " && $0 != "-" })
        let suspectIndices = run.indices.filter {
            !(run[$0].isASCII && run[$0].isNumber) && run[$0] != " " && run[$0] != "-"
        }
        // Mostly letters is a word, not a misread number.
        guard asRead.count - suspectIndices.count >= 11 else { return nil }
        let digits = String(asRead.map { lookalikes[$0] ?? $0 })
        let issuer = issuer(of: digits)
        let grouped = isCardGrouping(groups)
        let luhn = passesLuhn(digits)
        let text = String(run)
        let suspects = suspectIndices.map { charOffsets[$0]..<charOffsets[$0 + 1] }
        if suspectIndices.isEmpty {
            if luhn && (grouped || issuer != nil) {
                return Detection(kind: .cardNumber, text: text, value: digits, range: range, line: 0, issuer: issuer)
            }
            guard !luhn, issuer != nil, grouped else { return nil }
            return Detection(
                kind: .cardNumber, text: text, value: digits, range: range, line: 0, issuer: issuer, isNearMiss: true,
                note:
                    "almost a card number — check these digits: \(text) fails the Luhn checksum, so one of them is misread"
            )
        }
        guard grouped || issuer != nil else { return nil }
        let letters = suspectIndices.map { "\(run[$0]) (may be \(lookalikes[run[$0]]!))" }.joined(separator: ", ")
        let checksum = luhn ? "" : "; even so it fails the Luhn checksum"
        return Detection(
            kind: .cardNumber, text: text, value: asRead, range: range, line: 0, issuer: issuer, isNearMiss: true,
            note: "almost a card number — check these digits: \(letters)\(checksum)", suspects: suspects)
    }

    /// Fours (the last group 1–4), 4-6-5 (American Express), 4-6-4 (Diners Club), or one group.
    static func isCardGrouping(_ groups: [Int]) -> Bool {
        if groups.count == 1 { return true }
        if groups == [4, 6, 5] || groups == [4, 6, 4] { return true }
        return groups.dropLast().allSatisfy { $0 == 4 } && (1...4).contains(groups.last ?? 0)
    }
}
