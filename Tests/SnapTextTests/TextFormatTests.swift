import Testing

@testable import SnapText

/// Files as nano reads and writes them: bytes → (text, format) → the same bytes.
@Suite struct TextFormatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let text: String
        let format: TextFormat
        var testDescription: String { "\(bytes)" }
    }

    static let roundTrips: [Case] = [
        Case(bytes: Array("a\nb\nc\n".utf8), text: "a\nb\nc\n", format: TextFormat()),
        Case(bytes: Array("a\r\nb\r\nc\r\n".utf8), text: "a\nb\nc\n", format: TextFormat(lineEnding: .dos)),
        Case(bytes: Array("a\rb\rc\r".utf8), text: "a\nb\nc\n", format: TextFormat(lineEnding: .mac)),
        Case(
            bytes: Array("a\r\nb".utf8), text: "a\nb",
            format: TextFormat(lineEnding: .dos, addsFinalNewline: false)),
        Case(bytes: Array("no newline".utf8), text: "no newline", format: TextFormat(addsFinalNewline: false)),
        Case(bytes: [], text: "", format: TextFormat()),
        Case(
            bytes: [0xEF, 0xBB, 0xBF] + Array("bom\r\n".utf8), text: "\u{FEFF}bom\n",
            format: TextFormat(lineEnding: .dos)),
        Case(
            bytes: [0x70, 0x6F, 0xE8, 0x6D, 0x65, 0x0D, 0x0A, 0x80, 0xFF, 0x0D, 0x0A],
            text: "po\u{E8}me\n\u{80}\u{FF}\n",
            format: TextFormat(lineEnding: .dos, encoding: .latin1)),
        // A CR inside a DOS line is not a line end, and stays.
        Case(bytes: Array("a\r\nb\rc\r\n".utf8), text: "a\nb\rc\n", format: TextFormat(lineEnding: .dos)),
    ]

    @Test(arguments: roundTrips)
    func decodesThenEncodesToTheSameBytes(_ c: Case) throws {
        let (text, format) = TextFormat.decode(c.bytes)
        #expect(text == c.text)
        #expect(format == c.format)
        #expect(try format.encode(text) == c.bytes)
    }

    @Test func aFinalNewlineIsAddedUnlessTheFileHadNone() throws {
        #expect(try TextFormat().encode("new poem") == Array("new poem\n".utf8))
        #expect(try TextFormat(lineEnding: .dos).encode("a\nb") == Array("a\r\nb\r\n".utf8))
        #expect(try TextFormat(addsFinalNewline: false).encode("a\nb") == Array("a\nb".utf8))
        #expect(try TextFormat().encode("") == [])
    }

    @Test func latin1RefusesACharacterItCannotHold() {
        #expect(throws: SnapTextError.notEncodable(character: "œ", line: 2, encoding: "Latin-1")) {
            try TextFormat(encoding: .latin1).encode("pomme\nc\u{153}ur\n")
        }
        #expect(
            SnapTextError.notEncodable(character: "œ", line: 2, encoding: "Latin-1").description
                == "\"œ\" (line 2) cannot be written in Latin-1, this file's encoding")
    }

    @Test func theReadNoticeSaysWhatWasConverted() {
        #expect(TextFormat().readNotice == nil)
        #expect(TextFormat(lineEnding: .dos).readNotice == "Converted from DOS format")
        #expect(TextFormat(lineEnding: .mac).readNotice == "Converted from Mac format")
        #expect(
            TextFormat(lineEnding: .dos, encoding: .latin1).readNotice
                == "Converted from DOS format; not UTF-8: read as Latin-1")
    }
}
