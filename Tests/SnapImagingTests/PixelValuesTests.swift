import SnapImaging
import Testing

/// `Image.pixelValues()`: the pixels row-major, rows of any width (Leptonica pads each row to
/// 32 bits), for 8 bpp and 1 bpp images.
@Suite struct PixelValuesTests {
    @Test func greyPixelsComeRowByRow() throws {
        // 7 px wide: one byte short of two 32-bit words.
        let values = (0..<21).map { UInt8($0 * 12) }
        let image = try Image(gray8: values, width: 7, height: 3)
        #expect(image.pixelValues() == values.map(UInt32.init))
    }

    @Test func blackAndWhitePixelsAreOneForBlack() throws {
        // 37 px wide: a row runs 5 bits into its second word.
        let width = 37
        let grey = (0..<(width * 2)).map { i -> UInt8 in (i % 3 == 0 || i == width * 2 - 1) ? 0 : 255 }
        let binary = try Image(gray8: grey, width: width, height: 2).binarized(.otsu)
        #expect(binary.depth == 1)
        #expect(binary.pixelValues() == grey.map { $0 == 0 ? 1 : 0 })
    }
}
