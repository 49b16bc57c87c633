import Foundation
import Testing

@testable import SnapShare

@Suite struct QuotedPrintableTests {
    @Test(arguments: [
        ("", ""),
        ("Hello, world", "Hello, world=\r\n"),  // no final newline: soft break
        ("a=b\n", "a=3Db\r\n"),
        ("line\r\nnext\n", "line\r\nnext\r\n"),  // CRLF and LF are both line ends
        ("a\rb\n", "a=0Db\r\n"),  // a lone CR is data
        ("trailing  \n", "trailing =20\r\n"),
        ("tab\t\n", "tab=09\r\n"),
        ("in side\n", "in side\r\n"),
        (".\n", "=2E\r\n"),
        ("..x\n", "=2E.x\r\n"),
        ("From the depths\n", "=46rom the depths\r\n"),
        ("Fromage\n", "Fromage\r\n"),
        ("a From b\n", "a From b\r\n"),
        ("été\n", "=C3=A9t=C3=A9\r\n"),
        ("\n\n", "\r\n\r\n"),
        ("🌙", "=F0=9F=8C=99=\r\n"),
    ])
    func vectors(_ input: String, _ expected: String) {
        #expect(MIMEEncoding.quotedPrintable(Array(input.utf8)) == expected)
    }

    @Test func softBreaksKeepLinesAt76() {
        let a = { (n: Int) in String(repeating: "a", count: n) }
        #expect(MIMEEncoding.quotedPrintable(Array((a(76) + "\n").utf8)) == a(76) + "\r\n")
        #expect(MIMEEncoding.quotedPrintable(Array((a(77) + "\n").utf8)) == a(75) + "=\r\n" + a(2) + "\r\n")
        // An escape is never split, and the last token of a line may reach column 76.
        #expect(MIMEEncoding.quotedPrintable(Array((a(73) + "é\n").utf8)) == a(73) + "=\r\n=C3=A9\r\n")
        #expect(MIMEEncoding.quotedPrintable(Array((a(73) + "=\n").utf8)) == a(73) + "=3D\r\n")
        // A "." or "From " that lands at the start of a continuation line is escaped too.
        #expect(MIMEEncoding.quotedPrintable(Array((a(75) + ".x\n").utf8)) == a(75) + "=\r\n=2Ex\r\n")
        #expect(MIMEEncoding.quotedPrintable(Array((a(75) + "From x\n").utf8)) == a(75) + "=\r\n=46rom x\r\n")
        // A blank may open a continuation line; one before a soft break is followed by "=".
        #expect(MIMEEncoding.quotedPrintable(Array((a(75) + " b\n").utf8)) == a(75) + "=\r\n b\r\n")
        #expect(MIMEEncoding.quotedPrintable(Array((a(74) + " bc\n").utf8)) == a(74) + " =\r\nbc\r\n")
    }
}

@Suite struct Base64Tests {
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),  // RFC 4648 §10
        ("詩詩詩", "6Kmp6Kmp6Kmp"),
    ])
    func rfc4648Vectors(_ input: String, _ expected: String) {
        #expect(MIMEEncoding.base64(Array(input.utf8), lineLength: 0) == expected)
        #expect(MIMEEncoding.base64(Array(input.utf8)) == (expected.isEmpty ? "" : expected + "\r\n"))
    }

    @Test func bodyLinesAre76AndMatchFoundation() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let ours = MIMEEncoding.base64(data)
        let foundation = Data(data).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
        #expect(ours == foundation + "\r\n")
        #expect(MIMEEncoding.base64(Array(repeating: 0x41, count: 57)) == String(repeating: "QUFB", count: 19) + "\r\n")
    }
}

/// An independent, minimal RFC 2047 decoder for unstructured header text (UTF-8 only).
func decodeEncodedWords(_ header: String) -> String? {
    let unfolded = header.replacingOccurrences(of: "\r\n", with: "")
    var octets: [UInt8] = []
    var previousWasWord = false
    var pendingSpace = ""
    for token in unfolded.components(separatedBy: " ") {
        if token.hasPrefix("=?"), token.hasSuffix("?="), token.count >= 8 {
            let parts = token.dropFirst(2).dropLast(2).split(separator: "?", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].uppercased() == "UTF-8" else { return nil }
            if !previousWasWord { octets += Array(pendingSpace.utf8) }
            if parts[1].uppercased() == "B" {
                guard let data = Data(base64Encoded: String(parts[2])) else { return nil }
                octets += data
            } else {
                var chars = Array(parts[2].utf8)[...]
                while let c = chars.popFirst() {
                    if c == UInt8(ascii: "_") {
                        octets.append(0x20)
                    } else if c == UInt8(ascii: "=") {
                        guard chars.count >= 2,
                            let v = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16)
                        else { return nil }
                        octets.append(v)
                        chars = chars.dropFirst(2)
                    } else {
                        octets.append(c)
                    }
                }
            }
            previousWasWord = true
        } else {
            octets += Array((pendingSpace + token).utf8)
            previousWasWord = false
        }
        pendingSpace = " "
    }
    return String(bytes: octets, encoding: .utf8)
}

@Suite struct EncodedWordTests {
    @Test func shortVectors() {
        // Q or B, whichever is shorter (Q on a tie), like Python's email.charset.
        #expect(MIMEEncoding.encodedWords("Lenore, ô Lenore") == ["=?UTF-8?Q?Lenore=2C_=C3=B4_Lenore?="])
        #expect(MIMEEncoding.encodedWords("é") == ["=?UTF-8?B?w6k=?="])
        #expect(MIMEEncoding.encodedWords("a b_c=?") == ["=?UTF-8?B?YSBiX2M9Pw==?="])
        #expect(MIMEEncoding.encodedWords("詩詩詩") == ["=?UTF-8?B?6Kmp6Kmp6Kmp?="])
    }

    @Test(arguments: [
        "Poème d'été — Lenore $(touch PWNED) `id` ;",
        String(repeating: "Noël à Château-d'Œx, 詩 🌙 ", count: 12),
        "  leading and trailing spaces  ",
        "looks like =?UTF-8?Q?an_encoded_word?= but is not",
        "tab\there",
    ])
    func subjectRoundTrips(_ subject: String) throws {
        let message = MailMessage(to: ["poet@example.org"], subject: subject, body: "")
        let text = String(decoding: message.rendered(), as: UTF8.self)
        let headerBlock = String(text[..<text.range(of: "\r\n\r\n")!.lowerBound])
        let lines = headerBlock.components(separatedBy: "\r\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("Subject:") })
        var field = [lines[start]]
        for line in lines[(start + 1)...] { if line.hasPrefix(" ") { field.append(line) } else { break } }
        for line in field { #expect(line.utf8.count <= 78) }
        #expect(headerBlock.utf8.allSatisfy { $0 < 0x80 })
        let raw = field.joined(separator: "\r\n").dropFirst("Subject: ".count)
        for word in raw.replacingOccurrences(of: "\r\n", with: "").split(separator: " ") where word.hasPrefix("=?") {
            #expect(word.count <= 75)
        }
        #expect(decodeEncodedWords(String(raw)) == subject)
    }

    @Test func plainAsciiSubjectStaysReadableAndFolds() {
        let words = (1...30).map { "word\($0)" }.joined(separator: " ")
        let message = MailMessage(to: ["poet@example.org"], subject: words, body: "")
        let text = String(decoding: message.rendered(), as: UTF8.self)
        #expect(
            text.contains(
                "\r\nSubject: word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11\r\n word12 "))
    }
}
