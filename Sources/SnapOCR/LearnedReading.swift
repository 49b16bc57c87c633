import Foundation

/// How a learned recognizer's reading of a word is compared with Tesseract's: pure functions.
public enum LearnedReading {
    /// Whether `learned` reads `text` the same way: equal once accents are set aside (the
    /// learned recognizer rarely reads one: `frôle` is read `frole`, `été` `ete`), typographic
    /// quotes and dashes written plainly (a dash read as two hyphens), `œ` and `æ` as two letters,
    /// and apostrophes and white space dropped (it reads `l'endroit` as `lendroit`). Case,
    /// letters, digits and the other punctuation count.
    public static func agrees(_ text: String, _ learned: String) -> Bool {
        folded(text) == folded(learned)
    }

    /// Whether `learned` and `text` differ only by punctuation one of them has at its ends and the
    /// other lacks (`pier.` read `pier`, `early` read `early.`): what the cut of a box costs or
    /// adds at a word's edges (a full stop lost, the stroke of the next letter taken for one), not
    /// a reading of another word. Punctuation read otherwise (`fallait,`, `fallait.`) is a difference.
    public static func differsOnlyAtTheEdges(_ text: String, _ learned: String) -> Bool {
        let a = parts(folded(text))
        let b = parts(folded(learned))
        guard !a.core.isEmpty, a.core == b.core, (a.before, a.after) != (b.before, b.after) else { return false }
        return (a.before.hasSuffix(b.before) && a.after.hasPrefix(b.after))
            || (b.before.hasSuffix(a.before) && b.after.hasPrefix(a.after))
    }

    /// The characters before the first letter or digit, from it to the last, and after.
    private static func parts(_ s: String) -> (before: String, core: String, after: String) {
        let isCore: (Character) -> Bool = { $0.isLetter || $0.isNumber }
        guard let first = s.firstIndex(where: isCore), let last = s.lastIndex(where: isCore) else {
            return (s, "", "")
        }
        return (String(s[..<first]), String(s[first...last]), String(s[s.index(after: last)...]))
    }

    /// `text` as `agrees` compares it.
    static func folded(_ text: String) -> String {
        var s = text.folding(options: [.diacriticInsensitive], locale: nil)
        for (from, to) in [
            ("’", "'"), ("‘", "'"), ("‚", "'"), ("′", "'"), ("“", "\""), ("”", "\""), ("„", "\""), ("«", "\""),
            ("»", "\""), ("″", "\""), ("''", "\""), (",,", "\""), ("—", "-"), ("–", "-"), ("‐", "-"), ("…", "..."),
            ("œ", "oe"), ("Œ", "OE"), ("æ", "ae"), ("Æ", "AE"), ("--", "-"),
        ] {
            s = s.replacingOccurrences(of: from, with: to)
        }
        return s.filter { !$0.isWhitespace && $0 != "'" }
    }
}
