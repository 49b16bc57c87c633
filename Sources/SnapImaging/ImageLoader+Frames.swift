import CGif
import CLeptonica
import Foundation

extension ImageLoader {
    /// How many frames (pages) a multi-frame file holds: TIFF pages (Leptonica `tiffGetCount`),
    /// GIF images (giflib: records walked, image data skipped, nothing decoded). 1 for other formats
    /// and when the count cannot be read.
    static func frameCount(_ path: String, format: l_int32) -> Int {
        switch Int(format) {
        case _ where isTIFF(format):
            guard let fp = fopen(path, "rb") else { return 1 }
            defer { fclose(fp) }
            var n: l_int32 = 0
            return tiffGetCount(fp, &n) == 0 && n > 0 ? Int(n) : 1
        case Int(IFF_GIF):
            return gifFrameCount(path)
        default:
            return 1
        }
    }

    /// Counts image descriptors with giflib's record-level reader (DGifGetRecordType,
    /// DGifGetImageDesc, DGifGetCode/Next to skip pixels, DGifGetExtension/Next to skip extensions).
    static func gifFrameCount(_ path: String) -> Int {
        var error: Int32 = 0
        guard let gif = DGifOpenFileName(path, &error) else { return 1 }
        defer { DGifCloseFile(gif, &error) }
        var frames = 0
        var record = UNDEFINED_RECORD_TYPE
        repeat {
            guard DGifGetRecordType(gif, &record) == GIF_OK else { break }
            if record == IMAGE_DESC_RECORD_TYPE {
                guard DGifGetImageDesc(gif) == GIF_OK else { break }
                frames += 1
                var codeSize: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>? = nil
                guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { break }
                while block != nil { guard DGifGetCodeNext(gif, &block) == GIF_OK else { return max(1, frames) } }
            } else if record == EXTENSION_RECORD_TYPE {
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>? = nil
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { break }
                while block != nil { guard DGifGetExtensionNext(gif, &block) == GIF_OK else { return max(1, frames) } }
            }
        } while record != TERMINATE_RECORD_TYPE
        return max(1, frames)
    }
}
