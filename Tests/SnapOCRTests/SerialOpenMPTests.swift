import CInterposed
import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// Tesseract's OpenMP parallel regions run on the reading thread alone (`CInterposed/serial_openmp.c`): the
/// same words as through libgomp, every region of the reading through lovesnap's functions.
@Suite struct SerialOpenMPTests {
    /// The workarounds are on in the OCR processes only; these tests check them in this one.
    init() { LibraryTuning.activate() }

    @Test(arguments: ["fenetre.png", "kettle.png"])
    func aReadingsRegionsRunInlineWithTheSameWords(sample: String) throws {
        let page = try Preprocessor().prepare(ImageLoader().load(TestPaths.sample(sample)).image)
        let options = EngineOptions(languages: ["eng", "fra"])
        let alone = try TesseractEngine(options: options, loadingAmbiguityTables: false, parallelRegionsInline: true)
        let team = try TesseractEngine(options: options, loadingAmbiguityTables: false, parallelRegionsInline: false)

        let (inline, forwarded) = (serial_openmp_inline_count(), serial_openmp_forwarded_count())
        let read = try alone.recognize(page)
        let inlineRegions = serial_openmp_inline_count() - inline
        #expect(serial_openmp_forwarded_count() - forwarded == 0)

        let (inline2, forwarded2) = (serial_openmp_inline_count(), serial_openmp_forwarded_count())
        let readByLibgomp = try team.recognize(page)
        let forwardedRegions = serial_openmp_forwarded_count() - forwarded2
        #expect(serial_openmp_inline_count() - inline2 == 0)

        // The same regions, one per time step and layer of each line the LSTM reads.
        #expect(inlineRegions == forwardedRegions)
        #expect(inlineRegions == (sample == "fenetre.png" ? 9338 : 11213))
        #expect(read.words.count > 10)
        #expect(read == readByLibgomp)
    }
}
