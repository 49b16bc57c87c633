import Foundation

/// Corrections of one well-known confusion of Tesseract's Latin models: a vertical bar read for a
/// capital I or a lower-case l ("Every day | love you", "dans |’Antiquité"). Printed verse and
/// prose almost never hold a bar, and none of the benchmark corpus's ground truths does.
enum WordCorrections {
    /// English contractions after which a bar is the pronoun I: I’m, I’ll, I’d, I’ve.
    private static let pronounEndings: Set<String> = ["m", "ll", "d", "ve"]

    /// `word` with a bar that stands for I or l replaced:
    /// `|` → `I`; `|’m`, `|'ll`, `|’d`, `|’ve` → `I’m` …; `|’` or `|'` before anything else → `l’`
    /// (French elision). Any other word is returned as it is.
    static func corrected(_ word: String) -> String {
        if word == "|" { return "I" }
        guard word.hasPrefix("|"), word.count >= 2 else { return word }
        let rest = word.dropFirst()
        guard let apostrophe = rest.first, apostrophe == "’" || apostrophe == "'" else { return word }
        let tail = String(rest.dropFirst())
        let letters = tail.prefix { $0.isLetter }.lowercased()
        return (pronounEndings.contains(letters) && letters.count == tail.prefix { $0.isLetter }.count ? "I" : "l")
            + rest
    }
}
