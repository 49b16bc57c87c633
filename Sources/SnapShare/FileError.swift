#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What can go wrong reading the text file, opening the photo by its bytes, or writing the text
/// where `lovesnap ocr -o` says. Each case carries the file as the user named it and the C
/// library's `errno`; `description` is the one place where the wording lives.
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `path` could not be opened or read; `errno` says why (ENOENT, EISDIR, EACCES, …).
    case unreadable(path: String, errno: Int32)
    /// `path` could not be opened or written; `errno` says why (ENOSPC, EACCES, …).
    case unwritable(path: String, errno: Int32)
    /// Writing to standard output failed with `errno` (ENOSPC, EPIPE, EBADF, …).
    case standardOutput(errno: Int32)
    /// `path` is a device (or another kind of file) that lovesnap does not read a photo from.
    case notRegular(path: String)
    /// `path` is a pipe that gave more than `limit` bytes.
    case pipeTooLarge(path: String, limit: Int)
    /// `path` is a character or block device (`/dev/zero`, a terminal), opened for editing.
    case deviceFile(path: String)
    /// `path` is a pipe that gave more than `limit` bytes of text to edit.
    case textPipeTooLarge(path: String, limit: Int)

    /// "poem.txt: Permission denied", "standard output: No space left on device".
    public var description: String {
        switch self {
        case .unreadable(let path, let code), .unwritable(let path, let code):
            return "\(path): \(String(cString: strerror(code)))"
        case .standardOutput(let code): return "standard output: \(String(cString: strerror(code)))"
        case .notRegular(let path): return "\(path): not a regular file (a device); give a photo file or a pipe"
        case .pipeTooLarge(let path, let limit):
            return "\(path): more than \(limit >> 20) MiB came through the pipe; that is too large for a photo"
        case .deviceFile(let path): return "\(path) is a device file, not a text file"
        case .textPipeTooLarge(let path, let limit):
            return "\(path): more than \(limit >> 20) MiB came through the pipe; lovesnap edits at most that"
        }
    }
}
