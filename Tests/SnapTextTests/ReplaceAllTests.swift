import Foundation
import Testing
@testable import SnapText
import SnapTestSupport

private let case17 = "17-replace-all-self-containing/"
private let case18 = "18-replace-empty-search-or-replacement/"

@Test func bugcase17LenoreSteps() throws {
    var buffer = TextBuffer(text: try Bugcases.text(case17 + "lenore.txt"))
    do { let n = try buffer.replaceAll("Lenore", with: "Lenore Lenore"); #expect(n == 3) }
    #expect(bytes(buffer.text) == (try Bugcases.bytes(case17 + "expected_step1.txt")))
    do { let n = try buffer.replaceAll("a", with: "aa"); #expect(n == 4) }
    #expect(bytes(buffer.text) == (try Bugcases.bytes(case17 + "expected_step2.txt")))
    do { let n = try buffer.replaceAll("Lenore", with: "Lenore"); #expect(n == 0) }
    #expect(bytes(buffer.text) == (try Bugcases.bytes(case17 + "expected_step2.txt")))
}

@Test func bugcase17EndWithoutNewline() throws {
    var buffer = TextBuffer(text: try Bugcases.text(case17 + "end_no_newline.txt"))
    do { let n = try buffer.replaceAll("a", with: "b"); #expect(n == 2) }
    #expect(bytes(buffer.text) == (try Bugcases.bytes(case17 + "expected_end_no_newline.txt")))
    #expect(buffer.hasFinalNewline == false)
}

@Test func bugcase17LiteralSpecialCharacters() throws {
    var buffer = TextBuffer(text: try Bugcases.text(case17 + "special.txt"))
    do { let n = try buffer.replaceAll("A(", with: "A(\""); #expect(n == 2) }
    do { let n = try buffer.replaceAll(".", with: "!"); #expect(n == 2) }
    do { let n = try buffer.replaceAll("$5", with: "$1&\\n"); #expect(n == 1) }
    #expect(bytes(buffer.text) == (try Bugcases.bytes(case17 + "expected_special.txt")))
}

@Test func bugcase18EmptySearchEmptyReplacement() throws {
    let original = try Bugcases.text(case18 + "evermore.txt")
    var buffer = TextBuffer(text: original)
    #expect(throws: SnapTextError.emptySearch) { try buffer.replaceAll("", with: "x") }
    #expect(bytes(buffer.text) == (try Bugcases.bytes(case18 + "expected_step1_unchanged.txt")))
    do { let n = try buffer.replaceAll("EVERx", with: "y"); #expect(n == 0) }
    #expect(bytes(buffer.text) == bytes(original))
    do { let n = try buffer.replaceAll("ever", with: "EVER"); #expect(n == 3) }
    #expect(buffer.text == "Quoth the Raven, NEVERmore.\nEVERmore and EVERmore\n")
    do { let r = buffer.undo(); #expect(r) }
    #expect(bytes(buffer.text) == bytes(original))
    do { let n = try buffer.replaceAll("ever", with: ""); #expect(n == 3) }
    #expect(bytes(buffer.text) == (try Bugcases.bytes(case18 + "expected_step2.txt")))
}

@Test func replaceAllIsOneUndoStep() throws {
    var buffer = TextBuffer(text: "a-a-a\na")
    do { let n = try buffer.replaceAll("a", with: "bb"); #expect(n == 4) }
    #expect(buffer.text == "bb-bb-bb\nbb")
    #expect(buffer.history.undoSteps.count == 1)
    buffer.undo()
    #expect(buffer.text == "a-a-a\na")
    buffer.redo()
    #expect(buffer.text == "bb-bb-bb\nbb")
}

@Test func replaceAllKeepsTheCursorOnItsText() throws {
    var buffer = TextBuffer(text: "ab ab ab")
    buffer.moveCursor(to: TextPosition(line: 0, column: 6))   // before the third "ab"
    try buffer.replaceAll("ab", with: "xyz")
    #expect(buffer.text == "xyz xyz xyz")
    #expect(buffer.cursor == TextPosition(line: 0, column: 8))
}

@Test func replaceAllNeverSplitsAGraphemeCluster() throws {
    var buffer = TextBuffer(text: "e\u{301}te\u{301} et e")
    do { let n = try buffer.replaceAll("e", with: "E"); #expect(n == 2) }        // not the e of e + U+0301
    #expect(bytes(buffer.text) == bytes("e\u{301}te\u{301} Et E"))
    var nfc = TextBuffer(text: "\u{E9}t\u{E9}")
    do { let n = try nfc.replaceAll("e\u{301}", with: "x"); #expect(n == 0) }    // no normalisation: NFD does not match NFC
}

@Test func replaceAllIsLinearOnOneMegabyte() throws {
    let line = "Lenore, Lenore!\n"                                   // 16 bytes
    let text = String(repeating: line, count: 65_536)              // 1 MiB
    var buffer = TextBuffer(text: text)
    let clock = ContinuousClock()
    var count = 0
    let elapsed = try clock.measure { count = try buffer.replaceAll("Lenore", with: "Lenore Lenore") }
    #expect(count == 131_072)
    #expect(buffer.utf8Count == 1_048_576 + 131_072 * 7)
    #expect(elapsed < .seconds(5))
    buffer.undo()
    #expect(buffer.utf8Count == 1_048_576)
    #expect(bytes(buffer.text) == bytes(text))

    var oneLine = TextBuffer(text: String(repeating: "a", count: 1_048_576))
    let elapsed2 = try clock.measure { count = try oneLine.replaceAll("a", with: "ab") }
    #expect(count == 1_048_576)
    #expect(oneLine.utf8Count == 2_097_152)
    #expect(elapsed2 < .seconds(5))
}
