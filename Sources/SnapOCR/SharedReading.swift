import Foundation
import SnapExport
import SnapImaging
import Synchronization

/// A `TesseractEngine` handed from one thread to another. Unchecked: the engine is not
/// thread-safe, and only one thread uses it at a time — `SecondEngine` lends it to one reading
/// at a time, under its lock.
struct EngineHandOff: @unchecked Sendable {
    let engine: TesseractEngine
}

/// A run's second engine: loaded by the first thread that borrows it, on that thread (loaded
/// at the start, beside the first engine's load and the preparation, it slowed the first engine
/// on small pages, which never need it: `scripts/shared-reading-check.py`), then lent to one
/// reading at a time.
final class SecondEngine: Sendable {
    private let options: EngineOptions
    /// Whether a borrower has started loading it; the engine while it is not lent; whether it is lent.
    private let state = Mutex<(loaded: Bool, engine: EngineHandOff?, lent: Bool)>((false, nil, false))
    /// Signalled when the engine is given back (`borrow(waiting:)`).
    private let returned = DispatchSemaphore(value: 0)

    /// An engine of `options`, not loaded yet.
    init(options: EngineOptions) { self.options = options }

    /// The engine, loading it the first time (about 0.25 s for eng+fra); nil when it failed to
    /// load, or is lent out and `waiting` is false. With `waiting`, a borrower waits until the
    /// engine is given back: a reading beside that is stopped, or ends, gives it back.
    func borrow(waiting: Bool = false) -> EngineHandOff? {
        // The first borrower holds it from the start of its load: others wait for that too.
        let load = state.withLock { s -> Bool in
            defer { (s.loaded, s.lent) = (true, true) }
            return !s.loaded
        }
        if load {
            guard let engine = try? TesseractEngine(options: options) else {
                state.withLock { $0.lent = false }
                returned.signal()
                return nil
            }
            return EngineHandOff(engine: engine)
        }
        while true {
            let (engine, lent) = state.withLock { s -> (EngineHandOff?, Bool) in
                defer { if s.engine != nil { (s.engine, s.lent) = (nil, true) } }
                return (s.engine, s.lent)
            }
            if engine != nil || !waiting || !lent { return engine }
            returned.wait()
        }
    }

    /// Gives back what `borrow(waiting:)` lent.
    func giveBack(_ engine: EngineHandOff) {
        state.withLock { ($0.engine, $0.lent) = (engine, false) }
        returned.signal()
    }
}

/// The engine that reads the second part of a shared page: one in this process, lent out between
/// readings, or the reader process's (`ReaderProcess`, the worker's).
enum SecondReader {
    case inProcess(SecondEngine)
    case apart(ReaderProcess)
}

/// One page read by two engines at once, with the text the first engine alone would read.
///
/// Tesseract reads a page line by line, each line from its own pixels (`Tesseract::GetRectImage`
/// cuts the line's box, padded by 4 pixels, out of the input image); two things tie the lines
/// together: the layout analysis, and the language each line is read in first — the one that
/// read the line before (`Tesseract::most_recently_used_`, reset to the first language on each
/// page; the other languages are tried only when that reading is not acceptable). So:
/// 1. the first engine finds the page's lines (`TessBaseAPIAnalyseLayout`) and a cut between
///    two lines where no line's image reaches across (`cut(of:)`);
/// 2. the second engine analyses the same page itself — the same pixels and settings give the
///    same lines, blocks, baselines and word spacing, which is checked — and reads with only the
///    page below the cut as its input image (`TessBaseAPISetInputImage`): the lines above it have
///    nothing to cut and are not read; the lines below are cut from the same pixels, the first
///    of them (the line before its own part) only to take up the language state;
/// 3. meanwhile the first engine reads from the top and is stopped at the second engine's part
///    (Tesseract's cancel callback, after the box of each piece of a line it is about to read);
/// 4. the second engine's part is taken only when the line before it ended in the same
///    language in both engines; otherwise the first engine reads the page again, alone.
/// The first engine reads on alone, as if the second did not exist, when the page has no cut,
/// the second found other lines, or had not started when the first reached the cut.
///
/// The words are put together in the first engine's layout; the mean confidence is that of all
/// words, as `TessBaseAPIMeanTextConf` computes it. Measured against one engine's reading with
/// `scripts/shared-reading-check.py` (docs/measurements/speed.md).
enum SharedReading {
    /// A page of fewer lines is read by one engine.
    static let minimumLines = 8

    /// A page whose reading work (the sum of its lines' widths over their heights, `cut(of:)`) is
    /// smaller is read by one engine: the second engine's own layout analysis and the line it
    /// reads again cost more than it saves. Measured with `scripts/shared-reading-check.py` on
    /// the corpus and the stress set: pages of 10–20 lines (150–400) read 0.9–1.3× as fast shared,
    /// letter pages of 82 lines (about 2000) 0.71–0.78×.
    static let minimumWork = 1000.0

    /// The least reading work shared when the second engine has nothing else to do (no reading of
    /// the photo as it is beside: `Recognizer`). `Recognizer` asks every shared reading for the
    /// layout analysis at once (`read(laysOutAtOnce:)`): made whenever the second engine is free
    /// as the first starts its own. Measured with `scripts/speed-ab.py` over the 145 pages: the
    /// 11 clean scans 3.79 → 3.05 s, all pages 85.9 → 83.9 s, the same text on all of them.
    static let minimumWorkOfFreeSecond = 100.0

    /// The lines before its own part that the second engine reads too, to take up the language
    /// state (see the type): one line left it in another language than the first engine on 5
    /// pages of 28 cut, each then read again.
    static let warmUpLines = 2

    /// Where a page is cut between the engines: lines `split...` are the second engine's, read
    /// from the page's rows `top...` (pixels from the page's top); `share` is the larger of the
    /// two engines' parts of the reading work (0.5–1).
    struct Cut: Equatable {
        var split: Int
        var top: Int
        var share: Double
    }

    /// The line right before the second engine's part may be cut through when at least this part
    /// of its image's height is in the part (see `cut(of:)`).
    static let smallestPartOfLine = 0.5

    /// A cut is made only when it leaves neither engine more than this part of the reading work.
    static let largestShare = 0.75

    /// The cut that leaves the larger part of the reading work smallest. Lines are read in
    /// layout order at a cost proportional to their width over their height (the LSTM sees each
    /// line scaled to a fixed height).
    ///
    /// The second engine's part of the page must hold every line from `split − warmUpLines` wholly, as
    /// Tesseract cuts it: its box padded by 4 pixels (`kImagePadding`), and stretched
    /// (`Tesseract::LSTMRecognizeWord`) to the row's x-height plus ascenders above the baseline
    /// and its descenders below — the row's own estimates, which the C API does not give: taken
    /// here, with room to spare, as 1.3 times the page's median rise from baseline to line top
    /// and 1.2 times its upper-quartile drop from baseline to line bottom. The part starts right
    /// below the last earlier line left out of it. The line right before the warm-up lines may be
    /// cut through, when at least `smallestPartOfLine` of its image is in the part: in tightly set
    /// text each line's image reaches into the next one's, and the part can start only through
    /// a line. That line is read by the second engine from the strip it gets (for nothing but
    /// the language it leaves: its words are the first engine's), at its cost over that part (a
    /// strip of a line, scaled to the LSTM's height, costs more than the line). Any other
    /// earlier line is either wholly outside the part or wholly inside (read too, for nothing).
    /// `lines` are the lines Tesseract reads (`LayoutLine.isRead`): the lines of an image or a
    /// ruling are neither read nor cut, by either engine.
    /// Nil when no cut leaves each engine at most `largestShare`, there are fewer than
    /// `minimumLines` lines or less work than `minimumWork`, or any block is not upright (a
    /// turned block's lines are cut turned).
    static func cut(of lines: [LayoutLine], minimumWork: Double = SharedReading.minimumWork) -> Cut? {
        let n = lines.count
        guard n >= minimumLines, n > warmUpLines + 1, lines.allSatisfy(\.isUpright),
            lines.allSatisfy({ $0.baseline.count == 4 })
        else { return nil }
        let images = lineImages(of: lines)
        let tops = images.map(\.top)
        let bottoms = images.map(\.bottom)
        let costs = lines.map { l in
            Double(max(1, l.box.right - l.box.left)) / Double(max(1, l.box.bottom - l.box.top))
        }
        let total = costs.reduce(0, +)
        guard total >= minimumWork else { return nil }
        var above = [Int](repeating: Int.max, count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) { above[i] = min(above[i + 1], tops[i]) }
        var best: Cut?
        var before = costs[..<warmUpLines].reduce(0, +)
        for split in (warmUpLines + 1)..<n {
            before += costs[split - 1]
            // The part holds the `warmUpLines` before `split` too (see the type), and starts above
            // every earlier line it would cut through, but the line right before them: that one
            // may be cut through when most of it is in the part (see the doc above).
            let first = split - warmUpLines
            let through = first - 1
            var top = above[first]
            func holdWhole(_ range: Range<Int>) {
                var moved = true
                while moved {
                    moved = false
                    for j in range where tops[j] < top && bottoms[j] > top {
                        top = tops[j]
                        moved = true
                    }
                }
            }
            holdWhole(0..<through)
            // The part starts right below the earlier lines left out of it: the margin goes to
            // the lines it holds.
            func start(below limit: Int) -> Int {
                (0..<limit).filter { bottoms[$0] <= top }.map { bottoms[$0] }.max() ?? top
            }
            var partCost = 0.0
            if tops[through] < top && bottoms[through] > top {
                let from = max(start(below: through), tops[through])
                let inside = Double(bottoms[through] - from) / Double(bottoms[through] - tops[through])
                if inside >= smallestPartOfLine {
                    // Cut to a strip `inside` of its height, the LSTM scales it up to its input
                    // height: the longer its image, the costlier.
                    partCost = costs[through] / inside
                } else {
                    top = tops[through]
                    holdWhole(0..<first)
                }
            }
            guard top > 0 else { continue }
            var second = total - before + costs[first..<split].reduce(0, +) + partCost
            for j in 0..<first where tops[j] >= top { second += costs[j] }
            let share = max(before, second) / total
            let start = start(below: first)
            if share <= largestShare && share < (best?.share ?? 2) {
                best = Cut(split: split, top: start, share: share)
            }
        }
        return best
    }

    /// The rows each line's image spans as Tesseract cuts it, estimated as `cut(of:)` describes:
    /// from `top` to `bottom` (pixels from the page's top, bottom excluded). `lines` must be
    /// non-empty, with 4 baseline coordinates each.
    static func lineImages(of lines: [LayoutLine]) -> [(top: Int, bottom: Int)] {
        let n = lines.count
        let highest = lines.map { min($0.baseline[1], $0.baseline[3]) }
        let lowest = lines.map { max($0.baseline[1], $0.baseline[3]) }
        let rises = lines.indices.map { highest[$0] - lines[$0].box.top }.sorted()
        let drops = lines.indices.map { lines[$0].box.bottom - lowest[$0] }.sorted()
        let rise = Int((Double(max(0, rises[n / 2])) * 1.3).rounded(.up))
        let drop = Int((Double(max(0, drops[3 * n / 4])) * 1.2).rounded(.up))
        let padding = 4 + 1
        return lines.indices.map {
            (
                min(lines[$0].box.top, highest[$0] - rise) - padding,
                max(lines[$0].box.bottom, lowest[$0] + drop) + padding
            )
        }
    }

    /// How a shared reading went, for the diagnostics.
    enum Outcome: Equatable, Sendable {
        /// One engine read the page: no cut, or the second engine was not ready (still loading,
        /// or busy) when the first reached the cut.
        case notShared
        /// The second engine found other lines than the first engine's `lines`, or read the
        /// line before its part in another language: the first read the page alone.
        case differed(lines: Int)
        /// Lines from `split` (counted from 0) of the page's `lines` were the second engine's.
        case shared(split: Int, lines: Int)
    }

    /// The flags the two threads share.
    private final class Signals: Sendable {
        /// `waiting` until the second engine starts reading, then `reading`; `alone` when the
        /// first engine reached the cut first; `differed` when the second engine found other
        /// lines; `unavailable` when it failed to load, is busy, or the page is not shared.
        let state = Atomic<Int>(waiting)
        let stop = Atomic<Bool>(false)
        let percent = Atomic<Int>(0)
        /// The first engine's layout, the lines of it that are read, and the cut, once found
        /// (nil: the page is not shared).
        let layout = Mutex<(layout: [LayoutLine], lines: [LayoutLine], cut: Cut)?>(nil)
        /// Signalled when the first engine's layout is known.
        let laidOut = DispatchSemaphore(value: 0)
        /// Signalled when the second engine leaves `waiting` (for `waitsForSecond`).
        let decided = DispatchSemaphore(value: 0)
        static let waiting = 0
        static let reading = 1
        static let alone = 2
        static let unavailable = 3
        static let differed = 4

        func decide(_ state: Int) {
            self.state.store(state, ordering: .sequentiallyConsistent)
            decided.signal()
        }
    }

    /// The page handed to the second engine's thread. Unchecked: both threads read its pixels,
    /// neither writes them (Tesseract copies what it needs in `TessBaseAPISetImage2`).
    private struct HandedPage: @unchecked Sendable {
        var page: PreparedImage
    }

    /// Reads `page` with `first`, sharing the work with `second` where it is safe (see the type).
    ///
    /// - Parameters:
    ///   - page: the prepared page (its scale maps boxes back to the photo, as in
    ///     `TesseractEngine.recognize`).
    ///   - waitsForSecond: whether the first engine, at the cut, waits for a second engine that has
    ///     not started (tests: the outcome then does not depend on which thread is faster).
    ///   - minimumWork: the least reading work worth sharing (`cut(of:minimumWork:)`).
    ///   - laysOutAtOnce: whether the second engine, when it is not lent out, analyses the page's
    ///     layout at once, beside the first engine's, instead of once the first has found a cut
    ///     (then none is waited for: the page's layout is the same, only found sooner; wasted on
    ///     a page that has no cut, on the second core).
    ///   - whenShared: called on this thread when the page has a cut, before the second engine is
    ///     borrowed: a reading the caller started on it beside this one must be stopped there (the
    ///     second engine's thread waits until it is given back; one that is not stopped, such as
    ///     a crop read at its own size, is waited for while the first engine reads on).
    ///   - progress: called on this thread with 0–100; return `false` to cancel.
    /// - Returns: the reading and how it was shared.
    /// - Throws: `OCRError.cancelled` when `progress` returned false, `.recognitionFailed`.
    static func read(
        _ page: PreparedImage, first: TesseractEngine, second secondReader: SecondReader, waitsForSecond: Bool = false,
        minimumWork: Double = SharedReading.minimumWork, laysOutAtOnce: Bool = false, whenShared: () -> Void = {},
        progress: @escaping (Int) -> Bool
    ) throws -> (result: RecognitionResult, outcome: Outcome) {
        page.image.setResolution(page.resolution)  // before both threads read it
        let signals = Signals()
        let handed = HandedPage(page: page)
        // The second engine starts once the first has found a cut (no work for nothing on the
        // pages that have none), finds the lines itself, and reads its part if they are the same.
        // It makes its words with their lines in the layout's numbering (nil: it did not read).
        let pending = Pending { () throws -> TesseractEngine.WordsRead? in
            let second: SecondEngine
            switch secondReader {
            case .inProcess(let engine): second = engine
            case .apart(let reader):
                return try readApart(handed.page, by: reader, laysOutAtOnce: laysOutAtOnce, signals: signals)
            }
            var early: (lent: EngineHandOff, layout: [LayoutLine])?
            if laysOutAtOnce, let lent = second.borrow(waiting: false) {
                early = (lent, lent.engine.analyseLayout(handed.page))
            }
            signals.laidOut.wait()
            // A reading beside that holds the engine (a crop read at its own size) gives it back
            // when it ends; the first engine reads on meanwhile, and alone if it reaches the cut first.
            guard let (expected, lines, cut) = signals.layout.withLock({ $0 }),
                !signals.stop.load(ordering: .relaxed),
                let lent = early?.lent ?? second.borrow(waiting: true)
            else {
                if let early { second.giveBack(early.lent) }
                signals.decide(Signals.unavailable)
                return nil
            }
            defer { second.giveBack(lent) }
            guard signals.state.load(ordering: .sequentiallyConsistent) == Signals.waiting,
                !signals.stop.load(ordering: .relaxed)
            else { return nil }
            let page = handed.page
            let engine = lent.engine
            let layout = early?.layout ?? engine.analyseLayout(page)
            guard layout == expected,
                let bottom = try? page.image.clipped(
                    x: 0, y: cut.top, width: page.image.width, height: page.image.height - cut.top)
            else {
                signals.decide(layout == expected ? Signals.unavailable : Signals.differed)
                return nil
            }
            engine.readLinesFrom(bottomOfPage: bottom)
            let started = signals.state.compareExchange(
                expected: Signals.waiting, desired: Signals.reading, ordering: .sequentiallyConsistent
            ).exchanged
            signals.decided.signal()
            guard started else { return nil }
            var read = try engine.readWords(page) { p in
                signals.percent.store(p, ordering: .relaxed)
                return !signals.stop.load(ordering: .relaxed)
            }
            read.words = numbered(read.words, in: lines)
            return read
        }
        // The lines of images and rulings are in the layout, and are not read.
        let layout = first.analyseLayout(page)
        let lines = layout.filter(\.isRead)
        guard let cut = cut(of: lines, minimumWork: minimumWork) else {
            signals.stop.store(true, ordering: .relaxed)
            signals.laidOut.signal()
            // The first engine reads at once: a layout analysis the second engine began beside
            // (`laysOutAtOnce`) cannot be stopped, and when it ended after the first's, waiting for
            // it held up the reading (82 ms of a scene photo's 0.8 s). It is waited for after the
            // reading: the second engine's thread gives it back before it ends, and whoever
            // borrows it next waits for that.
            let result = try first.recognizeSetPage(page, progress: progress)
            _ = try? pending.take()
            return (result, .notShared)
        }
        whenShared()
        signals.layout.withLock { $0 = (layout, lines, cut) }
        signals.laidOut.signal()
        let split = cut.split
        // The first engine's progress: the lines it has reached out of its part; the second's
        // its own percentage; the whole, their mean (each has about half the work), never back.
        var shown = 0
        func show(_ percent: Int) -> Bool {
            shown = max(shown, min(100, percent))
            let ok = progress(shown)
            if !ok { signals.stop.store(true, ordering: .relaxed) }
            return ok
        }
        var tracker = LineTracker(lines: lines)
        var alone = false
        // At the cut: stop if the second engine is reading its part; else read on alone
        // (waiting for a second engine that has not started could take longer than reading on).
        func shares() -> Bool {
            if waitsForSecond && signals.state.load(ordering: .sequentiallyConsistent) == Signals.waiting {
                signals.decided.wait()
            }
            _ = signals.state.compareExchange(
                expected: Signals.waiting, desired: Signals.alone, ordering: .sequentiallyConsistent)
            return signals.state.load(ordering: .sequentiallyConsistent) == Signals.reading
        }
        let firstRead: TesseractEngine.WordsRead
        do {
            firstRead = try first.readWords(
                page,
                progress: { p in
                    let own = alone ? p : min(100, tracker.line * 100 / split)
                    let other = alone ? p : signals.percent.load(ordering: .relaxed)
                    return show((own + other) / 2)
                },
                stop: { box in
                    guard !alone, tracker.reach(box) >= split else { return false }
                    if shares() { return true }
                    alone = true
                    return false
                })
        } catch {
            signals.stop.store(true, ordering: .relaxed)
            throw error
        }
        guard firstRead.stopped else {
            // Read alone to the end; the second engine stops on its own.
            signals.stop.store(true, ordering: .relaxed)
            let differed = signals.state.load(ordering: .sequentiallyConsistent) == Signals.differed
            return (TesseractEngine.assemble(firstRead), differed ? .differed(lines: lines.count) : .notShared)
        }
        while !pending.isDone(waitingAtMost: 0.05) {
            if !show((100 + signals.percent.load(ordering: .relaxed)) / 2) {
                _ = try? pending.take()
                throw OCRError.cancelled
            }
        }
        // Tesseract reads each line first in the language of the line before (the one that read
        // it, `most_recently_used_`), and tries the others only when that reading is not
        // acceptable: the second engine's part is the first engine's reading only if the line
        // before it ended in the same language in both.
        let secondRead = (try? pending.take()) ?? nil
        // Both readings in the layout's numbering of the lines read (Tesseract's own counts the
        // lines of images and rulings too).
        var firstPart = firstRead
        firstPart.words = numbered(firstRead.words, in: lines)
        let before = split - 1
        if let secondRead, let language = firstPart.words.last(where: { $0.word.line == before })?.language,
            secondRead.words.last(where: { $0.word.line == before })?.language == language
        {
            let merged = merge(firstPart, secondRead, lines: lines, split: split)
            return (TesseractEngine.assemble(merged), .shared(split: split, lines: lines.count))
        }
        // The second engine failed, or its part may read otherwise: the first reads the page
        // again, alone, with the layout it found.
        return (try first.recognizeSetPage(page, progress: progress), .differed(lines: lines.count))
    }

    /// The second engine's side of `read` when it is the reader process's: the same steps, each a
    /// command (`ReaderCommand.layOut`, `.readPart`), the page handed over in a memory file.
    private static func readApart(
        _ page: PreparedImage, by reader: ReaderProcess, laysOutAtOnce: Bool, signals: Signals
    ) throws -> TesseractEngine.WordsRead? {
        let early = laysOutAtOnce ? reader.layOut(page) : nil
        signals.laidOut.wait()
        guard let (expected, lines, cut) = signals.layout.withLock({ $0 }), !signals.stop.load(ordering: .relaxed)
        else {
            // No cut: a layout the reader has not begun yet is skipped.
            if let early { reader.stop(early) }
            signals.decide(Signals.unavailable)
            return nil
        }
        let laidOut = early ?? reader.layOut(page)
        guard let layout = try? reader.layout(laidOut) else {
            signals.decide(Signals.unavailable)
            return nil
        }
        guard layout == expected else {
            signals.decide(Signals.differed)
            return nil
        }
        guard signals.state.load(ordering: .sequentiallyConsistent) == Signals.waiting,
            !signals.stop.load(ordering: .relaxed)
        else { return nil }
        let part = reader.readPart(top: cut.top)
        guard reader.partStarted(part) else {
            signals.decide(Signals.unavailable)
            return nil
        }
        let started = signals.state.compareExchange(
            expected: Signals.waiting, desired: Signals.reading, ordering: .sequentiallyConsistent
        ).exchanged
        signals.decided.signal()
        guard started else {
            reader.stop(part)
            return nil
        }
        var read = try reader.part(part) { p in
            signals.percent.store(p, ordering: .relaxed)
            return !signals.stop.load(ordering: .relaxed)
        }
        read.words = numbered(read.words, in: lines)
        return read
    }

    /// A reading's words with their lines in the numbering of the layout's lines read: the second
    /// engine skips the lines above its part, and Tesseract's own count takes in the lines of
    /// images and rulings it does not read, so its numbers differ; each of its lines is the
    /// layout line its words' box overlaps most, in order.
    static func numbered(_ words: [LaidOutWord], in lines: [LayoutLine]) -> [LaidOutWord] {
        // Lines before `split` may be read too (wholly in the second engine's part): they map
        // to their own lines, and are dropped by `merge`. Lines outside its part are not read,
        // so the search for the next line goes as far as it must.
        var tracker = LineTracker(lines: lines, window: lines.count)
        var out = words
        var i = 0
        while i < out.count {
            var j = i
            var box = out[i].pageBox
            while j + 1 < out.count && out[j + 1].word.line == out[i].word.line {
                j += 1
                let b = out[j].pageBox
                box = PageBox(
                    left: min(box.left, b.left), top: min(box.top, b.top), right: max(box.right, b.right),
                    bottom: max(box.bottom, b.bottom))
            }
            let line = tracker.reach(box)
            for k in i...j { out[k].word.line = line }
            i = j + 1
        }
        return out
    }

    /// The first engine's words of lines before `split` and the second engine's of lines from
    /// it, both numbered by `numbered(_:in:)`, each word's block the layout's.
    static func merge(
        _ first: TesseractEngine.WordsRead, _ second: TesseractEngine.WordsRead, lines: [LayoutLine], split: Int
    ) -> TesseractEngine.WordsRead {
        var words: [LaidOutWord] = []
        var confidences: [Int] = []
        for (i, w) in first.words.enumerated() where w.word.line < split {
            var w = w
            w.block = lines[w.word.line].block
            words.append(w)
            confidences.append(first.confidences[i])
        }
        for (i, w) in second.words.enumerated() where w.word.line >= split {
            var w = w
            w.block = lines[w.word.line].block
            words.append(w)
            confidences.append(second.confidences[i])
        }
        return TesseractEngine.WordsRead(words: words, confidences: confidences, quarterTurns: 0)
    }
}

/// Follows Tesseract through a page's lines from the boxes it reports before reading each piece
/// of a line (`progress_callback2`): the pieces come in layout order, so the line is the one at
/// or after the current line that the box overlaps most.
struct LineTracker {
    let lines: [LayoutLine]
    /// How many lines from the current one are considered.
    let window: Int
    private(set) var line = 0

    init(lines: [LayoutLine], window: Int = 4) {
        self.lines = lines
        self.window = window
    }

    /// The line `box` (pixels of the page) belongs to; lines before the current one are not considered.
    mutating func reach(_ box: PageBox) -> Int {
        var best = line
        var bestArea = 0
        for j in line..<min(lines.count, line + window) {
            let l = lines[j].box
            let w = min(box.right, l.right) - max(box.left, l.left)
            let h = min(box.bottom, l.bottom) - max(box.top, l.top)
            let area = w > 0 && h > 0 ? w * h : 0
            if area > bestArea { (best, bestArea) = (j, area) }
        }
        line = best
        return line
    }
}
