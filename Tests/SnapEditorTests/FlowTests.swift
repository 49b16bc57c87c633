import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

@Test func exitOnUnmodifiedBufferLeavesAtOnce() {
    let (editor, _, _) = makeEditor(text: "poem")
    editor.press(.control("x"))
    #expect(editor.state.exitCode == 0)
}

@Test func metaSpaceAtAQuestionIsIgnored() {
    // M-Space (the alternatives menu in the text) answers no question: the question stays and
    // the text is as it was.
    let (editor, _, _) = makeEditor(text: "poem")
    editor.press(.character("!"), .control("x"))
    editor.press(.meta(" "))
    #expect(editor.state.mode == .confirmSave)
    #expect(editor.state.buffer.text == "!poem")
}

@Test func exitOnModifiedBufferAsks() {
    let (editor, terminal, sharing) = makeEditor(text: "poem")
    editor.press(.character("!"), .control("x"))
    #expect(editor.state.mode == .confirmSave)
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 21).hasPrefix("Save modified buffer? "))
    #expect(frame.text(ofRow: 22).hasPrefix(" Y Yes"))
    #expect(frame.text(ofRow: 23).hasPrefix(" N No"))
    editor.press(.control("c"))  // back to editing
    #expect(editor.state.mode == .editing)
    #expect(editor.state.exitCode == nil)
    editor.press(.control("x"), .character("n"))  // leave without saving
    #expect(editor.state.exitCode == 0)
    #expect(sharing.saved.isEmpty)
}

@Test func exitYesGoesThroughWriteOut() {
    let path = "/poems/raven.txt"
    let (editor, _, sharing) = makeEditor(text: "poem", savePath: path)
    editor.press(.character("!"), .control("x"), .character("y"))
    #expect(editor.state.mode == .prompt(Prompt(kind: .writeOut, answer: path)))
    editor.press(.enter)
    #expect(sharing.saved.count == 1)
    #expect(sharing.saved.first?.text == "!poem")
    #expect(editor.state.exitCode == 0)
}

@Test func exitYesWithFailedWriteStays() {
    let sharing = FakeSharing()
    sharing.saveError = FakeError(description: "Cannot write /ro/raven.txt: Permission denied")
    let (editor, _, _) = makeEditor(text: "poem", sharing: sharing)
    editor.press(.character("!"), .control("x"), .character("y"), .enter)
    #expect(editor.state.exitCode == nil)
    #expect(editor.state.isModified)
    #expect(editor.state.status == StatusMessage("Cannot write /ro/raven.txt: Permission denied", isError: true))
}

@Test func writeOutFailureKeepsTextAndModified() {
    let sharing = FakeSharing()
    sharing.saveError = FakeError(description: "Cannot write \"/ro/out.txt\": Permission denied")
    let (editor, terminal, _) = makeEditor(text: "poem\n", savePath: "/ro/out.txt", sharing: sharing)
    editor.press(.end, .character("s"), .control("o"))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("File Name to Write: /ro/out.txt"))
    editor.press(.enter)
    #expect(editor.state.status == StatusMessage("Cannot write \"/ro/out.txt\": Permission denied", isError: true))
    #expect(editor.state.isModified)
    #expect(editor.state.buffer.text == "poems\n")
    #expect(render(editor.state, size: terminal.size).text(ofRow: 0).contains("Modified"))
}

@Test func writeOutSuccessClearsModifiedAndCountsLines() {
    let (editor, _, sharing) = makeEditor(text: "a\nb\n")
    editor.press(.character("x"), .control("o"), .enter)
    #expect(sharing.saved.first?.text == "xa\nb\n")
    #expect(editor.state.status == StatusMessage("Wrote 2 lines"))
    #expect(editor.state.isModified == false)
}

/// Issue 43, as nano 7.2 does: undoing back to the text as loaded or written clears "Modified",
/// and ^X then leaves without asking; redoing the edit makes it modified again.
@Test func undoingBackToTheWrittenTextClearsModified() {
    let (editor, terminal, sharing) = makeEditor(text: "poem\n")
    func title() -> String { render(editor.state, size: terminal.size).text(ofRow: 0) }
    editor.press(.character("x"))
    #expect(title().contains("Modified"))
    editor.press(.meta("u"))
    #expect(editor.state.isModified == false && !title().contains("Modified"))
    editor.press(.meta("e"))
    #expect(editor.state.isModified)
    editor.press(.control("o"), .enter)
    #expect(sharing.saved.first?.text == "xpoem\n")
    // Typed after the write: a step of its own, undone back to the written text.
    editor.press(.character("y"), .character("z"))
    #expect(editor.state.isModified)
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "xpoem\n" && editor.state.isModified == false)
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "poem\n" && editor.state.isModified)
    editor.press(.meta("e"), .control("x"))
    #expect(editor.state.exitCode == 0)
}

/// Issue 43, nano's Tab in the file prompts: the one name that fits, else as far as all agree,
/// with the names listed on the status line; none says so; other prompts ignore it.
@Test func tabCompletesFileNamesInTheFilePrompts() {
    let sharing = FakeSharing()
    sharing.folders = [
        "": ["notes.txt", "poem.txt", "poems/", "raven.jpg"], "poems/": ["lenore.txt", "nevermore.txt"],
    ]
    let (editor, _, _) = makeEditor(text: "x", sharing: sharing)
    func answer() -> String {
        guard case .prompt(let prompt) = editor.state.mode else { return "(no prompt)" }
        return prompt.text
    }
    editor.press(.control("o"), .control("u"))
    editor.press(typing("po") + [.tab])
    #expect(answer() == "poem")
    #expect(
        render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 20).hasPrefix("poem.txt  poems/"))
    editor.press(typing("s") + [.tab])
    #expect(answer() == "poems/")
    editor.press(typing("l") + [.tab])
    #expect(answer() == "poems/lenore.txt")
    editor.press(.control("u"))
    editor.press(typing("zz") + [.tab])
    #expect(answer() == "zz")
    #expect(editor.state.status == StatusMessage("No file name starts with \"zz\""))
    editor.press(.control("c"), .control("r"))
    editor.press(typing("r") + [.tab])
    #expect(answer() == "raven.jpg")
    editor.press(.control("c"), .control("w"))
    editor.press(typing("r") + [.tab])
    #expect(answer() == "r")
}

@Test func writeOutCancelAndEmptyName() {
    let (editor, _, sharing) = makeEditor(text: "a")
    editor.press(.control("o"), .control("c"))
    #expect(editor.state.status == StatusMessage("Cancelled"))
    editor.press(.control("o"), .control("u"), .enter)
    #expect(editor.state.status == StatusMessage("Cancelled"))
    #expect(sharing.saved.isEmpty)
}

@Test func writeOutAsksBeforeOverwritingAnotherFile() {
    let existing = "/poems/ow-raven.txt"
    let sharing = FakeSharing()
    sharing.items[existing] = .other
    let (editor, terminal, _) = makeEditor(text: "new", savePath: existing, sharing: sharing)
    editor.press(.control("o"), .enter)
    #expect(editor.state.mode == .confirmOverwrite(path: existing))
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("File \"\(existing)\" exists; OVERWRITE? "))
    // When the full path does not fit, the question names the file only.
    #expect(
        render(editor.state, size: TerminalSize(rows: 24, columns: 40)).text(ofRow: 21)
            == "File \"ow-raven.txt\" exists; OVERWRITE?  ")
    #expect(sharing.saved.isEmpty)
    editor.press(.character("y"))
    #expect(sharing.saved.first?.path == existing)
    editor.press(.character("!"), .control("o"), .enter)  // now it is this text's own file: no question
    #expect(sharing.saved.count == 2)
}

@Test func overwriteQuestionNoAsksAnotherNameAndCancelStops() {
    let sharing = FakeSharing()
    sharing.items["/poems/taken.txt"] = .other
    let (editor, _, _) = makeEditor(text: "new", savePath: "/poems/taken.txt", sharing: sharing)
    editor.press(.control("o"), .enter, .character("a"))  // A is no answer here
    #expect(editor.state.mode == .confirmOverwrite(path: "/poems/taken.txt"))
    editor.press(.character("n"))
    #expect(editor.state.mode == .prompt(Prompt(kind: .writeOut, answer: "/poems/taken.txt")))
    editor.press(.enter, .escape)
    #expect(editor.state.mode == .editing)
    #expect(editor.state.status == StatusMessage("Cancelled"))
    #expect(sharing.saved.isEmpty)
}

@Test func mailAsksRecipientAndSubject() {
    let (editor, terminal, sharing) = makeEditor(text: "\n  Annabel Lee  \nIt was many and many a year ago\n")
    editor.press([.meta("m")] + typing("ana@example.org") + [.enter])
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Subject: Annabel Lee"))
    editor.press(.enter)
    #expect(sharing.mailed.count == 1)
    #expect(sharing.mailed.first?.to == "ana@example.org")
    #expect(sharing.mailed.first?.subject == "Annabel Lee")
    #expect(sharing.mailed.first?.text == "\n  Annabel Lee  \nIt was many and many a year ago\n")
    #expect(editor.state.status == StatusMessage("Mail sent to ana@example.org"))
    // While the mail command ran, the screen said so.
    #expect(terminal.frames.last?.text(ofRow: 21).contains("[ Sending to ana@example.org… ]") == true)
}

@Test func mailFailureIsShown() {
    let sharing = FakeSharing()
    sharing.mailError = FakeError(description: "sendmail: not found")
    let (editor, _, _) = makeEditor(text: "x", sharing: sharing)
    editor.press([.meta("m")] + typing("a@b") + [.enter, .enter])
    #expect(editor.state.status == StatusMessage("sendmail: not found", isError: true))
}

@Test func controlCNeverQuits() {
    let (editor, _, _) = makeEditor(text: "one\ntwo")
    editor.press(.down, .control("c"))
    #expect(editor.state.exitCode == nil)
    #expect(editor.state.status == StatusMessage("line 2/2 (100%), col 1/4 (25%), char 5/8 (62%)"))
}

@Test func cutAndPasteLines() {
    let (editor, _, _) = makeEditor(text: "a\nb\nc\n")
    editor.press(.control("k"), .control("k"), .down, .control("u"))
    #expect(editor.state.buffer.text == "c\na\nb\n")
    // Each is one step, named as nano names it.
    editor.press(.meta("u"))
    #expect(editor.state.status == StatusMessage("Undid paste"))
    #expect(editor.state.buffer.text == "c\n")
    editor.press(.meta("u"))
    #expect(editor.state.status == StatusMessage("Undid cut"))
    #expect(editor.state.buffer.text == "a\nb\nc\n")
    editor.press(.meta("e"), .meta("e"))
    #expect(editor.state.status == StatusMessage("Redid paste"))
    #expect(editor.state.buffer.text == "c\na\nb\n")
}

@Test func typingEditingAndUndoRedo() {
    let (editor, _, _) = makeEditor(text: "")
    editor.press(typing("été ç œ"))
    editor.press(.enter, .tab, .character("x"), .backspace, .left, .delete)
    #expect(editor.state.buffer.text == "été ç œ\n")
    editor.press(.meta("u"))
    #expect(editor.state.status == StatusMessage("Undid deletion"))
    #expect(editor.state.buffer.text == "été ç œ\n\t")
    editor.press(.meta("u"), .meta("u"), .meta("u"), .meta("u"))
    #expect(editor.state.buffer.text == "")
    editor.press(.meta("u"))
    #expect(editor.state.status == StatusMessage("Nothing to undo"))
    editor.press(.meta("e"))
    #expect(editor.state.buffer.text == "été ç œ")
    #expect(editor.state.status == StatusMessage("Redid addition"))
}

@Test func pasteIsInsertedAsOneStep() {
    let (editor, _, _) = makeEditor(text: "")
    editor.press(.paste("line one\nline two\n"))
    #expect(editor.state.buffer.text == "line one\nline two\n")
    #expect(editor.state.buffer.cursor == TextPosition(line: 2, column: 0))
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "")
}

@Test func viewportFollowsTheCursor() {
    let text = (1...100).map { "line \($0)" }.joined(separator: "\n")
    let (editor, terminal, _) = makeEditor(text: text)
    for _ in 0..<30 { editor.press(.down) }
    #expect(editor.state.topLine == 30 - 20 + 1)  // 20 text rows at 80x24
    editor.press(.pageDown)
    #expect(editor.state.buffer.cursor.line == 48)
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.cursor?.row == 1 + 48 - editor.state.topLine)
    editor.press(.pageUp, .pageUp, .pageUp)
    #expect(editor.state.buffer.cursor.line == 0)
    #expect(editor.state.topLine == 0)
}

@Test func longLineScrollsHorizontallyLikeNano() {
    let line = String(repeating: "abcdefghij", count: 12)  // 120 columns
    let (editor, terminal, _) = makeEditor(text: line + "\nshort")
    var frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 1) == String(line.prefix(79)) + ">")
    editor.press(.end)
    frame = render(editor.state, size: terminal.size)
    // nano's get_page_start(120) at 80 columns: 120 - 6 - (114 % 72) = 72.
    #expect(frame.text(ofRow: 1) == "<" + String(line.dropFirst(73)) + String(repeating: " ", count: 80 - 48))
    #expect(frame.cursor == Frame.CursorPosition(row: 1, column: 48))
    #expect(frame.text(ofRow: 2).hasPrefix("short"))
}

@Test func escapeThenALetterIsMetaLikeNano() {
    let (editor, _, _) = makeEditor(text: "")
    editor.press(.character("a"), .escape, .character("U"))  // Esc U = M-U: undo
    #expect(editor.state.buffer.text == "")
    #expect(editor.state.status == StatusMessage("Undid addition"))
    editor.press(.escape, .escape, .character("u"))  // Esc Esc drops the prefix
    #expect(editor.state.buffer.text == "u")
}

@Test func controlLRepaintsTheWholeScreen() {
    final class CountingTerminal: Terminal {
        var size = TerminalSize(rows: 24, columns: 80)
        var invalidations = 0
        func draw(_ frame: Frame) {}
        func readKey(timeout: Int) -> KeyEvent? { nil }
        func invalidate() { invalidations += 1 }
    }
    let terminal = CountingTerminal()
    let editor = Editor(
        terminal: terminal,
        configuration: EditorConfiguration(
            displayName: "p", defaultSaveName: "p.txt", recognition: nil, sharing: FakeSharing()))
    editor.press(.control("l"))
    #expect(terminal.invalidations == 1)
    editor.press(.character("a"))
    #expect(terminal.invalidations == 1)
}

@Test func writingOntoAFolderSaysSoAtOnce() {
    let sharing = FakeSharing()
    sharing.items["/poems"] = .folder
    let (editor, _, _) = makeEditor(text: "poem\n", savePath: "/poems", sharing: sharing)
    editor.press(.character("!"), .control("o"), .enter)
    #expect(editor.state.status == StatusMessage("/poems: Is a directory", isError: true))  // no OVERWRITE? first
    #expect(sharing.saved.isEmpty)
    #expect(editor.state.isModified)
}
