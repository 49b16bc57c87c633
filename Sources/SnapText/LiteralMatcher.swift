import CLibc
import Foundation

/// Literal matching of one search text in a rope, a window of about 32 KiB at a time, in UTF-8
/// offsets of the text.
///
/// Windows are cut at certain grapheme breaks (see ``Breaks``), so each one is broken into
/// characters as the whole text is. A window that is all ASCII is searched as it is (its bytes
/// lowercased when case does not count) with memmem, a match never splitting CR LF. Any other
/// window is searched in a copy where every character is in NFC (lowercased when case does not
/// count, without its accents when they do not), with a table back to the original offsets; a
/// match starts and ends on whole characters, and canonically equivalent characters match.
/// Consecutive windows overlap by the search's length, so a match across two is found whole;
/// matches do not overlap and are found left to right. Memory does not grow with the text.
struct LiteralMatcher: TextMatcher {
    let content: Rope
    /// The search, folded as the text is.
    private let needle: [UInt8]
    private let caseSensitive: Bool
    private let accentSensitive: Bool
    private let windowBytes: Int
    var count: Int { content.utf8Count }

    init(content: Rope, search: String, caseSensitive: Bool, accentSensitive: Bool = true) {
        self.content = content
        self.caseSensitive = caseSensitive
        self.accentSensitive = accentSensitive
        var cache: [Character: [UInt8]] = [:]
        needle = search.flatMap { Self.fold($0, caseSensitive, accentSensitive, &cache) }
        windowBytes = max(32 * 1024, 8 * search.utf8.count)
    }

    /// The letters that OCR and typists write with or without accents, ligatures spelled out.
    static let plainLetters: [Unicode.Scalar: String] = [
        "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
        "đ": "d", "Đ": "D", "ı": "i", "\u{FB01}": "fi", "\u{FB02}": "fl",
    ]

    /// `string` without its accents (combining marks after canonical decomposition) and with
    /// ligatures and barred or slashed letters spelled plainly: `é` → `e`, `œ` → `oe`, `ø` → `o`.
    static func withoutAccents(_ string: String) -> String {
        var result = ""
        for scalar in string.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let plain = plainLetters[scalar] { result += plain } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// The bytes `character` is compared by: NFC, lowercased when case does not count, without
    /// accents when they do not. Characters hash by canonical equivalence, so NFC and NFD
    /// spellings share one cache entry.
    fileprivate static func fold(
        _ character: Character, _ caseSensitive: Bool, _ accentSensitive: Bool, _ cache: inout [Character: [UInt8]]
    ) -> [UInt8] {
        if character.utf8.count == 1, let ascii = character.asciiValue {
            return [lower(ascii, caseSensitive)]
        }
        if let known = cache[character] { return known }
        var string = caseSensitive ? String(character) : String(character).lowercased()
        if !accentSensitive { string = withoutAccents(string) }
        let bytes = Array(string.precomposedStringWithCanonicalMapping.utf8)
        cache[character] = bytes
        return bytes
    }

    @inline(__always) private static func lower(_ byte: UInt8, _ caseSensitive: Bool) -> UInt8 {
        !caseSensitive && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// Non-overlapping matches starting in `region` and ending by `limit` (original offsets).
    func matches(startingIn region: Range<Int>, endingBy limit: Int, first: Bool) -> [Range<Int>] {
        let region = TextBuffer.clamp(region, count)
        let limit = min(max(0, limit), count)
        var result: [Range<Int>] = []
        guard !needle.isEmpty, region.lowerBound < region.upperBound else { return result }
        let end = content.certainBreak(atOrAfter: limit, limit: count)
        var windowStart = content.certainBreak(before: region.lowerBound + 1, lineStart: 0)
        var lastEnd = region.lowerBound
        var cache: [Character: [UInt8]] = [:]
        while windowStart < end && windowStart < region.upperBound {
            let windowEnd = content.certainBreak(atOrAfter: min(end, windowStart + windowBytes), limit: end)
            let window = Window(
                content.bytes(in: windowStart..<windowEnd), at: windowStart, caseSensitive: caseSensitive,
                accentSensitive: accentSensitive, cache: &cache)
            let finished = window.scan(for: needle, from: lastEnd) { range in
                if range.lowerBound >= region.upperBound || range.upperBound > limit { return .stop }
                result.append(range)
                lastEnd = range.upperBound
                return first ? .stop : .next
            }
            if finished || windowEnd >= end { break }
            // The next window starts early enough to hold whole any match that runs past this one's end.
            let next = content.certainBreak(
                before: window.originalOffset(ofCharacterAt: needle.count) + 1, lineStart: 0)
            windowStart = next > windowStart ? next : windowEnd
        }
        return result
    }
}

/// What a match found in a window asks of the scan.
enum ScanDecision {
    case next
    case stop
}

/// One window of the text as it is compared: its bytes folded, and where each folded byte came from.
private struct Window {
    /// The folded bytes (the original ones for an ASCII window that tells case).
    let folded: [UInt8]
    /// For each folded byte that starts a character (and the end), its original offset; -1 inside
    /// a character. Nil for an ASCII window: folded and original offsets then differ by `start`.
    let origin: [Int]?
    /// The original offset of the window's first byte.
    let start: Int

    init(
        _ bytes: [UInt8], at start: Int, caseSensitive: Bool, accentSensitive: Bool,
        cache: inout [Character: [UInt8]]
    ) {
        self.start = start
        if bytes.allSatisfy({ $0 < 0x80 }) {
            folded = caseSensitive ? bytes : bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            origin = nil
            return
        }
        var folded: [UInt8] = []
        var origin: [Int] = []
        folded.reserveCapacity(bytes.count + bytes.count / 8)
        origin.reserveCapacity(bytes.count + bytes.count / 8 + 1)
        var offset = start
        var segments = Segmenter(bytes)
        while let segment = segments.next() {
            switch segment {
            case .byte(let b):
                origin.append(offset)
                folded.append(!caseSensitive && b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
                offset += 1
            case .cluster(let c, let length):
                let f = LiteralMatcher.fold(c, caseSensitive, accentSensitive, &cache)
                if !f.isEmpty {
                    origin.append(offset)
                    origin.append(contentsOf: repeatElement(-1, count: f.count - 1))
                    folded.append(contentsOf: f)
                }
                offset += length
            }
        }
        origin.append(offset)
        self.folded = folded
        self.origin = origin
    }

    /// Whether a match may begin or end at folded offset `k`.
    private func isBoundary(_ k: Int) -> Bool {
        if let origin { return origin[k] >= 0 }
        // An ASCII window: every byte is a character, but CR LF is one.
        return k == 0 || k == folded.count || !(folded[k - 1] == 0x0D && folded[k] == 0x0A)
    }

    private func original(_ k: Int) -> Int { origin?[k] ?? start + k }

    /// The original offset of the start of the character holding the folded byte `needleLength - 1`
    /// places from the end (where a match that runs past the window's end would have to begin).
    func originalOffset(ofCharacterAt needleLength: Int) -> Int {
        var k = max(0, folded.count - needleLength + 1)
        while k > 0 && !isBoundary(k) { k -= 1 }
        return original(k)
    }

    /// memmem over the folded bytes from the original offset `from` on: each match on character
    /// boundaries (original offsets) goes to `found`, and the scan goes on after it until `found`
    /// says stop. Returns true when it was told to stop.
    func scan(for needle: [UInt8], from: Int, _ found: (Range<Int>) -> ScanDecision) -> Bool {
        var k = 0
        if from > start {
            k =
                origin.map { origin in origin.firstIndex { $0 >= from } ?? origin.count - 1 }
                ?? min(folded.count, from - start)
        }
        return folded.withUnsafeBytes { hay -> Bool in
            needle.withUnsafeBytes { pin -> Bool in
                guard let base = hay.baseAddress, let n = pin.baseAddress else { return false }
                while folded.count - k >= needle.count {
                    guard let hit = clibc_memmem(base + k, folded.count - k, n, needle.count) else { return false }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if isBoundary(at) && isBoundary(at + needle.count) {
                        if found(original(at)..<original(at + needle.count)) == .stop { return true }
                        k = at + needle.count
                    } else {
                        k = at + 1
                    }
                }
                return false
            }
        }
    }
}
