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

    /// The matcher for a search: a regular expression over the whole text, or literal text
    /// matched a window at a time (bytes directly where both the window and the search are ASCII
    /// and case counts, else canonical characters).
    func makeMatcher(_ search: String, caseSensitive: Bool, accentSensitive: Bool = true, regularExpression: Bool)
        throws -> any TextMatcher
    {
        guard !search.isEmpty else { throw SnapTextError.emptySearch }
        if regularExpression { return try RegexMatcher(text: text, pattern: search, caseSensitive: caseSensitive) }
        return LiteralMatcher(
            content: content, search: search, caseSensitive: caseSensitive, accentSensitive: accentSensitive)
    }

    /// Replaces the given ranges (UTF-8, sorted, non-overlapping, e.g. from ``matches(of:startingIn:endingBy:)``)
    /// with `replacement`, as ONE undo step, and keeps the cursor on the same text.
    ///
    /// The step is two edits (remove the span from the first to the last range, insert the new
    /// span) when that span is at most 64 KiB, else the whole new text built in one pass and kept
    /// with the old one (``History/Step/replaced``). Throws ``SnapTextError`` if a range is
    /// outside the text.
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

    /// Range `i` becomes `bytes(i)`, as one step: two edits (remove the span from the first to
    /// the last range, insert the new span) when the span is short, else the whole new text built
    /// in one pass (a rope sharing the chunks no range touches) and kept in the step with the old.
    private mutating func replace(
        _ ranges: [Range<Int>], bytes: (Int) -> [UInt8], marksAfter: @escaping ([TextMark]) -> [TextMark]
    ) throws {
        guard let first = ranges.first, let last = ranges.last else { return }
        let total = content.utf8Count
        guard first.lowerBound >= 0, last.upperBound <= total else {
            throw SnapTextError.offsetOutOfRange(offset: last.upperBound, utf8Count: total)
        }
        let cursorOffset = caret.at.offset
        var newCursorOffset = cursorOffset
        for (i, range) in ranges.enumerated() {
            let length = bytes(i).count
            if range.upperBound <= cursorOffset {
                newCursorOffset += length - range.count
            } else if range.lowerBound < cursorOffset {
                newCursorOffset += range.lowerBound + length - cursorOffset
            }
        }
        if last.upperBound - first.lowerBound <= Self.largestReplacedSpanAsEdits {
            let oldSpan = content.bytes(in: first.lowerBound..<last.upperBound)
            var newSpan: [UInt8] = []
            var position = first.lowerBound
            for (i, range) in ranges.enumerated() {
                newSpan.append(
                    contentsOf: oldSpan[(position - first.lowerBound)..<(range.lowerBound - first.lowerBound)])
                newSpan.append(contentsOf: bytes(i))
                position = range.upperBound
            }
            let edits: [Edit] = [
                .remove(String(decoding: oldSpan, as: UTF8.self), at: first.lowerBound),
                .insert(String(decoding: newSpan, as: UTF8.self), at: first.lowerBound),
            ]
            try perform(edits, grouping: nil, marksAfter: marksAfter) { [newCursorOffset] _ in newCursorOffset }
            return
        }
        replaceContent(
            with: content.replacing(ranges, with: bytes), firstChange: first.lowerBound,
            marksAfter: marks.isEmpty ? [] : marksAfter(marks), cursorAfter: newCursorOffset)
    }

    /// Replacements spanning more bytes than this are kept in the undo history as the two texts.
    static let largestReplacedSpanAsEdits = 64 * 1024

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

extension TextBuffer {
    /// Checks that `pattern` is a regular expression the searches accept (Swift `Regex` syntax),
    /// before anything is searched: nano says "Bad regex" before it asks "Replace with".
    /// - Throws: ``SnapTextError/badRegex(pattern:reason:)``.
    public static func checkRegex(_ pattern: String) throws(SnapTextError) {
        _ = try regex(pattern)
    }

    /// `pattern` compiled, or ``SnapTextError/badRegex(pattern:reason:)``.
    static func regex(_ pattern: String) throws(SnapTextError) -> Regex<AnyRegexOutput> {
        do { return try Regex(pattern) } catch {
            throw SnapTextError.badRegex(pattern: pattern, reason: "\(error)")
        }
    }
}

/// A Swift `Regex` over one text: every non-empty match found once, with its groups.
struct RegexMatcher: TextMatcher {
    let count: Int
    /// The matches, in order, with their groups (`groups[0]` the whole match; nil for a group that
    /// took no part).
    let found: [(range: Range<Int>, groups: [String?])]

    init(text: String, pattern: String, caseSensitive: Bool) throws {
        guard !pattern.isEmpty else { throw SnapTextError.emptySearch }
        var regex = try TextBuffer.regex(pattern).anchorsMatchLineEndings()
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
