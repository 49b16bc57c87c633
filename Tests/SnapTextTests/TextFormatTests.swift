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

    /// Write Out's M-L: a Latin-1 file written as UTF-8 changes the encoding of its characters
    /// and nothing else (its DOS line ends and its missing final newline stay), byte for byte;
    /// and back.
    @Test func aLatin1FileWrittenAsUTF8() throws {
        let latin1: [UInt8] = [0x70, 0x6F, 0xE8, 0x6D, 0x65, 0x0D, 0x0A, 0x63, 0x61, 0x66, 0xE9, 0xA0, 0xFF]
        let (content, read) = TextFormat.decodeContent(latin1)
        #expect(read == TextFormat(lineEnding: .dos, encoding: .latin1, addsFinalNewline: false))
        var format = read
        format.encoding = .utf8
        let utf8: [UInt8] = [
            0x70, 0x6F, 0xC3, 0xA8, 0x6D, 0x65, 0x0D, 0x0A, 0x63, 0x61, 0x66, 0xC3, 0xA9, 0xC2, 0xA0, 0xC3, 0xBF,
        ]
        #expect(try format.encode(content) == utf8)
        #expect(String(decoding: utf8, as: UTF8.self) == "poème\r\ncafé\u{A0}ÿ")
        let (again, readAgain) = TextFormat.decodeContent(utf8)
        #expect(readAgain == TextFormat(lineEnding: .dos, addsFinalNewline: false))
        #expect(try read.encode(again) == latin1)
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
                == "\"œ\" (line 2) cannot be written in Latin-1")
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
