import CLeptonica
import Foundation

/// An owned Leptonica `PIX`: one reference, released when the `Image` goes away.
///
/// Every operation returns a new `Image`; none changes the receiver. Sizes are in pixels,
/// resolution in DPI (0 = unknown, as Leptonica stores it).
public final class Image {
    /// The underlying Leptonica image. Internal so that no C type leaks out of the package's API.
    package let pix: UnsafeMutablePointer<PIX>

    /// Takes ownership of `pix` (it is destroyed with the `Image`).
    package init(taking pix: UnsafeMutablePointer<PIX>) { self.pix = pix }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&p)
    }

    /// Wraps the result of a Leptonica call, or throws `ImagingError.operationFailed(operation)`.
    package static func wrap(_ result: UnsafeMutablePointer<PIX>?, _ operation: String) throws -> Image {
        guard let result else { throw ImagingError.operationFailed(operation: operation) }
        return Image(taking: result)
    }

    /// Width in pixels.
    public var width: Int { Int(pixGetWidth(pix)) }
    /// Height in pixels.
    public var height: Int { Int(pixGetHeight(pix)) }
    /// Bits per pixel: 1, 2, 4, 8, 16 or 32.
    public var depth: Int { Int(pixGetDepth(pix)) }
    /// Samples per pixel: 1 (grey or colormapped), 3 (RGB) or 4 (RGBA).
    public var samplesPerPixel: Int { Int(pixGetSpp(pix)) }
    /// Whether the pixels index a colormap (palette).
    public var hasColormap: Bool { pixGetColormap(pix) != nil }
    /// Horizontal resolution in DPI as stored in the file (0 when the file says nothing).
    public var resolution: Int { Int(pixGetXRes(pix)) }

    /// Sets the resolution field (DPI, both directions) of this image's pixels, unless it already
    /// holds `dpi` (so that an image only read by another thread is not written; Leptonica
    /// `pixSetResolution`).
    public func setResolution(_ dpi: Int) {
        if pixGetXRes(pix) != l_int32(dpi) || pixGetYRes(pix) != l_int32(dpi) {
            pixSetResolution(pix, l_int32(dpi), l_int32(dpi))
        }
    }

    /// Encodes the image as PNG (Leptonica `pixWriteMem`, `IFF_PNG`). Used for debugging and tests.
    public func pngData() throws -> [UInt8] {
        var data: UnsafeMutablePointer<l_uint8>? = nil
        var size = 0
        guard pixWriteMem(&data, &size, pix, l_int32(IFF_PNG)) == 0, let data else {
            throw ImagingError.operationFailed(operation: "pixWriteMem")
        }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Writes the pixels at `path` in Leptonica's own uncompressed serialization (`pixWrite`,
    /// `IFF_SPIX`: size, depth, colormap and raster, no resolution), for another process of this
    /// program to read with `readSerialized(from:)`.
    /// - Throws: `ImagingError.operationFailed` when Leptonica cannot write it.
    package func writeSerialized(to path: String) throws {
        guard pixWrite(path, pix, l_int32(IFF_SPIX)) == 0 else {
            throw ImagingError.operationFailed(operation: "pixWrite(IFF_SPIX)")
        }
    }

    /// The pixels `writeSerialized(to:)` wrote at `path` (Leptonica `pixRead`).
    /// - Throws: `ImagingError.operationFailed` when there are none.
    package static func readSerialized(from path: String) throws -> Image {
        try wrap(pixRead(path), "pixRead(IFF_SPIX)")
    }

    /// Writes the image as a PNG file at `path` (Leptonica `pixWrite`).
    public func writePNG(to path: String) throws {
        guard pixWrite(path, pix, l_int32(IFF_PNG)) == 0 else {
            throw ImagingError.operationFailed(operation: "pixWrite")
        }
    }

    /// Reads an image from memory (Leptonica `pixReadMem`); for tests and in-memory inputs.
    public static func decode(_ bytes: [UInt8]) throws -> Image {
        try bytes.withUnsafeBufferPointer { buf in
            try wrap(pixReadMem(buf.baseAddress, buf.count), "pixReadMem")
        }
    }
}
