import Foundation

/// Screen columns of characters, as a terminal draws them (glibc's `wcwidth` in a UTF-8 locale,
/// taken into `ScalarWidths.swift` by scripts/make-width-table.py).
///
/// Units are terminal columns. Per scalar: CJK and emoji take 2, combining marks 0, others 1.
/// A TAB reaches the next multiple of ``tabSize`` (nano's default 8). Control characters are shown
/// as `^X`, so they take 2. A cluster never takes 0 columns: a lone combining mark takes 1.
public enum DisplayWidth {
    /// Columns between tab stops (nano's default).
    public static let tabSize = 8

    /// The columns `character` takes when it starts at screen column `column` (0-based).
    public static func of(_ character: Character, atColumn column: Int = 0) -> Int {
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        if first.value == 0x09 { return tabSize - column % tabSize }  // a TAB is always alone
        if isControl(first) { return 2 }
        var total = 0
        var scalar: Unicode.Scalar? = first
        while let s = scalar {
            let w = ScalarTable.width(s) ?? wcwidth(s)
            if w > 0 { total += w }
            scalar = scalars.next()
        }
        return max(1, total)
    }

    /// glibc's `wcwidth` of `scalar` in a UTF-8 locale, -1 counted as 0 (`scalarWidthRuns`:
    /// the last run starting at or before it).
    static func wcwidth(_ scalar: Unicode.Scalar) -> Int {
        let key = scalar.value << 2 | 3
        var low = 0
        var high = scalarWidthRuns.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if scalarWidthRuns[middle] <= key { low = middle } else { high = middle }
        }
        return Int(scalarWidthRuns[low] & 3)
    }

    /// The columns of a whole single-line `string` drawn from column 0 (tabs expanded).
    public static func of(_ string: String) -> Int {
        var column = 0
        for character in string { column += of(character, atColumn: column) }
        return column
    }

    /// The starting screen column of each character of `characters`, plus one final entry for the
    /// column just after the last one (so the result has `characters.count + 1` entries).
    public static func columns(of characters: [Character]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(characters.count + 1)
        var column = 0
        for character in characters {
            result.append(column)
            column += of(character, atColumn: column)
        }
        result.append(column)
        return result
    }

    /// Whether `scalar` is a C0/C1 control or DEL (drawn as `^X` by the editor).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }
}

/// What the editor asks of each scalar below U+3400 (Latin, Greek, Cyrillic, Hebrew, Arabic,
/// Indic scripts, punctuation, symbols, kana), worked out once from glibc and from Swift's own
/// grapheme breaking: its `wcwidth`, whether it joins a character before it (a combining or
/// spacing mark, ZWJ: `"a" + s` is one `Character`), and whether it joins the one after it (a
/// prepended concatenation mark: `s + "a"` is one). Hangul jamo, whose joins depend on each
/// other, are left out; so is everything above: the callers then ask Swift directly.
enum ScalarTable {
    static let limit: UInt32 = 0x3400

    private static let entries: (widths: [Int8], flags: [UInt8]) = {
        var widths = [Int8](repeating: 0, count: Int(limit))
        var flags = [UInt8](repeating: 0, count: Int(limit))
        for v in 0..<limit {
            guard let s = Unicode.Scalar(v), !(0x1100...0x11FF).contains(v) else { continue }
            widths[Int(v)] = Int8(DisplayWidth.wcwidth(s))
            var flag: UInt8 = known
            if ("a" + String(s)).count == 1 { flag |= joinsPreceding }
            if (String(s) + "a").count == 1 { flag |= joinsFollowing }
            flags[Int(v)] = flag
        }
        return (widths, flags)
    }()

    static let known: UInt8 = 1
    static let joinsPreceding: UInt8 = 2
    static let joinsFollowing: UInt8 = 4

    /// `wcwidth` of `scalar`, or nil when it is not in the table.
    @inline(__always) static func width(_ scalar: Unicode.Scalar) -> Int? {
        guard scalar.value < limit, entries.flags[Int(scalar.value)] & known != 0 else { return nil }
        return Int(entries.widths[Int(scalar.value)])
    }

    /// The flags of the scalar `value` (0 when it is not in the table).
    @inline(__always) static func flags(_ value: UInt32) -> UInt8 {
        value < limit ? entries.flags[Int(value)] : 0
    }
}
