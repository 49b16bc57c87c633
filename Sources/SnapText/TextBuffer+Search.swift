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

/// Literal, case-sensitive search and replace.
///
/// The search text is matched byte for byte (no regex, no normalisation: `.` and `(` are plain
/// characters, NFC `é` does not match NFD `e\u{301}`), and only whole grapheme clusters match: `e`
/// does not match the `e` of `e\u{301}`. An empty search text throws ``SnapTextError/emptySearch``.
extension TextBuffer {
    /// All non-overlapping matches of `search`, scanned left to right once, within `region`
    /// (UTF-8 offsets; a match must start inside it and may end at most at `limit`, default the end).
    ///
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`. Linear in the text size.
    public func matches(of search: String, startingIn region: Range<Int>? = nil, endingBy limit: Int? = nil) throws -> [Range<Int>] {
        guard !search.isEmpty else { throw SnapTextError.emptySearch }
        let haystack = Array(text.utf8)
        let starts = Self.clamp(region ?? 0..<haystack.count, haystack.count)
        let end = min(haystack.count, limit ?? haystack.count)
        return Self.byteMatches(of: Array(search.utf8), in: haystack, starts: starts, end: end, first: false)
    }

    /// The first match of `search` that starts inside `region` (UTF-8 offsets), or nil.
    ///
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`.
    public func firstMatch(of search: String, startingIn region: Range<Int>) throws -> Range<Int>? {
        guard !search.isEmpty else { throw SnapTextError.emptySearch }
        let haystack = Array(text.utf8)
        let starts = Self.clamp(region, haystack.count)
        return Self.byteMatches(of: Array(search.utf8), in: haystack, starts: starts, end: haystack.count, first: true).first
    }

    /// The next match of `search` from UTF-8 `offset` (a match starting exactly at `offset` counts
    /// unless `skippingCurrent`), wrapping to the top when `wraps`. Nil when there is none.
    ///
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`.
    public func nextMatch(of search: String, from offset: Int, skippingCurrent: Bool, wraps: Bool = true) throws -> SearchMatch? {
        guard !search.isEmpty else { throw SnapTextError.emptySearch }
        let haystack = Array(text.utf8)
        let needle = Array(search.utf8)
        let start = min(max(0, offset + (skippingCurrent ? 1 : 0)), haystack.count)
        if let r = Self.byteMatches(of: needle, in: haystack, starts: start..<haystack.count, end: haystack.count, first: true).first {
            return SearchMatch(range: r, wrapped: false)
        }
        guard wraps else { return nil }
        let wrapEnd = min(max(0, offset) + 1, haystack.count)
        if let r = Self.byteMatches(of: needle, in: haystack, starts: 0..<wrapEnd, end: haystack.count, first: true).first {
            return SearchMatch(range: r, wrapped: true)
        }
        return nil
    }

    /// Replaces every match of `search` with `replacement`, as ONE undo step; returns how many.
    ///
    /// Scans the original text once, left to right, and never looks at inserted text, so a
    /// replacement containing the search text cannot loop. `replacement` is literal (`$1`, `&`,
    /// `\n` are plain characters); an empty one deletes the matches. Replacing a text by itself
    /// changes nothing and returns 0. `region` limits where matches may start (UTF-8 offsets).
    /// Throws ``SnapTextError/emptySearch`` for an empty `search`. Linear in the text size.
    @discardableResult
    public mutating func replaceAll(_ search: String, with replacement: String, startingIn region: Range<Int>? = nil) throws -> Int {
        let found = try matches(of: search, startingIn: region)
        if found.isEmpty || search.utf8.elementsEqual(replacement.utf8) { return 0 }
        try replace(found, with: replacement)
        return found.count
    }

    /// Replaces the given ranges (UTF-8, sorted, non-overlapping, e.g. from ``matches(of:startingIn:endingBy:)``)
    /// with `replacement`, as ONE undo step, and keeps the cursor on the same text.
    ///
    /// The step is two edits (remove the span from the first to the last range, insert the new
    /// span), built in one pass. Throws ``SnapTextError`` if a range is outside the text.
    public mutating func replace(_ ranges: [Range<Int>], with replacement: String) throws {
        guard let first = ranges.first, let last = ranges.last else { return }
        let haystack = Array(text.utf8)
        guard first.lowerBound >= 0, last.upperBound <= haystack.count else {
            throw SnapTextError.offsetOutOfRange(offset: last.upperBound, utf8Count: haystack.count)
        }
        let replacementBytes = Array(replacement.utf8)
        var newSpan: [UInt8] = []
        newSpan.reserveCapacity(last.upperBound - first.lowerBound + ranges.count * max(0, replacementBytes.count - first.count))
        var position = first.lowerBound
        let cursorOffset = offset(of: cursor)
        var newCursorOffset = cursorOffset
        for range in ranges {
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
        let edits: [Edit] = [.remove(oldSpan, at: first.lowerBound),
                             .insert(String(decoding: newSpan, as: UTF8.self), at: first.lowerBound)]
        try perform(edits, grouping: nil) { $0.position(ofOffset: newCursorOffset) }
    }

    // MARK: - Byte matching

    static func clamp(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        let lower = min(max(0, range.lowerBound), count)
        return lower..<max(lower, min(count, range.upperBound))
    }

    /// Non-overlapping matches whose start lies in `starts` and whose end is ≤ `end`; only the first if `first`.
    static func byteMatches(of needle: [UInt8], in haystack: [UInt8], starts: Range<Int>, end: Int, first: Bool) -> [Range<Int>] {
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
                          let hit = memmem(base + from, windowEnd - from, n, needle.count) else { return }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    let range = at..<(at + needle.count)
                    if isClusterBoundary(haystack, range.lowerBound, startOfMatch: true)
                        && isClusterBoundary(haystack, range.upperBound, startOfMatch: false) {
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

// glibc declares memmem (a linear-time two-way search) only under _GNU_SOURCE.
@_silgen_name("memmem")
private func memmem(_ haystack: UnsafeRawPointer, _ haystackLength: Int,
                    _ needle: UnsafeRawPointer, _ needleLength: Int) -> UnsafeMutableRawPointer?
