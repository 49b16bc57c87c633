import Foundation
import SnapTestSupport
import Testing

@testable import SnapImaging

/// Inputs found by the libFuzzer target in Fuzz/ (see Fuzz/README.md) that once crashed the loader
/// or the preprocessor; each must now end in a thrown `ImagingError` or a prepared image.
@Suite struct FuzzRegressionTests {
    /// Writes `bytes` to a new temporary file and returns its path.
    func file(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = TestPaths.temporaryDirectory("lovesnap-fuzz").appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The PNG signature and an IHDR chunk (CRC not checked by the header reader) declaring
    /// `width` × `height` pixels of `bitDepth` bits and PNG colour type `colorType`, padded
    /// with zeros to 64 bytes (Leptonica refuses to read the header of a shorter file).
    func pngHeader(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
        }
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + be(13) + Array("IHDR".utf8)
            + be(width) + be(height) + [bitDepth, colorType, 0, 0, 0] + [UInt8](repeating: 0, count: 31)
    }

    /// Fuzz/crashers/fixed/png-header-size-overflow.png: 1 140 850 689 × 838 881 332 RGB pixels at
    /// 32 bits each is more than Int.max bits; `width * height * bitsPerPixel` trapped
    /// ("arithmetic overflow", SIGILL) before the memory-limit check could refuse the file.
    @Test func headerSizeWhoseByteCountOverflowsIsTooLarge() throws {
        let path = try file(
            pngHeader(width: 0x4400_0001, height: 0x3200_5034, bitDepth: 8, colorType: 2), "overflow.png")
        #expect(
            throws: ImagingError.tooLarge(
                path: path, width: 1_140_850_689, height: 838_881_332,
                decodedBytes: Int.max, limitBytes: 512 << 20)
        ) {
            try ImageLoader().load(path)
        }
    }

    /// The largest size a PNG header can state (2³¹ − 1 on both sides) at 1 bit a pixel:
    /// 4 611 686 014 132 420 609 bits still fit in an Int, so the exact byte count is reported.
    @Test func largestBilevelHeaderIsTooLargeWithExactBytes() throws {
        let path = try file(pngHeader(width: 0x7fff_ffff, height: 0x7fff_ffff, bitDepth: 1, colorType: 0), "max.png")
        #expect(
            throws: ImagingError.tooLarge(
                path: path, width: 2_147_483_647, height: 2_147_483_647,
                decodedBytes: 576_460_751_766_552_576, limitBytes: 512 << 20)
        ) {
            try ImageLoader().load(path)
        }
    }

    /// The same size in 8-bit grey is 8 times as many bits, past Int.max: reported as Int.max.
    @Test func largestGreyHeaderIsTooLarge() throws {
        let path = try file(pngHeader(width: 0x7fff_ffff, height: 0x7fff_ffff, bitDepth: 8, colorType: 0), "grey.png")
        #expect(
            throws: ImagingError.tooLarge(
                path: path, width: 2_147_483_647, height: 2_147_483_647,
                decodedBytes: Int.max, limitBytes: 512 << 20)
        ) {
            try ImageLoader().load(path)
        }
    }
}
