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

/// "Lenore, the kettle hums\n" already read; ^R second.jpg reads another photo into the cursor.
@Test func controlROnAPhotoReadsItAndInsertsItsTextWithItsMarks() {
    let first = FakeRecognition([
        .finished(
            text: "Lenore, the kettle hums\n", meanConfidence: 90,
            words: [
                ProofWord(text: "Lenore,", range: 0..<7, confidence: 91),
                ProofWord(text: "kettle", range: 12..<18, confidence: 41, doubts: ["low confidence"]),
            ])
    ])
    let second = FakeRecognition([.progress(percent: 30)])
    var configuration = EditorConfiguration.photo(path: "/p/first.jpg", recognition: first, sharing: FakeSharing())
    var asked: [String] = []
    configuration.photoReader = { path in
        asked.append(path)
        return second
    }
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.pollRecognition()
    editor.press(.meta("/"), .control("r"))
    editor.press(typing("second.jpg"))
    editor.press(.enter)
    #expect(asked == ["second.jpg"])
    #expect(editor.state.insertion?.name == "second.jpg")
    editor.pollRecognition()
    #expect(
        render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text.contains("Reading second.jpg"))
    second.pending = [
        .finished(
            text: "your tnue,\n", meanConfidence: 84,
            words: [
                ProofWord(text: "your", range: 0..<4, confidence: 93),
                ProofWord(text: "tnue,", range: 5..<10, confidence: 60, doubts: ["low confidence"]),
            ])
    ]
    editor.pollRecognition()
    #expect(editor.state.buffer.text == "Lenore, the kettle hums\nyour tnue,\n")
    #expect(editor.state.status == StatusMessage("Inserted 1 line from second.jpg (conf 84); 1 uncertain"))
    #expect(editor.state.uncertainMarks.map { editor.state.buffer.text(inUTF8: $0.range) } == ["kettle", "tnue,"])
    #expect(editor.state.words.map(\.text) == ["Lenore,", "kettle", "your", "tnue,"])
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "Lenore, the kettle hums\n")
    #expect(editor.state.uncertainMarks.count == 1)
}

/// Issue 43: a photo's lines are a block: with the cursor inside a line they go below it (its
/// marks with them), not into it; on the last line, after a line end.
@Test(arguments: [
    ([KeyEvent.right], "Lenore, the kettle hums\nyour tnue,\nend"),  // in "Lenore,": below its line
    ([.down, .right], "Lenore, the kettle hums\nend\nyour tnue,\n"),  // in "end", the last line
])
func aPhotosLinesGoBelowTheCursorsLine(keys: [KeyEvent], expected: String) {
    let first = FakeRecognition([.finished(text: "Lenore, the kettle hums\nend", meanConfidence: 90, words: [])])
    let second = FakeRecognition([
        .finished(
            text: "your tnue,\n", meanConfidence: 84,
            words: [ProofWord(text: "tnue,", range: 5..<10, confidence: 60, doubts: ["low confidence"])])
    ])
    var configuration = EditorConfiguration.photo(path: "/p/first.jpg", recognition: first, sharing: FakeSharing())
    configuration.photoReader = { _ in second }
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.pollRecognition()
    editor.press(keys)
    editor.press(.control("r"))
    editor.press(typing("second.jpg"))
    editor.press(.enter)
    editor.pollRecognition()
    #expect(editor.state.buffer.text == expected)
    #expect(editor.state.uncertainMarks.map { editor.state.buffer.text(inUTF8: $0.range) } == ["tnue,"])
    #expect(editor.state.status == StatusMessage("Inserted 1 line from second.jpg (conf 84); 1 uncertain"))
    // The title keeps the text's own reading (conf 90): the inserted one's is on the status line,
    // and undoing the insertion leaves no other confidence in the title.
    #expect(editor.state.recognition == .finished(meanConfidence: 90))
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "Lenore, the kettle hums\nend")
    #expect(editor.state.recognition == .finished(meanConfidence: 90))
}

@Test func cancellingAPhotoForControlRKeepsTheText() {
    let second = FakeRecognition([.progress(percent: 30)])
    var configuration = EditorConfiguration.textFile(path: "poem.txt", text: "x\n", sharing: FakeSharing())
    configuration.photoReader = { _ in second }
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.press(.control("r"))
    editor.press(typing("b.png"))
    editor.press(.enter)
    editor.pollRecognition()
    editor.press(.escape)
    #expect(second.cancelCount == 1)
    #expect(editor.state.buffer.text == "x\n")
    #expect(editor.state.status == StatusMessage("OCR cancelled; nothing inserted"))
    #expect(editor.state.exitCode == nil)
}
