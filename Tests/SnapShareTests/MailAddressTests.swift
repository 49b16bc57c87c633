import Foundation
import Testing

@testable import SnapShare

/// RFC 5322 §3.4 address lists as a To prompt or `--mail` takes them.
@Suite struct MailAddressListTests {
    @Test(arguments: [
        ("ana@x.org", ["ana@x.org"]),
        ("ana@x.org, ben@y.org,", ["ana@x.org", "ben@y.org"]),
        (#""Lenore, my love" <l@example.org>"#, [#""Lenore, my love" <l@example.org>"#]),
        (
            #""Lenore, my love" <l@example.org>, "Poe, \"Edgar\" A." <e@x.org>"#,
            [#""Lenore, my love" <l@example.org>"#, #""Poe, \"Edgar\" A." <e@x.org>"#]
        ),
        ("Ana (work, mostly) <a@x.org>, b@y.org", ["Ana (work, mostly) <a@x.org>", "b@y.org"]),
        ("Friends: a@x.org, b@y.org;, c@z.org", ["Friends: a@x.org, b@y.org;", "c@z.org"]),
        ("  ,  , ", []),
        ("a@[192.0.2.1], b@c.d", ["a@[192.0.2.1]", "b@c.d"]),
    ])
    func recipientsSplitAtTheCommasBetweenAddresses(_ field: String, _ entries: [String]) {
        #expect(MailAddress.recipients(in: field) == entries)
    }

    @Test(arguments: [
        ("l@example.org", nil, "l@example.org"),
        (#""Lenore, my love" <l@example.org>"#, "Lenore, my love", "l@example.org"),
        (#""Poe, \"Edgar\"" <e@x.org>"#, #"Poe, "Edgar""#, "e@x.org"),
        ("Éloïse Noël <eloise@example.fr>", "Éloïse Noël", "eloise@example.fr"),
        ("J. Smith <j@x.org>", "J. Smith", "j@x.org"),
        ("Ana (at work) <a@x.org> (note)", "Ana", "a@x.org"),
        ("<bare@x.org>", nil, "bare@x.org"),
        ("  first.last+tag@sub.example.org  ", nil, "first.last+tag@sub.example.org"),
        (#""john doe"@example.org"#, nil, #""john doe"@example.org"#),
        ("a@[192.0.2.1]", nil, "a@[192.0.2.1]"),
    ])
    func parsesMailboxes(_ text: String, _ name: String?, _ address: String) throws {
        #expect(try MailAddress.parse(text) == Mailbox(displayName: name, address: address))
    }

    @Test(arguments: [
        ("a@x.org\r\nBcc: spy@y.org", "contains a line break or control character"),
        ("Lenore\n<l@x.org>", "contains a line break or control character"),
        (
            "Friends: a@x.org, b@y.org;",
            #"is a group ("name: address, …;"), which cannot be mailed to; give the addresses themselves"#
        ),
        (
            "Undisclosed recipients:;",
            #"is a group ("name: address, …;"), which cannot be mailed to; give the addresses themselves"#
        ),
        (#""Lenore <l@x.org>"#, "unbalanced double quote"),
        ("Ana (work <a@x.org>", "unbalanced parenthesis"),
        ("Ana <a@x.org", #"missing ">""#),
        ("Ana <a@x.org> b", #"unexpected text after ">""#),
        ("Lenore l@example.org", "a name needs the address in <…>, as in: Lenore <lenore@example.org>"),
        ("poet", "expected name@domain"),
        ("@x.org", "expected name@domain"),
        ("a@", "expected name@domain"),
        ("a..b@x.org", "expected name@domain"),
        ("élo@x.org", "the address part may hold only ASCII letters, digits and !#$%&'*+-/=?^_`{|}~."),
        ("   ", "empty"),
    ])
    func refusesWithAReason(_ text: String, _ reason: String) {
        #expect(throws: ShareError.invalidAddress(address: text, reason: reason)) { try MailAddress.parse(text) }
    }

    @Test func aListIsParsedWhole() throws {
        #expect(
            try MailAddress.parseList(#""Lenore, my love" <l@example.org>, ben@y.org"#) == [
                Mailbox(displayName: "Lenore, my love", address: "l@example.org"), Mailbox(address: "ben@y.org"),
            ])
        #expect(throws: ShareError.noRecipients) { try MailAddress.parseList(" , ") }
        #expect(throws: ShareError.invalidAddress(address: "b", reason: "expected name@domain")) {
            try MailAddress.parseList("a@x.org, b")
        }
    }

    @Test func displayNamesWithCommasAreQuotedInTheHeader() {
        let message = MailMessage(
            from: "Edgar <e@x.org>", to: [#""Lenore, my love" <l@example.org>"#, "Ana (work) <a@x.org>"],
            subject: "s", body: "", date: Date(timeIntervalSince1970: 0), messageID: "1@x")
        let text = String(decoding: message.rendered(), as: UTF8.self)
        #expect(text.hasPrefix("From: Edgar <e@x.org>\r\nTo: \"Lenore, my love\" <l@example.org>, Ana <a@x.org>\r\n"))
    }

    @Test func composeChecksEveryField() throws {
        let message = try MailMessage.compose(
            body: "x", toField: #""Lenore, my love" <l@example.org>, b@y.org"#, subject: "S", from: "e@x.org")
        #expect(message.to == [#""Lenore, my love" <l@example.org>"#, "b@y.org"])
        #expect(throws: ShareError.noRecipients) {
            try MailMessage.compose(body: "x", toField: "", subject: "S", from: nil)
        }
        #expect(throws: ShareError.invalidHeader(field: "Subject", reason: "contains a line break")) {
            try MailMessage.compose(body: "x", toField: "a@b.c", subject: "S\r\nBcc: z@w", from: nil)
        }
        #expect(
            throws: ShareError.invalidAddress(
                address: "e@x.org\nBcc: z@w", reason: "contains a line break or control character")
        ) {
            try MailMessage.compose(body: "x", toField: "a@b.c", subject: "S", from: "e@x.org\nBcc: z@w")
        }
    }

    @Test func defaultSubjectIsTheFirstNonEmptyLine() {
        #expect(MailMessage.defaultSubject(of: "\n  Annabel Lee  \nIt was") == "Annabel Lee")
        #expect(MailMessage.defaultSubject(of: " \n\t\n") == "")
    }
}

/// Who a mail is from: `--from`, `$EMAIL`, else user@host.
@Suite struct MailSenderTests {
    @Test func optionThenEnvironmentThenUserAtHost() throws {
        let env = ["EMAIL": "Lenore <l@example.org>", "USER": "nobody"]
        #expect(try MailSender.resolve(option: "e@x.org", environment: env, userName: "u", host: "h") == "e@x.org")
        #expect(
            try MailSender.resolve(option: nil, environment: env, userName: "u", host: "h") == "Lenore <l@example.org>")
        #expect(
            try MailSender.resolve(option: nil, environment: ["EMAIL": "  "], userName: "poe", host: "raven.example")
                == "poe@raven.example")
        #expect(try MailSender.resolve(option: nil, environment: ["USER": "ana"], userName: nil, host: "h") == "ana@h")
        // A user name that is not a dot-atom is quoted.
        #expect(
            try MailSender.resolve(option: nil, environment: [:], userName: "jean luc", host: "h") == "\"jean luc\"@h")
    }

    @Test func aBadSenderIsRefused() {
        #expect(
            throws: ShareError.invalidAddress(
                address: "l@example.org\nBcc: spy@x.org", reason: "contains a line break or control character")
        ) {
            try MailSender.resolve(
                option: nil, environment: ["EMAIL": "l@example.org\nBcc: spy@x.org"], userName: "u", host: "h")
        }
        #expect(
            throws: ShareError.invalidAddress(
                address: "a@x.org, b@y.org", reason: "the sender must be one address, not a list")
        ) {
            try MailSender.resolve(option: "a@x.org, b@y.org", environment: [:], userName: "u", host: "h")
        }
    }
}
