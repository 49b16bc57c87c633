import SnapTestSupport
import Testing

@testable import SnapText

/// Where End puts the cursor on each line of grapheme-cursor.txt (1-based screen columns, wcwidth:
/// wide CJK and the emoji 2, a combining mark 0, TAB to the next multiple of 8).
private let graphemeCursorEndColumns = [19, 19, 17, 18, 13, 17]

@Test func endColumnsUseWcwidth() throws {
    let buffer = TextBuffer(text: try Fixtures.text("grapheme-cursor.txt"))
    #expect(buffer.writtenLineCount == graphemeCursorEndColumns.count)
    for (i, column) in graphemeCursorEndColumns.enumerated() {
        let end = TextPosition(line: i, column: buffer.characterCount(inLine: i))
        #expect(buffer.displayColumn(of: end) + 1 == column, "line \(i + 1)")
    }
}

@Test func widthsPerCharacter() {
    #expect(DisplayWidth.of("a") == 1)
    #expect(DisplayWidth.of("\u{E9}") == 1)
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.of("見") == 2)
    #expect(DisplayWidth.of("🌙") == 2)
    #expect(DisplayWidth.of("\u{301}") == 1)  // a lone mark is drawn on a space
    #expect(DisplayWidth.of("\u{1}") == 2)  // ^A
    #expect(DisplayWidth.of("\t", atColumn: 0) == 8)
    #expect(DisplayWidth.of("\t", atColumn: 3) == 5)
    #expect(DisplayWidth.of("\t", atColumn: 8) == 8)
    #expect(DisplayWidth.of("tab\there") == 12)
    #expect(DisplayWidth.columns(of: Array("a見\tb")) == [0, 1, 3, 8, 9])
}

@Test func movementIsByGraphemeCluster() {
    var buffer = TextBuffer(text: "e\u{301}t🌙\nxy")
    buffer.moveRight()
    #expect(buffer.cursor == TextPosition(line: 0, column: 1))
    #expect(buffer.offset(of: buffer.cursor) == 3)  // after e + U+0301, never between them
    buffer.moveRight()
    buffer.moveRight()
    #expect(buffer.offset(of: buffer.cursor) == 8)  // after the 4-byte moon
    buffer.moveRight()
    #expect(buffer.cursor == TextPosition(line: 1, column: 0))
    buffer.moveLeft()
    #expect(buffer.cursor == TextPosition(line: 0, column: 3))
    buffer.deleteBackward()
    #expect(bytes(buffer.text) == bytes("e\u{301}t\nxy"))
    buffer.moveToLineStart()
    buffer.deleteForward()
    #expect(bytes(buffer.text) == bytes("t\nxy"))
}

@Test func verticalMovesKeepTheScreenColumn() {
    var buffer = TextBuffer(text: "見見見\nabcdef\nab\n\tx")
    buffer.moveCursor(to: TextPosition(line: 1, column: 5))  // screen column 5
    buffer.moveUp()
    #expect(buffer.cursor == TextPosition(line: 0, column: 2))  // 見 at column 4 starts at or before 5
    buffer.moveDown()
    #expect(buffer.cursor == TextPosition(line: 1, column: 5))
    buffer.moveDown()
    #expect(buffer.cursor == TextPosition(line: 2, column: 2))  // short line: its end
    buffer.moveDown()
    #expect(buffer.cursor == TextPosition(line: 3, column: 0))  // inside the TAB: on it
    buffer.moveUp()
    buffer.moveUp()
    #expect(buffer.cursor == TextPosition(line: 1, column: 5))  // the wanted column was kept
}

@Test func positionsAndOffsetsConvert() {
    let buffer = TextBuffer(text: "é\n見x\n")
    #expect(buffer.offset(of: TextPosition(line: 1, column: 1)) == 6)
    #expect(buffer.position(ofOffset: 6) == TextPosition(line: 1, column: 1))
    #expect(buffer.position(ofOffset: 8) == TextPosition(line: 2, column: 0))
    #expect(buffer.startOffset(ofLine: 2) == 8)
    #expect(buffer.clamped(TextPosition(line: 9, column: 9)) == TextPosition(line: 2, column: 0))
    #expect(buffer.text(inUTF8: 0..<6) == "é\n見")
}
