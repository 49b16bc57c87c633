import SnapDetectors
import SnapText

/// The data found in the lines on the screen (card numbers, dates, addresses: render underlines
/// them), kept by the lines' text, so that a keystroke looks again only at the line it changed:
/// ``SnapDetectors/Detectors/detect(inLine:)`` takes about a millisecond a line, twenty lines
/// would take most of a keystroke's budget.
///
/// Derived from the text alone: two states with the same text are equal whatever their caches
/// hold, and a line not in the cache is looked at when drawn (render stays a function of the text).
struct LineData: Equatable, Sendable {
    /// Lines longer than this are not looked at (a megabyte line would be scanned on every key).
    static let longestLine = 4096

    private var found: [String: [Detection]] = [:]

    static func == (lhs: LineData, rhs: LineData) -> Bool { true }

    /// The lines whose data is kept.
    var keptLines: Set<String> { Set(found.keys) }

    /// The data of line `text` (see ``detectableText(ofLine:in:)``).
    func detections(inLine text: String) -> [Detection] {
        if text.isEmpty { return [] }
        return found[text] ?? Detectors.detect(inLine: text)
    }

    /// Keeps the data of `lines` (the screen's), looking only at those not kept already.
    mutating func keep(_ lines: [String]) {
        var next: [String: [Detection]] = [:]
        for line in lines where !line.isEmpty { next[line] = found[line] ?? Detectors.detect(inLine: line) }
        found = next
    }

    /// The text of line `index` of `buffer` to look for data in: "" for a line too long.
    static func detectableText(ofLine index: Int, in buffer: TextBuffer) -> String {
        buffer.endOffset(ofLine: index) - buffer.startOffset(ofLine: index) <= longestLine ? buffer.line(index) : ""
    }
}

extension EditorState {
    /// Finds the data of the lines on the screen now, reusing what the last screen found.
    mutating func keepLineData() {
        let rows = layout.textRows.count
        let top = EditorState.top(for: topLine, cursorLine: buffer.cursor.line, rows: rows, lineCount: buffer.lineCount)
        let shown = top..<min(buffer.lineCount, top + rows)
        lineData.keep(shown.map { LineData.detectableText(ofLine: $0, in: buffer) })
    }
}
