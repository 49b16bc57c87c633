import CInterposed
import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// Tesseract's line images kept as uncompressed, unfiltered PNGs while it reads (`CInterposed/line_images.c`):
/// the same pixels, stored instead of deflated, and only inside a reading.
@Suite struct LineImagesTests {
    /// The workarounds are on in the OCR processes only; these tests check them in this one.
    init() { LibraryTuning.activate() }

    /// `image` encoded as PNG (`Image.pngData`, Leptonica's `pixWriteMem`): the bytes' count,
    /// whether they decode to the same pixels, and how many of the image's rows are in them as
    /// they are, unfiltered (PNG's filter byte 0, then the row's pixels).
    static func writtenPNG(_ image: Image) throws -> (size: Int, samePixels: Bool, rowsAsTheyAre: Int) {
        let bytes = try image.pngData()
        let decoded = try Image.decode(bytes)
        let values = image.pixelValues()
        let same =
            (decoded.width, decoded.height, decoded.depth) == (image.width, image.height, image.depth)
            && decoded.pixelValues() == values
        // The rows come in order; a stored block's or a chunk's header may split one.
        let data = Data(bytes)
        let pixels = values.map { UInt8(truncatingIfNeeded: $0) }
        var found = 0
        var from = data.startIndex
        for y in 0..<image.height {
            let row = Data([0] + pixels[(y * image.width)..<((y + 1) * image.width)])
            // The first is after the PNG's header chunks; each next one right after the one before.
            let window = found == 0 ? from..<data.endIndex : from..<min(data.endIndex, from + row.count + 64)
            if let r = data.range(of: row, in: window) {
                found += 1
                from = r.upperBound
            } else if found > 0 {
                from = min(data.endIndex, from + row.count)
            }
        }
        return (bytes.count, same, found)
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
        // Stored, the rows are written unfiltered: all but those a chunk or block header splits
        // (libpng writes IDAT chunks of 8 KiB: about one row in seven of this page's 1101 bytes).
        // Filtered, a blank row would be written with Sub (its bytes 0 after the first); deflated,
        // no row is there as it is.
        #expect(inside.rowsAsTheyAre >= page.height * 3 / 4)
        #expect(outside.rowsAsTheyAre == 0)
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
