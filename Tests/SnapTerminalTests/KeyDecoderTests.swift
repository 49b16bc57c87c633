import SnapTerminal
import Testing

/// Feeds `bytes` to a fresh decoder, then flushes it (as the terminal does once input goes quiet).
private func keys(_ bytes: [UInt8]) -> [KeyEvent] {
    var decoder = KeyDecoder()
    let events = decoder.feed(bytes)
    return events + decoder.flush()
}

private func keys(_ text: String) -> [KeyEvent] { keys(Array(text.utf8)) }

private let esc: UInt8 = 0x1B

// MARK: - Text and control bytes

@Test func plainTextIsOneCharacterPerGrapheme() {
    #expect(keys("Lenore") == "Lenore".map { .character($0) })
    #expect(keys("été 見") == [.character("é"), .character("t"), .character("é"), .character(" "), .character("見")])
}

@Test func aCharacterIsHeldUntilTheNextByteOrAFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.pendingTimeout == nil)
    #expect(decoder.feed(Array("a".utf8)) == [])
    #expect(decoder.pendingTimeout == 0)  // only what is already there may join it
    #expect(decoder.feed(Array("b".utf8)) == [.character("a")])
    #expect(decoder.flush() == [.character("b")])
    #expect(decoder.pendingTimeout == nil)
    #expect(decoder.flush() == [])
}

@Test(arguments: [
    (UInt8(0x0D), KeyEvent.enter), (0x09, .tab), (0x7F, .backspace), (0x08, .backspace),
    (0x03, .control("c")), (0x0F, .control("o")), (0x17, .control("w")), (0x1C, .control("\\")),
    (0x18, .control("x")), (0x0A, .control("j")), (0x00, .control(" ")), (0x1F, .control("_")),
])
func controlBytesAreKeys(byte: UInt8, key: KeyEvent) {
    var decoder = KeyDecoder()
    #expect(decoder.feed(byte) == [key])  // at once: nothing to wait for
    #expect(decoder.pendingTimeout == nil)
}

@Test func aControlByteSendsTheHeldCharacterFirst() {
    #expect(keys([0x61, 0x0D, 0x62]) == [.character("a"), .enter, .character("b")])
}

// MARK: - Combining marks

@Test func aBaseAndItsCombiningAccentAreOneCharacter() {
    // "e" + U+0301 COMBINING ACUTE ACCENT, "n" + U+0303 + U+0323 (two marks), then "x".
    let events = keys(Array("e\u{301}n\u{303}\u{323}x".utf8))
    #expect(events == [.character("e\u{301}"), .character("n\u{303}\u{323}"), .character("x")])
    #expect(events.first.map { if case .character(let c) = $0 { c.unicodeScalars.count } else { 0 } } == 2)
}

@Test func combiningMarksSplitAcrossFeedsStillJoin() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("e".utf8)) == [])
    #expect(decoder.feed([0xCC]) == [])  // first byte of U+0308
    #expect(decoder.feed([0x88]) == [])
    #expect(decoder.flush() == [.character("e\u{308}")])
}

@Test func aMarkAfterAFlushIsACharacterOfItsOwn() {
    var decoder = KeyDecoder()
    _ = decoder.feed(Array("e".utf8))
    #expect(decoder.flush() == [.character("e")])
    #expect(decoder.feed(Array("\u{308}".utf8)) == [])
    #expect(decoder.flush() == [.character("\u{308}")])  // the editor's buffer joins it to the e
}

@Test func emojiSequencesAreOneCharacter() {
    #expect(keys("👩‍💻🇫🇷") == [.character("👩‍💻"), .character("🇫🇷")])
}

// MARK: - Invalid UTF-8

@Test func invalidUTF8IsReplacedNeverACrash() {
    #expect(keys([0x41, 0xFF, 0x42]) == [.character("A"), .character("\u{FFFD}"), .character("B")])
    #expect(keys([0x80]) == [.character("\u{FFFD}")])  // a lone continuation byte
    #expect(keys([0xC0, 0xAF]) == [.character("\u{FFFD}"), .character("\u{FFFD}")])  // overlong "/"
    #expect(keys([0xED, 0xA0, 0x80]) == Array(repeating: .character("\u{FFFD}"), count: 3))  // a surrogate
    #expect(keys([0xF4, 0x90, 0x80, 0x80]) == Array(repeating: .character("\u{FFFD}"), count: 4))  // > U+10FFFF
    // A character cut short by another one: U+FFFD for the cut part, the next one intact.
    #expect(keys([0xE2, 0x82, 0xC3, 0xA9]) == [.character("\u{FFFD}"), .character("é")])
    // … or by a control byte, which stays a key.
    #expect(keys([0xC3, 0x0D]) == [.character("\u{FFFD}"), .enter])
    #expect(keys([0xC3, esc, 0x75]) == [.character("\u{FFFD}"), .meta("u")])
}

@Test func anUnfinishedCharacterWaitsThenIsReplaced() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0xE2, 0x82]) == [])
    #expect(decoder.pendingTimeout == KeyDecoder.sequenceTimeout)
    #expect(decoder.flush() == [.character("\u{FFFD}")])
}

@Test func everyByteSequenceDecodesWithoutTrapping() {
    // All two-byte sequences, each after a lead byte state: no trap, and the decoder ends idle.
    for first in UInt8.min...UInt8.max {
        for second in UInt8.min...UInt8.max {
            var decoder = KeyDecoder()
            _ = decoder.feed([first, second, 0xE2, first, second])
            _ = decoder.flush()
            #expect(decoder.pendingTimeout == nil)
        }
    }
}

// MARK: - Esc and Meta

@Test func aLoneEscapeWaitsThenIsEscape() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(esc) == [])
    #expect(decoder.pendingTimeout == KeyDecoder.escapeTimeout)
    #expect(decoder.flush() == [.escape])
    #expect(decoder.pendingTimeout == nil)
}

@Test func escapeThenAKeyIsMeta() {
    #expect(keys([esc, 0x75]) == [.meta("u")])  // Esc u: M-U
    #expect(keys([esc, 0x55]) == [.meta("u")])  // Esc U: letters lowercased
    #expect(keys([esc, 0x6D]) == [.meta("m")])
    #expect(keys([esc, 0x5C]) == [.meta("\\")])  // M-\
    #expect(keys([esc, 0x2F]) == [.meta("/")])
    // M-Space (the alternatives menu): one key, which a question ignores, not Esc (its cancel)
    // and a space typed into the text.
    #expect(keys([esc, 0x20]) == [.meta(" ")])
    #expect(keys([esc] + Array("É".utf8)) == [.meta("é")])  // Alt + a non-ASCII key
    #expect(keys([esc, 0xFF]) == [.meta("\u{FFFD}")])
}

@Test func escapeThenAControlKeyIsTwoKeys() {
    #expect(keys([esc, 0x0D]) == [.escape, .enter])
    #expect(keys([esc, 0x7F]) == [.escape, .backspace])
    #expect(keys([esc, esc]) == [.escape, .escape])
    #expect(keys([esc, esc, 0x75]) == [.escape, .meta("u")])
}

@Test func escapeSendsAHeldCharacterFirst() {
    #expect(keys([0x61, esc, 0x65]) == [.character("a"), .meta("e")])
}

// MARK: - CSI and SS3

@Test(arguments: [
    ("[A", KeyEvent.up), ("[B", .down), ("[C", .right), ("[D", .left), ("[H", .home), ("[F", .end),
    ("OA", .up), ("OB", .down), ("OC", .right), ("OD", .left), ("OH", .home), ("OF", .end), ("OM", .enter),
    ("[1~", .home), ("[7~", .home), ("[4~", .end), ("[8~", .end), ("[2~", .insert), ("[3~", .delete),
    ("[5~", .pageUp), ("[6~", .pageDown), ("[Z", .backTab),
    ("OP", .function(1)), ("OQ", .function(2)), ("OR", .function(3)), ("OS", .function(4)),
    ("[11~", .function(1)), ("[15~", .function(5)), ("[17~", .function(6)), ("[21~", .function(10)),
    ("[23~", .function(11)), ("[24~", .function(12)), ("[26~", .function(14)), ("[34~", .function(20)),
    ("[[A", .function(1)), ("[[E", .function(5)),
])
func sequencesAreKeys(sequence: String, key: KeyEvent) {
    #expect(keys([esc] + Array(sequence.utf8)) == [key], "ESC \(sequence)")
}

@Test(arguments: [
    ("[1;5C", KeyEvent.modified(.right, .control)), ("[1;5D", .modified(.left, .control)),
    ("[1;2A", .modified(.up, .shift)), ("[1;3B", .modified(.down, .alt)),
    ("[1;6H", .modified(.home, [.control, .shift])), ("[1;5F", .modified(.end, .control)),
    ("[5;5~", .modified(.pageUp, .control)), ("[6;2~", .modified(.pageDown, .shift)),
    ("[3;5~", .modified(.delete, .control)), ("[3;3~", .modified(.delete, .alt)),
    ("O5C", .modified(.right, .control)), ("[a", .modified(.up, .shift)), ("[d", .modified(.left, .shift)),
    // Function keys are numbered on, as ncurses does: Shift+F2 is F14 (nano's Replace).
    ("[1;2Q", .function(14)), ("[15;2~", .function(17)), ("[1;5P", .function(25)), ("[1;3P", .function(49)),
    ("[1;4R", .function(63)), ("[1;4S", .modified(.function(4), [.alt, .shift])),
])
func modifiersAreKept(sequence: String, key: KeyEvent) {
    #expect(keys([esc] + Array(sequence.utf8)) == [key], "ESC \(sequence)")
}

@Test func sequencesArriveOneByteAtATime() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(esc) == [])
    #expect(decoder.feed(UInt8(ascii: "[")) == [])
    #expect(decoder.pendingTimeout == KeyDecoder.sequenceTimeout)
    #expect(decoder.feed(UInt8(ascii: "1")) == [])
    #expect(decoder.feed(UInt8(ascii: ";")) == [])
    #expect(decoder.feed(UInt8(ascii: "5")) == [])
    #expect(decoder.feed(UInt8(ascii: "C")) == [.modified(.right, .control)])
    #expect(decoder.pendingTimeout == nil)
}

@Test func severalKeysInOneRead() {
    #expect(
        keys([0x61, esc, 0x5B, 0x41, esc, 0x5B, 0x42, 0x62, esc, 0x75])
            == [.character("a"), .up, .down, .character("b"), .meta("u")])
}

@Test func unknownOrBrokenSequencesAreDropped() {
    #expect(keys([esc] + Array("[?25h".utf8)) == [])  // private parameters
    #expect(keys([esc] + Array("[99~x".utf8)) == [.character("x")])
    #expect(keys([esc] + Array("[I".utf8)) == [])  // focus in
    #expect(keys([esc] + Array("[1;5".utf8)) == [])  // cut short by silence
    #expect(keys([esc, 0x5B, 0x31, 0x0D]) == [.enter])  // cut short by a control byte
    #expect(
        keys([esc, 0x5B] + Array(repeating: 0x31, count: 20) + [0x41])
            == [.character("1"), .character("1"), .character("1"), .character("1"), .character("A")])
}

@Test func escapeOThenSomethingElseIsMetaO() {
    #expect(keys([esc, 0x4F]) == [.meta("o")])  // M-O, then silence
    #expect(keys([esc, 0x4F, 0x78]) == [.meta("o"), .character("x")])
    #expect(keys([esc, 0x4F, 0x35]) == [.meta("o"), .character("5")])
}

// MARK: - Bracketed paste

@Test func bracketedPasteIsTextNotKeys() {
    let body: [UInt8] = Array("^X Lenore\r\nM-U \u{1B}[A é\rend".utf8)
    let events = keys([esc] + Array("[200~".utf8) + body + [esc] + Array("[201~".utf8) + [0x7A])
    #expect(events == [.paste("^X Lenore\nM-U \u{1B}[A é\nend"), .character("z")])
}

@Test func pasteWaitsForItsEndMarker() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([esc] + Array("[200~ab".utf8)) == [])
    #expect(decoder.pendingTimeout == KeyDecoder.pasteTimeout)
    #expect(decoder.feed([0x0D, esc, 0x5B, 0x32, 0x30]) == [])  // half an end marker
    #expect(decoder.feed([0x31, 0x7E]) == [.paste("ab\n")])
    #expect(decoder.pendingTimeout == nil)
}

@Test func aPasteWithoutItsEndIsDeliveredOnFlush() {
    var decoder = KeyDecoder()
    _ = decoder.feed([esc] + Array("[200~".utf8) + [0x41, 0xFF, 0x0A])
    #expect(decoder.flush() == [.paste("A\u{FFFD}\n")])
}

@Test func emptyPaste() {
    #expect(keys([esc] + Array("[200~".utf8) + [esc] + Array("[201~".utf8)) == [.paste("")])
}

// MARK: - Helpers on KeyEvent

@Test func metaForLowercasesLetters() {
    #expect(KeyEvent.meta(for: "U") == .meta("u"))
    #expect(KeyEvent.meta(for: "É") == .meta("é"))
    #expect(KeyEvent.meta(for: "/") == .meta("/"))
}
