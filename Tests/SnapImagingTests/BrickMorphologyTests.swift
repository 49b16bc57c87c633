import CInterposed
import CLeptonica
import SnapTestSupport
import Testing

@testable import SnapImaging

/// Leptonica's morphology by long bricks made with its composite bricks (`CInterposed/brick_morphology.c`): the
/// same pixels as Leptonica's own brick functions, on a real page.
@Suite struct BrickMorphologyTests {
    /// The workarounds are on in the OCR processes only; these tests check them in this one.
    init() { LibraryTuning.activate() }

    typealias BrickFunction =
        @convention(c) (
            UnsafeMutablePointer<PIX>?, UnsafeMutablePointer<PIX>?, l_int32, l_int32
        ) -> UnsafeMutablePointer<PIX>?

    /// The four functions as this process calls them (the interposed ones), in the order of
    /// `brick_morphology_leptonica_function`'s kinds.
    static let interposed: [(name: String, function: BrickFunction)] = [
        ("open", pixOpenBrick), ("safe close", pixCloseSafeBrick), ("erode", pixErodeBrick),
        ("dilate", pixDilateBrick),
    ]

    /// A photographed poem thresholded as Tesseract thresholds a page (Otsu), 1 bpp.
    static func page() throws -> Image {
        try ImageLoader().load(TestPaths.sample("harbour-photo.jpg")).image.grayscale().binarized(.otsu)
    }

    @Test(arguments: [(75, 1), (1, 75), (15, 15), (1, 35), (150, 1)])
    func aComposableBrickGivesLeptonicasPixels(width: Int32, height: Int32) throws {
        let page = try Self.page()
        for (kind, (name, function)) in Self.interposed.enumerated() {
            let leptonica = try #require(brick_morphology_leptonica_function(Int32(kind)))
            let own = unsafeBitCast(leptonica, to: BrickFunction.self)
            let before = brick_morphology_composite_count()
            let composite = try Image.wrap(function(nil, page.pix, width, height), name)
            #expect(brick_morphology_composite_count() > before, "\(name) \(width)×\(height) made by a composite")
            let brick = try Image.wrap(own(nil, page.pix, width, height), name)
            var same: l_int32 = 0
            #expect(pixEqual(composite.pix, brick.pix, &same) == 0 && same == 1, "\(name) \(width)×\(height)")
        }
    }

    @Test func aBrickThatIsNoProductOrSmallIsLeptonicasOwn() throws {
        // 17 is prime, and 5 × 5 is too small to gain: Leptonica's brick functions make them.
        let page = try Self.page()
        for (width, height): (Int32, Int32) in [(17, 1), (1, 17), (5, 5)] {
            for (name, function) in Self.interposed {
                let before = brick_morphology_composite_count()
                _ = try Image.wrap(function(nil, page.pix, width, height), name)
                #expect(brick_morphology_composite_count() == before, "\(name) \(width)×\(height)")
            }
        }
    }
}
