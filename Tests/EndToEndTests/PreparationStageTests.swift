import Foundation
import SnapImaging
import SnapTestSupport
import Testing

/// Each preparation stage proven on images the test makes from a sample poem: the page turned
/// with no EXIF tag, inverted, skewed, shrunk. `lovesnap ocr` must read each one exactly.
@Suite struct PreparationStageTests {
    let truth = try! String(contentsOfFile: TestPaths.sample("harbour.txt"), encoding: .utf8)

    func ocr(_ transform: (Image) throws -> Image, _ arguments: [String] = []) throws -> RunResult {
        let dir = TestPaths.temporaryDirectory()
        let out = dir.appendingPathComponent("page.png").path
        try transform(ImageLoader().load(TestPaths.sample("harbour.png")).image).writePNG(to: out)
        return try lovesnap(["ocr"] + arguments + [out])
    }

    /// The stored page is turned `quarterTurns` × 90° clockwise. Turned 90° clockwise, Tesseract's
    /// own layout analysis finds the vertical lines and reads them with good confidence, and the
    /// boxes are turned back; upside down or turned the other way, the first reading is poor and
    /// OSD turns the page back.
    @Test(arguments: [
        (1, "lovesnap: page.png: page read turned 270° clockwise (found by Tesseract's layout analysis)\n"),
        (2, "lovesnap: page.png: page turned 180° clockwise (orientation detected, confidence "),
        (3, "lovesnap: page.png: page turned 90° clockwise (orientation detected, confidence "),
    ])
    func pageTurnedWithoutExifReadsExactly(quarterTurns: Int, report: String) throws {
        let r = try ocr { try $0.rotated(quarterTurnsClockwise: quarterTurns) }
        #expect(r.status == 0)
        #expect(r.stdout == truth)
        #expect(r.stderr.hasPrefix(report), "\(r.stderr)")
    }

    @Test func orientationDetectionCanBeTurnedOff() throws {
        let r = try ocr({ try $0.rotated(quarterTurnsClockwise: 2) }, ["--no-osd"])
        #expect(r.stdout != truth)
    }

    @Test func aTessdataFolderWithoutOSDSaysTheOrientationWasNotChecked() throws {
        // The page upside down reads poorly; OSD's model is not in the folder given.
        let tessdata = TestPaths.temporaryDirectory("tessdata-without-osd")
        for language in ["eng", "fra"] {
            try FileManager.default.createSymbolicLink(
                atPath: tessdata.appendingPathComponent("\(language).traineddata").path,
                withDestinationPath: "/usr/share/tesseract-ocr/5/tessdata/\(language).traineddata")
        }
        let r = try ocr({ try $0.rotated(quarterTurnsClockwise: 2) }, ["--tessdata", tessdata.path])
        #expect(r.status == 0)
        #expect(r.stdout != truth)
        #expect(
            r.stderr.contains(
                "lovesnap: page.png: orientation not checked: osd.traineddata could not be loaded from \(tessdata.path)/\n"
            ),
            "\(r.stderr)")
    }

    @Test func invertedPageReadsExactly() throws {
        let r = try ocr { try $0.grayscale().inverted() }
        #expect(r.stdout == truth)
        #expect(r.stderr == "lovesnap: page.png: light text on a dark background: inverted\n")
    }

    @Test func smallCropWithTinyAndLargeTypeKeepsTheBetterReading() throws {
        // A 236×63 crop (Tests/Fixtures/make_fixtures.py): harbour's first line as a letter-spaced
        // 10 px label over a 32 px line. Enlarged to the target text height the label read "arbo",
        // and the reading at its own size was kept; since the text height is measured on letters
        // in rows only (`LetterRows`: too few of the crop's glyphs stand three in a row), the crop
        // is not enlarged and reads right at once (`RecognizerTests` has a crop read both ways).
        let r = try lovesnap(["ocr", TestPaths.fixture("small-label-over-large-line.jpg")])
        #expect(r.stdout == "The harbour lamps\ngo out at two,\n")
        #expect(r.stderr == "")
    }

    @Test func pageMixingBothPolaritiesReadsExactly() throws {
        // The second stanza is light text in a dark band (Tests/Fixtures/make_fixtures.py): the
        // band is found and inverted on its own; the page as a whole stays dark-on-light.
        let r = try lovesnap(["ocr", TestPaths.fixture("mixed-polarity.png")])
        #expect(r.stdout == truth)
        #expect(r.stderr == "lovesnap: mixed-polarity.png: 1 light-on-dark region inverted\n")
    }

    /// Skew is searched over ±20°: a page photographed on a white table turned 12° or 15° read
    /// nothing when the search stopped at Leptonica's default ±7°.
    @Test(arguments: [2.0, -2.0, 12.0, -15.0])
    func skewedPageReadsExactly(degrees: Double) throws {
        let r = try ocr { try $0.grayscale().padded(by: 60).rotated(degrees: degrees) }
        #expect(r.stdout == truth)
        #expect(r.stderr.contains("page.png: deskewed by"), "\(r.stderr)")
    }

    @Test func smallPrintIsEnlargedAndReadExactly() throws {
        // 40 px type shrunk to a third: a median glyph of about 7 px.
        let r = try ocr { try $0.grayscale().scaled(by: 1.0 / 3) }
        #expect(r.stdout == truth)
    }
}
