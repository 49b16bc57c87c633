import Testing

@testable import SnapText

@Test func nextMatchFromOffsetWraps() throws {
    let buffer = TextBuffer(text: "one two one\nthree one")
    #expect(
        try buffer.nextMatch(of: "one", from: 0, skippingCurrent: false) == SearchMatch(range: 0..<3, wrapped: false))
    #expect(
        try buffer.nextMatch(of: "one", from: 0, skippingCurrent: true) == SearchMatch(range: 8..<11, wrapped: false))
    #expect(
        try buffer.nextMatch(of: "one", from: 9, skippingCurrent: true) == SearchMatch(range: 18..<21, wrapped: false))
    #expect(
        try buffer.nextMatch(of: "one", from: 18, skippingCurrent: true) == SearchMatch(range: 0..<3, wrapped: true))
    #expect(try buffer.nextMatch(of: "one", from: 18, skippingCurrent: true, wraps: false) == nil)
    #expect(try buffer.nextMatch(of: "four", from: 0, skippingCurrent: false) == nil)
    #expect(throws: SnapTextError.emptySearch) { try buffer.nextMatch(of: "", from: 0, skippingCurrent: false) }
}

@Test func onlyOccurrenceIsFoundAgainAfterWrapping() throws {
    let buffer = TextBuffer(text: "a raven")
    #expect(
        try buffer.nextMatch(of: "raven", from: 2, skippingCurrent: true) == SearchMatch(range: 2..<7, wrapped: true))
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

@Test func caseInsensitiveSearchFoldsWholeCharacters() throws {
    let buffer = TextBuffer(text: "Raven RAVEN raven\nÉTÉ été E\u{301}TE\u{301}")
    #expect(try buffer.matches(of: "raven") == [12..<17])
    #expect(try buffer.matches(of: "raven", caseSensitive: false) == [0..<5, 6..<11, 12..<17])
    // Canonical equivalence: NFC and NFD spellings find each other.
    #expect(try buffer.matches(of: "été", caseSensitive: false) == [18..<23, 24..<29, 30..<37])
    #expect(try buffer.matches(of: "e\u{301}te\u{301}", caseSensitive: false) == [18..<23, 24..<29, 30..<37])
    #expect(try buffer.matches(of: "raven", startingIn: 1..<17, caseSensitive: false) == [6..<11, 12..<17])
    #expect(try buffer.matches(of: "raven", startingIn: 0..<17, endingBy: 11, caseSensitive: false) == [0..<5, 6..<11])
    #expect(try buffer.firstMatch(of: "RAVEN", startingIn: 7..<40, caseSensitive: false) == 12..<17)
    #expect(
        try buffer.nextMatch(of: "ÉTÉ", from: 30, skippingCurrent: true, caseSensitive: false)
            == SearchMatch(range: 18..<23, wrapped: true))
    // Not inside É or e + U+0301.
    #expect(try buffer.matches(of: "e", caseSensitive: false) == [3..<4, 9..<10, 15..<16])
}

@Test func caseInsensitiveReplaceAll() throws {
    var buffer = TextBuffer(text: "Lenore LENORE lenore")
    let n = try buffer.replaceAll("lenore", with: "Lenore", caseSensitive: false)
    #expect(n == 3)
    #expect(buffer.text == "Lenore Lenore Lenore")
}

@Test func nfdFindsNFCAndTheOtherWayRound() throws {
    let buffer = TextBuffer(text: "forêt, fore\u{302}t, foret")
    #expect(try buffer.matches(of: "fore\u{302}t") == [0..<6, 8..<15])
    #expect(try buffer.matches(of: "for\u{EA}t") == [0..<6, 8..<15])
    #expect(try buffer.matches(of: "foret") == [17..<22])
}

@Test func backwardsSearchFindsThePreviousMatchAndWraps() throws {
    let buffer = TextBuffer(text: "one two one\nthree one")
    #expect(
        try buffer.previousMatch(of: "one", from: 18, skippingCurrent: true)
            == SearchMatch(range: 8..<11, wrapped: false))
    #expect(
        try buffer.previousMatch(of: "one", from: 8, skippingCurrent: true) == SearchMatch(range: 0..<3, wrapped: false)
    )
    #expect(
        try buffer.previousMatch(of: "one", from: 0, skippingCurrent: true)
            == SearchMatch(range: 18..<21, wrapped: true))
    #expect(try buffer.previousMatch(of: "one", from: 0, skippingCurrent: true, wraps: false) == nil)
}

@Test func regularExpressionsMatchLinesAndGroups() throws {
    var buffer = TextBuffer(text: "Lenore Smith\nlenore jones\n")
    #expect(try buffer.matches(of: "^l\\w+", regularExpression: true) == [13..<19])
    #expect(try buffer.matches(of: "^l\\w+", caseSensitive: false, regularExpression: true) == [0..<6, 13..<19])
    #expect(try buffer.matches(of: "(", caseSensitive: true) == [])  // literal: a plain character
    #expect(
        try buffer.replacements(
            for: [0..<12], of: "(\\w+) (\\w+)", template: "$2, \\1 \\\\ $$", regularExpression: true)
            == ["Smith, Lenore \\ $"])
    let n = try buffer.replaceAll("(\\w+) (\\w+)", with: "\\2 $1", regularExpression: true)
    #expect(n == 2)
    #expect(buffer.text == "Smith Lenore\njones lenore\n")
    buffer.undo()
    #expect(buffer.text == "Lenore Smith\nlenore jones\n")
}

@Test func aBadPatternIsAnErrorNotACrash() {
    let buffer = TextBuffer(text: "Lenore")
    #expect(throws: SnapTextError.badRegex(pattern: "a(b", reason: "expected ')'")) {
        try buffer.matches(of: "a(b", regularExpression: true)
    }
    #expect(
        SnapTextError.badRegex(pattern: "a(b", reason: "expected ')'").description == "Bad regex \"a(b\": expected ')'")
}

@Test func accentInsensitiveSearchFindsAccentedAndLigatedLetters() throws {
    let buffer = TextBuffer(text: "cœur, Cœur, coeur, c\u{153}ur; été e\u{301}te\u{301} ete")
    #expect(try buffer.matches(of: "coeur", accentSensitive: false) == [0..<5, 14..<19, 21..<26])
    #expect(
        try buffer.matches(of: "coeur", caseSensitive: false, accentSensitive: false) == [
            0..<5, 7..<12, 14..<19, 21..<26,
        ])
    #expect(try buffer.matches(of: "ete", accentSensitive: false) == [28..<33, 34..<41, 42..<45])
    #expect(try buffer.matches(of: "été", accentSensitive: false) == [28..<33, 34..<41, 42..<45])
    #expect(try buffer.matches(of: "o", accentSensitive: false) == [15..<16])  // not half of œ
}
