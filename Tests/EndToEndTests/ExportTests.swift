import Foundation
import SnapTestSupport
import Testing

/// `lovesnap ocr --format`: Tesseract's own documents, read back with the tools a user has
/// (`xmllint`, `pdftotext`, `pdfinfo`), their words and boxes on the photo.
@Suite struct ExportTests {
    static let kettleWords = try! String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
        .split(whereSeparator: \.isWhitespace).map(String.init)

    /// `xmllint --xpath` of `expression` (local names, namespaces ignored) over `file`.
    func xpath(_ expression: String, _ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String
    {
        let r = try run("/usr/bin/xmllint", ["--xpath", expression, file])
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        return r.stdout.trimmingCharacters(in: .newlines)
    }

    /// The words of an hOCR file and their boxes (left, top, right, bottom), in order.
    func hocrWords(_ file: String) throws -> [(text: String, box: [Int])] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let regex = /class="ocrx_word"[^>]*title="bbox (\d+) (\d+) (\d+) (\d+)[^"]*"[^>]*>([^<\n]*)/
        return text.matches(of: regex).map { m in
            (String(m.5).trimmingCharacters(in: .whitespaces), [Int(m.1)!, Int(m.2)!, Int(m.3)!, Int(m.4)!])
        }
    }

    /// The `CONTENT="…"` attributes of an ALTO file's `String`s, in order (`xmllint --xpath`).
    func altoContents(_ file: String) throws -> [String] {
        try xpath("//*[local-name()='String']/@CONTENT", file).split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The words (level-5 rows' last column) of a TSV file, in order.
    func tsvWords(_ file: String) throws -> [String] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("5\t") }
            .map { String($0.split(separator: "\t").last!) }
    }

    func export(
        _ formats: String, _ photos: [String], extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (URL, RunResult) {
        let dir = TestPaths.temporaryDirectory("lovesnap-export")
        let base = dir.appendingPathComponent("poem").path
        let r = try lovesnap(["ocr", "--format", formats, "-o", base] + extra + photos)
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        return (dir, r)
    }

    @Test func hocrAltoAndTSVCarryTheWordsWithTheSameBoxes() throws {
        let (dir, _) = try export("hocr,alto,tsv,txt", [TestPaths.sample("kettle.png")])
        let hocr = dir.appendingPathComponent("poem.hocr").path
        let alto = dir.appendingPathComponent("poem.xml").path
        let tsv = dir.appendingPathComponent("poem.tsv").path
        #expect(
            try String(contentsOfFile: dir.appendingPathComponent("poem.txt").path, encoding: .utf8)
                == (try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)))
        // Both parse as XML (xmllint exits 0) and hold exactly the poem's words.
        #expect(try xpath("count(//*[local-name()='span'][@class='ocrx_word'])", hocr) == "\(Self.kettleWords.count)")
        let words = try hocrWords(hocr)
        #expect(words.map(\.text) == Self.kettleWords)
        #expect(
            try xpath("string(//*[local-name()='div'][@class='ocr_page']/@title)", hocr).contains("bbox 0 0 1100 439"))
        let contents = try xpath("//*[local-name()='String']/@CONTENT", alto)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(contents == Self.kettleWords.map { "CONTENT=\"\($0)\"" })
        let altoBoxes = try ["HPOS", "VPOS", "WIDTH", "HEIGHT"].map { name in
            try xpath("//*[local-name()='String']/@\(name)", alto).split(separator: "\n").map {
                Int($0.split(separator: "\"")[1])!
            }
        }
        for (i, word) in words.enumerated() {
            let b = word.box
            let altoBox: [Int] = [altoBoxes[0][i], altoBoxes[1][i], altoBoxes[2][i], altoBoxes[3][i]]
            let hocrBox: [Int] = [b[0], b[1], b[2] - b[0], b[3] - b[1]]
            #expect(altoBox == hocrBox)
        }
        // TSV: Tesseract's twelve columns; its word rows are the same words at the same boxes.
        let lines = try String(contentsOfFile: tsv, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(
            lines[0] == "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext")
        #expect(lines[1].hasPrefix("1\t1\t0\t0\t0\t0\t0\t0\t1100\t439\t"))
        let rows = lines.dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(rows.allSatisfy { $0.count == 12 })
        let wordRows = rows.filter { $0[0] == "5" }
        #expect(wordRows.map { $0[11] } == Self.kettleWords)
        let tsvBoxes: [[Int]] = wordRows.map { row in row[6...9].map { Int($0)! } }
        let hocrBoxes: [[Int]] = words.map { w in [w.box[0], w.box[1], w.box[2] - w.box[0], w.box[3] - w.box[1]] }
        #expect(tsvBoxes == hocrBoxes)
    }

    @Test func searchablePDFGivesTheTextAndShowsThePhoto() throws {
        let (dir, _) = try export("pdf", [TestPaths.sample("kettle.png")])
        let pdf = dir.appendingPathComponent("poem.pdf").path
        let text = try run("/usr/bin/pdftotext", [pdf, "-"])
        #expect(normalizedWhitespace(text.stdout) == Self.kettleWords.joined(separator: " "))
        let info = try run("/usr/bin/pdfinfo", [pdf])
        #expect(info.stdout.contains("Pages:           1"))
        // The page is the photo at 300 DPI: 1100 × 439 px is 264 × 105.36 pt.
        #expect(info.stdout.contains("Page size:       264 x 105.36 pts"), "\(info.stdout)")
        let images = try run("/usr/bin/pdfimages", ["-list", pdf])
        #expect(images.stdout.contains(" 1100   439 "), "\(images.stdout)")
    }

    /// Issue 42: on a page found and straightened, one whose curled lines were straightened, and a
    /// sign deskewed by 4°, the text layer's words lie on the photo's tilted or curved lines; each
    /// word placed along its own direction, `pdftotext` broke words ("curtai ns", 95 words changed
    /// on `page-on-dark-table.jpg`). Every line's words now share one level baseline: the PDF's
    /// text is the text, word for word.
    @Test(arguments: ["page-on-dark-table.jpg", "curled-page.jpg", "sign-on-stone-wall.jpg"])
    func aStraightenedPagesPDFKeepsEachWordWhole(photo: String) throws {
        let (dir, _) = try export("pdf,txt", [TestPaths.fixture(photo)])
        let text = try String(contentsOfFile: dir.appendingPathComponent("poem.txt").path, encoding: .utf8)
        let pdf = try run("/usr/bin/pdftotext", [dir.appendingPathComponent("poem.pdf").path, "-"])
        #expect(!text.isEmpty)
        #expect(normalizedWhitespace(pdf.stdout) == normalizedWhitespace(text))
    }

    /// The EXIF 6 sample is `kettle-photo.jpg` stored turned: its documents must describe the
    /// upright photo, the words where the upright photo shows them.
    @Test func boxesLandOnTheWordsOfTheRotatedPhoto() throws {
        let (turned, _) = try export("hocr,pdf", [TestPaths.sample("kettle-exif6.jpg")])
        let (upright, _) = try export("hocr", [TestPaths.sample("kettle-photo.jpg")])
        let a = try hocrWords(turned.appendingPathComponent("poem.hocr").path)
        let b = try hocrWords(upright.appendingPathComponent("poem.hocr").path)
        #expect(a.map(\.text) == Self.kettleWords)
        #expect(a.count == b.count)
        for (x, y) in zip(a, b) {
            #expect(zip(x.box, y.box).allSatisfy { abs($0 - $1) <= 3 }, "\(x.text): \(x.box) against \(y.box)")
        }
        let page = try xpath(
            "string(//*[local-name()='div'][@class='ocr_page']/@title)", turned.appendingPathComponent("poem.hocr").path
        )
        #expect(page.contains("bbox 0 0 1100 439"), "\(page)")
        // The PDF's invisible words lie where they lie in the upright photo's PDF, as Tesseract
        // placed them there (from their baselines: a word's text ends a little before its box).
        func pdfWords(_ dir: URL) throws -> [(text: String, box: [Double])] {
            let bbox = try run("/usr/bin/pdftotext", ["-bbox", dir.appendingPathComponent("poem.pdf").path, "-"])
            return bbox.stdout.matches(
                of: /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</
            ).map { m in (String(m.5), [Double(m.1)!, Double(m.2)!, Double(m.3)!, Double(m.4)!]) }
        }
        let (uprightPDF, _) = try export("pdf", [TestPaths.sample("kettle-photo.jpg")])
        let p = try pdfWords(turned)
        let q = try pdfWords(uprightPDF)
        #expect(p.map(\.text) == Self.kettleWords)
        #expect(p.count == q.count)
        for (x, y) in zip(p, q) {
            // 1 pt is 4.2 px at 300 DPI.
            #expect(zip(x.box, y.box).allSatisfy { abs($0 - $1) <= 1 }, "\(x.text): \(x.box) against \(y.box)")
        }
        // Each starts at its hOCR box's left edge (points × 300 / 72 = pixels).
        for (word, box) in zip(p, a) { #expect(abs(word.box[0] * 300 / 72 - Double(box.box[0])) <= 3, "\(word.text)") }
    }

    @Test func replacementsAreCarriedIntoEveryFormat() throws {
        let (dir, r) = try export(
            "txt,hocr,alto,tsv,pdf", [TestPaths.sample("kettle.png")],
            extra: ["--replace", "Lenore=Hélène", "--replace-regex", "(k|m)ettle=$1oon"])
        #expect(r.stderr == "")
        let text = try String(contentsOfFile: dir.appendingPathComponent("poem.txt").path, encoding: .utf8)
        #expect(text.hasPrefix("Hélène, the koon hums your tune,\n"))
        var expected = Self.kettleWords
        expected[0] = "Hélène,"
        expected[2] = "koon"
        #expect(try hocrWords(dir.appendingPathComponent("poem.hocr").path).map(\.text) == expected)
        #expect(
            try altoContents(dir.appendingPathComponent("poem.xml").path).prefix(3)
                == ["CONTENT=\"Hélène,\"", "CONTENT=\"the\"", "CONTENT=\"koon\""])
        #expect(try tsvWords(dir.appendingPathComponent("poem.tsv").path) == expected)
        let pdf = try run("/usr/bin/pdftotext", [dir.appendingPathComponent("poem.pdf").path, "-"])
        #expect(normalizedWhitespace(pdf.stdout) == expected.joined(separator: " "))
    }

    /// A replacement holding a character XML forbids (U+0001) leaves the hOCR and ALTO
    /// documents valid XML (it made them invalid, exit 0): there it is U+FFFD; the text keeps it.
    @Test func aControlCharacterReplacedIntoAWordKeepsTheDocumentsValid() throws {
        let (dir, r) = try export(
            "txt,hocr,alto", [TestPaths.sample("kettle.png")], extra: ["--replace", "Lenore=Le\u{1}nore"])
        #expect(r.stderr == "")
        let text = try String(contentsOfFile: dir.appendingPathComponent("poem.txt").path, encoding: .utf8)
        #expect(text.hasPrefix("Le\u{1}nore, the kettle hums your tune,\n"))
        for file in ["poem.hocr", "poem.xml"] {
            let lint = try run("/usr/bin/xmllint", ["--noout", dir.appendingPathComponent(file).path])
            #expect(lint.status == 0 && lint.stderr == "", "\(file): \(lint.stderr)")
        }
        #expect(try hocrWords(dir.appendingPathComponent("poem.hocr").path).first?.text == "Le\u{FFFD}nore,")
        #expect(try altoContents(dir.appendingPathComponent("poem.xml").path).first == "CONTENT=\"Le\u{FFFD}nore,\"")
    }

    /// Tesseract writes two of this photo's "I"s as "|", which the reading corrects
    /// (`WordCorrections`): every format says what the text says.
    @Test func wordsTheReadingCorrectedReadTheSameInEveryFormat() throws {
        let (dir, r) = try export("txt,hocr,alto,tsv,pdf", [TestPaths.fixture("dim-warm-light.jpg")])
        #expect(r.status == 0)
        let text = try String(contentsOfFile: dir.appendingPathComponent("poem.txt").path, encoding: .utf8)
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(words.count == 67)
        #expect(words.filter { $0 == "I" }.count == 2)
        #expect(try hocrWords(dir.appendingPathComponent("poem.hocr").path).map(\.text) == words)
        #expect(
            try altoContents(dir.appendingPathComponent("poem.xml").path) == words.map { "CONTENT=\"\($0)\"" })
        #expect(try tsvWords(dir.appendingPathComponent("poem.tsv").path) == words)
        let pdf = try run("/usr/bin/pdftotext", [dir.appendingPathComponent("poem.pdf").path, "-"])
        #expect(normalizedWhitespace(pdf.stdout) == words.joined(separator: " "))
    }

    @Test func severalPhotosMakeOneDocumentPagesInOrder() throws {
        let photos = [TestPaths.sample("kettle.png"), TestPaths.sample("harbour.png")]
        let (dir, _) = try export("txt,hocr,pdf", photos)
        let kettle = try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
        let harbour = try String(contentsOfFile: TestPaths.sample("harbour.txt"), encoding: .utf8)
        #expect(
            try String(contentsOfFile: dir.appendingPathComponent("poem.txt").path, encoding: .utf8)
                == kettle + "\n" + harbour)
        let hocr = dir.appendingPathComponent("poem.hocr").path
        #expect(try xpath("count(//*[local-name()='div'][@class='ocr_page'])", hocr) == "2")
        #expect(try xpath("string(//*[local-name()='div'][@class='ocr_page'][2]/@id)", hocr) == "page_2")
        let info = try run("/usr/bin/pdfinfo", [dir.appendingPathComponent("poem.pdf").path])
        #expect(info.stdout.contains("Pages:           2"))
        let second = try run(
            "/usr/bin/pdftotext", ["-f", "2", "-l", "2", dir.appendingPathComponent("poem.pdf").path, "-"])
        #expect(normalizedWhitespace(second.stdout) == normalizedWhitespace(harbour))
    }

    @Test func aTessdataFolderWithoutThePDFFontSaysSo() throws {
        let dir = TestPaths.temporaryDirectory("lovesnap-tessdata")
        for language in ["eng", "fra", "osd"] {
            try FileManager.default.createSymbolicLink(
                atPath: dir.appendingPathComponent("\(language).traineddata").path,
                withDestinationPath: "/usr/share/tesseract-ocr/5/tessdata/\(language).traineddata")
        }
        let r = try lovesnap([
            "ocr", "--tessdata", dir.path, "--format", "pdf", "-o", dir.appendingPathComponent("poem").path,
            TestPaths.sample("kettle.png"),
        ])
        #expect(r.status == 5)
        #expect(r.stderr == "lovesnap: kettle.png: cannot write pdf: \(dir.path)/pdf.ttf is missing\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("poem.pdf").path))
    }

    /// Several documents are written together or not at all: a name refused (here a folder
    /// where `poem.pdf` should go) leaves no `poem.hocr` or `poem.txt` behind.
    @Test func aNameRefusedLeavesNoneOfTheDocumentsWritten() throws {
        let dir = TestPaths.temporaryDirectory("lovesnap-export")
        let folder = dir.appendingPathComponent("poem.pdf").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let base = dir.appendingPathComponent("poem").path
        let r = try lovesnap(["ocr", "--format", "hocr,pdf,txt", "-o", base, TestPaths.sample("kettle.png")])
        #expect(r.status == 6)
        #expect(r.stderr == "lovesnap: \(folder): Is a directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["poem.pdf"])
        let missing = dir.appendingPathComponent("no-such-folder/poem").path
        let r2 = try lovesnap(["ocr", "--format", "txt,tsv", "-o", missing, TestPaths.sample("kettle.png")])
        #expect(r2.status == 6)
        #expect(r2.stderr == "lovesnap: \(missing).txt: No such file or directory\n")
    }

    /// A file in a folder that makes no file (/proc) is refused before the photo is read, the
    /// folder named: as root it used to fail after the reading, as "No such file or directory".
    @Test(.enabled(if: geteuid() == 0, "as another user /proc/version cannot be opened to write at all"))
    func aFolderThatMakesNoFileIsRefusedBeforeReading() throws {
        let r = try lovesnap(["ocr", "-o", "/proc/version", TestPaths.sample("kettle.png")])
        #expect(r.status == 6)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: /proc/version: cannot create a file in /proc: No such file or directory\n")
    }

    @Test func outputNamesAndRefusals() throws {
        let dir = TestPaths.temporaryDirectory("lovesnap-export")
        let photo = dir.appendingPathComponent("kettle.png").path
        try FileManager.default.copyItem(atPath: TestPaths.sample("kettle.png"), toPath: photo)
        let several = try lovesnap(["ocr", "--format", "hocr,pdf", photo])
        #expect(several.status == 2)
        #expect(several.stderr == "lovesnap: several formats need -o BASE (written as BASE.hocr, BASE.pdf, …)\n")
        let bad = try lovesnap(["ocr", "--format", "docx", photo])
        #expect(bad.status == 2)
        #expect(
            bad.stderr == "lovesnap: option --format takes txt, hocr, tsv, alto or pdf (comma-separated), not 'docx'\n")
        let itself = try lovesnap(["ocr", "--format", "pdf", "-o", photo, photo])
        #expect(itself.status == 0)  // kettle.png.pdf: the extension is added, the photo stays
        #expect(FileManager.default.fileExists(atPath: photo + ".pdf"))
        let same = try lovesnap(["ocr", "--format", "hocr", "-o", dir.appendingPathComponent("kettle").path, photo])
        #expect(same.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("kettle.hocr").path))
        let stdout = try lovesnap(["ocr", "--format", "tsv", "-o", "-", photo])
        #expect(stdout.stdout.hasPrefix("level\tpage_num\t"))
    }
}
