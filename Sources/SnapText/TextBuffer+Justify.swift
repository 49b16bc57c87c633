/// GNU nano's Justify (^J) and Full Justify (M-J), after nano 7.2's `justify.c` without a quoting
/// string: a paragraph's lines joined and filled again to a width, as ONE undo step.
///
/// Only the blanks between words change (an edit per gap that differs), so every mark on a word
/// (an uncertain word, a detected datum) stays on it.
extension TextBuffer {
    /// Justifies the paragraph the cursor is in, or the first one after it when its line has no
    /// text, to lines of at most `width` columns (nano: the text area's width − 8), and puts the
    /// cursor at the start of the line after it (at the end of the text when there is none), so
    /// that ^J again justifies the next paragraph. Returns false (and changes nothing) when there
    /// is no paragraph from the cursor on.
    @discardableResult
    public mutating func justifyParagraph(width: Int) -> Bool {
        let lines = (0..<lineCount).map { line($0) }
        guard let paragraph = Justification.paragraph(from: cursor.line, in: lines) else { return false }
        return justify([paragraph], lines: lines, width: width)
    }

    /// Justifies every paragraph of the text (nano's Full Justify); the cursor goes to the start
    /// of the line after the last one. Returns false (and changes nothing) when the text has none.
    @discardableResult
    public mutating func justifyAll(width: Int) -> Bool {
        let lines = (0..<lineCount).map { line($0) }
        var paragraphs: [ClosedRange<Int>] = []
        var next = 0
        while next < lines.count, let p = Justification.paragraph(from: next, in: lines) {
            paragraphs.append(p)
            next = p.upperBound + 1
        }
        return justify(paragraphs, lines: lines, width: width)
    }

    private mutating func justify(_ paragraphs: [ClosedRange<Int>], lines: [String], width: Int) -> Bool {
        guard let last = paragraphs.last else { return false }
        var edits: [Edit] = []
        // From the last paragraph back, each gap from its end back: every edit's offset is
        // still that of the text before it.
        for p in paragraphs.reversed() {
            let old = lines[p].joined(separator: "\n")
            let new = Justification.justified(Array(lines[p]), width: width).joined(separator: "\n")
            edits += Justification.gapEdits(from: old, to: new, at: startOffset(ofLine: p.lowerBound))
        }
        let afterLine = last.upperBound + 1
        let growth = edits.reduce(0) { $0 + ($1.kind == .insert ? $1.text.utf8.count : -$1.text.utf8.count) }
        let cursorAfter =
            afterLine < lineCount
            ? startOffset(ofLine: afterLine) + growth : endOffset(ofLine: last.upperBound) + growth
        guard !edits.isEmpty else {
            moveCursor(toOffset: cursorAfter)
            return true
        }
        try? perform(edits, grouping: .justifying) { _ in cursorAfter }
        return true
    }
}

/// The pure parts of justifying: paragraphs, blanks squeezed, lines filled.
enum Justification {
    /// nano's `punct`: after these (and any closing brackets), two blanks may stay.
    static let punctuation: Set<Character> = ["!", ".", "?"]
    /// nano's `brackets`.
    static let brackets: Set<Character> = ["\"", "'", ")", ">", "]", "}"]

    static func isBlank(_ c: Character) -> Bool { c == " " || c == "\t" }

    /// The blanks a line starts with.
    static func indent(_ line: String) -> Substring { line.prefix { isBlank($0) } }

    /// Whether a line holds more than blanks (nano's `inpar`).
    static func hasText(_ line: String) -> Bool { line.contains { !isBlank($0) } }

    /// Whether line `i` begins a paragraph (nano's `begpar`): the first line; a line with text
    /// after one without; a line indented otherwise than the line before it when that one does
    /// not begin a paragraph itself (a first line indented apart from the rest).
    static func beginsParagraph(_ i: Int, in lines: [String], depth: Int = 0) -> Bool {
        if i == 0 { return true }
        if depth > 222 { return false }  // nano's RECURSION_LIMIT
        guard hasText(lines[i]) else { return false }
        guard hasText(lines[i - 1]) else { return true }
        if indent(lines[i - 1]) == indent(lines[i]) { return false }
        return !beginsParagraph(i - 1, in: lines, depth: depth + 1)
    }

    /// The lines of the paragraph holding line `from`, or of the first one after it when that
    /// line has no text (nano's `find_paragraph`); nil when there is none.
    static func paragraph(from: Int, in lines: [String]) -> ClosedRange<Int>? {
        guard var line = (from..<lines.count).first(where: { hasText(lines[$0]) }) else { return nil }
        while !beginsParagraph(line, in: lines) { line -= 1 }
        var end = line
        while end + 1 < lines.count && hasText(lines[end + 1]) && !beginsParagraph(end + 1, in: lines) { end += 1 }
        return line...end
    }

    /// A paragraph's lines filled to `width` columns (`DisplayWidth`): the first line keeps its
    /// indentation, the others take the second line's (the first's in a one-line paragraph); the
    /// lines are joined with a blank, every run of blanks becomes one space, or two after a
    /// sentence's end (`punctuation`, then `brackets`) where there were two; the paragraph's
    /// trailing blanks go. A line takes words while they end within `width`; where it breaks,
    /// the gap stays at its end (nano 7.2's trailing space). A word wider than `width` has a
    /// line of its own.
    static func justified(_ lines: [String], width: Int) -> [String] {
        guard let first = lines.first else { return [] }
        let lead = String(indent(first))
        let nextLead = lines.count > 1 ? String(indent(lines[1])) : lead
        var joined = String(first.dropFirst(lead.count))
        for line in lines.dropFirst() {
            if let last = joined.last, !isBlank(last) { joined.append(" ") }
            joined += line.drop { isBlank($0) }
        }
        // Words, each with the gap before it ("" for the first).
        var words: [(gap: String, word: String)] = []
        var chars = Array(joined)[...]
        var gap = ""
        while !chars.isEmpty {
            let word = String(chars.prefix { !isBlank($0) })
            chars = chars.dropFirst(word.count)
            if !word.isEmpty { words.append((gap, word)) }
            let blanks = chars.prefix { isBlank($0) }.count
            chars = chars.dropFirst(blanks)
            var core = word[...]
            while let c = core.last, brackets.contains(c) { core = core.dropLast() }
            let endsSentence = core.last.map { punctuation.contains($0) } ?? false
            gap = endsSentence && blanks >= 2 ? "  " : " "
        }
        var out: [String] = []
        var current = lead
        var filled = false
        for (gap, word) in words {
            if filled, DisplayWidth.of(current + gap + word) > width {
                // The gap stays at the end of the line, as nano leaves it.
                out.append(current + gap)
                current = nextLead + word
            } else {
                current += (filled ? gap : "") + word
            }
            filled = true
        }
        out.append(current)
        return out
    }

    /// The edits that turn `old` into `new`, texts of the same words with other blanks and line
    /// breaks between them: one removal and insertion for each gap that differs, the last gap
    /// first, at offsets from `base` (the UTF-8 offset of `old`'s first character in the text).
    static func gapEdits(from old: String, to new: String, at base: Int) -> [Edit] {
        func gaps(_ text: String) -> [(range: Range<Int>, text: String)] {
            let bytes = Array(text.utf8)
            var out: [(Range<Int>, String)] = []
            var i = 0
            while i < bytes.count {
                let isSpace = bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A
                var j = i
                while j < bytes.count && (bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A) == isSpace {
                    j += 1
                }
                if isSpace || i == 0 || j == bytes.count {
                    // A gap; a word at either end has an empty gap beside it.
                    if !isSpace && i == 0 { out.append((0..<0, "")) }
                    if isSpace { out.append((i..<j, String(decoding: bytes[i..<j], as: UTF8.self))) }
                    if !isSpace && j == bytes.count { out.append((j..<j, "")) }
                }
                i = j
            }
            return out
        }
        let a = gaps(old)
        let b = gaps(new)
        guard a.count == b.count else { return [] }  // not the same words: never expected
        var edits: [Edit] = []
        for (x, y) in zip(a, b).reversed() where x.text != y.text {
            let offset = base + x.range.lowerBound
            if !x.text.isEmpty { edits.append(.remove(x.text, at: offset)) }
            if !y.text.isEmpty { edits.append(.insert(y.text, at: offset)) }
        }
        return edits
    }
}
