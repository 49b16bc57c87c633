import Foundation
import SnapTestSupport
import Testing

/// `lovesnap ocr --json` (schema version 1) and `--region`, with the real binary and Tesseract on
/// `card-specimen.png` (made by Tests/Fixtures/make_fixtures.py): a Visa specimen number that
/// passes the Luhn checksum, a Mastercard one that fails it by one digit, an expiry date, an
/// e-mail address and a phone number, on a card lying on a grey table.
@Suite struct JSONAndRegionTests {
    static let card = TestPaths.fixture("card-specimen.png")
    static let cardText =
        "LOVEINASNAP BANK\n\n4111 1111 1111 1111\n5555 5555 5555 4445\nVALID THRU 09/27\nLENORE RAVEN\n"
        + "raven@nevermore.org +33 6 12 34 56 78\n"

    func document(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let r = try lovesnap(["ocr", "--json"] + arguments)
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    /// Several photos give one document per photo, one per line (JSON Lines, issue 43: it was
    /// a usage error), in the order given, each the document that photo alone gives.
    @Test func severalPhotosGiveJSONLines() throws {
        let kettle = TestPaths.sample("kettle.png")
        let r = try lovesnap(["ocr", "--json", kettle, Self.card])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(try lovesnap(["ocr", "--json", kettle]).stdout == lines[0] + "\n")
        #expect(try lovesnap(["ocr", "--json", Self.card]).stdout == lines[1] + "\n")
        let bad = try lovesnap(["ocr", "--json", "--format", "hocr", kettle])
        #expect(bad.status == 2)
        #expect(bad.stderr == "lovesnap: --json cannot be combined with --format or --replace\n")
    }

    @Test func theCardsDataAreDetected() throws {
        let doc = try document([Self.card])
        #expect(doc["version"] as? Int == 1)
        #expect(doc["photo"] as? String == "card-specimen.png")
        #expect(doc["text"] as? String == Self.cardText)
        #expect(doc["rotation"] as? Int == 0)
        #expect(doc["region"] is NSNull)
        #expect(doc["notes"] as? [String] == ["page found and straightened"])
        #expect(doc["uncertainBelow"] as? Double == 88)
        let found = try #require(doc["detections"] as? [[String: Any]])
        #expect(found.map { $0["kind"] as? String } == ["cardNumber", "cardNumber", "expiryDate", "email", "phone"])
        #expect(
            found.map { $0["value"] as? String } == [
                "4111111111111111", "5555555555554445", "09/27", "raven@nevermore.org", "+33612345678",
            ])
        #expect(found.map { $0["line"] as? Int } == [3, 4, 5, 7, 7])
        #expect(found.map { $0["nearMiss"] as? Bool } == [false, true, false, false, false])
        #expect(found[0]["issuer"] as? String == "Visa")
        #expect(found[1]["issuer"] as? String == "Mastercard")
        #expect(found[2]["issuer"] is NSNull)
        #expect(found[0]["note"] is NSNull)
        #expect(
            found[1]["note"] as? String
                == "almost a card number — check these digits: 5555 5555 5555 4445 fails the Luhn checksum, so one of them is misread"
        )
        #expect(found[0]["range"] as? [Int] == [18, 37])
        #expect(found[0]["text"] as? String == "4111 1111 1111 1111")
    }

    @Test func wordBoxesAreInPixelsOfThePhotoEvenWhenThePageWasCutOut() throws {
        // The card is drawn 60 px into the table, its number's baseline at 310 px, 70 px in: the
        // first group's box starts there, though the page read was the card cut out and straightened.
        let words = try #require(try document([Self.card])["words"] as? [[String: Any]])
        #expect(words.count == 22)
        let first = try #require(words.first { $0["text"] as? String == "4111" })
        #expect(first["box"] as? [Int] == [133, 265, 143, 45])
        // Every field of a word is there, null when it has no value.
        #expect(
            Set(first.keys) == [
                "text", "confidence", "range", "box", "line", "alternatives", "runnerUp", "known", "doubts",
                "uncertain", "otherReading", "language", "withAccents", "learnedReading", "learnedConfidence",
                "learnedAgrees",
            ])
        #expect(first["known"] is NSNull)
        #expect(first["otherReading"] is NSNull)
        // Read at 96.6, with no other doubt: the second recognizer was not asked.
        #expect(first["learnedReading"] is NSNull)
        #expect(first["learnedConfidence"] as? Double == 0)
        #expect(first["learnedAgrees"] as? Bool == false)
    }

    /// `dim-warm-light.jpg` (the kettle poem in dim, warm, uneven light) is read twice with
    /// `--level accurate`: the prepared page is kept, and the photo as it is read "I" as "!" and
    /// "frost;" as "frost:".
    @Test func theOtherPreparationsReadingOfAWordIsInItsOtherReading() throws {
        let doc = try document(["--level", "accurate", TestPaths.fixture("dim-warm-light.jpg")])
        let words = try #require(doc["words"] as? [[String: Any]])
        let differing = words.filter { !($0["otherReading"] is NSNull) }
        #expect(differing.map { $0["text"] as? String } == ["I", "frost;"])
        #expect(differing.map { $0["otherReading"] as? String } == ["!", "frost:"])
        #expect(differing.map { $0["box"] as? [Int] } == [[211, 374, 7, 29], [779, 572, 89, 37]])
    }

    @Test func aRegionInPixelsReadsOnlyThatPart() throws {
        let r = try lovesnap(["ocr", "--region", "100,250,900,80", Self.card])
        #expect(r.status == 0)
        #expect(r.stdout == "4111 1111 1111 1111\n")
        #expect(r.stderr == "lovesnap: card-specimen.png: region 100,250,900,80 read\n")
    }

    @Test func aRegionFindsItsFadedLineAsTheWholePhotoDoes() throws {
        // A dark line over a faded one: the region's binarization kept the dark line alone
        // (read at 96, as `tesseract` reads the same crop), and "Cafe creme 3,20" was lost in
        // every frame of it. The detector finds the region's lines as it finds the photo's; the
        // line half inside the frame's bottom edge is read as noise and left out.
        let receipt = TestPaths.fixture("faded-receipt.jpg")
        for region in ["48,223,672,112", "56,227,656,96", "52,231,664,88"] {
            let r = try lovesnap(["ocr", "--region", region, receipt])
            #expect(r.status == 0)
            #expect(r.stdout == "Table 4, couverts 2\nCafe creme 3,20\n", "region \(region)")
            #expect(
                r.stderr
                    == "lovesnap: faded-receipt.jpg: region \(region) read\n"
                    + "lovesnap: faded-receipt.jpg: read line by line along 3 text regions found by the detector\n")
        }
        // `--reading page` reads as before: Tesseract's layout alone.
        let page = try lovesnap(["ocr", "--reading", "page", "--region", "48,223,672,112", receipt])
        #expect(page.stdout == "Table 4, couverts 2\n")
    }

    @Test func aStripOrAPriceColumnIsReadAsTesseractReadsItsCrop() throws {
        // A frame flush with one line, a strip: read as one block (`tesseract --psm 6`), where the
        // page's automatic layout kept "17,20" alone. A column of prices: read along its lines
        // ("2,10", "17,20" at 92) where the layout read "2,0)" and "17720)" at 50.
        let receipt = TestPaths.fixture("faded-receipt.jpg")
        for (region, text) in [
            ("60,544,640,23", "TOTAL EUR 17,20\n"), ("60,279,640,22", "Cafe creme 3.20\n"),
            ("600,500,160,212", "2,10\n17,20\n"),
        ] {
            let r = try lovesnap(["ocr", "--region", region, receipt])
            #expect(r.status == 0)
            #expect(r.stdout == text, "region \(region)")
        }
        // `--psm` given is kept: a strip at PSM 7 (one line).
        let line = try lovesnap(["ocr", "--psm", "7", "--region", "60,544,640,23", receipt])
        #expect(line.stdout == "TOTAL EUR 17,20\n")
    }

    @Test func aRegionsExportsPlaceItsWordsInThePhotoAsItsJSONDoes() throws {
        // The documents of a region were in the region's own pixels: the receipt's "CAFE" at
        // 2,1 in the TSV (and in the PDF's top-left corner) where the JSON said 62,61.
        let receipt = TestPaths.fixture("faded-receipt.jpg")
        let doc = try document(["--region", "60,60,330,110", receipt])
        let words = try #require(doc["words"] as? [[String: Any]])
        let dir = TestPaths.temporaryDirectory("lsnap-region-export")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = dir.appendingPathComponent("region").path
        let r = try lovesnap(["ocr", "--region", "60,60,330,110", "--format", "tsv,pdf", "-o", base, receipt])
        #expect(r.status == 0)
        let tsv = try String(contentsOfFile: base + ".tsv", encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let tsvWords = tsv.filter { $0.first == "5" && $0.count == 12 }
        #expect(tsvWords.map { $0[11] } == words.map { $0["text"] as? String ?? "" })
        #expect(tsvWords.map { $0[6...9].compactMap { Int($0) } } == words.map { $0["box"] as? [Int] ?? [] })
        #expect(words.first?["box"] as? [Int] == [62, 61, 59, 19])
        // The PDF's page is the whole photo (760 px at 300 DPI), "CAFE" at 62 px = 14.88 pt.
        let bbox = try run("/usr/bin/pdftotext", ["-bbox", base + ".pdf", "-"]).stdout
        #expect(bbox.contains("<page width=\"182.400000\" height=\"170.880000\">"))
        #expect(bbox.contains("<word xMin=\"14.880000\" yMin=\"14.080000\""))
    }

    @Test func aRegionInPercentKeepsBoxesInPixelsOfTheWholePhoto() throws {
        let doc = try document(["--region", "10%,40%,80%,20%", Self.card])
        #expect(doc["text"] as? String == "5555 5555 5555 4445\n")
        #expect(doc["region"] as? [Int] == [113, 303, 905, 152])
        #expect(doc["notes"] as? [String] == ["region 113,303,905,152 read"])
        let words = try #require(doc["words"] as? [[String: Any]])
        #expect(
            words.map { $0["box"] as? [Int] } == [
                [133, 366, 105, 34], [271, 366, 106, 34], [410, 366, 105, 34], [547, 366, 106, 34],
            ])
        let found = try #require(doc["detections"] as? [[String: Any]])
        #expect(found.map { $0["nearMiss"] as? Bool } == [true])
    }

    @Test func aSignFramedWithItsWallIsReadAsTheWholePhotoReadsIt() throws {
        // White letters on a blue sign on stone, framed with some of the wall: read, as the whole
        // photo is, with the wall blanked out around the sign (light-on-dark blocks alone). A
        // region never tried that, and "no text found".
        let doc = try document(["--region", "10%,10%,80%,80%", TestPaths.fixture("white-sign-on-blue.jpg")])
        #expect(doc["text"] as? String == "PARC MONCEAU\n")
        #expect(
            doc["notes"] as? [String] == [
                "region 127,76,1012,607 read",
                "light text on a dark block read on its own (more real words than the whole photo)",
                "dim or uneven light evened out", "deskewed by 5.4°",
            ])
        let words = try #require(doc["words"] as? [[String: Any]])
        #expect(words.map { $0["box"] as? [Int] } == [[358, 376, 163, 64], [544, 343, 322, 80]])
    }

    @Test func aStripFramedTightAroundSmallPrintIsEnlargedBeforeItIsRead() throws {
        // The card at a third of its size: digits 15 px high in a strip of 26 px, too low for the
        // text height to be measured (read at that size, Tesseract found no text).
        let doc = try document(["--region", "36,82,250,26", TestPaths.fixture("card-specimen-small.png")])
        #expect(doc["text"] as? String == "4111 1111 1111 1111\n")
        let words = try #require(doc["words"] as? [[String: Any]])
        #expect(
            words.map { $0["box"] as? [Int] } == [
                [44, 88, 48, 16], [107, 88, 48, 16], [169, 88, 48, 16], [232, 88, 47, 16],
            ])
        let found = try #require(doc["detections"] as? [[String: Any]])
        #expect(found.map { $0["value"] as? String } == ["4111111111111111"])
    }

    @Test func aRegionPastTheEdgeIsCutToThePhoto() throws {
        let r = try lovesnap(["ocr", "--region", "100,250,5000,80", Self.card])
        #expect(r.status == 0)
        #expect(r.stdout == "4111 1111 1111 1111\n")
        // The cut includes the grey table right of the card: its light is uneven.
        #expect(
            r.stderr
                == "lovesnap: card-specimen.png: region 100,250,1031,80 read (cut to the photo's edges)\n"
                + "lovesnap: card-specimen.png: dim or uneven light evened out\n")
    }

    @Test(arguments: [
        (
            "1,2,3",
            "lovesnap: --region needs four numbers, X,Y,W,H in pixels (120,300,800,90) or percent (10%,20%,50%,15%), not '1,2,3'\n"
        ),
        ("1,2,3,0", "lovesnap: --region '1,2,3,0': the height must be more than 0\n"),
        ("-1,0,10,10", "lovesnap: --region '-1,0,10,10': X must be 0 or more\n"),
        ("10%,2,3,4", "lovesnap: --region '10%,2,3,4': give all four numbers in pixels or all four in percent\n"),
        ("1.5,2,3,4", "lovesnap: --region '1.5,2,3,4': '1.5' is not a whole number of pixels\n"),
        (
            "50%,0%,60%,10%",
            "lovesnap: --region '50%,0%,60%,10%': the region goes past the photo's edge (X+W or Y+H above 100%)\n"
        ),
        ("x%,0%,60%,10%", "lovesnap: --region 'x%,0%,60%,10%': 'x%' is not a percentage\n"),
    ])
    func badRegionValuesExitTwo(_ value: String, _ message: String) throws {
        let r = try lovesnap(["ocr", "--region", value, Self.card])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == message)
    }

    @Test func aRegionOutsideThePhotoExitsTwoNamingItsSize() throws {
        let r = try lovesnap(["ocr", "--region", "2000,100,50,50", Self.card])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(
            r.stderr
                == "lovesnap: card-specimen.png: the region 2000,100,50,50 lies outside the photo, which is 1131×758 pixels\n"
        )
    }

    @Test func regionIsForTheOCRCommand() throws {
        let r = try lovesnap(["--region", "1,2,3,4", Self.card])
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "lovesnap: --region is for `lovesnap ocr`; in the editor, M-P shows the photo to frame a region on\n"
        )
    }
}
