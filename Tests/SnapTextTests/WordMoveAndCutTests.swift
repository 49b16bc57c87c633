import Testing

@testable import SnapText

/// Ctrl-Left / Ctrl-Right word moves, and cuts that undo as one step.
@Suite struct WordMoveAndCutTests {
    @Test func nextWordGoesToEachWordStartAcrossLines() {
        var buffer = TextBuffer(text: "Once upon, l'âme\n\n  a midnight")
        var stops: [TextPosition] = []
        for _ in 0..<6 {
            buffer.moveToNextWord()
            stops.append(buffer.cursor)
        }
        #expect(
            stops == [
                TextPosition(line: 0, column: 5), TextPosition(line: 0, column: 11), TextPosition(line: 2, column: 2),
                TextPosition(line: 2, column: 4), TextPosition(line: 2, column: 12), TextPosition(line: 2, column: 12),
            ])
    }

    @Test func previousWordGoesToEachWordStartAcrossLines() {
        var buffer = TextBuffer(text: "Once upon, l'âme\n\n  a midnight")
        buffer.moveToEnd()
        var stops: [TextPosition] = []
        for _ in 0..<6 {
            buffer.moveToPreviousWord()
            stops.append(buffer.cursor)
        }
        #expect(
            stops == [
                TextPosition(line: 2, column: 4), TextPosition(line: 2, column: 2), TextPosition(line: 0, column: 11),
                TextPosition(line: 0, column: 5), TextPosition(line: 0, column: 0), TextPosition(line: 0, column: 0),
            ])
    }

    @Test func consecutiveCutsUndoInOneStep() {
        var buffer = TextBuffer(text: "one\ntwo\nthree\n")
        #expect(buffer.cutLine() == "one\n")
        #expect(buffer.cutLine() == "two\n")
        #expect(buffer.text == "three\n")
        #expect(buffer.history.undoSteps.count == 1)
        buffer.undo()
        #expect(buffer.text == "one\ntwo\nthree\n")
        buffer.redo()
        #expect(buffer.text == "three\n")
    }

    @Test func cutsSeparatedByAMoveAreTwoSteps() {
        var buffer = TextBuffer(text: "one\ntwo\nthree\n")
        buffer.cutLine()
        buffer.moveDown()
        buffer.cutLine()
        #expect(buffer.text == "two\n")
        #expect(buffer.history.undoSteps.count == 2)
    }

    @Test func cuttingARegionRemovesItAndUndoBringsItBack() {
        var buffer = TextBuffer(text: "Quoth the Raven\n")
        #expect(buffer.cut(6..<10) == "the ")
        #expect(buffer.text == "Quoth Raven\n")
        #expect(buffer.cursor == TextPosition(line: 0, column: 6))
        buffer.undo()
        #expect(buffer.text == "Quoth the Raven\n")
    }
}

@Suite struct IndentTests {
    @Test func indentAndUnindentAreOneUndoStepEach() {
        var buffer = TextBuffer(text: "one\n\n  two\n        three\n")
        buffer.moveCursor(to: TextPosition(line: 2, column: 3))  // on the "w" of two
        #expect(buffer.indent(lines: 0...3) == 3)  // the empty line stays empty
        #expect(buffer.text == "\tone\n\n\t  two\n\t        three\n")
        #expect(buffer.cursor == TextPosition(line: 2, column: 4))
        #expect(buffer.unindent(lines: 0...3) == 3)
        #expect(buffer.text == "one\n\n  two\n        three\n")
        #expect(buffer.unindent(lines: 0...3) == 2)
        #expect(buffer.text == "one\n\ntwo\nthree\n")
        #expect(buffer.cursor == TextPosition(line: 2, column: 1))
        buffer.undo()
        #expect(buffer.text == "one\n\n  two\n        three\n")
        buffer.undo()
        buffer.undo()
        #expect(buffer.text == "one\n\n  two\n        three\n")
        #expect(buffer.history.undoSteps.isEmpty)
    }
}
