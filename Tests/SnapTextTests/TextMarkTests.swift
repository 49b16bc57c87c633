import Testing

@testable import SnapText

/// Edit → check marks → undo → check → redo → check: marks follow edits and come back exactly.
///
/// Marks are written as the text they cover, `*` after a flagged one (uncertain), `~` after an
/// edited one: "Lenore,* je t'écris" marks "Lenore," (flagged), "je" and "t'écris".
struct MarkCase: Sendable, CustomTestStringConvertible {
    let name: String
    let change: @Sendable (inout TextBuffer) throws -> Void
    let text: String
    let marks: [String]
    var testDescription: String { name }
}

/// "Lenore, je t'écris\nà la fenêtre," with every word marked; "t'écris" and "fenêtre," flagged.
func markedPoem() -> TextBuffer {
    let text = "Lenore, je t'écris\nà la fenêtre,"
    var marks: [TextMark] = []
    var offset = 0
    for (i, token) in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == " " || $0 == "\n" })
        .enumerated()
    {
        let start = text.utf8.distance(from: text.utf8.startIndex, to: token.startIndex)
        offset = start + token.utf8.count
        marks.append(TextMark(id: i, range: start..<offset, isFlagged: token == "t'écris" || token == "fenêtre,"))
    }
    return TextBuffer(text: text, marks: marks)
}

/// The marks of `buffer` as "text" plus `*` (flagged) and `~` (edited).
func describeMarks(_ buffer: TextBuffer) -> [String] {
    buffer.marks.map { mark in
        buffer.text(inUTF8: mark.range) + (mark.isFlagged ? "*" : "") + (mark.isEdited ? "~" : "")
    }
}

let original = ["Lenore,", "je", "t'écris*", "à", "la", "fenêtre,*"]

let markCases: [MarkCase] = [
    .init(
        name: "typing before a word moves it", change: { $0.insert("Ô ") }, text: "Ô Lenore, je t'écris\nà la fenêtre,",
        marks: original),
    .init(
        name: "typing inside a flagged word clears its flag",
        change: {
            $0.moveCursor(to: TextPosition(line: 0, column: 13))
            $0.insert("X")
        }, text: "Lenore, je t'Xécris\nà la fenêtre,",
        marks: ["Lenore,", "je", "t'Xécris~", "à", "la", "fenêtre,*"]),
    .init(
        name: "a new word typed right after a word stays outside it",
        change: {
            $0.moveCursor(to: TextPosition(line: 0, column: 10))
            $0.insert(" tu")
        }, text: "Lenore, je tu t'écris\nà la fenêtre,", marks: original),
    .init(
        name: "letters typed right after a word join it",
        change: {
            $0.moveCursor(to: TextPosition(line: 0, column: 18))
            $0.insert("!")
        }, text: "Lenore, je t'écris!\nà la fenêtre,", marks: ["Lenore,", "je", "t'écris!~", "à", "la", "fenêtre,*"]),
    .init(
        name: "backspacing a whole word drops its mark",
        change: {
            $0.moveCursor(to: TextPosition(line: 0, column: 10))
            $0.deleteBackward()
            $0.deleteBackward()
        }, text: "Lenore,  t'écris\nà la fenêtre,", marks: ["Lenore,", "t'écris*", "à", "la", "fenêtre,*"]),
    .init(
        name: "deleting one letter shrinks the word",
        change: {
            $0.moveCursor(to: TextPosition(line: 1, column: 6))
            $0.deleteForward()
        }, text: "Lenore, je t'écris\nà la fnêtre,",
        marks: ["Lenore,", "je", "t'écris*", "à", "la", "fnêtre,~"]),
    .init(
        name: "cutting a line drops its words and moves the next",
        change: { $0.cutLine() }, text: "à la fenêtre,", marks: ["à", "la", "fenêtre,*"]),
    .init(
        name: "joining lines moves the words after the join",
        change: {
            $0.moveCursor(to: TextPosition(line: 1, column: 0))
            $0.deleteBackward()
        }, text: "Lenore, je t'écrisà la fenêtre,", marks: original),
    .init(
        name: "replace-all across marked words keeps each word marked",
        change: { try $0.replaceAll("e", with: "EE") }, text: "LEEnorEE, jEE t'écris\nà la fEEnêtrEE,",
        marks: ["LEEnorEE,~", "jEE~", "t'écris*", "à", "la", "fEEnêtrEE,~"]),
    .init(
        name: "replace-all of a whole word keeps the word's mark on the replacement",
        change: { try $0.replaceAll("la", with: "ma") }, text: "Lenore, je t'écris\nà ma fenêtre,",
        marks: ["Lenore,", "je", "t'écris*", "à", "ma~", "fenêtre,*"]),
    .init(
        name: "replace-all that deletes a word drops its mark",
        change: { try $0.replaceAll("je ", with: "") }, text: "Lenore, t'écris\nà la fenêtre,",
        marks: ["Lenore,", "t'écris*", "à", "la", "fenêtre,*"]),
    .init(
        name: "replacing a word by its alternative is one change",
        change: { try $0.replace([11..<19], with: "t'écrit") }, text: "Lenore, je t'écrit\nà la fenêtre,",
        marks: ["Lenore,", "je", "t'écrit~", "à", "la", "fenêtre,*"]),
    .init(
        name: "accepting a word clears its flag, text unchanged",
        change: { buffer in
            buffer.changeMarks { marks in
                if let i = marks.firstIndex(where: { $0.id == 2 }) { marks[i].isFlagged = false }
            }
        }, text: "Lenore, je t'écris\nà la fenêtre,", marks: ["Lenore,", "je", "t'écris", "à", "la", "fenêtre,*"]),
    .init(
        name: "a paste over two lines moves every later word",
        change: {
            $0.moveCursor(to: TextPosition(line: 0, column: 8))
            $0.insert("ma\nbelle ")
        }, text: "Lenore, ma\nbelle je t'écris\nà la fenêtre,", marks: original),
]

@Test(arguments: markCases)
func marksFollowEditsAndUndo(_ c: MarkCase) throws {
    var buffer = markedPoem()
    let before = buffer.marks
    #expect(describeMarks(buffer) == original)
    try c.change(&buffer)
    #expect(buffer.text == c.text)
    #expect(describeMarks(buffer) == c.marks)
    let after = buffer.marks
    while buffer.undo() {}
    #expect(buffer.text == "Lenore, je t'écris\nà la fenêtre,")
    #expect(buffer.marks == before)
    while buffer.redo() {}
    #expect(buffer.text == c.text)
    #expect(buffer.marks == after)
}

@Test func acceptingChangesNoTextRevision() {
    var buffer = markedPoem()
    buffer.changeMarks { $0[2].isFlagged = false }
    #expect(buffer.revision == 0)
    #expect(buffer.history.undoSteps.count == 1)
    let undone = buffer.undo()
    #expect(undone)
    #expect(buffer.revision == 0)
    #expect(describeMarks(buffer) == original)
}

@Test func aBurstOfTypingInsideAWordIsOneStepWithItsMarks() {
    var buffer = markedPoem()
    buffer.moveCursor(to: TextPosition(line: 0, column: 18))
    buffer.deleteBackward()
    buffer.insert("t")
    #expect(buffer.text == "Lenore, je t'écrit\nà la fenêtre,")
    #expect(describeMarks(buffer) == ["Lenore,", "je", "t'écrit~", "à", "la", "fenêtre,*"])
    let firstUndo = buffer.undo()
    let secondUndo = buffer.undo()
    #expect(firstUndo && secondUndo)
    #expect(describeMarks(buffer) == original)
}

@Test func theMarkUnderTheCursor() {
    let buffer = markedPoem()
    #expect(buffer.mark(at: 0)?.id == 0)
    #expect(buffer.mark(at: 7)?.id == 0)  // just after "Lenore,"
    #expect(buffer.mark(at: 8)?.id == 1)
    #expect(buffer.mark(at: 20)?.id == 3)
    #expect(buffer.mark(at: 100) == nil)
}
