import Testing
@testable import SnapText

@Test func nextMatchFromOffsetWraps() throws {
    let buffer = TextBuffer(text: "one two one\nthree one")
    #expect(try buffer.nextMatch(of: "one", from: 0, skippingCurrent: false) == SearchMatch(range: 0..<3, wrapped: false))
    #expect(try buffer.nextMatch(of: "one", from: 0, skippingCurrent: true) == SearchMatch(range: 8..<11, wrapped: false))
    #expect(try buffer.nextMatch(of: "one", from: 9, skippingCurrent: true) == SearchMatch(range: 18..<21, wrapped: false))
    #expect(try buffer.nextMatch(of: "one", from: 18, skippingCurrent: true) == SearchMatch(range: 0..<3, wrapped: true))
    #expect(try buffer.nextMatch(of: "one", from: 18, skippingCurrent: true, wraps: false) == nil)
    #expect(try buffer.nextMatch(of: "four", from: 0, skippingCurrent: false) == nil)
    #expect(throws: SnapTextError.emptySearch) { try buffer.nextMatch(of: "", from: 0, skippingCurrent: false) }
}

@Test func onlyOccurrenceIsFoundAgainAfterWrapping() throws {
    let buffer = TextBuffer(text: "a raven")
    #expect(try buffer.nextMatch(of: "raven", from: 2, skippingCurrent: true) == SearchMatch(range: 2..<7, wrapped: true))
}

@Test func searchIsCaseSensitiveAndLiteral() throws {
    let buffer = TextBuffer(text: "Raven raven r.ven")
    #expect(try buffer.matches(of: "raven") == [6..<11])
    #expect(try buffer.matches(of: "r.ven") == [12..<17])
    #expect(try buffer.matches(of: "\n") == [])
}

@Test func matchesSpanLinesAndRespectRegions() throws {
    let buffer = TextBuffer(text: "ab\nab\nab")
    #expect(try buffer.matches(of: "b\na") == [1..<4, 4..<7])
    #expect(try buffer.matches(of: "ab", startingIn: 1..<7) == [3..<5, 6..<8])
    #expect(try buffer.matches(of: "ab", startingIn: 0..<9, endingBy: 5) == [0..<2, 3..<5])
    #expect(try buffer.firstMatch(of: "ab", startingIn: 4..<100) == 6..<8)
    #expect(try buffer.firstMatch(of: "ab", startingIn: 50..<100) == nil)
}

@Test func matchesAreNonOverlappingLeftToRight() throws {
    let buffer = TextBuffer(text: "aaaa")
    #expect(try buffer.matches(of: "aa") == [0..<2, 2..<4])
}

@Test func emojiModifierAndZWJAreNotSplit() throws {
    let buffer = TextBuffer(text: "👍🏽 👍 👩\u{200D}💻")
    #expect(try buffer.matches(of: "👍") == [9..<13])
    #expect(try buffer.matches(of: "💻") == [])
}
