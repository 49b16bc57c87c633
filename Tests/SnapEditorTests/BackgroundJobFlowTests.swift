import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

// Mail (M-M) and Execute Command (^T) run in the background: the editor keeps drawing and
// reading keys, ^C stops them.

@Test func eachMailStartsWithAnEmptyToAndEarlierOnesAreOnUp() {
    let (editor, terminal, sharing) = makeEditor(text: "Annabel Lee\n")
    editor.press([.meta("m")] + typing("ana@example.org") + [.enter, .enter])
    #expect(sharing.mailed.map(\.to) == ["ana@example.org"])
    editor.press(.meta("m"))
    #expect(editor.state.mode == .prompt(Prompt(kind: .mailTo)))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("To: "))
    editor.press(.up)
    #expect(editor.state.mode.promptText == "ana@example.org")
    editor.press(.down)
    #expect(editor.state.mode.promptText == "")
    editor.press(typing(#""Lenore, my love" <l@example.org>"#) + [.enter, .enter])
    #expect(sharing.mailed.map(\.to) == ["ana@example.org", #""Lenore, my love" <l@example.org>"#])
    #expect(editor.state.status == StatusMessage(#"Mail sent to "Lenore, my love" <l@example.org>"#))
}

@Test func aBadAddressIsSaidBeforeTheSubjectIsAsked() {
    let (editor, _, sharing) = makeEditor(text: "Lenore\n")
    sharing.mailRefusals["not an address"] = "not an address: not an e-mail address"
    editor.press([.meta("m")] + typing("not an address") + [.enter])
    // Asked again with what was typed, and why, in the prompt (issue 43: the address was gone).
    #expect(
        editor.state.mode
            == .prompt(
                Prompt(kind: .mailTo, answer: "not an address", problem: "not an address: not an e-mail address")))
    #expect(
        render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 21).hasPrefix(
            "To [not an address: not an e-mail ad…]: not an address"))
    #expect(sharing.mailed.isEmpty)
    // Corrected in place, it goes on to the Subject, the poem's first line.
    editor.press(Array(repeating: .backspace, count: 14) + typing("a@b.org") + [.enter])
    #expect(editor.state.mode == .prompt(Prompt(kind: .mailSubject(to: "a@b.org"), answer: "Lenore")))
}

@Test func anEmptyTextAsksBeforeMailing() {
    let (editor, terminal, sharing) = makeEditor(text: " \n\t\n")
    editor.press(.meta("m"))
    #expect(editor.state.mode == .confirmEmptyMail)
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 21).hasPrefix("The text is empty; mail it anyway? "))
    #expect(frame.text(ofRow: 22).hasPrefix(" Y Yes"))
    editor.press(.character("n"))
    #expect(editor.state.mode == .editing)
    #expect(editor.state.status == StatusMessage("Cancelled"))
    editor.press(.meta("m"), .character("y"))
    #expect(editor.state.mode == .prompt(Prompt(kind: .mailTo)))
    editor.press(typing("a@b.org") + [.enter, .enter])
    #expect(sharing.mailed.count == 1)
    #expect(sharing.mailed.first?.text == " \n\t\n")
}

@Test func aMailThatTakesItsTimeLeavesTheEditorDrawingAndControlCStopsIt() {
    let sharing = FakeSharing()
    sharing.holdJobs = true
    let (editor, terminal, _) = makeEditor(text: "Lenore\n", sharing: sharing)
    editor.press([.meta("m")] + typing("a@b.org") + [.enter, .enter])
    #expect(editor.state.mode == .running(.mail(to: "a@b.org")))
    var frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 21).contains("[ Sending to a@b.org… ]"))
    #expect(frame.text(ofRow: 22).hasPrefix("^C Cancel"))
    // Keys other than ^C wait; the text does not change under the command.
    editor.press(.character("x"), .control("k"), .resize)
    #expect(editor.state.buffer.text == "Lenore\n")
    #expect(editor.pollJob() == false)
    // The run loop polls; the job ends when it ends.
    sharing.jobs[0].finish(.finished(output: ""))
    #expect(editor.pollJob())
    #expect(editor.state.mode == .editing)
    #expect(editor.state.status == StatusMessage("Mail sent to a@b.org"))

    editor.press([.meta("m")] + typing("c@d.org") + [.enter, .enter])
    editor.press(.control("c"))
    #expect(sharing.jobs[1].cancelCount == 1)
    #expect(editor.state.mode == .editing)
    #expect(editor.state.status == StatusMessage("'job' was stopped"))
    frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 21).contains("[ 'job' was stopped ]"))
}

@Test func aFailedMailIsAnErrorOnTheStatusLine() {
    let sharing = FakeSharing()
    sharing.holdJobs = true
    let (editor, _, _) = makeEditor(text: "x", sharing: sharing)
    editor.press([.meta("m")] + typing("a@b.org") + [.enter, .enter])
    sharing.jobs[0].finish(.failed(message: "mail command 'sendmail -t -i' failed with exit status 75"))
    editor.pollJob()
    #expect(
        editor.state.status
            == StatusMessage("mail command 'sendmail -t -i' failed with exit status 75", isError: true))
}

@Test func aTerminationSignalDuringASendSavesFirstThenStopsTheSend() {
    let sharing = FakeSharing()
    sharing.holdJobs = true
    let (editor, terminal, _) = makeEditor(text: "Lenore", sharing: sharing)
    terminal.keys = [.character("!"), .meta("m")] + typing("a@b.org") + [.enter, .enter]
    terminal.signalAfterKeys = 15
    #expect(editor.run() == 143)
    #expect(sharing.rescued.map(\.text) == ["!Lenore"])
    #expect(sharing.jobs.count == 1)
    #expect(sharing.jobs[0].cancelCount == 1)
    #expect(editor.termination == TerminationReport(signal: 15, outcome: .saved(path: "/poems/out.txt.save")))
}

// MARK: - ^T

@Test func executeCommandPipesTheRegionAndItsOutputReplacesItInOneUndoStep() {
    let sharing = FakeSharing()
    sharing.commandOutputs["sort"] = .finished(output: "a line\nb line\n")
    let text = "title\nb line\na line\nend\n"
    let (editor, terminal, _) = makeEditor(text: text, sharing: sharing)
    editor.press(.down, .meta("a"), .down, .down)  // lines 2 and 3 marked
    editor.press([.control("t")] + typing("sort"))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Command to execute: sort"))
    editor.press(.enter)
    #expect(sharing.commands.map(\.commandLine) == ["sort"])
    #expect(sharing.commands.first?.input == "b line\na line\n")
    // The output is shown in place of the text, with the question.
    guard case .commandOutput(let output) = editor.state.mode else {
        Issue.record("no output question: \(editor.state.mode)")
        return
    }
    #expect(output.region == 6..<20)
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 1).hasPrefix("a line"))
    #expect(frame.text(ofRow: 2).hasPrefix("b line"))
    #expect(frame.text(ofRow: 21).hasPrefix("Replace the marked text with this output (2 lines)? "))
    #expect(frame.text(ofRow: 22).contains("I Insert"))
    editor.press(.character("y"))
    #expect(editor.state.buffer.text == "title\na line\nb line\nend\n")
    #expect(editor.state.markAnchor == nil)
    #expect(editor.state.isModified)
    #expect(editor.state.status == StatusMessage("Region replaced by 2 lines of output"))
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == text)
    editor.press(.meta("e"))
    #expect(editor.state.buffer.text == "title\na line\nb line\nend\n")
}

/// Issue 43, nano's "|cmd": the marked region (else the text) piped through cmd and replaced by
/// its output at once, one undo step; the command run is cmd, without the bar.
@Test func aBarBeforeTheCommandPipesAndReplacesAtOnceAsNanoDoes() {
    let sharing = FakeSharing()
    sharing.commandOutputs["tr a-z A-Z"] = .finished(output: "ONE\nTWO\n")
    let (editor, _, _) = makeEditor(text: "one\ntwo\n", sharing: sharing)
    editor.press([.control("t")] + typing(" |tr a-z A-Z") + [.enter])
    #expect(sharing.commands.map(\.commandLine) == ["tr a-z A-Z"])
    #expect(sharing.commands.first?.input == "one\ntwo\n")
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "ONE\nTWO\n")
    #expect(editor.state.isModified)
    #expect(editor.state.status == StatusMessage("Text replaced by 2 lines of output"))
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "one\ntwo\n")
}

/// An output that is the text as it was (`|cat`) changes nothing: the marks stay.
@Test func anOutputEqualToTheTextChangesNothing() {
    let sharing = FakeSharing()
    sharing.commandOutputs["cat"] = .finished(output: "one\ntwo\n")
    let (editor, _, _) = makeEditor(text: "one\ntwo\n", sharing: sharing)
    let revision = editor.state.buffer.revision
    editor.press([.control("t")] + typing("|cat") + [.enter])
    #expect(editor.state.buffer.revision == revision)
    #expect(editor.state.isModified == false)
    #expect(editor.state.status == StatusMessage("The output is the text as it was"))
}

@Test func withoutAMarkTheWholeTextIsPipedAndTheOutputCanBeInserted() {
    let sharing = FakeSharing()
    sharing.commandOutputs["wc -l"] = .finished(output: "2\n")
    let (editor, terminal, _) = makeEditor(text: "one\ntwo\n", sharing: sharing)
    editor.press([.down, .control("t")] + typing("wc -l") + [.enter])
    #expect(sharing.commands.first?.input == "one\ntwo\n")
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix(
            "Replace the whole text with this output (1 line)? "))
    editor.press(.character("i"))
    #expect(editor.state.buffer.text == "one\n2\ntwo\n")
    #expect(editor.state.status == StatusMessage("Inserted 1 line of output"))
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "one\ntwo\n")

    editor.press([.control("t"), .up, .enter])  // the last command again, from the history
    #expect(sharing.commands.map(\.commandLine) == ["wc -l", "wc -l"])
    editor.press(.character("y"))
    #expect(editor.state.buffer.text == "2\n")
    editor.press([.control("t"), .up, .enter, .character("n")])
    #expect(editor.state.buffer.text == "2\n")
    #expect(editor.state.status == StatusMessage("Output discarded"))
}

@Test func aFailingCommandShowsItsErrorAndChangesNothing() {
    let sharing = FakeSharing()
    sharing.commandOutputs["sort -x"] = .failed(
        message: "'sort -x' failed with exit status 2: sort: invalid option -- 'x'")
    let (editor, _, _) = makeEditor(text: "b\na\n", sharing: sharing)
    editor.press([.control("t")] + typing("sort -x") + [.enter])
    #expect(editor.state.mode == .editing)
    #expect(
        editor.state.status
            == StatusMessage("'sort -x' failed with exit status 2: sort: invalid option -- 'x'", isError: true))
    #expect(editor.state.buffer.text == "b\na\n")
    #expect(!editor.state.isModified)
    editor.press([.control("t"), .enter])  // nothing typed: nothing run
    #expect(editor.state.status == StatusMessage("Cancelled"))
    #expect(sharing.commands.count == 1)
}

@Test func aHangingCommandIsStoppedWithControlC() {
    let sharing = FakeSharing()
    sharing.holdJobs = true
    let (editor, terminal, _) = makeEditor(text: "b\na\n", sharing: sharing)
    editor.press([.control("t")] + typing("sleep 100") + [.enter])
    #expect(editor.state.mode == .running(.command(commandLine: "sleep 100", region: nil)))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).contains("[ Running sleep 100… ]"))
    editor.press(.control("c"))
    #expect(sharing.jobs[0].cancelCount == 1)
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "b\na\n")
}

@Test func emptyOutputCanReplaceTheRegionWithNothing() {
    let sharing = FakeSharing()
    sharing.commandOutputs["true"] = .finished(output: "")
    let (editor, terminal, _) = makeEditor(text: "keep\ndrop\n", sharing: sharing)
    editor.press(.down, .meta("a"), .down)
    editor.press([.control("t")] + typing("true") + [.enter])
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix(
            "The command wrote nothing; replace the marked text with nothing? "))
    editor.press(.character("y"))
    #expect(editor.state.buffer.text == "keep\n")
}

extension Mode {
    /// The open prompt's answer, or nil.
    var promptText: String? {
        if case .prompt(let prompt) = self { return prompt.text }
        return nil
    }
}
