import Foundation
import SnapImaging
import Synchronization

/// A page read line by line along what the text detector found (`TextDetector`): each region cut
/// out upright (`TextDetector.lineImage`), read by Tesseract's LSTM as a single line (PSM 7), its
/// words' boxes mapped back into the photo; rows and blocks in `ReadingOrder`'s order.
///
/// The lines are independent (each is a page of its own to Tesseract: no layout, and the
/// language tried first is reset for each), so two engines read them at once with the same
/// result as one: the first from the top, a second engine (`LinesReadBeside`) from the bottom up,
/// until they meet.
enum DetectedLinesReading {
    /// Line images lower than this are enlarged to it (pixels): Tesseract's LSTM reads lines
    /// scaled to 36 pixels (its models' input height), and thresholds the line first.
    static let minimumLineHeight = 48
    /// Higher ones are reduced to it (pixels): a poster's title needs no more.
    static let maximumLineHeight = 160

    /// One line to read: its region (an index into the regions), and the row (the text's line)
    /// and block it belongs to.
    struct Job: Equatable, Sendable {
        var region: Int
        var line: Int
        var block: Int
    }

    /// The lines of `regions` in reading order (`ReadingOrder.rows`), left to right in a row.
    static func jobs(_ regions: [DetectedRegion]) -> [Job] {
        ReadingOrder.rows(of: regions).enumerated().flatMap { line, row in
            row.regions.map { Job(region: $0, line: line, block: row.block) }
        }
    }

    /// Reads the `regions` of `photo` (their corners in its pixels) with `engine`, and with a
    /// second engine when `beside` starts one.
    ///
    /// - Parameters:
    ///   - reduction: the photo's pixels per pixel of `photo` (a JPEG decoded reduced): word boxes
    ///     are given in the photo's own pixels.
    ///   - beside: starts a second engine reading regions in the order given (`LinesReadBeside`);
    ///     nil: one engine.
    ///   - progress: 0–100 after each line; return false to cancel.
    /// - Returns: the text (verse layout, noise lines left out) with words, boxes, confidences and
    ///   alternatives as a page reading gives them.
    /// - Throws: `OCRError.cancelled`, `.recognitionFailed`, `.detectionFailed`.
    static func read(
        _ regions: [DetectedRegion], of photo: Image, reduction: Double, engine: TesseractEngine,
        beside: LinesReadBeside.Start? = nil,
        progress: (Int) -> Bool = { _ in true }
    ) throws -> RecognitionResult {
        let jobs = jobs(regions)
        // Converted once for every line (a grey or 1 bpp scan), not once a line.
        let rgb = try TextDetector.rgb(photo)
        // The second engine reads from the last line up: the two meet in the middle whatever
        // their speeds, and a line is read twice at most (the one both start at once).
        let second = jobs.count > 1 ? beside?(rgb, regions, jobs.reversed().map(\.region)) : nil
        defer { second?.stop() }
        var read: [TesseractEngine.WordsRead?] = Array(repeating: nil, count: jobs.count)
        var next = 0
        while next < jobs.count, second?.line(jobs.count - 1 - next) == nil {
            read[next] = try readLine(regions[jobs[next].region], in: rgb, reduction: reduction, engine: engine)
            next += 1
            guard progress(next * 100 / jobs.count) else { throw OCRError.cancelled }
        }
        // The rest was read beside, from the bottom up to here; a second engine that failed
        // leaves its lines to be read here.
        for i in next..<jobs.count {
            read[i] =
                try second?.waitForLine(jobs.count - 1 - i)
                ?? readLine(regions[jobs[i].region], in: rgb, reduction: reduction, engine: engine)
        }
        var words: [LaidOutWord] = []
        var confidences: [Int] = []
        for (job, line) in zip(jobs, read) {
            guard let line else { continue }
            confidences += line.confidences
            for var laid in line.words {
                laid.word.line = job.line
                laid.block = job.block
                words.append(laid)
            }
        }
        // Within a row the regions were read left to right; a word's order is its region's.
        return TesseractEngine.assemble(
            TesseractEngine.WordsRead(words: words, confidences: confidences, quarterTurns: 0))
    }

    /// `region` of `rgb` (32 bpp) read as one line by `engine`, its words' boxes in the photo's
    /// pixels (`rgb`'s times `reduction`).
    /// - Throws: `OCRError.recognitionFailed`, `.detectionFailed` (OpenCV's warp failed).
    static func readLine(_ region: DetectedRegion, in rgb: Image, reduction: Double, engine: TesseractEngine)
        throws -> TesseractEngine.WordsRead
    {
        let height = min(maximumLineHeight, max(minimumLineHeight, Int(region.height.rounded())))
        let (image, back) = try TextDetector.lineImage(of: region, in: rgb, height: height)
        var read = try engine.readLine(image, resolution: 300)
        for i in read.words.indices {
            read.words[i].word.boundingBox = back.box(read.words[i].word.boundingBox).scaled(by: reduction)
        }
        return read
    }
}

/// A second engine reading detected lines (`DetectedLinesReading.readLine`) in the order it was
/// given, beside the first engine's reading: the reader process's (`ReaderProcess.readLines`) or
/// one in this process (`LinesOnSecondEngine`).
protocol LinesReadBeside: AnyObject {
    /// Starts a second engine reading `regions` of `rgb` (32 bpp, `TextDetector.rgb`), those of
    /// the indices `order`, in that order; nil when there is none free.
    typealias Start = (_ rgb: Image, _ regions: [DetectedRegion], _ order: [Int]) -> (any LinesReadBeside)?

    /// The `index`th line of the order given, when read already; never blocks.
    func line(_ index: Int) -> TesseractEngine.WordsRead?
    /// Waits for the `index`th line of the order given: nil when the engine failed or stopped
    /// before it.
    func waitForLine(_ index: Int) -> TesseractEngine.WordsRead?
    /// Stops the reading after the line under way.
    func stop()
}

/// Detected lines read on this process's second engine (`SecondEngine`), on a thread of its own.
final class LinesOnSecondEngine: LinesReadBeside, Sendable {
    private let state = Mutex<(read: [Int: TesseractEngine.WordsRead], ended: Bool)>(([:], false))
    private let stopped = Atomic<Bool>(false)
    /// Signalled after each line, and when the reading ends.
    private let changed = DispatchSemaphore(value: 0)

    /// Starts reading `order` (indices into `regions`) of `rgb` (32 bpp; only its pixels are
    /// read, `HandedImage`) with `second`, borrowed once free and given back at the end.
    init(
        second: SecondEngine, rgb: Image, regions: [DetectedRegion], order: [Int], reduction: Double
    ) {
        let handed = HandedImage(image: rgb)
        Thread.detachNewThread { [self] in
            defer {
                state.withLock { $0.ended = true }
                changed.signal()
            }
            guard let lent = second.borrow(waiting: true) else { return }
            defer { second.giveBack(lent) }
            for (index, region) in order.enumerated() {
                guard !stopped.load(ordering: .relaxed),
                    let read = try? DetectedLinesReading.readLine(
                        regions[region], in: handed.image, reduction: reduction, engine: lent.engine)
                else { return }
                state.withLock { $0.read[index] = read }
                changed.signal()
            }
        }
    }

    func line(_ index: Int) -> TesseractEngine.WordsRead? {
        state.withLock { $0.read[index] }
    }

    func waitForLine(_ index: Int) -> TesseractEngine.WordsRead? {
        while true {
            let (read, ended) = state.withLock { ($0.read[index], $0.ended) }
            if read != nil || ended { return read }
            changed.wait()
        }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }
}
