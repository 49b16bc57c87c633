import Foundation

/// Turns recognized words back into verse: one text line per recognized line, words joined by one
/// space, leading indentation rebuilt from the word boxes, and an empty line where the page shows a
/// gap (a stanza break) or a new column starts. No reflow: a line of the page is a line of the text.
enum VerseLayout {
    /// A gap between two lines counts as a stanza break when the distance from one line's top to
    /// the next line's top exceeds this multiple of the page's median line pitch.
    static let stanzaGapFactor = 1.55
    /// A line is indented only when it starts at least this many character widths right of its
    /// block's left edge: smaller offsets are the drift of a photo taken at an angle.
    static let minimumIndent = 2

    struct Line {
        var words: [String] = []
        /// Each word's left and right edge (pixels), parallel to `words`.
        var spans: [(left: Int, right: Int)] = []
        var top = Int.max, bottom = Int.min, left = Int.max, right = Int.min
        var block = 0
    }

    /// Where each block's lines start, and whether the block is centred (its lines' centres agree
    /// far better than their left edges: a centred poem gets no indentation).
    struct Margins {
        var left: [Int: Int] = [:]
        var width: [Int: Int] = [:]
        var centred: Set<Int> = []

        init(_ lines: [Line], charWidth: Double) {
            for (b, ls) in Dictionary(grouping: lines, by: \.block) {
                // Grouping never makes an empty group: every extreme below exists.
                guard let minLeft = ls.map(\.left).min(), let maxLeft = ls.map(\.left).max(),
                    let maxRight = ls.map(\.right).max()
                else { continue }
                let centres = ls.map { Double($0.left + $0.right) / 2 }
                left[b] = minLeft
                width[b] = maxRight - minLeft
                let leftSpread = Double(maxLeft - minLeft)
                let centreSpread = (centres.max() ?? 0) - (centres.min() ?? 0)
                if ls.count >= 3 && leftSpread >= Double(VerseLayout.minimumIndent) * charWidth
                    && centreSpread < leftSpread / 2
                {
                    centred.insert(b)
                }
            }
        }

        /// Leading spaces for `line`: its offset from the block's left edge in character widths;
        /// none under `minimumIndent` (the drift of a photo taken at an angle), in a centred block,
        /// or beyond half the block's width (a fragment of another column, not an indent).
        func indent(_ line: Line, charWidth: Double) -> Int {
            guard charWidth > 0, !centred.contains(line.block), let l = left[line.block], let w = width[line.block]
            else { return 0 }
            let offset = line.left - l
            if offset * 2 > w { return 0 }
            let n = Int((Double(offset) / charWidth).rounded())
            return n < VerseLayout.minimumIndent ? 0 : n
        }
    }

    /// Punctuation that hugs the word before it ("Deçà," read as "Deçà" + ","), and the one after.
    static let closing: Set<Character> = [",", ".", ")", "]", "}", "»", "”", "’", "…", "%"]
    static let opening: Set<Character> = ["(", "[", "{", "«", "“", "‘"]

    /// The line's words joined by single spaces, except where Tesseract split a punctuation mark
    /// from its word: a word made only of closing (or opening) punctuation that touches its
    /// neighbour (gap under a third of a character) is written against it. French spaces before
    /// ; : ! ? are wider and stay.
    static func joined(_ line: Line, charWidth: Double) -> String {
        var out = ""
        for (i, word) in line.words.enumerated() {
            if i > 0 {
                let gap = Double(line.spans[i].left - line.spans[i - 1].right)
                let touches = charWidth > 0 && gap < charWidth / 3
                let hugsLeft = word.allSatisfy { closing.contains($0) }
                let hugsRight = line.words[i - 1].allSatisfy { opening.contains($0) }
                if !(touches && (hugsLeft || hugsRight)) { out += " " }
            }
            out += word
        }
        return out
    }

    static func text(from words: [LaidOutWord]) -> String {
        var lines: [Line] = []
        var current = -1
        var charWidths: [Double] = []
        for w in words {
            if w.word.line != current {
                lines.append(Line())
                current = w.word.line
            }
            let b = w.word.boundingBox
            lines[lines.count - 1].words.append(w.word.text)
            lines[lines.count - 1].spans.append((b.x, b.x + b.width))
            lines[lines.count - 1].top = min(lines[lines.count - 1].top, b.y)
            lines[lines.count - 1].bottom = max(lines[lines.count - 1].bottom, b.y + b.height)
            lines[lines.count - 1].left = min(lines[lines.count - 1].left, b.x)
            lines[lines.count - 1].right = max(lines[lines.count - 1].right, b.x + b.width)
            lines[lines.count - 1].block = w.block
            if w.word.text.count >= 2 { charWidths.append(Double(b.width) / Double(w.word.text.count)) }
        }
        guard !lines.isEmpty else { return "" }
        charWidths.sort()
        let charWidth = charWidths.isEmpty ? 0 : charWidths[charWidths.count / 2]
        let margins = Margins(lines, charWidth: charWidth)

        // Median pitch between consecutive lines that go downwards in the same block.
        var pitches: [Int] = []
        for i in 1..<max(1, lines.count) where lines[i].block == lines[i - 1].block {
            let d = lines[i].top - lines[i - 1].top
            if d > 0 { pitches.append(d) }
        }
        pitches.sort()
        let heights = lines.map { $0.bottom - $0.top }.sorted()
        let pitch = pitches.isEmpty ? Double(heights[heights.count / 2]) * 1.5 : Double(pitches[pitches.count / 2])

        var out: [String] = []
        for (i, line) in lines.enumerated() {
            if i > 0 {
                let prev = lines[i - 1]
                let d = Double(line.top - prev.top)
                let newColumn = line.top < prev.bottom - (prev.bottom - prev.top) / 2 && line.block != prev.block
                if newColumn || d > pitch * stanzaGapFactor { out.append("") }
            }
            out.append(
                String(repeating: " ", count: margins.indent(line, charWidth: charWidth))
                    + joined(line, charWidth: charWidth))
        }
        return out.joined(separator: "\n") + "\n"
    }
}
