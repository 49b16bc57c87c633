import CExif
import CLeptonica
import CPixMemory
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An image as read from a file, turned upright by its EXIF orientation and flattened onto white.
public struct LoadedImage {
    /// The pixels, upright, with no alpha channel: 8 bpp grey, 32 bpp RGB, or 1 bpp.
    public let image: Image
    /// The file format's name as shown to the user ("PNG", "JPEG", "TIFF", "GIF", …).
    public let format: String
    /// Width × height in pixels as stored in the file, before orientation.
    public let storedSize: (width: Int, height: Int)
    /// The EXIF Orientation tag (1–8) that was applied, or nil when the file has none.
    public let exifOrientation: Int?
    /// Factor by which the decoder already reduced the image (1 = full size; 2, 4, 8 for large JPEGs).
    public let decodeReduction: Int
    /// How many frames (pages) the file holds; only the first is read. 1 for single-image formats.
    public let frameCount: Int
    /// Whether an alpha channel was flattened onto white (text may have lived only in the alpha).
    public let flattenedTransparency: Bool
}

/// Reads image files with Leptonica, refusing oversized ones before decoding them.
///
/// Formats: whatever Leptonica 1.82 reads (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM, JP2); for
/// multi-frame files (TIFF, GIF) the first frame. EXIF orientation comes from libexif.
public struct ImageLoader {
    /// Default cap on the decoded size: 512 MiB (Leptonica keeps colour as 4 bytes a pixel and
    /// grey as 1: about 134 megapixels of colour, 536 of grey). A 12–50 megapixel phone JPEG
    /// decodes reduced and stays far below it.
    public static let defaultMemoryLimit = 512 << 20

    /// Files whose decoded pixels would take more bytes than this are refused before decoding.
    public var memoryLimit: Int
    /// When a JPEG's long side is at least this many pixels times 2, libjpeg decodes it reduced
    /// (by 2, 4 or 8) so that the long side stays at or above it: far less memory and time for
    /// 12–50 MP phone photos. nil decodes at full size.
    public var jpegReductionTarget: Int?
    /// The resolution (DPI) every image loaded is given, in place of its file's or of none
    /// (`pixSetResolution`); a JPEG decoded reduced gets it divided by the reduction. Nil keeps
    /// the file's (0 when it gives none).
    public var resolution: Int?

    /// - Parameters:
    ///   - memoryLimit: decoded size above which a file is refused (bytes).
    ///   - jpegReductionTarget: see `jpegReductionTarget` (pixels); nil to always decode at full size.
    public init(memoryLimit: Int = ImageLoader.defaultMemoryLimit, jpegReductionTarget: Int? = nil) {
        self.memoryLimit = memoryLimit
        self.jpegReductionTarget = jpegReductionTarget
        ImageLoader.silenceLeptonica()
    }

    /// Leptonica prints its own errors on stderr; lovesnap reports errors itself.
    /// `setMsgSeverity` is process-global, so this is done once.
    private static let silenced: Void = { _ = setMsgSeverity(l_int32(L_SEVERITY_NONE)) }()
    static func silenceLeptonica() { _ = silenced }

    /// Whether the file at `path` is in an image format Leptonica reads (`findFileFormat`, which
    /// looks at its first bytes, not its name).
    public static func isImageFile(_ path: String) -> Bool {
        silenceLeptonica()
        var format: l_int32 = 0
        return findFileFormat(path, &format) == 0 && format != l_int32(IFF_UNKNOWN)
    }

    /// Loads `path`, applies its EXIF orientation and flattens any alpha channel onto white.
    ///
    /// - Throws: `ImagingError` — `.fileNotFound`, `.isDirectory`, `.unreadable`, `.emptyFile`,
    ///   `.notAnImage`, `.tooLarge` (checked from the header, before decoding), `.corrupt`.
    public func load(_ path: String) throws -> LoadedImage {
        try load(path, sharingRaster: false)
    }

    /// Loads `path` as `load(_:)` does; with `sharingRaster`, the images made meanwhile (the
    /// photo among them) hold their pixels in memory files another process can map
    /// (`Image.sharedRaster`, `CPixMemory`).
    /// - Throws: as `load(_:)`.
    package func load(_ path: String, sharingRaster: Bool) throws -> LoadedImage {
        pix_memory_share_rasters(sharingRaster ? 1 : 0)
        defer { pix_memory_share_rasters(0) }
        try checkFile(path)
        var format: l_int32 = 0
        var w: l_int32 = 0
        var h: l_int32 = 0
        var bps: l_int32 = 0
        var spp: l_int32 = 0
        var cmap: l_int32 = 0
        if findFileFormat(path, &format) != 0 || format == l_int32(IFF_UNKNOWN) {
            // Leptonica asks libtiff for a TIFF's compression to name its format: a truncated
            // TIFF is no format at all to it. Its signature says what it was meant to be.
            if ImageLoader.hasTIFFSignature(path) { throw ImagingError.corrupt(path: path, format: "TIFF") }
            throw ImagingError.notAnImage(path: path)
        }
        let formatName = ImageLoader.formatName(format)
        guard pixReadHeader(path, &format, &w, &h, &bps, &spp, &cmap) == 0, w > 0, h > 0 else {
            throw ImagingError.corrupt(path: path, format: formatName)
        }
        let (width, height) = (Int(w), Int(h))
        var reduction = 1
        if format == l_int32(IFF_JFIF_JPEG), let target = jpegReductionTarget {
            while reduction < 8 && max(width, height) / (reduction * 2) >= target { reduction *= 2 }
        }
        // Leptonica holds grey (and 1/2/4/16-bit) images at their depth, anything else at 32 bits a pixel.
        let bitsPerPixel = (spp == 1 && cmap == 0) ? Int(max(1, bps)) : 32
        // A header may claim up to 2³¹ × 2³¹ pixels: multiply with overflow checks (found by fuzzing).
        let (pixels, pixelsOverflow) = (width / reduction).multipliedReportingOverflow(by: height / reduction)
        let (bits, bitsOverflow) = pixels.multipliedReportingOverflow(by: bitsPerPixel)
        let decodedBytes = pixelsOverflow || bitsOverflow ? Int.max : bits / 8
        if decodedBytes > memoryLimit {
            throw ImagingError.tooLarge(
                path: path, width: width, height: height,
                decodedBytes: decodedBytes, limitBytes: memoryLimit)
        }

        var decoded: UnsafeMutablePointer<PIX>?
        if format == l_int32(IFF_JFIF_JPEG) {
            var warnings: l_int32 = 0
            decoded = pixReadJpeg(path, 0, l_int32(reduction), &warnings, 0)
        } else {
            decoded = pixRead(path)
        }
        guard let decoded else { throw ImagingError.corrupt(path: path, format: formatName) }
        var image = Image(taking: decoded)
        let frames = ImageLoader.frameCount(path, format: format)

        let orientation = format == l_int32(IFF_JFIF_JPEG) ? ImageLoader.exifOrientation(path) : nil
        if let orientation, orientation != 1 {
            image = try image.applyingEXIFOrientation(orientation)
        }
        if image.hasColormap {
            image = try Image.wrap(pixRemoveColormap(image.pix, l_int32(REMOVE_CMAP_BASED_ON_SRC)), "pixRemoveColormap")
        }
        var opaque: l_int32 = 1
        var flattened = false
        if image.depth == 32 && image.samplesPerPixel == 4 && pixAlphaIsOpaque(image.pix, &opaque) == 0 && opaque == 0 {
            // Text may live only in the alpha channel (black RGB, alpha = ink): blend onto white.
            image = try Image.wrap(pixAlphaBlendUniform(image.pix, 0xffff_ff00), "pixAlphaBlendUniform")
            flattened = true
        }
        if image.depth == 16 {
            image = try Image.wrap(pixConvert16To8(image.pix, l_int32(L_MS_BYTE)), "pixConvert16To8")
        }
        if let resolution { image.setResolution(max(1, resolution / reduction)) }
        return LoadedImage(
            image: image, format: formatName, storedSize: (width, height),
            exifOrientation: orientation, decodeReduction: reduction, frameCount: frames,
            flattenedTransparency: flattened)
    }

    /// Checks existence, type, permissions and size with the OS so the message says exactly why.
    private func checkFile(_ path: String) throws {
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw ImagingError.fileNotFound(path: path) }
            throw ImagingError.unreadable(path: path, errno: e)
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw ImagingError.isDirectory(path: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw ImagingError.unreadable(path: path, errno: errno) }
        close(fd)
        if (st.st_mode & S_IFMT) == S_IFREG && st.st_size == 0 { throw ImagingError.emptyFile(path: path) }
        if (st.st_mode & S_IFMT) != S_IFREG { throw ImagingError.notAnImage(path: path) }
    }

    /// The EXIF Orientation tag (0x0112) of a JPEG, 1–8, or nil when absent or out of range
    /// (libexif: `exif_data_new_from_file`, `exif_content_get_entry` on IFD 0, `exif_get_short`).
    public static func exifOrientation(_ path: String) -> Int? {
        guard let data = exif_data_new_from_file(path) else { return nil }
        defer { exif_data_unref(data) }
        guard let ifd0 = data.pointee.ifd.0,
            let entry = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION),
            entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.components >= 1,
            let bytes = entry.pointee.data
        else { return nil }
        let value = Int(exif_get_short(bytes, exif_data_get_byte_order(data)))
        return (1...8).contains(value) ? value : nil
    }

    /// Whether Leptonica's format code is one of its TIFF variants (by compression).
    static func isTIFF(_ format: l_int32) -> Bool {
        [
            IFF_TIFF, IFF_TIFF_PACKBITS, IFF_TIFF_RLE, IFF_TIFF_G3, IFF_TIFF_G4, IFF_TIFF_LZW, IFF_TIFF_ZIP,
            IFF_TIFF_JPEG,
        ]
        .contains { l_int32($0) == format }
    }

    /// Whether the file begins as a TIFF does (TIFF 6.0 § 2: "II*\0" little-endian, "MM\0*"
    /// big-endian).
    static func hasTIFFSignature(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        return head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A]
    }

    static func formatName(_ format: l_int32) -> String {
        switch Int(format) {
        case Int(IFF_BMP): return "BMP"
        case Int(IFF_JFIF_JPEG): return "JPEG"
        case Int(IFF_PNG): return "PNG"
        case _ where isTIFF(format): return "TIFF"
        case Int(IFF_PNM): return "PNM"
        case Int(IFF_GIF): return "GIF"
        case Int(IFF_JP2): return "JPEG 2000"
        case Int(IFF_WEBP): return "WebP"
        case Int(IFF_PS): return "PostScript"
        case Int(IFF_LPDF): return "PDF"
        case Int(IFF_SPIX): return "SPIX"
        default: return "image"
        }
    }
}

extension Image {
    /// Turns stored pixels upright for EXIF Orientation 1–8 (EXIF 2.32 §4.6.4 A, tag 0x0112):
    /// 2 mirror, 3 rotate 180°, 4 mirror vertically, 5 transpose, 6 rotate 90° clockwise,
    /// 7 transverse, 8 rotate 270° clockwise.
    public func applyingEXIFOrientation(_ orientation: Int) throws -> Image {
        switch orientation {
        case 2: return try flippedHorizontally()
        case 3: return try rotated(quarterTurnsClockwise: 2)
        case 4: return try rotated(quarterTurnsClockwise: 2).flippedHorizontally()
        case 5: return try rotated(quarterTurnsClockwise: 1).flippedHorizontally()
        case 6: return try rotated(quarterTurnsClockwise: 1)
        case 7: return try rotated(quarterTurnsClockwise: 3).flippedHorizontally()
        case 8: return try rotated(quarterTurnsClockwise: 3)
        default: return try rotated(quarterTurnsClockwise: 0)
        }
    }
}
