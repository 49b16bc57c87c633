import Foundation
import Testing

@testable import SnapOCR

/// `ReadingOrder`, `ReadingPolicy` and `Homography`: the detector path's pure decisions.
@Suite struct ReadingOrderTests {
    /// An upright rectangle as the detector gives it.
    func region(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> DetectedRegion {
        DetectedRegion(
            corners: [.init(x: x, y: y), .init(x: x + w, y: y), .init(x: x + w, y: y + h), .init(x: x, y: y + h)],
            score: 0.9)
    }

    @Test func twoColumnsOfTextAreReadOneAfterTheOther() {
        // Two columns of three lines each, given shuffled; a title across both above them.
        // Their rows are level (a newspaper's baseline grid), but both are full of prose lines.
        let regions = [
            region(520, 100, 400, 40), region(20, 100, 400, 40), region(20, 20, 900, 40),
            region(20, 145, 380, 40), region(520, 145, 390, 40), region(20, 190, 400, 40), region(520, 190, 300, 40),
        ]
        let rows = ReadingOrder.rows(of: regions)
        #expect(rows.map(\.regions) == [[2], [1], [3], [5], [0], [4], [6]])
        #expect(rows.map(\.block) == [0, 1, 1, 1, 2, 2, 2])
    }

    @Test func aTablesColumnsAreReadAcrossTheirRows() {
        // Dates, descriptions of every length, amounts: level rows, the descriptions not full lines.
        let regions = [
            region(20, 100, 200, 40), region(300, 100, 150, 40), region(700, 100, 120, 40),
            region(20, 145, 200, 40), region(300, 145, 380, 40), region(700, 145, 120, 40),
            region(20, 190, 200, 40), region(300, 190, 220, 40), region(700, 190, 120, 40),
        ]
        #expect(ReadingOrder.rows(of: regions).map(\.regions) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    }

    @Test func aReceiptsPricesStayOnTheirItemsRows() {
        // Items on the left, narrow prices on the right: not a column of text.
        let regions = [
            region(20, 100, 300, 30), region(700, 100, 80, 30), region(20, 150, 250, 30), region(700, 151, 80, 30),
            region(20, 200, 280, 30), region(690, 199, 90, 30),
        ]
        #expect(ReadingOrder.rows(of: regions).map(\.regions) == [[0, 1], [2, 3], [4, 5]])
    }

    @Test func aSkewedPagesRowsStayRows() {
        // A page turned 5°: each row's second region sits 26 px lower than its first.
        let slope = tan(5 * Double.pi / 180)
        func tilted(_ x: Double, _ y: Double, _ w: Double) -> DetectedRegion {
            let h = 30.0
            let dy = w * slope
            return DetectedRegion(
                corners: [
                    .init(x: x, y: y), .init(x: x + w, y: y + dy), .init(x: x + w, y: y + dy + h),
                    .init(x: x, y: y + h),
                ], score: 0.9)
        }
        let regions = [tilted(20, 100, 300), tilted(340, 100 + 320 * slope, 300), tilted(20, 150, 300)]
        #expect(ReadingOrder.rows(of: regions).map(\.regions) == [[0, 1], [2]])
    }

    @Test func coverageCountsTheLengthOfEachRegionUnderWords() {
        let regions = [
            BoundingBox(x: 0, y: 0, width: 100, height: 20), BoundingBox(x: 0, y: 40, width: 300, height: 20),
        ]
        // The first line read but for 5 px of margin and a 5 px space, the second not at all:
        // 90 of 400 px.
        let words = [BoundingBox(x: 5, y: 2, width: 40, height: 16), BoundingBox(x: 50, y: 2, width: 50, height: 16)]
        #expect(ReadingPolicy.coverage(of: words, regions: regions) == 90.0 / 400)
        // A word across two regions of one line covers both.
        let line = [BoundingBox(x: 0, y: 0, width: 100, height: 20), BoundingBox(x: 110, y: 0, width: 100, height: 20)]
        #expect(ReadingPolicy.coverage(of: [BoundingBox(x: 0, y: 2, width: 210, height: 16)], regions: line) == 1)
        #expect(ReadingPolicy.coverage(of: [], regions: []) == 1)
    }

    @Test func confidenceAloneDoesNotMakeAPageRead() {
        // A title read at 96 that covers a tenth of the text found is read again line by line...
        #expect(ReadingPolicy.readsDetectedLines(coverage: 0.1, meanConfidence: 96, regions: 30))
        // ...a page read whole (its words cover 86 % of the regions, which hold their margins)
        // and clear is not, and a doubtful one is.
        #expect(!ReadingPolicy.readsDetectedLines(coverage: 0.86, meanConfidence: 93, regions: 30))
        #expect(ReadingPolicy.readsDetectedLines(coverage: 0.86, meanConfidence: 80, regions: 30))
        #expect(!ReadingPolicy.readsDetectedLines(coverage: 0, meanConfidence: 0, regions: 0))
    }

    func weight(_ evidence: Int, _ covered: Int, _ confidence: Int) -> ReadingWeight {
        ReadingWeight(evidence: evidence, coveredPercent: covered, meanConfidence: confidence)
    }

    @Test func theDetectedLinesAreKeptWhenTwoSignalsAgree() {
        // More real words, read as surely (a doubtful curled page read better line by line).
        #expect(ReadingPolicy.prefersDetectedLines(weight(191, 86, 83), over: weight(167, 81, 79)))
        // More real words alone, read less surely: not kept (a typewritten page whose lines read
        // worse one by one).
        #expect(!ReadingPolicy.prefersDetectedLines(weight(250, 86, 85), over: weight(213, 86, 89)))
        // Both, but by less than a word: not kept (a newspaper read across its columns).
        #expect(!ReadingPolicy.prefersDetectedLines(weight(1004, 86, 92), over: weight(1001, 83, 90)))
        #expect(ReadingPolicy.prefersDetectedLines(weight(320, 92, 92), over: weight(316, 93, 88)))
        // A business card whose layout found half the text: the lines cover far more, as surely,
        // with no dictionary word in its names and numbers.
        #expect(ReadingPolicy.prefersDetectedLines(weight(0, 92, 89), over: weight(13, 45, 89)))
        // A title card taken for the page, read at 95, covering 7 % of what the lines cover at 94.
        #expect(ReadingPolicy.prefersDetectedLines(weight(99, 87, 94), over: weight(-7, 7, 95)))
        // ...but not when the lines read as nonsense (a receipt upside down: confident, unknown)...
        #expect(!ReadingPolicy.prefersDetectedLines(weight(-25, 90, 80), over: weight(-18, 30, 60)))
        // ...or do not read as text.
        #expect(!ReadingPolicy.prefersDetectedLines(weight(99, 87, 60), over: weight(-7, 7, 95)))
        // A book spread whose facing page's fragments the kept reading left out: covering 20
        // points more, read less surely: not kept.
        #expect(!ReadingPolicy.prefersDetectedLines(weight(96, 87, 73), over: weight(185, 67, 77)))
        // A receipt whose layout missed its prices: covering 13 points more, read more surely,
        // with fewer dictionary words (prices are none): kept...
        #expect(ReadingPolicy.prefersDetectedLines(weight(45, 84, 91), over: weight(52, 71, 87)))
        // ...but a book spread read across its two pages, covering 16 points more with fewer
        // real words, read no more surely: not kept.
        #expect(!ReadingPolicy.prefersDetectedLines(weight(265, 88, 80), over: weight(308, 72, 80)))
        // ...and a page read whole is not replaced for covering a few points more.
        #expect(!ReadingPolicy.prefersDetectedLines(weight(0, 92, 89), over: weight(13, 84, 89)))
        // A passport's machine-readable zone whose lines lost text: fewer unknown letters, yet not kept.
        #expect(!ReadingPolicy.prefersDetectedLines(weight(-16, 56, 30), over: weight(-26, 100, 25)))
        // ...nor when it covers as much, read more surely: fewer unknown letters are no real words.
        #expect(!ReadingPolicy.prefersDetectedLines(weight(-21, 97, 55), over: weight(-26, 100, 25)))
        // A region of a receipt, a dark line over a faded one: the kept reading covers 43 % at
        // 96, the lines 80 % at 95 with more real words: kept, whatever the confidences.
        #expect(ReadingPolicy.prefersDetectedLines(weight(22, 80, 95), over: weight(13, 43, 96)))
        #expect(!ReadingPolicy.prefersDetectedLines(weight(14, 80, 95), over: weight(13, 43, 96)))
        // A receipt's price column: the same prices, barely read by the layout ("17720)" at 50),
        // read surely along the lines: kept; not when the lines are unsure too, or lost words.
        #expect(ReadingPolicy.prefersDetectedLines(weight(0, 96, 92), over: weight(0, 95, 50)))
        #expect(!ReadingPolicy.prefersDetectedLines(weight(0, 96, 91), over: weight(0, 95, 50)))
        #expect(!ReadingPolicy.prefersDetectedLines(weight(-3, 96, 95), over: weight(0, 95, 60)))
    }

    @Test func aHomographyMapsABoxToTheBoxAroundItsImage() {
        // Scale by 2 and move by (10, 20).
        let h = Homography(matrix: [2, 0, 10, 0, 2, 20, 0, 0, 1])
        #expect(h.box(BoundingBox(x: 1, y: 2, width: 3, height: 4)) == BoundingBox(x: 12, y: 24, width: 6, height: 8))
    }
}
