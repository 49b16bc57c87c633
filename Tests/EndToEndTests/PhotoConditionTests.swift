import Foundation
import SnapTestSupport
import Testing

/// Phone-photo conditions (Tests/Fixtures/make_fixtures.py photographs the sample poems in
/// software with scripts/make-stress-set.py): `lovesnap ocr` reads each page exactly and says
/// what it did to the photo.
@Suite struct PhotoConditionTests {
    func expected(_ name: String) throws -> String {
        try String(contentsOfFile: TestPaths.fixture(name + ".txt"), encoding: .utf8)
    }

    @Test(arguments: [
        // A page small in the frame and turned on a dark table: found, cut out and straightened
        // (the whole-frame polarity check once inverted it and read nothing).
        ("page-on-dark-table", ["page found and straightened"]),
        // The same on a wood-grain table.
        ("page-on-wood-table", ["page found and straightened"]),
        // An open book's page: its lines bend toward the gutter, which is shaded.
        (
            "curled-page",
            ["page found and straightened", "dim or uneven light evened out", "curled lines straightened"]
        ),
        // Dim, warm light: the paper's grey levels are stretched before thresholding.
        ("dim-warm-light", ["page found and straightened", "dim or uneven light evened out"]),
        // A shadow with a straight edge across the page: the lit part alone is not taken for the
        // page (print continues outside it); the light is evened out instead.
        ("shadow-across-page", ["dim or uneven light evened out", "deskewed by -0.9°"]),
        // A page on a wood table, most of it in shadow, one lit wedge across page and table: the
        // shadowed page is not "light text on a dark background" (the wedge's dark letters give it
        // away), and the lit table joining the page at the frame's edge is not taken for a side.
        ("page-mostly-in-shadow", ["dim or uneven light evened out", "deskewed by 0.6°"]),
        // A typewritten page in faint ink scanned on a black ground, which frames it as a thin
        // margin: cut out as a page on a table is (left in, the margin drew Tesseract's threshold
        // and dropped a line).
        ("scan-on-dark-ground", ["page found and straightened", "dim or uneven light evened out"]),
        // A page filling the frame, its paper brighter in the middle than at the edges: its
        // brighter part was taken for a page on a table, cut out turned by 4° and deskewed back
        // (a book page so warped read worse than as photographed, `meditations.jpg`).
        ("page-lit-in-the-middle", []),
        // White letters on a blue sign on a stone wall: the prepared page reads stone as text,
        // the photo as it is reads the sign, and word evidence keeps that reading.
        ("white-sign-on-blue", ["read as photographed (more real words than after preparing the page)"]),
        // A tilted sign on stone where neither reading of the whole photo finds it (both read the
        // stone): the sign alone, the wall blanked out, reads.
        (
            "sign-on-stone-wall",
            [
                "light text on a dark block read on its own (more real words than the whole photo)",
                "dim or uneven light evened out", "deskewed by 4.2°",
            ]
        ),
        // A receipt whose lower half has faded: Tesseract's layout finds the dark header alone;
        // the text detector finds every row, each read with its price on its line.
        ("faded-receipt", ["read line by line along 19 text regions found by the detector"]),
        // A poster whose title card the page finder takes for the page (the poem around it is too
        // faint to count as print): the title alone reads at 96, yet covers 8 % of the text the
        // detector found, so the page is read along the detected lines.
        ("title-card-on-grey-page", ["read line by line along 7 text regions found by the detector"]),
    ])
    func pageReadsExactlyAndSaysWhatWasDone(name: String, notes: [String]) throws {
        let r = try lovesnap(["ocr", TestPaths.fixture(name + ".jpg")])
        #expect(r.status == 0)
        #expect(r.stdout == (try expected(name)))
        #expect(r.stderr == notes.map { "lovesnap: \(name).jpg: \($0)\n" }.joined())
    }

    @Test func aFrenchPageReadWithEnglishAloneKeepsItsText() throws {
        // Most French words are unknown to the English dictionary: the prepared reading, clear
        // (103 words at mean confidence 91), weighed −8 against 0 for the photo as it is, read as
        // nothing, which was kept: "no text found". The clear reading stays.
        let r = try lovesnap(["ocr", "-l", "eng", TestPaths.fixture("shadow-across-page.jpg")])
        #expect(r.status == 0)
        #expect(
            r.stderr == "lovesnap: shadow-across-page.jpg: dim or uneven light evened out\n"
                + "lovesnap: shadow-across-page.jpg: deskewed by -0.9°\n")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(2) == ["Lenore, je t'écris a la fenétre,", "le café fume encore un peu."])
        #expect(
            lines.count
                == (try expected("shadow-across-page")).split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    @Test func headingPrintedLightOnADarkBandReadsExactly() throws {
        let r = try lovesnap(["ocr", TestPaths.fixture("inverted-heading.jpg")])
        var lines = try expected("inverted-heading").split(separator: "\n", omittingEmptySubsequences: false)
        // The band stands apart from the poem like a stanza: an empty line follows the heading.
        lines.insert("", at: 1)
        #expect(r.status == 0)
        #expect(r.stdout == lines.joined(separator: "\n"))
    }

    /// A card printed light on a blotchy grey ground: every line the detector finds is read,
    /// turned dark on light (read light on dark, the name's line read as nothing). The phone's
    /// blur takes the accent of "Tél." (the only difference from the card's text).
    @Test func aCardPrintedLightOnDarkReadsEveryLine() throws {
        let r = try lovesnap(["ocr", TestPaths.fixture("light-print-on-dark-card.jpg")])
        #expect(r.status == 0)
        #expect(
            r.stdout == (try expected("light-print-on-dark-card")).replacingOccurrences(of: "Tél.", with: "Tel."))
        #expect(
            r.stderr
                == "lovesnap: light-print-on-dark-card.jpg: read line by line along 5 text regions found by the detector\n"
        )
    }

    /// Without the detector (`--reading page`, Tesseract's layout alone) the same two photos lose
    /// what the detector finds: the fixtures test what they are meant to.
    @Test(arguments: [
        ("faded-receipt", "CAFE DU PORT\n12 quai de la Fosse\n44000 Nantes\n\nTable 4, couverts 2\n", ""),
        (
            "title-card-on-grey-page", "The Harbour\n",
            "lovesnap: title-card-on-grey-page.jpg: page found and straightened\n"
        ),
    ])
    func tesseractsLayoutAloneMissesWhatTheDetectorFinds(name: String, text: String, notes: String) throws {
        let r = try lovesnap(["ocr", "--reading", "page", TestPaths.fixture(name + ".jpg")])
        #expect(r.status == 0)
        #expect(r.stdout == text)
        #expect(r.stderr == notes)
    }

    /// `--reading lines` without a model reads the page by its layout, and says so without `-v`.
    @Test func linesAskedWithoutAModelSayWhy() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LOVESNAP_TEXT_DETECTOR"] = ""
        let r = try lovesnap(
            ["ocr", "--reading", "lines", TestPaths.fixture("faded-receipt.jpg")], environment: environment)
        #expect(r.status == 0)
        #expect(r.stdout == "CAFE DU PORT\n12 quai de la Fosse\n44000 Nantes\n\nTable 4, couverts 2\n")
        #expect(
            r.stderr
                == "lovesnap: faded-receipt.jpg: not read line by line as asked, the text detector could not run: "
                + "switched off: LOVESNAP_TEXT_DETECTOR is empty\n")
    }

    @Test func readingModeIsCheckedAsAUsageError() throws {
        let r = try lovesnap(["ocr", "--reading", "columns", TestPaths.fixture("faded-receipt.jpg")])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("option --reading takes auto, page or lines, not 'columns'"))
    }
}
