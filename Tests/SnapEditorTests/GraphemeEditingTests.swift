import SnapTerminal
import SnapTestSupport
import SnapText
import Testing

@testable import SnapEditor

/// grapheme-cursor.txt driven through the editor's keys: End + "|" on every line (cursor columns
/// checked on the rendered frame), X after the first character of lines 2 (e + U+0301) and 4 (an
/// emoji), Backspace after the first character of line 1 (a precomposed é), save.
@Test func graphemeClustersThroughUpdate() throws {
    let poem = try Fixtures.text("grapheme-cursor.txt")
    let (editor, terminal, sharing) = makeEditor(text: poem)
    // 1-based screen columns after End (wcwidth: wide CJK and the emoji 2, a combining mark 0).
    let expectedColumns = [19, 19, 17, 18, 13, 17]
    for line in 0..<6 {
        if line > 0 { editor.press(.down) }
        editor.press(.end)
        let frame = render(editor.state, size: terminal.size)
        #expect(
            frame.cursor == Frame.CursorPosition(row: 1 + line, column: expectedColumns[line] - 1), "line \(line + 1)")
        editor.press(.character("|"))
    }
    editor.press(.up, .up, .up, .up)  // line 2
    editor.press(.home, .right, .character("X"))
    editor.press(.down, .down)  // line 4
    editor.press(.home, .right, .character("X"))
    editor.press(.up, .up, .up)  // line 1
    editor.press(.home, .right, .backspace)
    let path = "/poems/à relire/sortie é.txt"
    editor.press(.control("o"), .control("u"))  // ^U clears the pre-filled name
    editor.press(typing(path))
    editor.press(.enter)
    #expect(sharing.saved.count == 1)
    #expect(sharing.saved.first?.path == path)
    #expect(bytes(sharing.saved.first?.text ?? "") == (try Fixtures.bytes("grapheme-cursor.after-edits.txt")))
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

@Test(arguments: [
    (9, "abcdefg見見", "abcdefg >"), (8, "abcdefg見", "abcdefg>"), (2, "a見", "a "), (10, "ab見", "ab見      "),
])
func wideCharactersAreNeverCutAtTheRightEdge(columns: Int, text: String, expected: String) {
    let size = TerminalSize(rows: 3, columns: columns)
    let state = EditorState(displayName: "t", saveName: "t.txt", text: text, screenSize: size)
    let frame = render(state, size: size)
    #expect(frame.text(ofRow: 1) == expected)
    for c in 0..<columns where frame[1, c].width == 2 {
        #expect(c + 1 < columns && frame[1, c + 1].width == 0)
    }
}
