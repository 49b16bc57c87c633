import Foundation
import Testing

@testable import SnapText

/// Literal search reads the text a window of 32 KiB at a time; these tests compare it on texts of
/// several windows with a plain reference that folds the whole text at once (the way search
/// worked before the text became a rope), for every kind of search: ASCII, accents in NFC and
/// NFD, case and accents ignored, CR LF, and matches across window ends.
struct WindowedSearchTests {
    /// The whole text's characters folded (NFC, lowercased, accents dropped as asked), then
    /// scanned left to right for non-overlapping matches on character boundaries.
    struct Reference {
        var folded: [UInt8] = []
        var origin: [Int] = []
        let needle: [UInt8]

        init(_ text: String, _ search: String, caseSensitive: Bool, accentSensitive: Bool) {
            func fold(_ c: Character) -> [UInt8] {
                var s = caseSensitive ? String(c) : String(c).lowercased()
                if !accentSensitive { s = LiteralMatcher.withoutAccents(s) }
                return Array(s.precomposedStringWithCanonicalMapping.utf8)
            }
            var offset = 0
            for c in text {
                let f = fold(c)
                if !f.isEmpty {
                    origin.append(offset)
                    origin.append(contentsOf: repeatElement(-1, count: f.count - 1))
                    folded.append(contentsOf: f)
                }
                offset += c.utf8.count
            }
            origin.append(offset)
            needle = search.flatMap(fold)
        }

        func matches(region: Range<Int>, limit: Int) -> [Range<Int>] {
            var result: [Range<Int>] = []
            var k = origin.firstIndex { $0 >= region.lowerBound } ?? folded.count
            while k + needle.count <= folded.count {
                if origin[k] >= 0 && origin[k + needle.count] >= 0
                    && folded[k..<(k + needle.count)].elementsEqual(needle)
                {
                    let range = origin[k]..<origin[k + needle.count]
                    if range.lowerBound >= region.upperBound || range.upperBound > limit { break }
                    result.append(range)
                    k += needle.count
                } else {
                    k += 1
                }
            }
            return result
        }
    }

    static let pieces = [
        "Lenore", " ", "a", "b", "ab", "é", "e\u{301}", "É", "cœur", "coeur", "RAVEN", "raven", "\r", "\n", "\r\n",
        "\u{301}", "👍🏽", "見", "\t", "ß",
    ]

    static func text(seed: UInt64, bytes: Int) -> String {
        var random = LongLineModelTests.Random(state: seed)
        var text = ""
        while text.utf8.count < bytes {
            // Mostly prose-like ASCII, with the other pieces now and then.
            text += random.below(4) > 0 ? ["the ", "and ", "x"][random.below(3)] : pieces[random.below(pieces.count)]
        }
        return text
    }

    @Test(arguments: [
        ("ab", true, true), ("Lenore", true, true), ("é", true, true), ("e\u{301}", true, true),
        ("coeur", true, false), ("e", true, false), ("raven", false, true), ("É", false, false), ("\n", true, true),
        ("\r\n", true, true), ("ss", true, false), ("the and", true, true),
    ])
    func windowedSearchFindsWhatAWholeTextSearchFinds(search: String, caseSensitive: Bool, accentSensitive: Bool)
        throws
    {
        let text = Self.text(seed: UInt64(search.utf8.count), bytes: 70_000)
        let buffer = TextBuffer(text: text)
        let count = text.utf8.count
        let all = try buffer.matches(of: search, caseSensitive: caseSensitive, accentSensitive: accentSensitive)
        let reference = Reference(text, search, caseSensitive: caseSensitive, accentSensitive: accentSensitive)
        #expect(all == reference.matches(region: 0..<count, limit: count))
        #expect(!all.isEmpty)
        // Regions that begin and end inside windows, and inside characters.
        for (lower, upper, limit) in [
            (1, count, count), (32_760, 70_000, 65_600), (65_530, count, count), (40_001, 40_002, count),
        ] {
            let found = try buffer.matches(
                of: search, startingIn: lower..<upper, endingBy: limit, caseSensitive: caseSensitive,
                accentSensitive: accentSensitive)
            #expect(
                found == reference.matches(region: lower..<upper, limit: limit),
                "region \(lower)..<\(upper) by \(limit)")
        }
    }

    /// A match that begins a few bytes before a window's end is found whole, once.
    @Test func aMatchAcrossTheEndOfAWindowIsFoundOnce() throws {
        for shift in 1..<8 {
            let text = String(repeating: "x", count: 32 * 1024 - shift) + "Lenore" + String(repeating: "y", count: 100)
            let buffer = TextBuffer(text: text)
            #expect(try buffer.matches(of: "Lenore") == [(32 * 1024 - shift)..<(32 * 1024 - shift + 6)])
            #expect(try buffer.matches(of: "LENORE", caseSensitive: false).count == 1)
        }
    }

    /// A lone combining mark folds to nothing when accents are ignored: no crash, and the letters
    /// around it still match.
    @Test func aLoneMarkIgnoredWithAccentsIsNoCrash() throws {
        let buffer = TextBuffer(text: "\u{301}x\n\u{301}x")
        #expect(try buffer.matches(of: "x", accentSensitive: false) == [2..<3, 6..<7])
    }
}
