import Foundation

/// The decisions about which readings of a photo to make and which to keep, apart from the
/// engines that make them: pure functions of what the readings and the text detector found.
///
/// Confidence says how sure Tesseract is of the words it read, not whether it read the page: a
/// reading of a page's title alone can be read at 92. Whether the page was read is told by how
/// much of the text the detector found the reading covers (`coverage`), and which reading is
/// better by the evidence of real words in each (`WordEvidence.score`).
enum ReadingPolicy {
    /// A reading covering at least this share of the detected text's length (0–1) found the page.
    /// The regions hold their lines' margins: over the corpus a page read whole covers 0.79–0.99
    /// of them (median 0.86), the detected lines read one by one 0.79–0.96.
    static let fullCoverage = 0.75

    /// The share (0–1) of the detected regions' length that `words` cover: for each region, the
    /// part of its width under the words that overlap it by half the lower of the two heights (a
    /// long word may span two regions); regions weighted by their width. 1 when nothing was
    /// detected. All boxes in the same pixels.
    static func coverage(of words: [BoundingBox], regions: [BoundingBox]) -> Double {
        let total = regions.reduce(0) { $0 + $1.width }
        guard total > 0 else { return 1 }
        var covered = 0
        for r in regions {
            let inside =
                words.filter { w in
                    let overlap = min(w.y + w.height, r.y + r.height) - max(w.y, r.y)
                    return overlap * 2 >= min(w.height, r.height)
                }
                .map { (max($0.x, r.x), min($0.x + $0.width, r.x + r.width)) }
                .filter { $0.0 < $0.1 }
                .sorted { $0.0 < $1.0 }
            var reach = r.x
            for (lo, hi) in inside where hi > reach {
                covered += hi - max(lo, reach)
                reach = hi
            }
        }
        return Double(covered) / Double(total)
    }

    /// Whether the page is also read line by line along the detected regions: when the reading
    /// kept so far misses part of the detected text, or is doubtful (below
    /// `Recognizer.doubtfulBelowConfidence`, 0–100).
    static func readsDetectedLines(coverage: Double, meanConfidence: Int, regions: Int) -> Bool {
        regions > 0 && (coverage < fullCoverage || meanConfidence < Recognizer.doubtfulBelowConfidence)
    }

    /// A reading of the detected lines covering this many points less of them than the reading
    /// kept (percent) lost text (noise left out, lines read as nothing), whatever else it shows.
    static let coverageLoss = 10
    /// A reading of the detected lines covering this many points more than a reading that missed
    /// text (percent) found text the page's layout analysis did not.
    static let coverageGain = 10

    /// Whether the reading along the detected lines replaces the reading kept. Two signals must
    /// agree, as neither alone tells a better reading: it has more evidence of real words and is
    /// read at least as surely (mean confidence); or the kept reading missed text (under
    /// `fullCoverage`), the lines cover `coverageGain` points more, read at least as surely
    /// (names and numbers on a receipt or a card are no dictionary's words). Never when the lines
    /// lost text (`coverageLoss`). Over the 50 corpus images: picked on 11, better on 9 (by
    /// 0.005 CER or more), worse on 1 (a book spread read across both pages).
    static func prefersDetectedLines(_ lines: ReadingWeight, over kept: ReadingWeight) -> Bool {
        if lines.coveredPercent < kept.coveredPercent - coverageLoss { return false }
        guard lines.meanConfidence >= kept.meanConfidence else { return false }
        if lines.evidence > kept.evidence { return true }
        let missedText = Double(kept.coveredPercent) < fullCoverage * 100
        return missedText && lines.coveredPercent >= kept.coveredPercent + coverageGain
    }
}
