import Foundation
import SnapTestSupport
import Testing

@testable import SnapText

/// Replace-all whose replacement contains what it searches for: one left-to-right pass over the
/// original text, never rescanning what it inserted.
@Test func replacementContainingItsSearchIsOnePass() throws {
    var buffer = TextBuffer(text: try Fixtures.text("replace-all-self-containing.txt"))
    do {
        let n = try buffer.replaceAll("Lenore", with: "Lenore Lenore")
        #expect(n == 3)
    }
    #expect(bytes(buffer.text) == (try Fixtures.bytes("replace-all-self-containing.step1.txt")))
    do {
        let n = try buffer.replaceAll("u", with: "uu")
        #expect(n == 3)
    }
    #expect(bytes(buffer.text) == (try Fixtures.bytes("replace-all-self-containing.step2.txt")))
    do {
        let n = try buffer.replaceAll("Lenore", with: "Lenore")
        #expect(n == 0)
    }
    #expect(bytes(buffer.text) == (try Fixtures.bytes("replace-all-self-containing.step2.txt")))
}

/// The last characters of a file without a final newline are a match: replaced, and still no
/// final newline.
@Test func matchAtTheEndOfAFileWithoutFinalNewline() throws {
    var buffer = TextBuffer(text: try Fixtures.text("no-final-newline.txt"))
    do {
        let n = try buffer.replaceAll("ss", with: "\u{DF}")
        #expect(n == 2)
    }
    #expect(bytes(buffer.text) == (try Fixtures.bytes("no-final-newline.after-replace.txt")))
    #expect(buffer.hasFinalNewline == false)
}

@Test func searchAndReplacementAreLiteral() throws {
    var buffer = TextBuffer(text: try Fixtures.text("literal-special-characters.txt"))
    do {
        let n = try buffer.replaceAll("e(", with: "e(\"")
        #expect(n == 2)
    }
    do {
        let n = try buffer.replaceAll(".", with: "!")
        #expect(n == 2)
    }
    do {
        let n = try buffer.replaceAll("$5", with: "$1&\\n")
        #expect(n == 1)
    }
    #expect(bytes(buffer.text) == (try Fixtures.bytes("literal-special-characters.after-replace.txt")))
}

/// An empty search is refused; a search that is not there changes nothing; a replace-all is
/// undone in one step; an empty replacement deletes the matches.
@Test func emptySearchUndoAndEmptyReplacement() throws {
    let original = try Fixtures.text("replace-empty-and-undo.txt")
    var buffer = TextBuffer(text: original)
    #expect(throws: SnapTextError.emptySearch) { try buffer.replaceAll("", with: "x") }
    #expect(bytes(buffer.text) == bytes(original))
    do {
        let n = try buffer.replaceAll("ENx", with: "y")
        #expect(n == 0)
    }
    #expect(bytes(buffer.text) == bytes(original))
    do {
        let n = try buffer.replaceAll("en", with: "EN")
        #expect(n == 3)
    }
    #expect(buffer.text == "LENore, je t'écris à la fENêtre,\nle café fume ENcore un peu.\n")
    do {
        let r = buffer.undo()
        #expect(r)
    }
    #expect(bytes(buffer.text) == bytes(original))
    do {
        let n = try buffer.replaceAll("en", with: "")
        #expect(n == 3)
    }
    #expect(bytes(buffer.text) == (try Fixtures.bytes("replace-empty-and-undo.after-delete.txt")))
}

@Test func replaceAllIsOneUndoStep() throws {
    var buffer = TextBuffer(text: "a-a-a\na")
    do {
        let n = try buffer.replaceAll("a", with: "bb")
        #expect(n == 4)
    }
    #expect(buffer.text == "bb-bb-bb\nbb")
    #expect(buffer.history.undoSteps.count == 1)
    buffer.undo()
    #expect(buffer.text == "a-a-a\na")
    buffer.redo()
    #expect(buffer.text == "bb-bb-bb\nbb")
}

@Test func replaceAllKeepsTheCursorOnItsText() throws {
    var buffer = TextBuffer(text: "ab ab ab")
    buffer.moveCursor(to: TextPosition(line: 0, column: 6))  // before the third "ab"
    try buffer.replaceAll("ab", with: "xyz")
    #expect(buffer.text == "xyz xyz xyz")
    #expect(buffer.cursor == TextPosition(line: 0, column: 8))
}

@Test func replaceAllNeverSplitsAGraphemeCluster() throws {
    var buffer = TextBuffer(text: "e\u{301}te\u{301} et e")
    do {
        let n = try buffer.replaceAll("e", with: "E")
        #expect(n == 2)
    }  // not the e of e + U+0301
    #expect(bytes(buffer.text) == bytes("e\u{301}te\u{301} Et E"))
    var nfc = TextBuffer(text: "\u{E9}t\u{E9}")
    do {
        let n = try nfc.replaceAll("e\u{301}", with: "x")
        #expect(n == 2)
    }  // canonical equivalence: NFD finds NFC
    #expect(nfc.text == "xtx")
}

/// Replace-all on a megabyte, as text and one long line: every match replaced, one undo step
/// that keeps the two texts (not edits), undo and redo exact to the byte, and the cursor kept on
/// its text. How fast it is, `scripts/editor-benchmark.py` measures (docs/measurements/big-files.md).
@Test func replaceAllOnAMegabyteIsOneStepUndoneExactly() throws {
    let line = "Lenore, Lenore!\n"  // 16 bytes
    let text = String(repeating: line, count: 65_536)  // 1 MiB
    var buffer = TextBuffer(text: text)
    buffer.moveCursor(toOffset: 16 * 1000 + 8)  // on the second "Lenore" of line 1001
    let count = try buffer.replaceAll("Lenore", with: "Lenore Lenore")
    #expect(count == 131_072)
    #expect(buffer.utf8Count == 1_048_576 + 131_072 * 7)
    #expect(buffer.history.undoSteps.count == 1)
    #expect(buffer.history.undoSteps.last?.edits == [])
    #expect(buffer.history.undoSteps.last?.replaced?.firstChange == 0)
    #expect(buffer.cursor == TextPosition(line: 1000, column: 15))  // still on that word's start
    #expect(buffer.line(65_535) == "Lenore Lenore, Lenore Lenore!")
    let replaced = buffer.text
    buffer.undo()
    #expect(bytes(buffer.text) == bytes(text))
    #expect(buffer.cursorOffset == 16 * 1000 + 8)
    buffer.redo()
    #expect(bytes(buffer.text) == bytes(replaced))

    var oneLine = TextBuffer(text: String(repeating: "a", count: 1_048_576))
    #expect(try oneLine.replaceAll("a", with: "ab") == 1_048_576)
    #expect(oneLine.utf8Count == 2_097_152)
    #expect(oneLine.lineCount == 1)
    #expect(oneLine.text(inUTF8: 2_097_148..<2_097_152) == "abab")
    oneLine.undo()
    #expect(oneLine.text == String(repeating: "a", count: 1_048_576))
}
