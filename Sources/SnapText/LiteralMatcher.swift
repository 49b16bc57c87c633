import Foundation

/// Literal matching of one search text in a rope, a window of about 32 KiB at a time, in UTF-8
/// offsets of the text.
///
/// Windows are cut at certain grapheme breaks (see ``Breaks``), so each one is broken into
/// characters as the whole text is. A window that is all ASCII is searched as it is (its bytes
/// lowercased when case does not count) byte for byte (memchr, memcmp), a match never splitting CR LF. Any other
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
    /// Whether windows may be compared as they are, bytes with bytes (see ``Window``).
    private let comparesBytes: Bool
    private let windowBytes: Int
    var count: Int { content.utf8Count }

    init(content: Rope, search: String, caseSensitive: Bool, accentSensitive: Bool = true) {
        self.content = content
        self.caseSensitive = caseSensitive
        self.accentSensitive = accentSensitive
        var cache = FoldCache()
        needle = search.flatMap { Self.fold($0, caseSensitive, accentSensitive, &cache) }
        comparesBytes = caseSensitive && accentSensitive && needle.allSatisfy { $0 < 0x80 }
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
    /// accents when they do not.
    fileprivate static func fold(
        _ character: Character, _ caseSensitive: Bool, _ accentSensitive: Bool, _ cache: inout FoldCache
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
        var cache = FoldCache()
        while windowStart < end && windowStart < region.upperBound {
            let windowEnd = content.certainBreak(atOrAfter: min(end, windowStart + windowBytes), limit: end)
            let window = Window(
                content.bytes(in: windowStart..<windowEnd), at: windowStart, caseSensitive: caseSensitive,
                accentSensitive: accentSensitive, comparesBytes: comparesBytes, cache: &cache)
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

/// Folded characters already seen, keyed by their bytes (hashing a `Character` normalizes it,
/// which costs more than folding it again); clusters longer than 8 bytes by the character.
struct FoldCache {
    private var short: [UInt64: [UInt8]] = [:]
    private var long: [Character: [UInt8]] = [:]

    private static func key(_ character: Character) -> UInt64? {
        var key: UInt64 = 0
        var n = 0
        for byte in character.utf8 {
            guard n < 8 else { return nil }
            key = key << 8 | UInt64(byte)
            n += 1
        }
        return key
    }

    subscript(character: Character) -> [UInt8]? {
        get { Self.key(character).map { short[$0] } ?? long[character] }
        set {
            if let key = Self.key(character) { short[key] = newValue } else { long[character] = newValue }
        }
    }
}

/// One window of the text as it is compared: its bytes folded, and where each folded byte came from.
///
/// Three ways: an ASCII window is its own folding (lowercased when case does not count); a window
/// searched for an ASCII text when case and accents count is compared as it is too, with the
/// grapheme boundaries of each match checked in the bytes (an ASCII search can only match ASCII
/// characters and CR LF, unless the window holds one of the three characters whose canonical form
/// is ASCII: KELVIN SIGN, GREEK VARIA, GREEK QUESTION MARK); any other window is folded
/// character by character.
private struct Window {
    /// The folded bytes (the original ones for an ASCII window, or one compared as it is).
    let folded: [UInt8]
    /// For each folded byte that starts a character (and the end), its original offset; -1 inside
    /// a character. Nil when the window is compared as it is: folded and original offsets then
    /// differ by `start`.
    let origin: [Int]?
    /// Whether the bytes are compared as they are although they are not all ASCII: match
    /// boundaries are then checked by breaking the bytes around them into characters.
    let isRaw: Bool
    /// The original offset of the window's first byte.
    let start: Int

    /// UTF-8 of the characters whose NFC is ASCII: U+212A, U+1FEF, U+037E.
    private static let asciiSingletons: [[UInt8]] = [[0xE2, 0x84, 0xAA], [0xE1, 0xBF, 0xAF], [0xCD, 0xBE]]

    init(
        _ bytes: [UInt8], at start: Int, caseSensitive: Bool, accentSensitive: Bool, comparesBytes: Bool,
        cache: inout FoldCache
    ) {
        self.start = start
        if bytes.allSatisfy({ $0 < 0x80 }) {
            folded = caseSensitive ? bytes : bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            origin = nil
            isRaw = false
            return
        }
        if comparesBytes && !Self.asciiSingletons.contains(where: { Self.find($0, in: bytes) }) {
            folded = bytes
            origin = nil
            isRaw = true
            return
        }
        isRaw = false
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

    /// The first occurrence of the `length` bytes at `needle` in the `count` bytes at `haystack`:
    /// memchr for the needle's first byte, then memcmp (glibc's memmem costs more to start than
    /// the short searches of an editor take, called once per match).
    private static func find(
        _ needle: UnsafeRawPointer, _ length: Int, in haystack: UnsafeRawPointer, _ count: Int
    ) -> UnsafeRawPointer? {
        let first = Int32(needle.load(as: UInt8.self))
        var from = haystack
        var left = count
        while left >= length {
            guard let hit = memchr(from, first, left - length + 1) else { return nil }
            let at = UnsafeRawPointer(hit)
            if length == 1 || memcmp(at + 1, needle + 1, length - 1) == 0 { return at }
            left -= from.distance(to: at) + 1
            from = at + 1
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let h = hay.baseAddress, let p = pin.baseAddress else { return false }
                return find(p, pin.count, in: h, hay.count) != nil
            }
        }
    }

    /// Whether a match may begin or end at folded offset `k`.
    private func isBoundary(_ k: Int) -> Bool {
        if let origin { return origin[k] >= 0 }
        if k == 0 || k == folded.count { return true }  // windows end at certain breaks
        if !isRaw || Breaks.isCertain(folded[k - 1], folded[k]) {
            // An ASCII window: every byte is a character, but CR LF is one.
            return !(folded[k - 1] == 0x0D && folded[k] == 0x0A)
        }
        if folded[k] & 0xC0 == 0x80 { return false }  // inside a scalar
        // Break the bytes between the certain breaks around k into characters.
        var from = k - 1
        while from > 0 && !Breaks.isCertain(folded[from - 1], folded[from]) { from -= 1 }
        var to = k + 1
        while to < folded.count && !Breaks.isCertain(folded[to - 1], folded[to]) { to += 1 }
        var segments = Segmenter(Array(folded[from..<to]))
        var at = from
        while at < k, let segment = segments.next() {
            switch segment {
            case .byte: at += 1
            case .cluster(_, let length): at += length
            }
        }
        return at == k
    }

    private func original(_ k: Int) -> Int { origin?[k] ?? start + k }

    /// The original offset of the start of the character holding the folded byte `needleLength - 1`
    /// places from the end (where a match that runs past the window's end would have to begin).
    func originalOffset(ofCharacterAt needleLength: Int) -> Int {
        var k = max(0, folded.count - needleLength + 1)
        while k > 0 && !isBoundary(k) { k -= 1 }
        return original(k)
    }

    /// A byte search over the folded bytes from the original offset `from` on: each match on character
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
                    guard let hit = Self.find(n, needle.count, in: base + k, folded.count - k) else { return false }
                    let at = base.distance(to: hit)
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
