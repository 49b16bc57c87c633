import Foundation
import SnapTestSupport
import Testing

/// The OCR worker runs Tesseract's OpenMP regions inline under its default `OMP_THREAD_LIMIT=1`
/// (`CInterposed/serial_openmp.c`) and through libgomp's threads when the user allows more: the same document.
/// Without OMP_THREAD_LIMIT, the worker `lovesnap ocr` forks (`WorkerServer.serveForked`) runs
/// them inline too, though the libgomp it inherits read no limit.
@Suite struct ThreadLimitTests {
    @Test(arguments: ["fenetre.png", "dim-warm-light.jpg"])
    func theWorkerReadsTheSameWithOneThreadOrTwo(name: String) throws {
        let path = name.hasSuffix(".jpg") ? TestPaths.fixture(name) : TestPaths.sample(name)
        var env = ProcessInfo.processInfo.environment
        env["OMP_THREAD_LIMIT"] = "1"
        let alone = try lovesnap(["ocr", "--json", path], environment: env)
        env["OMP_THREAD_LIMIT"] = "2"
        let threads = try lovesnap(["ocr", "--json", path], environment: env)
        env["OMP_THREAD_LIMIT"] = nil
        let unset = try lovesnap(["ocr", "--json", path], environment: env)
        #expect(alone.status == 0 && threads.status == 0 && unset.status == 0)
        #expect(alone.stdout.contains("\"words\":[{"))
        #expect(alone.stdout == threads.stdout)
        #expect(unset.stdout == alone.stdout)
    }

    /// The test photos: the sample poems' and the fixtures that are photos of print.
    static let photos: [String] =
        [
            "fenetre.png", "fenetre-photo.jpg", "harbour.png", "harbour-photo.jpg", "kettle.png", "kettle-photo.jpg",
            "kettle-exif6.jpg", "riviere.png", "riviere-photo.jpg",
        ].map(TestPaths.sample)
        + [
            "clean-scan-grey.png", "curled-page.jpg", "dark-photo-beside-text.png", "dense-two-columns.png",
            "dim-warm-light.jpg", "faded-receipt.jpg", "inverted-heading.jpg", "light-print-on-dark-card.jpg",
            "mixed-polarity.png", "page-lit-in-the-middle.jpg", "page-mostly-in-shadow.jpg", "page-on-dark-table.jpg",
            "page-on-wood-table.jpg", "scan-on-dark-ground.jpg", "shadow-across-page.jpg", "sign-on-stone-wall.jpg",
            "small-page-on-dark-table.jpg", "tight-page-with-ruling.png", "title-card-on-grey-page.jpg",
            "white-sign-on-blue.jpg",
        ].map(TestPaths.fixture)

    /// With every library workaround off (`LOVESNAP_NO_TUNING=1`, `CInterposed/tuning.c`) the
    /// libraries do all their own work: the same document, words, boxes and confidences.
    @Test(arguments: photos)
    func theLibraryWorkaroundsSwitchedOffReadTheSame(path: String) throws {
        var env = ProcessInfo.processInfo.environment
        env["LOVESNAP_NO_TUNING"] = nil
        let on = try lovesnap(["ocr", "--json", path], environment: env)
        env["LOVESNAP_NO_TUNING"] = "1"
        let off = try lovesnap(["ocr", "--json", path], environment: env)
        #expect(on.status == 0 && off.status == 0)
        #expect(on.stdout.contains("\"words\":[{"))
        #expect(off.stdout == on.stdout)
    }
}
