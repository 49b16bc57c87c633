import CLeptonica
import CPixMemory
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

    /// Writes the pixels to the file `descriptor` for another process of this program to read
    /// with `readHandedOver(from:)`: a header (width, height, depth, samples per pixel, words per
    /// line) and Leptonica's raster as it lies in memory (`pixGetData`), written straight from it
    /// — one copy, where Leptonica's serialization (`IFF_SPIX`) makes two each way. An image with
    /// a colormap is refused (prepared pages and photos as loaded have none).
    /// - Throws: `ImagingError.operationFailed` when the image has a colormap or a write fails.
    package func writeHandedOver(to descriptor: Int32) throws {
        guard pixGetColormap(pix) == nil, let data = pixGetData(pix) else {
            throw ImagingError.operationFailed(operation: "writeHandedOver")
        }
        let header: [Int32] = [
            Image.handOverMagic, pixGetWidth(pix), pixGetHeight(pix), pixGetDepth(pix), pixGetSpp(pix), pixGetWpl(pix),
        ]
        let rasterBytes = Int(pixGetWpl(pix)) * 4 * Int(pixGetHeight(pix))
        let ok =
            header.withUnsafeBytes { h in Image.transferAll(h.count) { write(descriptor, h.baseAddress! + $0, $1) } }
            && Image.transferAll(rasterBytes) { write(descriptor, UnsafeRawPointer(data) + $0, $1) }
        guard ok else { throw ImagingError.operationFailed(operation: "writeHandedOver") }
    }

    /// The pixels `writeHandedOver(to:)` wrote to the file at `path`, read straight into a new
    /// image's raster (`pixCreateNoInit`); resolution 0.
    /// - Throws: `ImagingError.operationFailed` when the file holds no such image.
    package static func readHandedOver(from path: String) throws -> Image {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ImagingError.operationFailed(operation: "open(\(path))") }
        defer { close(fd) }
        var header = [Int32](repeating: 0, count: 6)
        let headerRead = header.withUnsafeMutableBytes { h in transferAll(h.count) { read(fd, h.baseAddress! + $0, $1) }
        }
        guard headerRead, header[0] == handOverMagic, header[1] > 0, header[2] > 0,
            let pix = pixCreateNoInit(header[1], header[2], header[3])
        else { throw ImagingError.operationFailed(operation: "readHandedOver") }
        let image = Image(taking: pix)
        pixSetSpp(pix, header[4])
        guard pixGetWpl(pix) == header[5], let data = pixGetData(pix),
            transferAll(Int(header[5]) * 4 * Int(header[2]), { read(fd, UnsafeMutableRawPointer(data) + $0, $1) })
        else { throw ImagingError.operationFailed(operation: "readHandedOver") }
        return image
    }

    /// The memory file holding the pixels, and its size in bytes, when they were made while
    /// sharing rasters (`ImageLoader.load(_:sharingRaster:)`); nil otherwise.
    package var sharedRaster: (descriptor: Int32, bytes: Int)? {
        guard let data = pixGetData(pix) else { return nil }
        var size = 0
        let fd = pix_memory_shared_file(data, &size)
        return fd >= 0 ? (fd, size) : nil
    }

    /// An image whose pixels are another process's memory file at `path` (`sharedRaster`, as
    /// `/proc/PID/fd/N`), mapped copy-on-write, not copied: `width` × `height` pixels of
    /// `depth` bits, `samplesPerPixel`, `bytes` of raster; resolution 0.
    /// - Throws: `ImagingError.operationFailed` when it cannot be mapped or does not fit.
    package static func mappingSharedRaster(
        path: String, width: Int, height: Int, depth: Int, samplesPerPixel: Int, bytes: Int
    ) throws -> Image {
        let image = try wrap(pixCreateHeader(l_int32(width), l_int32(height), l_int32(depth)), "pixCreateHeader")
        guard Int(pixGetWpl(image.pix)) * 4 * height <= bytes, let data = pix_memory_adopt(path, bytes) else {
            throw ImagingError.operationFailed(operation: "mappingSharedRaster")
        }
        pixSetData(image.pix, data.assumingMemoryBound(to: l_uint32.self))
        pixSetSpp(image.pix, l_int32(samplesPerPixel))
        return image
    }

    /// "LSPX": the first word of a handed-over image.
    private static let handOverMagic: Int32 = 0x5850_534C

    /// Calls `step(offset, remaining)` (a `read(2)` or `write(2)` of the bytes from `offset`)
    /// until `count` bytes went through, again after EINTR; false when one fails or moves none.
    private static func transferAll(_ count: Int, _ step: (Int, Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let n = step(done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
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
