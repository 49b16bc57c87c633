import Testing

@testable import SnapImaging

@Suite struct LetterRowsTests {
    /// `count` boxes `width` × `height` px in a row from (x, y), `gap` px apart.
    func row(x: Int = 0, y: Int = 100, count: Int, width: Int = 6, height: Int = 10, gap: Int = 2) -> [LetterRows.Box] {
        (0..<count).map { (x: x + $0 * (width + gap), y: y, width: width, height: height) }
    }

    @Test func lettersSideBySideStandInARow() {
        #expect(LetterRows.inRows(row(count: 5)) == 5)
        // Two letters are not a row; three are.
        #expect(LetterRows.inRows(row(count: 2)) == 0)
        #expect(LetterRows.inRows(row(count: 3)) == 3)
    }

    @Test func theGapMayBeUpToSixTenthsOfTheTallerHeight() {
        #expect(LetterRows.inRows(row(count: 4, gap: 6)) == 4)
        #expect(LetterRows.inRows(row(count: 4, gap: 7)) == 0)
        // Kerned letters overlap by up to a quarter of the narrower one (at least 1 px).
        #expect(LetterRows.inRows(row(count: 4, width: 8, gap: -2)) == 4)
        #expect(LetterRows.inRows(row(count: 4, width: 8, gap: -3)) == 0)
    }

    @Test func aCapitalBesideSmallLettersIsInTheRowAFleckBesideABlotIsNot() {
        // An 18 px capital, then 10 px letters on the same baseline (tops 8 px lower).
        let word = [(x: 0, y: 92, width: 12, height: 18)] + row(x: 14, count: 3)
        #expect(LetterRows.inRows(word) == 4)
        // A 4 px fleck between 12 px blots: heights 3× apart break the row.
        let texture: [LetterRows.Box] = [
            (x: 0, y: 100, width: 8, height: 12), (x: 10, y: 104, width: 4, height: 4),
            (x: 16, y: 100, width: 8, height: 12),
        ]
        #expect(LetterRows.inRows(texture) == 0)
    }

    @Test func neighboursMustShareHalfTheLowerHeight() {
        // Each box 6 px lower than the one before it: 4 px of 10 shared.
        let stairs = (0..<4).map { (x: $0 * 8, y: 100 + $0 * 6, width: 6, height: 10) }
        #expect(LetterRows.inRows(stairs) == 0)
        // 5 px lower: half shared.
        let slope = (0..<4).map { (x: $0 * 8, y: 100 + $0 * 5, width: 6, height: 10) }
        #expect(LetterRows.inRows(slope) == 4)
    }

    @Test func aPageTurnedByNinetyDegreesHasItsRowsAlongY() {
        let column = row(count: 5).map { (x: $0.y, y: $0.x, width: $0.height, height: $0.width) }
        #expect(LetterRows.inRows(column) == 5)
    }

    @Test func scatteredFlecksAroundAWordAreLeftOut() {
        let flecks: [LetterRows.Box] = [
            (x: 300, y: 20, width: 5, height: 7), (x: 40, y: 400, width: 6, height: 6),
            (x: 500, y: 500, width: 7, height: 5), (x: 120, y: 250, width: 5, height: 8),
        ]
        #expect(
            LetterRows.inRows(flecks + row(count: 4) + flecks.map { (x: $0.x + 9, y: $0.y + 30, width: 6, height: 6) })
                == 4)
    }
}
