import CInterposed
import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// Tesseract's character ambiguity tables left unloaded while an LSTM-only engine starts
/// (`CInterposed/unichar_ambigs.c`): only the legacy engine uses them, so the reading is the same.
@Suite struct UnicharAmbigsTests {
    /// The workarounds are on in the OCR processes only; these tests check them in this one.
    init() { LibraryTuning.activate() }

    @Test func enginesStartWithoutTheTablesUnlessAskedForThem() throws {
        let skipped = unichar_ambigs_skipped_count()
        let loaded = unichar_ambigs_loaded_count()
        _ = try TesseractEngine(options: EngineOptions(languages: ["eng", "fra"]))
        // One per language: the universal table. Debian's eng and fra traineddata are LSTM-only
        // (`combine_tessdata -d`: no `unicharambigs` component of their own).
        #expect(unichar_ambigs_skipped_count() - skipped == 2)
        #expect(unichar_ambigs_loaded_count() - loaded == 0)

        _ = try TesseractEngine(options: EngineOptions(languages: ["eng", "fra"]), loadingAmbiguityTables: true)
        #expect(unichar_ambigs_skipped_count() - skipped == 2)
        #expect(unichar_ambigs_loaded_count() - loaded == 2)

        // Orientation detection runs the legacy engine (OEM 0), but classifies single characters
        // and never asks the tables either: skipped too, unless asked for.
        let detector = try #require(OrientationDetector(tessdataPath: nil))
        #expect(unichar_ambigs_skipped_count() - skipped == 3)
        #expect(unichar_ambigs_loaded_count() - loaded == 2)
        let withTables = try #require(
            OrientationDetector(tessdataPath: nil, minimumConfidence: 7, loadingAmbiguityTables: true))
        #expect(unichar_ambigs_skipped_count() - skipped == 3)
        #expect(unichar_ambigs_loaded_count() - loaded == 3)
        withExtendedLifetime((detector, withTables)) {}
    }

    /// OSD finds the same orientation, with the same confidence, with and without the tables: two
    /// poems and a photo, each turned four ways (the 145 pages of the speed benchmark, turned four
    /// ways, were all the same too: docs/measurements/speed.md).
    @Test(arguments: ["fenetre.png", "kettle.png", "dim-warm-light.jpg"])
    func orientationIsTheSameWithoutTheTables(sample: String) throws {
        let path = sample.hasSuffix(".jpg") ? TestPaths.fixture(sample) : TestPaths.sample(sample)
        let page = try Preprocessor().prepare(ImageLoader().load(path).image)
        let without = try #require(OrientationDetector(tessdataPath: nil))
        let with = try #require(
            OrientationDetector(tessdataPath: nil, minimumConfidence: 7, loadingAmbiguityTables: true))
        var found: [Int] = []
        for turns in 0..<4 {
            let turned = try page.image.rotated(quarterTurnsClockwise: turns)
            let a = without.detect(turned, resolution: page.resolution)
            #expect(a == with.detect(turned, resolution: page.resolution))
            found.append(a?.quarterTurnsClockwise ?? -1)
        }
        // Turned clockwise by `turns`, a page is turned back by 4 − turns.
        #expect(found == [0, 3, 2, 1])
    }

    /// Every word the same, its box, confidence, line and alternatives too, with and without the
    /// tables: a French poem, an English one, and a photo in dim warm light.
    @Test(arguments: ["fenetre.png", "kettle.png", "dim-warm-light.jpg"])
    func theReadingIsTheSameWithoutTheTables(sample: String) throws {
        let path = sample.hasSuffix(".jpg") ? TestPaths.fixture(sample) : TestPaths.sample(sample)
        let page = try Preprocessor().prepare(ImageLoader().load(path).image)
        let options = EngineOptions(languages: ["eng", "fra"])
        let without = try TesseractEngine(options: options).recognize(page)
        let with = try TesseractEngine(options: options, loadingAmbiguityTables: true).recognize(page)
        #expect(without.words.count > 10)
        #expect(without == with)
    }
}
