import Foundation
import SnapImaging

/// A page read line by line along what the text detector found (`TextDetector`): each region cut
/// out upright (`TextDetector.lineImage`), read by Tesseract's LSTM as a single line (PSM 7), its
/// words' boxes mapped back into the photo; rows and blocks in `ReadingOrder`'s order.
enum DetectedLinesReading {
    /// Line images lower than this are enlarged to it (pixels): Tesseract's LSTM reads lines
    /// scaled to 36 pixels (its models' input height), and thresholds the line first.
    static let minimumLineHeight = 48
    /// Higher ones are reduced to it (pixels): a poster's title needs no more.
    static let maximumLineHeight = 160

    /// Reads the `regions` of `photo` (their corners in its pixels) with `engine`.
    ///
    /// - Parameters:
    ///   - reduction: the photo's pixels per pixel of `photo` (a JPEG decoded reduced): word boxes
    ///     are given in the photo's own pixels.
    ///   - progress: 0–100 after each line; return false to cancel.
    /// - Returns: the text (verse layout, noise lines left out) with words, boxes, confidences and
    ///   alternatives as a page reading gives them.
    /// - Throws: `OCRError.cancelled`, `.recognitionFailed`, `.detectionFailed`.
    static func read(
        _ regions: [DetectedRegion], of photo: Image, reduction: Double, engine: TesseractEngine,
        progress: (Int) -> Bool = { _ in true }
    ) throws -> RecognitionResult {
        let rows = ReadingOrder.rows(of: regions)
        // Converted once for every line (a grey or 1 bpp scan), not once a line.
        let rgb = try TextDetector.rgb(photo)
        var words: [LaidOutWord] = []
        var confidences: [Int] = []
        for (line, row) in rows.enumerated() {
            for index in row.regions {
                let region = regions[index]
                let height = min(
                    maximumLineHeight, max(minimumLineHeight, Int(region.height.rounded())))
                let (image, back) = try TextDetector.lineImage(of: region, in: rgb, height: height)
                let read = try engine.readLine(image, resolution: 300)
                confidences += read.confidences
                for var laid in read.words {
                    let b = back.box(laid.word.boundingBox)
                    laid.word.boundingBox = BoundingBox(
                        x: Int((Double(b.x) * reduction).rounded()), y: Int((Double(b.y) * reduction).rounded()),
                        width: Int((Double(b.width) * reduction).rounded()),
                        height: Int((Double(b.height) * reduction).rounded()))
                    laid.word.line = line
                    laid.block = row.block
                    words.append(laid)
                }
            }
            guard progress((line + 1) * 100 / rows.count) else { throw OCRError.cancelled }
        }
        // Within a row the regions were read left to right; a word's order is its region's.
        return TesseractEngine.assemble(
            TesseractEngine.WordsRead(words: words, confidences: confidences, quarterTurns: 0))
    }
}
