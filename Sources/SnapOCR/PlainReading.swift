import Foundation
import SnapImaging
import Synchronization

/// The photo read as the `tesseract` command line reads it (`Preprocessor.plain`), by an engine
/// of its own on a thread of its own, while the prepared page is read on the calling thread: the
/// candidate every prepared reading must beat (see `Recognizer.recognize`), at the cost of the
/// longer of the two readings instead of both.
///
/// Two `TesseractEngine`s share nothing (Tesseract's `TessBaseAPI` is not thread-safe, one per
/// thread). The page's pixels are only read on the other thread: Tesseract copies them in
/// `TessBaseAPISetImage2`, and the page's resolution is set before the thread starts.
final class PlainReading: Sendable {
    /// What the reading made, and the engine that made it: its results stay for Tesseract's
    /// renderers (`TesseractEngine.renderLast`) until its next reading.
    struct Outcome {
        var result: RecognitionResult
        var page: PreparedImage
        var engine: TesseractEngine
    }

    /// The flags the two threads share.
    private final class Signals: Sendable {
        let stop = Atomic<Bool>(false)
        let percent = Atomic<Int>(0)
    }

    /// A prepared page handed to the reading's thread. Unchecked: the caller keeps using the
    /// same pixels (the plain page is often the photo itself), but neither thread writes them.
    private struct HandedPage: @unchecked Sendable {
        var page: PreparedImage
    }

    /// How the reading's thread makes its page. Unchecked: what it prepares from (a copy of the
    /// photo, `Image.copied`) is the thread's alone.
    private struct HandedPreparation: @unchecked Sendable {
        var make: () throws -> PreparedImage
    }

    private let signals = Signals()
    private let pending: Pending<Outcome>
    /// Left when the reading's thread ends, its engine given back: what a reading queued after
    /// this one waits for (a group's wait takes nothing away from `pending`'s one signal, which
    /// the caller's `wait` takes).
    private let ended = DispatchGroup()

    /// Starts reading `page` (photo pixels ÷ `reduction`, the JPEG's reduced decoding) with the
    /// run's second engine when it is free (given back when the reading ends), else with a new
    /// engine of `options`; after `earlier` has ended, when given (one engine, one reading at a
    /// time, on the second core).
    convenience init(
        _ page: PreparedImage, engine options: EngineOptions, second: SecondEngine? = nil, reduction: Double,
        after earlier: PlainReading? = nil
    ) {
        page.image.setResolution(page.resolution)
        let handed = HandedPage(page: page)
        self.init(
            preparing: { handed.page }, engine: options, second: second, reduction: reduction, after: earlier)
    }

    /// Starts preparing a page with `make` and reading it, on the reading's own thread, as the
    /// other initializer reads its page: `make` must work on pixels no other thread uses, and
    /// set the page's resolution (`Image.setResolution`).
    init(
        preparing make: @escaping () throws -> PreparedImage, engine options: EngineOptions,
        second: SecondEngine? = nil, reduction: Double, after earlier: PlainReading? = nil
    ) {
        let preparation = HandedPreparation(make: make)
        let signals = self.signals
        let ended = self.ended
        ended.enter()
        pending = Pending {
            defer { ended.leave() }
            // The earlier reading's engine is given back when it ends: wait for that, not for its
            // result (its caller takes that).
            earlier?.ended.wait()
            guard !signals.stop.load(ordering: .relaxed) else { throw OCRError.cancelled }
            var page = try preparation.make()
            page.scale /= reduction
            let lent = second?.borrow()
            defer { if let lent { second?.giveBack(lent) } }
            guard !signals.stop.load(ordering: .relaxed) else { throw OCRError.cancelled }
            let engine = try lent?.engine ?? TesseractEngine(options: options)
            guard !signals.stop.load(ordering: .relaxed) else { throw OCRError.cancelled }
            var result = try engine.recognize(page) { percent in
                signals.percent.store(percent, ordering: .relaxed)
                return !signals.stop.load(ordering: .relaxed)
            }
            Recognizer.mapBoxes(&result.words, of: page, reduction: reduction)
            return Outcome(result: result, page: page, engine: engine)
        }
    }

    /// Stops the reading as soon as Tesseract next looks (its cancel callback); `wait` then
    /// throws `OCRError.cancelled`.
    func cancel() { signals.stop.store(true, ordering: .relaxed) }

    /// Waits for the reading, calling `progress` with its percentage (0–100) every 50 ms on the
    /// calling thread; `progress` returning false cancels it.
    /// - Throws: what the reading threw (`OCRError`), `.cancelled` when cancelled.
    func wait(progress: (Int) -> Bool) throws -> Outcome {
        while !pending.isDone(waitingAtMost: 0.05) {
            if !progress(signals.percent.load(ordering: .relaxed)) {
                cancel()
                _ = try? pending.take()
                throw OCRError.cancelled
            }
        }
        return try pending.take()
    }
}
