import Testing
@testable import SnapEditor
import SnapTerminal
import SnapText
import SnapTestSupport

private let case15 = "15-editor-utf8-cursor/"

/// Case 15 driven through the editor's keys: End + "|" on every line (cursor columns checked on
/// the rendered frame), X after the first character of lines 2 and 4, Backspace on line 1, save.
@Test func bugcase15StepsThroughUpdate() throws {
    let poem = try Bugcases.text(case15 + "poem_utf8.txt")
    let (editor, terminal, sharing) = makeEditor(text: poem)
    let expectedColumns = [11, 11, 9, 8, 13, 10]   // expected_cursor_columns.txt, 1-based
    for line in 0..<6 {
        if line > 0 { editor.press(.down) }
        editor.press(.end)
        let frame = render(editor.state, size: terminal.size)
        #expect(frame.cursor == Frame.CursorPosition(row: 1 + line, column: expectedColumns[line] - 1), "line \(line + 1)")
        editor.press(.character("|"))
    }
    editor.press(.up, .up, .up, .up)                         // B: line 2
    editor.press(.home, .right, .character("X"))
    editor.press(.down, .down)                               // C: line 4
    editor.press(.home, .right, .character("X"))
    editor.press(.up, .up, .up)                              // D: line 1
    editor.press(.home, .right, .backspace)
    let path = freshPath("out.txt")
    editor.press(.control("o"), .control("u"))               // ^U clears the pre-filled name
    editor.press(typing(path))
    editor.press(.enter)
    #expect(sharing.saved.count == 1)
    #expect(sharing.saved.first?.path == path)
    #expect(bytes(sharing.saved.first?.text ?? "") == (try Bugcases.bytes(case15 + "expected_after.txt")))
    #expect(editor.state.status == StatusMessage("Wrote 6 lines"))
    #expect(editor.state.isModified == false)
}

@Test func combiningMarkTypedAloneJoinsThePreviousLetter() {
    var state = EditorState(displayName: "t", saveName: "t.txt", text: "No")
    _ = update(&state, .end)
    _ = update(&state, .character("e"))
    _ = update(&state, .character("\u{308}"))
    _ = update(&state, .character("l"))
    #expect(bytes(state.buffer.text) == bytes("Noe\u{308}l"))
    #expect(state.buffer.cursor.column == 4)
    _ = update(&state, .left)
    _ = update(&state, .backspace)
    #expect(bytes(state.buffer.text) == bytes("Nol"))
}

@Test(arguments: [(9, "abcdefg見見", "abcdefg >"), (8, "abcdefg見", "abcdefg>"), (2, "a見", "a "), (10, "ab見", "ab見      ")])
func wideCharactersAreNeverCutAtTheRightEdge(columns: Int, text: String, expected: String) {
    let size = TerminalSize(rows: 3, columns: columns)
    let state = EditorState(displayName: "t", saveName: "t.txt", text: text, screenSize: size)
    let frame = render(state, size: size)
    #expect(frame.text(ofRow: 1) == expected)
    for c in 0..<columns where frame[1, c].width == 2 {
        #expect(c + 1 < columns && frame[1, c + 1].width == 0)
    }
}
