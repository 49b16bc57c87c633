import SnapTerminal
import SnapText

/// Where each part of the screen goes at a given size (nano's layout, shrunk for tiny terminals).
///
/// Rows, top to bottom: title bar (from 3 rows), text, status/prompt line (from 2 rows), two help
/// lines (from 6 rows). With one row the prompt or message takes it when there is one, else the text.
struct Layout: Equatable {
    var titleRow: Int?
    var textRows: Range<Int>
    var statusRow: Int?
    var helpRows: Range<Int>

    init(size: TerminalSize, wantsStatusRow: Bool) {
        let rows = size.columns > 0 ? size.rows : 0
        let hasTitle = rows >= 3
        let helpCount = rows >= 6 ? 2 : 0
        let hasStatus = rows >= 2 || (rows == 1 && wantsStatusRow)
        titleRow = hasTitle ? 0 : nil
        let textStart = hasTitle ? 1 : 0
        let textCount = max(0, rows - (hasTitle ? 1 : 0) - (hasStatus ? 1 : 0) - helpCount)
        textRows = textStart..<(textStart + textCount)
        statusRow = hasStatus ? textRows.upperBound : nil
        helpRows = (rows - helpCount)..<rows
    }
}

extension EditorState {
    /// The columns the text is drawn in: the screen's, less the line numbers' margin (M-#: the
    /// widest number and a space, when that leaves 4 columns or more).
    var textAreaColumns: Int {
        let digits = String(buffer.lineCount).count
        let margin = showsLineNumbers && screenSize.columns - digits - 1 >= 4 ? digits + 1 : 0
        return screenSize.columns - margin
    }

    /// The layout at ``screenSize``.
    var layout: Layout {
        Layout(size: screenSize, wantsStatusRow: wantsStatusRow)
    }

    /// What is shown in place of the text: a ^T command's output waiting for Y / I / N, the
    /// text of a recovery file waiting for R / D / O, or a new reading of the photo waiting for
    /// Y / B / N.
    var preview: TextBuffer? {
        switch mode {
        case .commandOutput(let output): return output.preview
        case .recoveryOffer(let offer): return offer.preview
        case .confirmReading(let reading): return reading.preview
        default: return nil
        }
    }

    /// Whether something must be shown on the status line (a prompt, a question or a message).
    var wantsStatusRow: Bool {
        if case .editing = mode { return status != nil || isRecognizing }
        return true
    }

    /// Moves ``topLine`` the least needed to show the cursor line (nano's smooth scrolling).
    mutating func scrollToCursor() {
        topLine = Self.top(
            for: topLine, cursorLine: buffer.cursor.line, rows: layout.textRows.count,
            lineCount: buffer.lineCount)
    }

    static func top(for top: Int, cursorLine: Int, rows: Int, lineCount: Int) -> Int {
        var top = min(max(0, top), max(0, lineCount - 1))
        guard rows > 0 else { return cursorLine }
        if cursorLine < top { top = cursorLine }
        if cursorLine >= top + rows { top = cursorLine - rows + 1 }
        return top
    }
}
