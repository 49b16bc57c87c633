import SnapDetectors
import Testing

/// Each detector with valid, invalid and near-miss values; ranges are UTF-8 bytes of the text.
@Suite struct CardNumberTests {
    @Test(arguments: [
        ("4111111111111111", true), ("4111111111111112", false), ("5555555555554444", true),
        ("378282246310005", true), ("0", true), ("", false), ("4111 1111", false), ("79927398713", true),
    ])
    func luhn(_ digits: String, _ valid: Bool) {
        #expect(CardNumbers.passesLuhn(digits) == valid)
    }

    @Test(arguments: [
        ("4111111111111111", "Visa"), ("4222222222222", "Visa"), ("5555555555554444", "Mastercard"),
        ("2221000000000009", "Mastercard"), ("378282246310005", "American Express"),
        ("6011111111111117", "Discover"), ("30569309025904", "Diners Club"), ("3530111333300000", "JCB"),
        ("6200000000000005", "UnionPay"), ("5018000000000009", "Maestro"),
    ])
    func issuer(_ digits: String, _ issuer: String) {
        #expect(CardNumbers.issuer(of: digits) == issuer)
    }

    @Test func issuerNeedsTheNetworksLength() {
        #expect(CardNumbers.issuer(of: "37828224631000") == nil)  // Amex has 15 digits
        #expect(CardNumbers.issuer(of: "1234567812345670") == nil)
    }

    @Test func validNumbersGroupedOrNot() {
        let text = "Card 4111 1111 1111 1111, or 5555-5555-5555-4444; amex 3782 822463 10005 and 4012888888881881."
        let found = Detectors.detect(in: text).filter { $0.kind == .cardNumber }
        #expect(found.map(\.value) == ["4111111111111111", "5555555555554444", "378282246310005", "4012888888881881"])
        #expect(found.map(\.issuer) == ["Visa", "Mastercard", "American Express", "Visa"])
        #expect(found.allSatisfy { !$0.isNearMiss && $0.note == nil && $0.line == 1 })
        #expect(found[0].range == 5..<24)
        #expect(found[0].text == "4111 1111 1111 1111")
    }

    @Test func oneDigitOffIsANearMissNeverCorrected() {
        let found = Detectors.detect(in: "4111 1111 1111 1112")
        #expect(found.count == 1)
        #expect(found[0].kind == .cardNumber)
        #expect(found[0].isNearMiss)
        #expect(found[0].value == "4111111111111112")
        #expect(found[0].issuer == "Visa")
        #expect(
            found[0].note
                == "almost a card number — check these digits: 4111 1111 1111 1112 fails the Luhn checksum, so one of them is misread"
        )
        #expect(found[0].suspects == [])
    }

    @Test func lettersReadForDigitsAreNamedNotReplaced() {
        // l for 1 and O for 0: the number would pass with 1 and 0, but it is reported as read.
        let found = Detectors.detect(in: "n° 4111 1111 1111 11l1\n5555 5555 5555 4O44")
        #expect(found.count == 2)
        #expect(found.map(\.value) == ["41111111111111l1", "5555555555554O44"])
        #expect(found.allSatisfy { $0.isNearMiss })
        #expect(found[0].note == "almost a card number — check these digits: l (may be 1)")
        #expect(found[0].suspects == [21..<22])  // "n° " is 4 bytes
        #expect(found[1].line == 2)
        #expect(
            found[1].note
                == "almost a card number — check these digits: O (may be 0); even so it fails the Luhn checksum")
    }

    @Test func otherRunsOfDigitsAreNotCards() {
        #expect(Detectors.detect(in: "1234567812345678").isEmpty)  // fails Luhn, no issuer
        #expect(Detectors.detect(in: "12345 67812 34567 0").isEmpty)  // not grouped as cards are
        #expect(Detectors.detect(in: "41111111111111111111").isEmpty)  // 20 digits
        #expect(Detectors.detect(in: "ref4111111111111111").isEmpty)  // inside a word
        #expect(Detectors.detect(in: "Sobbing lilies soil").isEmpty)
    }

    @Test func wordsOfLookAlikeLettersBesideANumberAreNotPartOfIt() {
        let found = Detectors.detect(in: "so 4111 1111 1111 1111 ok")
        #expect(found.map(\.text) == ["4111 1111 1111 1111"])
        #expect(found.first?.range == 3..<22)
        #expect(found.first?.isNearMiss == false)
    }
}

@Suite struct DateTests {
    @Test func expiryDates() {
        let found = Detectors.detect(in: "VALID THRU 09/27  exp 12 / 30; not 13/27 nor 09/27/2025")
        let expiry = found.filter { $0.kind == .expiryDate }
        #expect(expiry.map(\.value) == ["09/27", "12/30"])
        #expect(expiry.map(\.text) == ["09/27", "12 / 30"])
        #expect(expiry[0].range == 11..<16)
        #expect(found.filter { $0.kind == .date }.map(\.value) == ["2025-09-27"])
    }

    @Test(arguments: [
        ("2025-03-14", "2025-03-14"), ("14/03/2025", "2025-03-14"), ("14.03.2025", "2025-03-14"),
        ("03/14/2025", "2025-03-14"), ("14/03/25", "2025-03-14"), ("14 March 2025", "2025-03-14"),
        ("March 14, 2025", "2025-03-14"), ("Mar. 14 2025", "2025-03-14"), ("14 mars 2025", "2025-03-14"),
        ("1er mai 2025", "2025-05-01"), ("29 février 2024", "2024-02-29"), ("3rd Sept 2024", "2024-09-03"),
    ])
    func dates(_ text: String, _ iso: String) {
        let found = Detectors.detect(in: "le " + text + " !")
        #expect(found.map(\.kind) == [.date])
        #expect(found.first?.value == iso)
        #expect(found.first?.text == text)
    }

    @Test(arguments: ["2025-02-30", "31/04/2025", "29 février 2023", "14 Smarch 2025", "2025-13-01", "32.01.2025"])
    func notDates(_ text: String) {
        #expect(Detectors.detect(in: text).filter { $0.kind == .date }.isEmpty)
    }
}

@Suite struct ContactTests {
    @Test func emails() {
        let found = Detectors.detect(in: "Write to Lenore.Smith+poems@Example.CO.uk, or «raven@nevermore.org».")
        #expect(found.map(\.kind) == [.email, .email])
        #expect(found.map(\.value) == ["Lenore.Smith+poems@example.co.uk", "raven@nevermore.org"])
        #expect(found[0].text == "Lenore.Smith+poems@Example.CO.uk")
        #expect(found[0].range == 9..<41)
    }

    @Test(arguments: ["a@b", "@example.com", "name@domain", "name@domain.c", ".name@example.com", "name.@example.com"])
    func notEmails(_ text: String) {
        #expect(Detectors.detect(in: text).filter { $0.kind == .email }.isEmpty)
    }

    @Test func urls() {
        let found = Detectors.detect(
            in: "See https://example.com/poems?id=3, www.lovesnap.org. (http://en.wikipedia.org/wiki/Raven_(poem))")
        #expect(found.map(\.kind) == [.url, .url, .url])
        #expect(
            found.map(\.value) == [
                "https://example.com/poems?id=3", "www.lovesnap.org", "http://en.wikipedia.org/wiki/Raven_(poem)",
            ])
    }

    @Test func notURLs() {
        #expect(Detectors.detect(in: "http:// and www. alone, or xhttp://a.b").filter { $0.kind == .url }.isEmpty)
    }

    @Test(arguments: [
        ("+33 6 12 34 56 78", "+33612345678"), ("+33 (0)1 23 45 67 89", "+33123456789"),
        ("+1 (415) 555-0132", "+14155550132"), ("+44 20 7946 0958", "+442079460958"),
        ("06 12 34 56 78", "+33612345678"), ("01.23.45.67.89", "+33123456789"), ("0612345678", "+33612345678"),
        ("(415) 555-0132", "+14155550132"), ("415-555-0132", "+14155550132"), ("415.555.0132", "+14155550132"),
        ("1-415-555-0132", "+14155550132"),
    ])
    func phones(_ text: String, _ e164: String) {
        let found = Detectors.detect(in: "Tel: " + text + ".")
        #expect(found.map(\.kind) == [.phone])
        #expect(found.first?.value == e164)
        #expect(found.first?.text == text)
        #expect(found.first?.range == 5..<(5 + text.utf8.count))
    }

    @Test(arguments: ["+33 6", "00 12 34 56 78", "06 12 34-56 78", "123-555-0132", "415-155-0132", "06123456789"])
    func notPhones(_ text: String) {
        #expect(Detectors.detect(in: text).filter { $0.kind == .phone }.isEmpty)
    }
}

@Suite struct DetectorsTests {
    @Test func linesAndRangesOfAWholeText() {
        let text = "Cœur à toi,\nappelle le 06 12 34 56 78\navant le 14 mars 2025 — raven@nevermore.org\n"
        let found = Detectors.detect(in: text)
        #expect(found.map(\.kind) == [.phone, .date, .email])
        #expect(found.map(\.line) == [2, 3, 3])
        let bytes = Array(text.utf8)
        for d in found {
            #expect(String(decoding: bytes[d.range], as: UTF8.self) == d.text)
        }
    }

    @Test func aPoemHoldsNothing() {
        let poem = "Lenore, the kettle hums your tune,\nthe curtains blush with early June.\n"
        #expect(Detectors.detect(in: poem).isEmpty)
    }
}
