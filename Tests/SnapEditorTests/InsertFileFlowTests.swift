import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

@Test func controlRInsertsATextFileAtTheCursorAsOneUndoStep() {
    let sharing = FakeSharing()
    sharing.files["second.txt"] = "the second stanza,\nread apart.\n"
    let editor = Editor(
        terminal: FakeTerminal(),
        configuration: .textFile(path: "poem.txt", text: "first line\nlast line\n", sharing: sharing))
    editor.press(.down)
    editor.press(.control("r"))
    #expect(editor.state.mode == .prompt(Prompt(kind: .insertFile)))
    #expect(
        render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 21).hasPrefix("File to insert: "))
    editor.press(typing("second.txt"))
    editor.press(.enter)
    #expect(editor.state.buffer.text == "first line\nthe second stanza,\nread apart.\nlast line\n")
    #expect(editor.state.status == StatusMessage("Inserted 2 lines from second.txt"))
    #expect(editor.state.isModified)
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "first line\nlast line\n")
}

@Test func aFileThatCannotBeReadIsReportedAndNothingChanges() {
    let editor = Editor(
        terminal: FakeTerminal(), configuration: .textFile(path: "poem.txt", text: "x\n", sharing: FakeSharing()))
    editor.press(.control("r"))
    editor.press(typing("missing.txt"))
    editor.press(.enter)
    #expect(editor.state.status == StatusMessage("missing.txt: No such file or directory", isError: true))
    #expect(editor.state.buffer.text == "x\n")
    #expect(editor.state.isModified == false)
}
