import Foundation

/// Everything that can go wrong while loading or preparing an image, with the wording shown to the user.
///
/// Every case names the file (as the user gave it) so a message can stand alone on stderr.
public enum ImagingError: Error, Equatable, Codable, Sendable, CustomStringConvertible {
    /// No file at `path` (`ENOENT`).
    case fileNotFound(path: String)
    /// `path` names a directory.
    case isDirectory(path: String)
    /// The file exists but could not be opened; `errno` is the failing call's (stat or open).
    case unreadable(path: String, errno: Int32)
    /// The file has zero bytes.
    case emptyFile(path: String)
    /// The bytes are not in any format Leptonica reads (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM, JP2).
    case notAnImage(path: String)
    /// The header was read but decoding failed (truncated or corrupt data).
    case corrupt(path: String, format: String)
    /// Decoding `width` × `height` pixels would take `decodedBytes`, above `limitBytes`; refused
    /// from the header, before decoding.
    case tooLarge(path: String, width: Int, height: Int, decodedBytes: Int, limitBytes: Int)
    /// A Leptonica operation returned no image; `operation` names the call.
    case operationFailed(operation: String)

    /// The message shown to the user, naming the file.
    public var description: String {
        switch self {
        case .fileNotFound(let p): return "\(p): No such file or directory"
        case .isDirectory(let p): return "\(p): Is a directory, not an image"
        case .unreadable(let p, let code): return "\(p): \(String(cString: strerror(code)))"
        case .emptyFile(let p): return "\(p): the file is empty (0 bytes), not an image"
        case .notAnImage(let p):
            return "\(p): not an image in a format lovesnap reads (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM)"
        case .corrupt(let p, let f): return "\(p): the \(f) data is truncated or corrupt and could not be decoded"
        case .tooLarge(let p, let w, let h, let bytes, let limit):
            return "\(p): the image is \(w)×\(h) pixels and would take \(bytes >> 20) MiB once decoded, "
                + "above lovesnap's limit of \(limit >> 20) MiB; refused before decoding (scale it down first)"
        case .operationFailed(let op): return "image processing failed in \(op)"
        }
    }
}
