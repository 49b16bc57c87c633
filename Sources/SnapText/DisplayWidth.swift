import CLibc
import Foundation

/// Screen columns of characters, as a terminal draws them (glibc `wcwidth`, UTF-8 locale).
///
/// Units are terminal columns. Per scalar: CJK and emoji take 2, combining marks 0, others 1.
/// A TAB reaches the next multiple of ``tabSize`` (nano's default 8). Control characters are shown
/// as `^X`, so they take 2. A cluster never takes 0 columns: a lone combining mark takes 1.
public enum DisplayWidth {
    /// Columns between tab stops (nano's default).
    public static let tabSize = 8

    /// The columns `character` takes when it starts at screen column `column` (0-based).
    public static func of(_ character: Character, atColumn column: Int = 0) -> Int {
        if character == "\t" { return tabSize - column % tabSize }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if isControl(first) { return 2 }
        if scalars.count == 1, first.value >= 0x20, first.value < 0x7F { return 1 }
        var total = 0
        withUTF8Locale {
            for scalar in scalars {
                let w = clibc_wcwidth(wchar_t(bitPattern: scalar.value))
                if w > 0 { total += Int(w) }
            }
        }
        return max(1, total)
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

    // wcwidth answers -1 for every non-ASCII scalar in the C locale, so ask a private UTF-8 locale,
    // switched per thread with uselocale (the process-wide locale is left alone). The locale object
    // is never changed after newlocale, so every thread may use it.
    nonisolated(unsafe) private static let utf8Locale: locale_t? = {
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] {
            if let loc = newlocale(Int32(LC_CTYPE_MASK), name, nil) { return loc }
        }
        return nil
    }()

    private static func withUTF8Locale(_ body: () -> Void) {
        guard let loc = utf8Locale else { return body() }
        let previous = uselocale(loc)
        defer { uselocale(previous) }
        body()
    }
}
