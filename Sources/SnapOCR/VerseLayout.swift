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
        var top = Int.max, bottom = Int.min, left = Int.max
        var block = 0
    }

    static func text(from words: [LaidOutWord]) -> String {
        var lines: [Line] = []
        var current = -1
        var charWidths: [Double] = []
        for w in words {
            if w.word.line != current { lines.append(Line()); current = w.word.line }
            let b = w.word.boundingBox
            lines[lines.count - 1].words.append(w.word.text)
            lines[lines.count - 1].top = min(lines[lines.count - 1].top, b.y)
            lines[lines.count - 1].bottom = max(lines[lines.count - 1].bottom, b.y + b.height)
            lines[lines.count - 1].left = min(lines[lines.count - 1].left, b.x)
            lines[lines.count - 1].block = w.block
            if w.word.text.count >= 2 { charWidths.append(Double(b.width) / Double(w.word.text.count)) }
        }
        guard !lines.isEmpty else { return "" }
        charWidths.sort()
        let charWidth = charWidths.isEmpty ? 0 : charWidths[charWidths.count / 2]
        var blockLeft: [Int: Int] = [:]
        for l in lines { blockLeft[l.block] = min(blockLeft[l.block] ?? Int.max, l.left) }

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
            var indent = 0
            if charWidth > 0 {
                indent = Int((Double(line.left - blockLeft[line.block]!) / charWidth).rounded())
                if indent < minimumIndent { indent = 0 }
            }
            out.append(String(repeating: " ", count: indent) + line.words.joined(separator: " "))
        }
        return out.joined(separator: "\n") + "\n"
    }
}
