import SnapTestSupport
import Testing

@testable import SnapText

/// Apply edits → check text → undo all → original → redo all → edited again (micro's round trips).
struct RoundTripCase: Sendable, CustomTestStringConvertible {
    let name: String
    let original: String
    let steps: [[Edit]]
    let expected: String
    var testDescription: String { name }
}

let roundTripCases: [RoundTripCase] = [
    .init(name: "insert into empty", original: "", steps: [[.insert("abc", at: 0)]], expected: "abc"),
    .init(name: "line break in the middle", original: "ab", steps: [[.insert("\n", at: 1)]], expected: "a\nb"),
    .init(name: "remove across lines", original: "a\nb\nc", steps: [[.remove("\nb\n", at: 1)]], expected: "ac"),
    .init(name: "insert after NFD é", original: "e\u{301}t", steps: [[.insert("X", at: 3)]], expected: "e\u{301}Xt"),
    .init(
        name: "combining mark joins the e", original: "e", steps: [[.insert("\u{301}", at: 1)]], expected: "e\u{301}"),
    .init(name: "text after the final newline", original: "a\n", steps: [[.insert("b", at: 2)]], expected: "a\nb"),
    .init(name: "remove the final newline", original: "a\n", steps: [[.remove("\n", at: 1)]], expected: "a"),
    .init(name: "CR of CRLF alone", original: "x\r\ny", steps: [[.remove("\r", at: 1)]], expected: "x\ny"),
    .init(name: "TAB kept", original: "tab\there", steps: [[.insert("\t", at: 0)]], expected: "\ttab\there"),
    .init(name: "emoji removed whole", original: "🌙 lune", steps: [[.remove("🌙", at: 0)]], expected: " lune"),
    .init(
        name: "two steps, one of two edits", original: "Lenore",
        steps: [[.remove("Lenore", at: 0), .insert("Name", at: 0)], [.insert("!", at: 4)]], expected: "Name!"),
    .init(
        name: "multi-line insert into multi-line text", original: "one\ntwo\n",
        steps: [[.insert("A\nB\n", at: 4)], [.remove("one\n", at: 0)]], expected: "A\nB\ntwo\n"),
]

@Test(arguments: roundTripCases)
func roundTrip(_ c: RoundTripCase) throws {
    var buffer = TextBuffer(text: c.original)
    #expect(bytes(buffer.text) == bytes(c.original))
    for step in c.steps { try buffer.perform(step) }
    #expect(bytes(buffer.text) == bytes(c.expected))
    for _ in c.steps {
        do {
            let r = buffer.undo()
            #expect(r)
        }
    }
    #expect(bytes(buffer.text) == bytes(c.original))
    do {
        let r = buffer.undo()
        #expect(r == false)
    }
    for _ in c.steps {
        do {
            let r = buffer.redo()
            #expect(r)
        }
    }
    #expect(bytes(buffer.text) == bytes(c.expected))
    do {
        let r = buffer.redo()
        #expect(r == false)
    }
}

@Test func loadingKeepsBytesAndFinalNewline() {
    let samples = ["", "\n", "a", "a\n", "a\n\n", "e\u{301}te\u{301}\r\n\tx", "no newline"]
    for s in samples {
        let buffer = TextBuffer(text: s)
        #expect(bytes(buffer.text) == bytes(s))
        #expect(buffer.hasFinalNewline == s.hasSuffix("\n"))
        #expect(buffer.utf8Count == s.utf8.count)
    }
    #expect((0..<3).map { TextBuffer(text: "a\nb\n").line($0) } == ["a", "b", ""])
    #expect(TextBuffer(text: "a\nb\n").lineCount == 3)
    #expect(TextBuffer(text: "a\nb\n").writtenLineCount == 2)
    #expect(TextBuffer(text: "a\nb").writtenLineCount == 2)
    #expect(TextBuffer(text: "").writtenLineCount == 0)
}

@Test func editsThatDoNotFitThrowAndChangeNothing() {
    var buffer = TextBuffer(text: "été")
    #expect(throws: SnapTextError.textMismatch(offset: 0)) { try buffer.perform([.remove("et", at: 0)]) }
    #expect(throws: SnapTextError.offsetOutOfRange(offset: 1, utf8Count: 5)) {
        try buffer.perform([.insert("x", at: 1)])
    }
    #expect(throws: SnapTextError.offsetOutOfRange(offset: 9, utf8Count: 5)) {
        try buffer.perform([.insert("x", at: 9)])
    }
    // A failing second edit rolls back the first.
    #expect(throws: SnapTextError.textMismatch(offset: 1)) {
        try buffer.perform([.insert("A", at: 0), .remove("zz", at: 1)])
    }
    #expect(bytes(buffer.text) == bytes("été"))
    #expect(buffer.history.canUndo == false)
}

@Test func inverseSwapsInsertAndRemove() {
    #expect(Edit.insert("ab", at: 3).inverse == Edit.remove("ab", at: 3))
    #expect(Edit.remove("\n", at: 0).inverse == Edit.insert("\n", at: 0))
    #expect(Edit.insert("é", at: 2).endOffset == 4)
}

@Test func typingBurstIsOneUndoStep() {
    var buffer = TextBuffer(text: "x")
    buffer.moveToLineEnd()
    for c in ["a", "b", "c"] { buffer.insert(c) }
    #expect(buffer.text == "xabc")
    #expect(buffer.history.undoSteps.count == 1)
    buffer.moveLeft()  // a move ends the burst
    buffer.insert("Y")
    #expect(buffer.text == "xabYc")
    #expect(buffer.history.undoSteps.count == 2)
    buffer.insert("\n")  // Enter is a step of its own
    buffer.insert("Z")
    #expect(buffer.history.undoSteps.count == 4)
    buffer.undo()
    buffer.undo()
    #expect(buffer.text == "xabYc")
    buffer.undo()
    #expect(buffer.text == "xabc")
    #expect(buffer.cursor == TextPosition(line: 0, column: 3))
    buffer.undo()
    #expect(buffer.text == "x")
    #expect(buffer.cursor == TextPosition(line: 0, column: 1))
}

@Test func backspaceAndDeleteBurstsGroup() {
    var buffer = TextBuffer(text: "abcdef")
    buffer.moveToLineEnd()
    buffer.deleteBackward()
    buffer.deleteBackward()
    #expect(buffer.text == "abcd")
    #expect(buffer.history.undoSteps.count == 1)
    buffer.moveToLineStart()
    buffer.deleteForward()
    buffer.deleteForward()
    #expect(buffer.text == "cd")
    #expect(buffer.history.undoSteps.count == 2)
    buffer.undo()
    #expect(buffer.text == "abcd")
    buffer.undo()
    #expect(buffer.text == "abcdef")
    buffer.redo()
    buffer.redo()
    #expect(buffer.text == "cd")
}

@Test func newEditClearsRedo() {
    var buffer = TextBuffer(text: "")
    buffer.insert("a")
    buffer.undo()
    #expect(buffer.history.canRedo)
    buffer.insert("b")
    #expect(buffer.history.canRedo == false)
    do {
        let r = buffer.redo()
        #expect(r == false)
    }
    #expect(buffer.text == "b")
}

@Test func cutLineTakesTheNewline() {
    var buffer = TextBuffer(text: "one\ntwo\nthree")
    buffer.moveDown()
    #expect(buffer.cutLine() == "two\n")
    #expect(buffer.text == "one\nthree")
    buffer.moveDown()
    #expect(buffer.cutLine() == "three")
    #expect(buffer.text == "one\n")
    buffer.undo()
    buffer.undo()
    #expect(buffer.text == "one\ntwo\nthree")
}
