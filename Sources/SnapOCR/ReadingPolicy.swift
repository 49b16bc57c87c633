import Foundation
import SnapSpelling

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

    /// Whether the reading along the detected lines replaces the reading kept.
    ///
    /// - When the kept reading missed most of the text (it covers less than half of what the lines
    ///   cover: a receipt's faded half, a title card taken for the page), its confidence says
    ///   nothing (it read the easy part): the lines are kept when read as text (mean confidence
    ///   `Recognizer.orientationCheckBelowConfidence` or more) with no less evidence of real
    ///   words than the kept reading, or than none.
    /// - When the kept reading missed text (under `fullCoverage`) and the lines cover
    ///   `coverageGain` points more *and* have more evidence of real words (one known word at
    ///   least), they found text the layout missed; the kept reading's confidence is again that of
    ///   the part it read.
    /// - When the kept reading is barely read (under `Recognizer.orientationCheckBelowConfidence`)
    ///   and the lines surely (`Recognizer.doubtfulBelowConfidence` or more), with no less
    ///   evidence of real words, the lines are kept: the same text, read.
    /// - Otherwise two signals must agree, as neither alone tells a better reading: the lines are
    ///   read at least as surely (mean confidence), and they have more evidence of real words (and
    ///   some: above 0) by one known word at least (`WordEvidence.minimumKnownLetters`: a newspaper read across its
    ///   columns had 3 letters more than read down them), or, when the kept reading missed text
    ///   (under `fullCoverage`), cover `coverageGain` points more (names and numbers on a receipt
    ///   or a card are no dictionary's words) and, with less evidence than the kept reading, are
    ///   read more surely (not as surely: a book spread read across its two pages).
    /// - Never when the lines lost text (`coverageLoss`).
    ///
    /// Measured over the 50 corpus images: docs/measurements/text-detector.md.
    static func prefersDetectedLines(_ lines: ReadingWeight, over kept: ReadingWeight) -> Bool {
        if lines.coveredPercent < kept.coveredPercent - coverageLoss { return false }
        if 2 * kept.coveredPercent < lines.coveredPercent {
            // Read as text, and not more unknown than known where the kept reading was not (a
            // receipt photographed upside down reads as confident nonsense line by line).
            return lines.meanConfidence >= Recognizer.orientationCheckBelowConfidence
                && lines.evidence >= min(kept.evidence, 0)
        }
        let missedText = Double(kept.coveredPercent) < fullCoverage * 100
        let coversMore = missedText && lines.coveredPercent >= kept.coveredPercent + coverageGain
        let moreWords = lines.evidence > 0 && lines.evidence >= kept.evidence + WordEvidence.minimumKnownLetters
        // Text the layout missed, found as real words: the kept reading's confidence is that of
        // the part it read (a receipt's dark lines read at 96 beside its faded ones), no measure
        // of the page.
        if coversMore && moreWords { return true }
        // The same text read surely along the lines where the page's reading is barely read
        // (prices on a receipt's right edge: "17720)" at 50 against "17,20" at 92), with no
        // fewer real words.
        if kept.meanConfidence < Recognizer.orientationCheckBelowConfidence,
            lines.meanConfidence >= Recognizer.doubtfulBelowConfidence, lines.evidence >= kept.evidence
        {
            return true
        }
        guard lines.meanConfidence >= kept.meanConfidence else { return false }
        // More by one word at least: two readings of one page differ by a few letters either way.
        // And real words, not just fewer unknown letters (a passport's machine-readable zone has
        // none: a reading that lost a line "gains").
        if moreWords { return true }
        // Coverage alone: the lines found text the layout missed. When they also have less
        // evidence of real words, they must be read more surely too: covering more by reading
        // another page's fragments or the lines across a spread's two pages is no gain.
        return coversMore && (lines.evidence >= kept.evidence || lines.meanConfidence > kept.meanConfidence)
    }
}
