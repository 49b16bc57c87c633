import CLibc
import Foundation

/// A match of a search in a ``TextBuffer``.
public struct SearchMatch: Equatable, Sendable {
    /// The matched UTF-8 byte range of ``TextBuffer/text``.
    public var range: Range<Int>
    /// Whether the search passed the end of the text and continued from the top to find it.
    public var wrapped: Bool

    /// Creates a match.
    public init(range: Range<Int>, wrapped: Bool) {
        self.range = range
        self.wrapped = wrapped
    }
}

/// Search and replace: literal by default, or a regular expression.
///
/// Literal (the default): `.` and `(` are plain characters; characters match by canonical
/// equivalence (NFD `e\u{301}` finds NFC `é` and the other way round, as Swift's `==` compares
/// characters), and only whole grapheme clusters match: `e` does not match the `e` of `e\u{301}`.
/// `accentSensitive: false` (literal searches only) compares characters without their accents,
/// ligatures spelled out: `e` finds `é` and `e\u{301}`, `oe` finds `œ`, `coeur` finds `cœur`.
/// `regularExpression: true`: the search text is a Swift `Regex` (its syntax, `^` and `$` at line
/// ends, canonical equivalence too; empty matches are skipped); a pattern that does not compile
/// throws ``SnapTextError/badRegex(pattern:reason:)``. An empty search text throws
/// ``SnapTextError/emptySearch``.
extension TextBuffer {
    /// All non-overlapping matches of `search`, scanned left to right once, within `region`
    /// (UTF-8 offsets; a match must start inside it and may end at most at `limit`, default the end).
    ///
    /// `caseSensitive: false` compares lowercased characters (Unicode-aware, still literal).
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`. Linear in the text size.
    public func matches(
        of search: String, startingIn region: Range<Int>? = nil, endingBy limit: Int? = nil,
        caseSensitive: Bool = true, accentSensitive: Bool = true, regularExpression: Bool = false
    ) throws -> [Range<Int>] {
        let matcher = try makeMatcher(
            search, caseSensitive: caseSensitive, accentSensitive: accentSensitive,
            regularExpression: regularExpression)
        return matcher.matches(startingIn: region ?? 0..<matcher.count, endingBy: limit ?? matcher.count, first: false)
    }

    /// The first match of `search` that starts inside `region` (UTF-8 offsets), or nil.
    ///
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`.
    public func firstMatch(
        of search: String, startingIn region: Range<Int>, caseSensitive: Bool = true,
        accentSensitive: Bool = true, regularExpression: Bool = false
    ) throws -> Range<Int>? {
        let matcher = try makeMatcher(
            search, caseSensitive: caseSensitive, accentSensitive: accentSensitive,
            regularExpression: regularExpression)
        return matcher.matches(startingIn: region, endingBy: matcher.count, first: true).first
    }

    /// The next match of `search` from UTF-8 `offset` (a match starting exactly at `offset` counts
    /// unless `skippingCurrent`), wrapping to the top when `wraps`. Nil when there is none.
    ///
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`.
    public func nextMatch(
        of search: String, from offset: Int, skippingCurrent: Bool, wraps: Bool = true,
        caseSensitive: Bool = true, accentSensitive: Bool = true, regularExpression: Bool = false
    ) throws -> SearchMatch? {
        let matcher = try makeMatcher(
            search, caseSensitive: caseSensitive, accentSensitive: accentSensitive,
            regularExpression: regularExpression)
        let start = min(max(0, offset + (skippingCurrent ? 1 : 0)), matcher.count)
        if let r = matcher.matches(startingIn: start..<matcher.count, endingBy: matcher.count, first: true).first {
            return SearchMatch(range: r, wrapped: false)
        }
        guard wraps else { return nil }
        let wrapEnd = min(max(0, offset) + 1, matcher.count)
        if let r = matcher.matches(startingIn: 0..<wrapEnd, endingBy: matcher.count, first: true).first {
            return SearchMatch(range: r, wrapped: true)
        }
        return nil
    }

    /// The last match of `search` that starts before UTF-8 `offset` (nano's backwards search; a
    /// match starting at `offset` counts when `skippingCurrent` is false), wrapping to the end
    /// when `wraps`. Nil when there is none.
    ///
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`, and
    /// ``SnapTextError/badRegex(pattern:reason:)`` for a bad pattern.
    public func previousMatch(
        of search: String, from offset: Int, skippingCurrent: Bool, wraps: Bool = true,
        caseSensitive: Bool = true, accentSensitive: Bool = true, regularExpression: Bool = false
    ) throws -> SearchMatch? {
        let matcher = try makeMatcher(
            search, caseSensitive: caseSensitive, accentSensitive: accentSensitive,
            regularExpression: regularExpression)
        let end = min(max(0, offset + (skippingCurrent ? 0 : 1)), matcher.count)
        if let r = matcher.matches(startingIn: 0..<end, endingBy: matcher.count, first: false).last {
            return SearchMatch(range: r, wrapped: false)
        }
        guard wraps else { return nil }
        let all = matcher.matches(startingIn: 0..<matcher.count, endingBy: matcher.count, first: false)
        return all.last { $0.lowerBound >= max(0, offset) }.map { SearchMatch(range: $0, wrapped: true) }
    }

    /// What replaces each match in `ranges` of the regular expression `search`: `template` with
    /// `\1`…`\9` and `$1`…`$9` (and `\0`, `$0`, the whole match) put in for the groups, `\\` and
    /// `$$` for a plain `\` and `$`. Literal searches (`regularExpression: false`) get `template`
    /// as it is (no groups: `$1` is plain text).
    ///
    /// Throws ``SnapTextError/badRegex(pattern:reason:)`` for a bad pattern.
    public func replacements(
        for ranges: [Range<Int>], of search: String, template: String, caseSensitive: Bool = true,
        regularExpression: Bool
    ) throws -> [String] {
        guard regularExpression else { return Array(repeating: template, count: ranges.count) }
        let matcher = try RegexMatcher(text: text, pattern: search, caseSensitive: caseSensitive)
        var groupsByStart: [Int: [String?]] = [:]
        for match in matcher.found { groupsByStart[match.range.lowerBound] = match.groups }
        return ranges.map { RegexMatcher.expand(template, groups: groupsByStart[$0.lowerBound] ?? []) }
    }

    /// Replaces every match of `search` with `replacement`, as ONE undo step; returns how many.
    ///
    /// Scans the original text once, left to right, and never looks at inserted text, so a
    /// replacement containing the search text cannot loop. `replacement` is literal (`$1`, `&`,
    /// `\n` are plain characters); an empty one deletes the matches. Replacing a text by itself
    /// changes nothing and returns 0. `region` limits where matches may start (UTF-8 offsets).
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`. Linear in the text size.
    ///
    /// With `regularExpression: true`, `search` is a pattern and `replacement` a template whose
    /// `\1` / `$1` are the groups of each match (see ``replacement(for:of:template:caseSensitive:regularExpression:)``).
    @discardableResult
    public mutating func replaceAll(
        _ search: String, with replacement: String, startingIn region: Range<Int>? = nil,
        caseSensitive: Bool = true, accentSensitive: Bool = true, regularExpression: Bool = false
    ) throws -> Int {
        if regularExpression {
            let matcher = try RegexMatcher(text: text, pattern: search, caseSensitive: caseSensitive)
            let count = matcher.count
            let chosen = matcher.found.filter {
                TextBuffer.clamp(region ?? 0..<count, count).contains($0.range.lowerBound)
            }
            try replace(chosen.map(\.range), with: chosen.map { RegexMatcher.expand(replacement, groups: $0.groups) })
            return chosen.count
        }
        let found = try matches(
            of: search, startingIn: region, caseSensitive: caseSensitive, accentSensitive: accentSensitive)
        if found.isEmpty || (caseSensitive && accentSensitive && search.utf8.elementsEqual(replacement.utf8)) {
            return 0
        }
        try replace(found, with: replacement)
        return found.count
    }

    /// The matcher for a search: a regular expression, or literal text (bytes directly when both
    /// the text and the search are ASCII and case counts, else canonical characters).
    func makeMatcher(_ search: String, caseSensitive: Bool, accentSensitive: Bool = true, regularExpression: Bool)
        throws -> any TextMatcher
    {
        guard !search.isEmpty else { throw SnapTextError.emptySearch }
        if regularExpression { return try RegexMatcher(text: text, pattern: search, caseSensitive: caseSensitive) }
        return Matcher(text: text, search: search, caseSensitive: caseSensitive, accentSensitive: accentSensitive)
    }

    /// Replaces the given ranges (UTF-8, sorted, non-overlapping, e.g. from ``matches(of:startingIn:endingBy:)``)
    /// with `replacement`, as ONE undo step, and keeps the cursor on the same text.
    ///
    /// The step is two edits (remove the span from the first to the last range, insert the new
    /// span), built in one pass. Throws ``SnapTextError`` if a range is outside the text.
    public mutating func replace(_ ranges: [Range<Int>], with replacement: String) throws {
        let bytes = Array(replacement.utf8)
        try replace(ranges, bytes: { _ in bytes }, marksAfter: { $0.replacing(ranges, length: bytes.count) })
    }

    /// Replaces each of `ranges` (UTF-8, sorted, non-overlapping) with the replacement at the
    /// same index, as ONE undo step, keeping the cursor on the same text (regex replacements,
    /// whose groups differ from match to match). Does nothing when the counts differ.
    public mutating func replace(_ ranges: [Range<Int>], with replacements: [String]) throws {
        guard replacements.count == ranges.count else { return }
        let all = replacements.map { Array($0.utf8) }
        try replace(ranges, bytes: { all[$0] }, marksAfter: { $0.replacing(ranges, lengths: all.map(\.count)) })
    }

    /// The step is two edits (remove the span from the first to the last range, insert the new
    /// span), built in one pass; range `i` becomes `bytes(i)`.
    private mutating func replace(
        _ ranges: [Range<Int>], bytes: (Int) -> [UInt8], marksAfter: @escaping ([TextMark]) -> [TextMark]
    ) throws {
        guard let first = ranges.first, let last = ranges.last else { return }
        let haystack = Array(text.utf8)
        guard first.lowerBound >= 0, last.upperBound <= haystack.count else {
            throw SnapTextError.offsetOutOfRange(offset: last.upperBound, utf8Count: haystack.count)
        }
        var newSpan: [UInt8] = []
        newSpan.reserveCapacity(
            last.upperBound - first.lowerBound + ranges.count * max(0, bytes(0).count - first.count))
        var position = first.lowerBound
        let cursorOffset = offset(of: cursor)
        var newCursorOffset = cursorOffset
        for (i, range) in ranges.enumerated() {
            let replacementBytes = bytes(i)
            newSpan.append(contentsOf: haystack[position..<range.lowerBound])
            newSpan.append(contentsOf: replacementBytes)
            position = range.upperBound
            if range.upperBound <= cursorOffset {
                newCursorOffset += replacementBytes.count - range.count
            } else if range.lowerBound < cursorOffset {
                newCursorOffset += range.lowerBound + replacementBytes.count - cursorOffset
            }
        }
        let oldSpan = String(decoding: haystack[first.lowerBound..<last.upperBound], as: UTF8.self)
        let edits: [Edit] = [
            .remove(oldSpan, at: first.lowerBound),
            .insert(String(decoding: newSpan, as: UTF8.self), at: first.lowerBound),
        ]
        try perform(
            edits, grouping: nil, marksAfter: marksAfter,
            cursorAfter: { $0.position(ofOffset: newCursorOffset) })
    }

    static func clamp(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        let lower = min(max(0, range.lowerBound), count)
        return lower..<max(lower, min(count, range.upperBound))
    }
}

/// Finds the matches of one search in one text, in UTF-8 offsets of the text.
protocol TextMatcher {
    /// Length of the text in UTF-8 bytes.
    var count: Int { get }
    /// Non-overlapping matches starting in `region` and ending by `limit`, left to right (only the
    /// first when `first`).
    func matches(startingIn region: Range<Int>, endingBy limit: Int, first: Bool) -> [Range<Int>]
}

/// A Swift `Regex` over one text: every non-empty match found once, with its groups.
struct RegexMatcher: TextMatcher {
    let count: Int
    /// The matches, in order, with their groups (`groups[0]` the whole match; nil for a group that
    /// took no part).
    let found: [(range: Range<Int>, groups: [String?])]

    init(text: String, pattern: String, caseSensitive: Bool) throws {
        guard !pattern.isEmpty else { throw SnapTextError.emptySearch }
        var regex: Regex<AnyRegexOutput>
        do { regex = try Regex(pattern) } catch {
            throw SnapTextError.badRegex(pattern: pattern, reason: "\(error)")
        }
        regex = regex.anchorsMatchLineEndings()
        if !caseSensitive { regex = regex.ignoresCase() }
        var found: [(range: Range<Int>, groups: [String?])] = []
        var index = text.startIndex
        var offset = 0
        for match in text.matches(of: regex) where !match.range.isEmpty {
            offset += text.utf8.distance(from: index, to: match.range.lowerBound)
            let length = text.utf8.distance(from: match.range.lowerBound, to: match.range.upperBound)
            found.append((offset..<(offset + length), match.output.map { $0.substring.map(String.init) }))
            index = match.range.lowerBound
        }
        self.found = found
        count = text.utf8.count
    }

    func matches(startingIn region: Range<Int>, endingBy limit: Int, first: Bool) -> [Range<Int>] {
        let region = TextBuffer.clamp(region, count)
        var result: [Range<Int>] = []
        for match in found where region.contains(match.range.lowerBound) && match.range.upperBound <= limit {
            result.append(match.range)
            if first { break }
        }
        return result
    }

    /// `template` with `\N` and `$N` (N a digit) replaced by group N, `\\` by `\` and `$$` by `$`.
    static func expand(_ template: String, groups: [String?]) -> String {
        var result = ""
        var characters = template.makeIterator()
        while let c = characters.next() {
            guard c == "\\" || c == "$" else {
                result.append(c)
                continue
            }
            guard let next = characters.next() else {
                result.append(c)
                break
            }
            if let digit = next.wholeNumberValue, next.isASCII {
                result += digit < groups.count ? (groups[digit] ?? "") : ""
            } else if next == c {
                result.append(c)
            } else {
                result.append(c)
                result.append(next)
            }
        }
        return result
    }
}

/// Literal matching of one search text in one text, in UTF-8 offsets of the original text.
///
/// Both ASCII and case-sensitive: the bytes themselves, with memmem, rejecting a match that would
/// split a grapheme cluster. Otherwise the same on a copy where every character is in NFC (and
/// lowercased, when case does not count), with a table back to the original offsets; matches
/// start and end on whole characters, and canonically equivalent characters match.
struct Matcher: TextMatcher {
    private let haystack: [UInt8]
    private let needle: [UInt8]
    /// Case-insensitive only: for each folded byte offset that starts a character (and the end),
    /// the original offset; -1 inside a character.
    private let origin: [Int]?
    /// Case-insensitive only: (original offset, folded offset) of each character start, ascending.
    private let starts: [(original: Int, folded: Int)]
    /// Length of the original text in UTF-8 bytes.
    let count: Int

    init(text: String, search: String, caseSensitive: Bool, accentSensitive: Bool = true) {
        if caseSensitive && accentSensitive && search.utf8.allSatisfy({ $0 < 0x80 })
            && text.utf8.allSatisfy({ $0 < 0x80 })
        {
            haystack = Array(text.utf8)
            needle = Array(search.utf8)
            origin = nil
            starts = []
            count = haystack.count
            return
        }
        var folded: [UInt8] = []
        var origin: [Int] = []
        var starts: [(original: Int, folded: Int)] = []
        var offset = 0
        folded.reserveCapacity(text.utf8.count)
        // Characters hash by canonical equivalence, so NFC and NFD spellings share one entry.
        var cache: [Character: [UInt8]] = [:]
        func fold(_ character: Character) -> [UInt8] {
            if character.utf8.count == 1, let ascii = character.asciiValue {
                return [!caseSensitive && ascii >= 0x41 && ascii <= 0x5A ? ascii + 0x20 : ascii]
            }
            if let known = cache[character] { return known }
            var string = caseSensitive ? String(character) : String(character).lowercased()
            if !accentSensitive { string = Matcher.withoutAccents(string) }
            let bytes = Array(string.precomposedStringWithCanonicalMapping.utf8)
            cache[character] = bytes
            return bytes
        }
        for character in text {
            let length = character.utf8.count
            starts.append((offset, folded.count))
            origin.append(offset)
            let lower = fold(character)
            folded.append(contentsOf: lower)
            origin.append(contentsOf: repeatElement(-1, count: lower.count - 1))
            offset += length
        }
        origin.append(offset)
        starts.append((offset, folded.count))
        haystack = folded
        needle = search.flatMap(fold)
        self.origin = origin
        self.starts = starts
        count = offset
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

    /// Non-overlapping matches starting in `region` and ending by `limit` (original offsets).
    func matches(startingIn region: Range<Int>, endingBy limit: Int, first: Bool) -> [Range<Int>] {
        let region = TextBuffer.clamp(region, count)
        let limit = min(max(0, limit), count)
        guard let origin else {
            return scan(starts: region, end: limit, first: first) { offset, isStart in
                Self.isClusterBoundary(haystack, offset, startOfMatch: isStart)
            }
        }
        let foldedRegion = foldedOffset(atOrAfter: region.lowerBound)..<foldedOffset(atOrAfter: region.upperBound)
        let foldedLimit = foldedOffset(atOrBefore: limit)
        return scan(starts: foldedRegion, end: foldedLimit, first: first) { offset, _ in origin[offset] >= 0 }
            .map { origin[$0.lowerBound]..<origin[$0.upperBound] }
    }

    private func foldedOffset(atOrAfter original: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high) / 2
            if starts[mid].original < original { low = mid + 1 } else { high = mid }
        }
        return starts[low].folded
    }

    private func foldedOffset(atOrBefore original: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid].original > original { high = mid - 1 } else { low = mid }
        }
        return starts[low].folded
    }

    /// memmem over `haystack`: matches whose start lies in `starts` and whose end is ≤ `end`.
    private func scan(starts: Range<Int>, end: Int, first: Bool, boundary: (Int, Bool) -> Bool) -> [Range<Int>] {
        var result: [Range<Int>] = []
        guard !needle.isEmpty, starts.lowerBound < starts.upperBound else { return result }
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let base = hay.baseAddress, let n = pin.baseAddress else { return }
                var from = starts.lowerBound
                while from < starts.upperBound {
                    // The match may start anywhere up to starts.upperBound - 1 and must end by `end`.
                    let windowEnd = min(end, starts.upperBound - 1 + needle.count)
                    guard windowEnd - from >= needle.count,
                        let hit = clibc_memmem(base + from, windowEnd - from, n, needle.count)
                    else { return }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    let range = at..<(at + needle.count)
                    if boundary(range.lowerBound, true) && boundary(range.upperBound, false) {
                        result.append(range)
                        if first { return }
                        from = range.upperBound
                    } else {
                        from = at + 1
                    }
                }
            }
        }
        return result
    }

    /// Whether a match may begin (or end) at byte `offset` without splitting a grapheme cluster.
    private static func isClusterBoundary(_ bytes: [UInt8], _ offset: Int, startOfMatch: Bool) -> Bool {
        guard offset > 0, offset < bytes.count else { return true }
        if bytes[offset - 1] == 0x0D && bytes[offset] == 0x0A { return false }  // CR LF is one cluster
        if let previous = scalar(endingAt: offset, in: bytes), previous.value == 0x200D { return false }  // after ZWJ
        if startOfMatch { return true }  // a search text that starts with a mark asks for the mark
        guard let next = scalar(startingAt: offset, in: bytes) else { return true }
        let p = next.properties
        return !(p.isGraphemeExtend || next.value == 0x200D || p.isEmojiModifier || p.generalCategory == .spacingMark)
    }

    private static func scalar(startingAt offset: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
        return nil
    }

    private static func scalar(endingAt offset: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        var start = offset - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(startingAt: start, in: bytes)
    }
}
