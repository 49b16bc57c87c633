import Foundation
import Testing

@testable import SnapShare

/// Decodes a rendered message with python3's `email` package (policy.default) and returns
/// [subject, to, from, content type, charset, transfer encoding, body] as strings.
func pythonDecode(_ raw: [UInt8]) throws -> [String] {
    let script = """
        import sys, json, email, email.policy
        m = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
        print(json.dumps([str(m.get("Subject", "")), str(m.get("To", "")), str(m.get("From", "")),
                          m.get_content_type(), m.get_content_charset() or "",
                          str(m.get("Content-Transfer-Encoding", "")), m.get_content(),
                          str(m.get("MIME-Version", ""))]))
        """
    let out = try run("/usr/bin/env", ["python3", "-c", script], stdin: raw)
    guard out.status == 0 else { throw POSIXError(.EINVAL) }
    return try JSONDecoder().decode([String].self, from: Data(out.stdout.utf8))
}

@Suite struct MailMessageTests {
    let date = Date(timeIntervalSince1970: 1_764_432_780)  // Sat, 29 Nov 2025 16:13:00 UTC

    @Test func dateFollowsRFC5322WithEnglishNames() {
        #expect(
            MailMessage.rfc5322Date(date, timeZone: TimeZone(secondsFromGMT: 0)!)
                == "Sat, 29 Nov 2025 16:13:00 +0000")
        #expect(
            MailMessage.rfc5322Date(date, timeZone: TimeZone(secondsFromGMT: 3600)!)
                == "Sat, 29 Nov 2025 17:13:00 +0100")
        #expect(
            MailMessage.rfc5322Date(
                Date(timeIntervalSince1970: 0), timeZone: TimeZone(secondsFromGMT: -(3 * 3600 + 1800))!)
                == "Wed, 31 Dec 1969 20:30:00 -0330")
    }

    @Test func rendersTheExactHeaderAndBody() {
        let message = MailMessage(
            from: "Edgar Poe <edgar@example.org>",
            to: ["poet@example.org", "Éloïse <eloise@example.fr>"],
            subject: "Lenore", body: "Là-bas\n.\n", date: date,
            messageID: "1.abc@host.example")
        let expected =
            "From: Edgar Poe <edgar@example.org>\r\n"
            + "To: poet@example.org, =?UTF-8?B?w4lsb8Ovc2U=?= <eloise@example.fr>\r\n"
            + "Subject: Lenore\r\n"
            + "Date: \(MailMessage.rfc5322Date(date, timeZone: .current))\r\n"
            + "Message-ID: <1.abc@host.example>\r\n"
            + "MIME-Version: 1.0\r\n"
            + "Content-Type: text/plain; charset=UTF-8\r\n"
            + "Content-Transfer-Encoding: quoted-printable\r\n"
            + "\r\n"
            + "L=C3=A0-bas\r\n=2E\r\n"
        #expect(String(decoding: message.rendered(), as: UTF8.self) == expected)
    }

    @Test func mostlyNonLatinBodyUsesBase64() {
        let message = MailMessage(to: ["poet@example.org"], subject: "詩", body: "詩詩詩\n", date: date, messageID: "x@y")
        let text = String(decoding: message.rendered(), as: UTF8.self)
        #expect(text.contains("Content-Transfer-Encoding: base64\r\n\r\n6Kmp6Kmp6KmpDQo=\r\n"))
    }

    @Test func generatedMessageIDsAreUniqueWithTheHostDomain() {
        let a = MailMessage(to: ["a@b.c"], subject: "", body: "")
        let b = MailMessage(to: ["a@b.c"], subject: "", body: "")
        #expect(a.messageID != b.messageID)
        #expect(a.messageID.hasSuffix("@" + MailMessage.hostDomain()))
        #expect(!MailMessage.hostDomain().isEmpty)
    }

    @Test func headerInjectionIsRejected() {
        let badTo = MailMessage(to: ["poet@example.org\r\nBcc: spy@example.net"], subject: "Hi", body: "")
        #expect(
            throws: ShareError.invalidAddress(
                address: "poet@example.org\r\nBcc: spy@example.net",
                reason: "contains a line break or control character")
        ) {
            try badTo.validate()
        }
        let badSubject = MailMessage(to: ["poet@example.org"], subject: "Hi\nBcc: spy@example.net", body: "")
        #expect(throws: ShareError.invalidHeader(field: "Subject", reason: "contains a line break")) {
            try badSubject.validate()
        }
        // Even unvalidated, rendering never lets the injected line through.
        for message in [badTo, badSubject] {
            let text = String(decoding: message.rendered(), as: UTF8.self)
            #expect(!text.contains("\nBcc:"))
        }
        #expect(throws: ShareError.noRecipients) { try MailMessage(to: [], subject: "", body: "").validate() }
        #expect(throws: ShareError.invalidAddress(address: "poet", reason: "expected name@domain")) {
            try MailMessage(to: ["poet"], subject: "", body: "").validate()
        }
        #expect(throws: Never.self) {
            try MailMessage(from: "\"Poe, Edgar\" <e@x.org>", to: ["Éloïse <e@x.fr>"], subject: "s", body: "")
                .validate()
        }
    }

    @Test func invalidAddressWording() {
        #expect(
            ShareError.invalidAddress(address: "a@b\r\nBcc: c", reason: "contains a line break or control character")
                .description
                == "invalid mail address \"a@b\\r\\nBcc: c\": contains a line break or control character")
    }

    @Test(
        .enabled(if: python3Available, "python3 with the email package is the independent decoder"),
        arguments: [
            "Là-bas où dort la forêt,\n.\nFrom here\ntrailing   \n" + String(repeating: "Lenore ", count: 200)
                + "\nfin — 詩 🌙",
            "詩" + String(repeating: "詩歌", count: 300) + "\n\n",
            "",
            "crlf\r\nlines\r\n",
        ])
    func pythonDecodesBodyAndHeadersExactly(_ body: String) throws {
        let message = MailMessage(
            from: "\"Poe, Edgar\" <edgar@example.org>",
            to: ["poet@example.org", "Éloïse Noël <eloise@example.fr>"],
            subject: "Poème d'été — Lenore $(touch PWNED) `id` ;", body: body)
        let raw = message.rendered()
        #expect(raw.allSatisfy { $0 < 0x80 })
        for line in String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 78)
        }
        let decoded = try pythonDecode(raw)
        #expect(decoded[0] == message.subject)
        #expect(decoded[1] == "poet@example.org, Éloïse Noël <eloise@example.fr>")
        #expect(decoded[2] == "\"Poe, Edgar\" <edgar@example.org>")
        #expect(decoded[3] == "text/plain")
        #expect(decoded[4] == "utf-8")
        #expect(
            decoded[6].replacingOccurrences(of: "\r\n", with: "\n") == body.replacingOccurrences(of: "\r\n", with: "\n")
        )
    }
}
