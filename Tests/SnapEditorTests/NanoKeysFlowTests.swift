import Foundation
import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

/// nano's keys: go to line, mark, copy, cut, paste, word count, line numbers, word moves, and
/// "Unbound key" for the rest.
@Suite struct NanoKeysFlowTests {
    static let poem = "Once upon a midnight dreary,\nwhile I pondered, weak and weary,\nOver many a quaint\n"

    @Test(arguments: [
        ("2", TextPosition(line: 1, column: 0)), ("2,7", TextPosition(line: 1, column: 6)),
        ("-1", TextPosition(line: 3, column: 0)), ("-2,-1", TextPosition(line: 2, column: 18)),
        ("99,99", TextPosition(line: 3, column: 0)), (" 3 , 5 ", TextPosition(line: 2, column: 4)),
        (",3", TextPosition(line: 0, column: 2)), ("0", TextPosition(line: 0, column: 0)),
    ])
    func goToLineAnswers(answer: String, expected: TextPosition) {
        #expect(position(forLineColumn: answer, in: TextBuffer(text: Self.poem)) == expected)
    }

    @Test(arguments: ["x", "2,y", "1,2,3", ","])
    func goToLineRefusesWhatIsNotNumbers(answer: String) {
        #expect(position(forLineColumn: answer, in: TextBuffer(text: Self.poem)) == nil)
    }

    @Test func goToLinePromptMovesTheCursor() {
        let (editor, terminal, _) = makeEditor(text: Self.poem)
        editor.press(.control("_"))
        #expect(
            render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Enter line number, column number: "))
        editor.press(.character("3"), .character(","), .character("6"), .enter)
        #expect(editor.state.buffer.cursor == TextPosition(line: 2, column: 5))
        #expect(editor.state.buffer.text == Self.poem)
        editor.press(.meta("g"), .character("z"), .enter)
        #expect(editor.state.status == StatusMessage("Invalid line or column number", isError: true))
    }

    @Test func markCopyAndPaste() {
        let (editor, terminal, _) = makeEditor(text: Self.poem)
        editor.press(.meta("a"))
        #expect(editor.state.status == StatusMessage("Mark Set"))
        editor.press(.modified(.right, .control), .modified(.right, .control))  // "Once upon "
        let frame = render(editor.state, size: terminal.size)
        #expect(frame[1, 0].style == .reverse && frame[1, 9].style == .reverse && frame[1, 10].style == .normal)
        editor.press(.meta("6"))
        #expect(editor.state.markAnchor == nil)
        #expect(editor.state.cutBuffer == "Once upon ")
        editor.press(.end, .control("u"))
        #expect(editor.state.buffer.line(0) == "Once upon a midnight dreary,Once upon ")
    }

    @Test func cutRegionThenPasteElsewhereUndoesInSteps() {
        let (editor, _, _) = makeEditor(text: Self.poem)
        editor.press(.control("^"), .modified(.right, .control), .control("k"))
        #expect(editor.state.buffer.line(0) == "upon a midnight dreary,")
        #expect(editor.state.cutBuffer == "Once ")
        editor.press(.meta("u"))
        #expect(editor.state.status == StatusMessage("Undid cut"))
        #expect(editor.state.buffer.text == Self.poem)
    }

    @Test func consecutiveCutsAreOneUndoStep() {
        let (editor, _, _) = makeEditor(text: Self.poem)
        editor.press(.control("k"), .control("k"))
        #expect(editor.state.buffer.text == "Over many a quaint\n")
        #expect(editor.state.cutBuffer == "Once upon a midnight dreary,\nwhile I pondered, weak and weary,\n")
        editor.press(.meta("u"))
        #expect(editor.state.buffer.text == Self.poem)
        // A cut after another command starts a new cut text and a new undo step.
        editor.press(.control("k"), .control("c"), .control("k"), .meta("u"))
        #expect(editor.state.buffer.text == "while I pondered, weak and weary,\nOver many a quaint\n")
        #expect(editor.state.cutBuffer == "while I pondered, weak and weary,\n")
    }

    @Test func wordCountOfTheTextAndOfTheRegion() {
        let (editor, _, _) = makeEditor(text: Self.poem)
        editor.press(.meta("d"))
        #expect(editor.state.status == StatusMessage("15 words,  3 lines,  82 characters"))
        editor.press(.meta("a"), .down, .meta("d"))
        #expect(editor.state.status == StatusMessage("In Selection:  5 words,  1 line,  29 characters"))
    }

    @Test func lineNumbersTakeAMarginLeftOfTheText() {
        let (editor, terminal, _) = makeEditor(text: Self.poem)
        editor.press(.meta("#"), .down, .end)
        let frame = render(editor.state, size: terminal.size)
        #expect(
            frame.text(ofRow: 1) == "1 Once upon a midnight dreary,".padding(toLength: 80, withPad: " ", startingAt: 0))
        #expect(frame.text(ofRow: 4) == "4".padding(toLength: 80, withPad: " ", startingAt: 0))
        #expect(frame.cursor == Frame.CursorPosition(row: 2, column: 2 + 33))
        editor.press(.meta("#"))
        #expect(
            render(editor.state, size: terminal.size).text(ofRow: 1)
                == "Once upon a midnight dreary,".padding(toLength: 80, withPad: " ", startingAt: 0))
    }

    @Test(arguments: [
        (KeyEvent.meta("k"), "Unbound key: M-K"), (.meta("z"), "Unbound key: M-Z"),
        (.function(5), "Unbound key: F5"), (.modified(.up, .shift), "Unbound key: Sh-Up"),
    ])
    func unboundKeysSaySo(key: KeyEvent, message: String) {
        let (editor, _, _) = makeEditor(text: Self.poem)
        editor.press(key)
        #expect(editor.state.status == StatusMessage(message))
        #expect(editor.state.buffer.text == Self.poem)
    }

    /// ^Z says how to suspend, as nano 7.2 does without `--suspendable`; the fake terminal, no
    /// shell's job, refuses ^T ^Z and the text is as it was.
    @Test func controlZSaysHowToSuspendAndAFakeTerminalRefuses() {
        let (editor, _, _) = makeEditor(text: Self.poem)
        editor.press(.control("z"))
        #expect(editor.state.status == StatusMessage("To suspend, type ^T^Z"))
        editor.press(.control("t"))
        editor.press(.control("z"))
        #expect(editor.state.mode == .editing)
        #expect(
            editor.state.status == StatusMessage("Cannot suspend: this terminal cannot be suspended", isError: true))
        #expect(editor.state.buffer.text == Self.poem)
    }

    /// Issue 43, nano 7.2's keys: ^Q searches backward (M-B turns it round), M-W finds the next
    /// match forward and M-Q the previous one backward, whichever way the prompt went.
    @Test func whereWasSearchesBackwardAndNextAndPreviousKeepTheirDirections() {
        let (editor, terminal, _) = makeEditor(text: Self.poem)
        func offset() -> Int { editor.state.buffer.offset(of: editor.state.buffer.cursor) }
        editor.press(.meta("/"))  // the end: offset 82 (the last line "Over many a quaint" at 63)
        editor.press(.control("q"))
        #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search [Backwards]: "))
        editor.press(typing("a"))
        editor.press(.enter)
        #expect(offset() == 77)  // "quaint"'s a
        editor.press(.meta("q"))
        #expect(offset() == 73)  // "a quaint"
        editor.press(.meta("w"))
        #expect(offset() == 77)
        editor.press(.control("w"))
        #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search [a]: "))
        editor.press(.control("c"))
    }

    /// M-T cuts from the cursor to the end of the text; ^U pastes it back, M-U undoes the cut.
    @Test func cutTillEndCutsToTheEndOfTheText() {
        let (editor, _, _) = makeEditor(text: Self.poem)
        editor.press(.down)
        editor.press(.meta("t"))
        #expect(editor.state.buffer.text == "Once upon a midnight dreary,\n")
        #expect(editor.state.cutBuffer == "while I pondered, weak and weary,\nOver many a quaint\n")
        editor.press(.meta("u"))
        #expect(editor.state.buffer.text == Self.poem)
        editor.press(.meta("t"), .meta("\\"), .control("u"))
        #expect(
            editor.state.buffer.text
                == "while I pondered, weak and weary,\nOver many a quaint\nOnce upon a midnight dreary,\n")
    }

    @Test func indentTheMarkedLinesThenUnindent() {
        let (editor, _, _) = makeEditor(text: Self.poem)
        editor.press(.meta("a"), .down, .end, .meta("}"))
        #expect(
            (0...2).map { editor.state.buffer.line($0) } == [
                "\tOnce upon a midnight dreary,", "\twhile I pondered, weak and weary,", "Over many a quaint",
            ])
        editor.press(.meta("{"))
        #expect(editor.state.buffer.text == Self.poem)
        editor.press(.meta("a"), .meta("{"))  // mark off; nothing to unindent on this line
        #expect(editor.state.buffer.text == Self.poem)
    }
}
