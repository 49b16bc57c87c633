import SnapImaging
import Testing

@testable import SnapExport

/// The edits of Tesseract's documents on small pieces written as Tesseract writes them.
@Suite struct DocumentEditTests {
    static let identity = PhotoFrame(geometry: PageGeometry(), width: 100, height: 50, name: "p.jpg")

    static let content = """
        q 72 0 0 36 0 0 cm /Im1 Do Q
        BT
        3 Tr 1 0 0 1 10 20 Tm /f-0-0 12 Tf 100 Tz [ <004C0065006E> ] TJ 30 0 Td 50 Tz [ <0061> ] TJ
        ET

        """

    @Test func theTextLayerIsPlacedWordByWord() {
        var seen: [[Double]] = []
        let out = PDFPages.rewrite(Self.content) { _, word in
            seen.append(word.matrix)
            return word
        }
        // Td moves relative to the line: the second word starts at 10 + 30.
        #expect(seen == [[1, 0, 0, 1, 10, 20], [1, 0, 0, 1, 40, 20]])
        #expect(
            out == """
                q 72 0 0 36 0 0 cm /Im1 Do Q
                BT
                3 Tr
                1 0 0 1 10 20 Tm /f-0-0 12 Tf 100 Tz [ <004C0065006E> ] TJ
                1 0 0 1 40 20 Tm /f-0-0 12 Tf 50 Tz [ <0061> ] TJ
                ET

                """)
    }

    @Test func linesAreCountedFromTheMovesThatGoDown() {
        let content = """
            BT
            3 Tr 1 0 0 1 10 20 Tm /f-0-0 12 Tf [ <0061> ] TJ 30 0 Td [ <0062> ] TJ
             -30 -14 Td [ <0063> ] TJ 1 0 0 1 10 2 Tm [ <0064> ] TJ
            ET
            """
        var lines: [Int] = []
        _ = PDFPages.rewrite(content) { _, word in
            lines.append(word.lineIndex)
            return nil
        }
        #expect(lines == [0, 0, 1, 2])
    }

    /// Each line's words on one level baseline, the median of their starts across it; a line
    /// written downwards (a page photographed sideways) keeps its quarter turn.
    @Test func aLinesWordsShareOneBaselineTurnedToTheNearestQuarter() throws {
        let lines = PDFPages.placedLines([
            0: (0, (10, 100), (30, 98)), 1: (0, (32, 97.5), (60, 95)), 2: (0, (62, 94), (90, 91)),
            3: (1, (50, 10), (50, 40)), 4: (1, (51, 42), (51, 70)),
        ])
        let (first, second) = (try #require(lines[0]), try #require(lines[1]))
        #expect(first.direction == (1, 0) && first.across == 97.5)
        #expect(second.direction == (0, 1) && second.across == -50)
    }

    @Test func aCorrectedWordKeepsItsLengthAndADeletedOneGoes() {
        let out = PDFPages.rewrite(Self.content) { i, word in
            if i == 1 { return nil }
            var w = word
            w.hex = PDFPages.hex("Hélène")
            w.scaling = 200 * word.length / (word.fontSize * Double(w.count))
            return w
        }
        // "Len" was 3 glyphs at 100 %: 18 pt long; "Hélène" is 6 glyphs, so 50 %.
        #expect(out.contains("1 0 0 1 10 20 Tm /f-0-0 12 Tf 50 Tz [ <004800E9006C00E8006E0065> ] TJ\n"))
        #expect(!out.contains("<0061>"))
    }

    @Test func hexIsUTF16BigEndianAsTesseractWritesIt() {
        #expect(PDFPages.hex("é😀") == "00E9D83DDE00")
        #expect(PDFPages.scalars(ofHex: "00E9D83DDE00") == 2)
    }

    @Test func hocrTitlesKeepTheirOrder() {
        var t = HOCRPage.Title("bbox 1 2 3 4; baseline 0.01 -3; x_size 20")
        #expect(t.box == PageBox(left: 1, top: 2, right: 3, bottom: 4))
        t["bbox"] = "5 6 7 8"
        t["x_size"] = nil
        #expect(t.text == "bbox 5 6 7 8; baseline 0.01 -3")
    }

    static let hocr = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><body>
        <div class='ocr_page' id='page_1' title='image "x.png"; bbox 0 0 200 100; ppageno 0'>
        <div class='ocr_carea' id='block_1_1' title="bbox 10 10 90 60">
        <p class='ocr_par' id='par_1_1' title="bbox 10 10 90 60">
        <span class='ocr_line' id='line_1_1' title="bbox 10 10 90 30; baseline 0 -5; x_size 20">
        <span class='ocrx_word' id='word_1_1' title='bbox 10 10 40 30; x_wconf 90'>Lenore</span>
        <span class='ocrx_word' id='word_1_2' title='bbox 50 10 90 30; x_wconf 95'>mine</span>
        </span>
        <span class='ocr_line' id='line_1_2' title="bbox 10 40 30 60; baseline 0 -5; x_size 20">
        <span class='ocrx_word' id='word_1_3' title='bbox 10 40 30 60; x_wconf 20'>~~</span>
        </span></p></div></div></body></html>
        """

    @Test func hocrGetsThePhotosCoordinatesAndOnlyTheWordsKept() throws {
        let frame = PhotoFrame(geometry: PageGeometry([.scale(2)]), width: 100, height: 50, name: "photo.jpg")
        let (out, kept) = try HOCRPage.normalized(
            Self.hocr,
            words: [
                PageBox(left: 10, top: 10, right: 40, bottom: 30), PageBox(left: 50, top: 10, right: 90, bottom: 30),
            ],
            frame: frame)
        #expect(kept == [true, true, false])
        #expect(out.contains(#"title="image &quot;photo.jpg&quot;; bbox 0 0 100 50; ppageno 0""#))
        #expect(out.contains(#"title="bbox 5 5 20 15; x_wconf 90">Lenore"#))
        #expect(out.contains(#"title="bbox 5 5 45 15; baseline 0 -3; x_size 10""#))
        #expect(!out.contains("~~"))
        #expect(!out.contains("line_1_2"))  // the line left without words goes too
        let page = ExportDocument.Page(
            documents: PageDocuments(photoName: "photo.jpg", width: 100, height: 50, wordCount: 2, hocr: out),
            corrections: ["Hélène", ""])
        let edited = try ExportDocument.hocr([page, page])
        #expect(edited.contains(">Hélène</span>"))
        #expect(!edited.contains(">mine<"))
        #expect(edited.contains("id=\"word_2_1\""))
        #expect(edited.contains("ppageno 1"))
    }

    @Test func tsvRowsGetThePhotosBoxes() {
        let tsv =
            TSVPage.header + "\n"
            + [
                "1\t1\t0\t0\t0\t0\t0\t0\t200\t100\t-1\t",
                "5\t1\t1\t1\t1\t1\t10\t10\t30\t20\t90\tLenore",
                "5\t1\t1\t1\t2\t1\t10\t40\t20\t20\t20\t~~",
            ].joined(separator: "\n") + "\n"
        let frame = PhotoFrame(geometry: PageGeometry([.scale(2)]), width: 100, height: 50, name: "p")
        let out = TSVPage.normalized(tsv, words: [PageBox(left: 10, top: 10, right: 40, bottom: 30)], frame: frame)
        #expect(
            out == TSVPage.header
                + "\n1\t1\t0\t0\t0\t0\t0\t0\t100\t50\t-1\t\n5\t1\t1\t1\t1\t1\t5\t5\t15\t10\t90\tLenore\n")
    }

    @Test func formatsByFileName() {
        #expect(ExportFormat(fileName: "poem.HOCR") == .hocr)
        #expect(ExportFormat(fileName: "poem.xml") == .alto)
        #expect(ExportFormat(fileName: "a.pdf/poem") == nil)
        #expect(ExportFormat(fileName: "poem") == nil)
        #expect(ExportDocument.renumbered("lstm_choices_1_3_2", page: 4) == "lstm_choices_4_3_2")
    }
}
