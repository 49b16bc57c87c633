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

    /// "poem.txt: Permission denied", "standard output: No space left on device".
    public var description: String {
        switch self {
        case .unreadable(let path, let code), .unwritable(let path, let code):
            return "\(path): \(String(cString: strerror(code)))"
        case .standardOutput(let code): return "standard output: \(String(cString: strerror(code)))"
        }
    }
}
