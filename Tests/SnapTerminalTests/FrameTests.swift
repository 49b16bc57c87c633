import SnapTerminal
import Testing

@Test(arguments: [
    (UInt32(0x09), KeyEvent.tab), (0x0D, .enter), (0x7F, .backspace), (0x08, .backspace), (0x1B, .escape),
    (0x03, .control("c")), (0x17, .control("w")), (0x1C, .control("\\")), (0x18, .control("x")),
    (0x0A, .control("j")), (0x00, .control(" ")), (0x1F, .control("_")),
])
func controlBytesDecode(byte: UInt32, key: KeyEvent) {
    #expect(KeyEvent.fromControlByte(byte) == key)
}

@Test func printableBytesAreNotControlKeys() {
    #expect(KeyEvent.fromControlByte(0x41) == nil)
    #expect(KeyEvent.fromControlByte(0x20) == nil)
}

@Test func frameNeverHoldsHalfAWideCharacter() {
    var frame = Frame(size: TerminalSize(rows: 2, columns: 4))
    do {
        let ok = frame.put("見", width: 2, row: 0, column: 3)
        #expect(ok == false)
    }  // last column: does not fit
    do {
        let ok = frame.put("見", width: 2, row: 0, column: 1)
        #expect(ok)
    }
    #expect(frame.text(ofRow: 0) == " 見 ")
    #expect(frame[0, 2] == Cell(content: "", width: 0))
    do {
        let ok = frame.put("x", row: 0, column: 2)
        #expect(ok)
    }  // over its right half
    #expect(frame.text(ofRow: 0) == "  x ")
    #expect(frame[0, 1] == Cell.blank())
    do {
        let ok = frame.put("見", width: 2, row: 1, column: 0)
        #expect(ok)
    }
    do {
        let ok = frame.put("y", row: 1, column: 0)
        #expect(ok)
    }  // over its left half
    #expect(frame.text(ofRow: 1) == "y   ")
    do {
        let ok = frame.put("z", row: 2, column: 0)
        #expect(ok == false)
    }  // outside
    do {
        let ok = frame.put("z", row: 0, column: -1)
        #expect(ok == false)
    }
    frame.setStyle(.reverse, row: 0, columns: 3..<99)
    frame.setStyle(.reverse, row: 0, columns: 7..<9)  // right of the frame: nothing
    frame.setStyle(.reverse, row: 5, columns: 0..<4)  // below the frame: nothing
    #expect((0..<4).map { frame[0, $0].style } == [.normal, .normal, .normal, .reverse])
}

@Test func emptyFrames() {
    let frame = Frame(size: TerminalSize(rows: -3, columns: 5))
    #expect(frame.size == TerminalSize(rows: 0, columns: 5))
    #expect(frame.cells.isEmpty)
    #expect(frame.text == "")
}
