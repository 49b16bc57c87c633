import SnapTerminal
import SnapTestSupport
import SnapText
import Testing

@testable import SnapEditor

/// States worth drawing: editing a long poem, each prompt, the replace question, OCR, help, a message.
private func sampleStates() throws -> [(String, EditorState)] {
    let poem = try Fixtures.text("long-lines-with-wide-characters.txt")
    var editing = EditorState(displayName: "long-lines.txt", saveName: "long-lines.txt", text: poem)
    _ = update(&editing, .down)
    _ = update(&editing, .down)
    _ = update(&editing, .down)
    _ = update(&editing, .down)
    _ = update(&editing, .end)  // on the line with CJK and the emoji
    var search = editing
    _ = update(&search, .control("w"))
    for c in "café" { _ = update(&search, .character(c)) }
    var write = editing
    _ = update(&write, .control("o"))
    var replace = editing
    for key in [KeyEvent.control("\\")] + "Lenore".map({ .character($0) }) + [.enter, .character("x"), .enter] {
        _ = update(&replace, key)
    }
    var ocr = EditorState(displayName: "Noël à Québec 見.jpg", saveName: "x.txt", recognizing: true)
    apply(.progress(percent: 63), to: &ocr)
    var help = editing
    _ = update(&help, .control("g"))
    var message = editing
    _ = update(&message, .control("c"))
    var bottom = EditorState(displayName: "long-lines.txt", saveName: "long-lines.txt", text: poem)
    _ = update(&bottom, .meta("/"))  // last line: the view is scrolled
    var confirm = editing
    _ = update(&confirm, .character("x"))
    _ = update(&confirm, .control("x"))
    return [
        ("editing", editing), ("search", search), ("write", write), ("replace", replace), ("ocr", ocr),
        ("help", help), ("message", message), ("confirm", confirm), ("bottom", bottom),
    ]
}

private let sizes: [(Int, Int)] = [
    (0, 0), (1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (5, 3), (3, 5), (10, 3), (20, 2),
    (7, 6), (200, 60), (1, 60), (200, 1), (80, 24),
]  // (columns, rows)

@Test func everyFrameFitsAtEverySize() throws {
    for (name, state) in try sampleStates() {
        for (columns, rows) in sizes {
            let size = TerminalSize(rows: rows, columns: columns)
            let frame = render(state, size: size)
            let label = "\(name) at \(size)"
            #expect(frame.size == size, "\(label)")
            #expect(frame.cells.count == rows * columns, "\(label)")
            if let cursor = frame.cursor {
                #expect(
                    cursor.row >= 0 && cursor.row < rows && cursor.column >= 0 && cursor.column < columns, "\(label)")
            }
            for r in 0..<rows {
                for c in 0..<columns {
                    let cell = frame[r, c]
                    if cell.width == 2 {
                        #expect(c + 1 < columns && frame[r, c + 1].width == 0, "\(label) [\(r),\(c)]")
                    }
                    if cell.width == 0 { #expect(c > 0 && frame[r, c - 1].width == 2, "\(label) [\(r),\(c)]") }
                    if cell.width > 0 {
                        #expect(!cell.content.unicodeScalars.contains { $0.value < 0x20 }, "\(label) [\(r),\(c)]")
                    }
                }
            }
        }
    }
}

@Test func tinySizesShowWhatMattersMost() throws {
    let states = Dictionary(uniqueKeysWithValues: try sampleStates())
    // 1 row: the open prompt wins over the text.
    let search = render(states["search"]!, size: TerminalSize(rows: 1, columns: 12))
    #expect(search.text(ofRow: 0) == "Search: fé  ")  // the answer scrolls to keep the cursor
    #expect(search.cursor == Frame.CursorPosition(row: 0, column: 10))
    // 1x1 while editing: one cell of text, the cursor on it.
    let tiny = render(states["editing"]!, size: TerminalSize(rows: 1, columns: 1))
    #expect(tiny.cursor == Frame.CursorPosition(row: 0, column: 0))
    // 5x3: title, one text row, status row.
    let small = render(states["ocr"]!, size: TerminalSize(rows: 3, columns: 5))
    #expect(small.text(ofRow: 2) == "63% N")
}

@Test func growingBackRedrawsWithThePromptStillOpen() throws {
    var state = try sampleStates().first { $0.0 == "search" }!.1
    for (columns, rows) in [(1, 1), (2, 1), (200, 1), (80, 24)] {
        state.screenSize = TerminalSize(rows: rows, columns: columns)
        _ = update(&state, .resize)
    }
    let frame = render(state, size: TerminalSize(rows: 24, columns: 80))
    #expect(frame.text(ofRow: 21).hasPrefix("Search: café "))
    #expect(frame.cursor == Frame.CursorPosition(row: 21, column: 12))
    _ = update(&state, .enter)
    #expect(state.buffer.cursor == TextPosition(line: 9, column: 3))  // next "café" after line 5
}

@Test func resizeKeysNeverChangeTheText() throws {
    let poem = try Fixtures.text("long-lines-with-wide-characters.txt")
    var state = EditorState(displayName: "p", saveName: "p.txt", text: poem)
    for i in 0..<120 {
        state.screenSize = TerminalSize(rows: 1 + i % 5, columns: 1 + i % 7)
        _ = update(&state, .resize)
        _ = render(state, size: state.screenSize)
        _ = update(&state, .down)
    }
    #expect(bytes(state.buffer.text) == bytes(poem))
    #expect(state.isModified == false)
}

@Test func helpBarAt80Columns() {
    let state = EditorState(displayName: "raven.jpg", saveName: "raven.txt", text: "x")
    let frame = render(state, size: TerminalSize(rows: 24, columns: 80))
    #expect(frame.text(ofRow: 22) == "^G Help      ^O Write Out ^W Where Is  ^K Cut       M-U Undo     ^C Location    ")
    #expect(
        frame.text(ofRow: 23) == "^X Exit      M-M Mail     ^\\ Replace   ^U Paste     M-E Redo     M-W Next       ")
    #expect(frame[22, 0].style == .reverse)
    #expect(frame[22, 2].style == .normal)
    #expect(
        frame.text(ofRow: 0) == "  LoveInASnap" + String(repeating: " ", count: 22) + "raven.jpg"
            + String(repeating: " ", count: 36))
    #expect(frame.text(ofRow: 1) == "x" + String(repeating: " ", count: 79))
    #expect(frame.cursor == Frame.CursorPosition(row: 1, column: 0))
}

/// After a storm of sizes down to 1x1, 80x24 shows exactly what it showed before, the text unchanged.
@Test func sameScreenAfterAResizeStorm() throws {
    for (name, start) in try sampleStates() {
        var state = start
        state.screenSize = TerminalSize(rows: 24, columns: 80)
        _ = update(&state, .resize)
        let before = render(state, size: state.screenSize)
        let storm =
            [(1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (5, 3), (10, 3), (20, 2), (200, 60), (1, 60), (200, 1)]
            + (0..<60).flatMap { i in [(1 + i % 7, 1 + i % 5), (80, 24)] }
        for (columns, rows) in storm {
            state.screenSize = TerminalSize(rows: rows, columns: columns)
            _ = update(&state, .resize)
            _ = render(state, size: state.screenSize)
        }
        state.screenSize = TerminalSize(rows: 24, columns: 80)
        _ = update(&state, .resize)
        #expect(render(state, size: state.screenSize) == before, "\(name)")
        #expect(state.buffer == start.buffer, "\(name)")
    }
}

/// The status line as nano's statusline(): in brackets, centred, when they fit with a column to
/// spare on each side; else centred without them; else from the first column, cut with "…".
@Test(arguments: [
    ("Wrote 1 line", "    [ Wrote 1 line ]    "),  // 12 columns of 24: brackets
    ("Read 20 lines of text", " Read 20 lines of text  "),  // 21: no room for brackets, centred
    ("Read 7 lines; page found and straightened", "Read 7 lines; page foun…"),  // too long: cut
    ("Hélène, 東京の詩を読んだ and more", "Hélène, 東京の詩を読ん… "),  // wide characters kept whole
])
func statusBracketsOnlyWhereTheyFit(message: String, row: String) {
    var state = EditorState(displayName: "p", saveName: "p.txt", text: "x")
    state.status = StatusMessage(message)
    let frame = render(state, size: TerminalSize(rows: 6, columns: 24))
    #expect(frame.text(ofRow: 3) == row)
}
