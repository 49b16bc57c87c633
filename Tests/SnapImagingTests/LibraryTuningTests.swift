import Testing

@testable import SnapImaging

/// The one switch for the library workarounds (`LibraryTuning`, `CInterposed/tuning.c`).
@Suite struct LibraryTuningTests {
    /// Only the versions each workaround was verified against (Debian 12's) are tuned; any other
    /// is left to do its own work.
    @Test func onlyTheVerifiedLibraryVersionsAreTuned() {
        let verified = [
            ("tesseract", "5.3.0"), ("tesseract", "5.3.4"), ("leptonica", "leptonica-1.82.0"), ("libpng", "1.6.39"),
        ]
        let other = [
            ("tesseract", "5.4.1"), ("tesseract", "5.30.0"), ("tesseract", "4.1.1"), ("leptonica", "leptonica-1.84.1"),
            ("leptonica", "1.82.0"), ("libpng", "1.7.0"), ("libgomp", "12"), ("tesseract", ""),
        ]
        #expect(verified.allSatisfy { LibraryTuning.isVerified(library: $0.0, version: $0.1) })
        #expect(other.filter { LibraryTuning.isVerified(library: $0.0, version: $0.1) }.isEmpty)
    }

    /// On the machine the tests run on (Debian 12's libraries) every workaround is verified, so
    /// each is on in an OCR process unless LOVESNAP_NO_TUNING names it (the test process has it unset).
    @Test func everyWorkaroundIsOnWithDebian12sLibraries() {
        #expect(
            LibraryTuning.workarounds
                == ["line-images", "unichar-ambigs", "serial-openmp", "brick-morphology"].map {
                    LibraryTuning.Workaround(name: $0, offBecause: nil)
                })
    }
}
