import CLeptonica
import CLineImages
import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// Tesseract's line images kept as uncompressed PNGs while it reads (`CLineImages`): the same
/// pixels, stored instead of deflated, and only inside a reading.
@Suite struct LineImagesTests {
    /// `pixWriteMem(…, IFF_PNG)` on `image`: the bytes' count and whether they decode to the same pixels.
    static func writtenPNG(_ image: Image) throws -> (size: Int, samePixels: Bool) {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        try #require(pixWriteMem(&data, &size, image.pix, Int32(IFF_PNG)) == 0)
        defer { free(data) }
        var decoded = pixReadMem(data, size)
        defer { pixDestroy(&decoded) }
        var same: Int32 = 0
        try #require(pixEqual(image.pix, decoded, &same) == 0)
        return (size, same == 1)
    }

    @Test func aPNGWrittenInsideAReadingIsStoredWithTheSamePixels() throws {
        let page = try Preprocessor().prepare(ImageLoader().load(TestPaths.sample("fenetre.png")).image).image
        let raw = page.width * page.height
        let before = line_images_stored_count()
        let outside = try Self.writtenPNG(page)
        line_images_store_begin()
        let inside = try Self.writtenPNG(page)
        line_images_store_end()
        let after = try Self.writtenPNG(page)
        #expect(line_images_stored_count() - before == 1)
        #expect(outside.samePixels && inside.samePixels && after.samePixels)
        // Deflated: a white page with a poem is mostly runs. Stored: every pixel, one filter byte
        // per row, and PNG's and zlib's framing.
        #expect(outside.size < raw / 4)
        #expect(inside.size > raw + page.height)
        #expect(after.size == outside.size)
    }

    @Test func aReadingStoresEachLineImageItCuts() throws {
        let page = try Preprocessor().prepare(ImageLoader().load(TestPaths.sample("fenetre.png")).image)
        let engine = try TesseractEngine()
        let before = line_images_stored_count()
        let result = try engine.recognize(page)
        let stored = line_images_stored_count() - before
        // The poem's four lines, each read in French, the language tried first: one image each.
        #expect(Set(result.words.map(\.line)).count == 4)
        #expect(stored == 4)
        // Outside a reading, Leptonica's own PNG.
        _ = try Self.writtenPNG(page.image)
        #expect(line_images_stored_count() - before == 4)
    }
}
