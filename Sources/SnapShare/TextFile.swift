import Foundation
import SnapText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A text file read for editing, as nano opens one: any bytes open (see ``SnapText/TextFormat``
/// for how they are decoded, and written back).
public struct TextFile: Equatable, Sendable {
    /// The file's text: line ends converted to `"\n"` (DOS, old Mac), otherwise the characters as
    /// they were (no normalisation; a byte-order mark is kept).
    public let content: Rope
    /// Whether there was no such file yet (its folder exists): the text is empty and saving creates it.
    public let isNew: Bool
    /// How the file was written, for writing it back the same way.
    public let format: TextFormat

    /// A file's text and format.
    public init(content: Rope, isNew: Bool, format: TextFormat = TextFormat()) {
        self.content = content
        self.isNew = isNew
        self.format = format
    }

    /// A file's text and format.
    public init(text: String, isNew: Bool, format: TextFormat = TextFormat()) {
        self.init(content: Rope(text), isNew: isNew, format: format)
    }

    /// The file's text as a string (a copy of ``content``).
    public var text: String { String(content) }

    /// The number of lines nano reports having read ("Read 4 lines"): LF-separated lines, a final
    /// LF ending the last one rather than starting another; 0 for an empty text.
    public var lineCount: Int {
        TextBuffer(content: content).writtenLineCount
    }

    /// At most this many bytes are read from a pipe or FIFO (`lovesnap edit <(cmd)`): 512 MiB,
    /// as for a photo.
    public static let pipeLimit = 512 << 20

    /// Reads the file at `path`, decoded by ``SnapText/TextFormat/decode(_:)`` (UTF-8, else
    /// Latin-1; DOS and old Mac line ends converted). A name that does not exist yet in an
    /// existing folder is a new, empty file (as in nano).
    ///
    /// - Throws: `FileError.unreadable(path:errno:)` with ENOENT when neither the file nor its
    ///   folder exists, EISDIR for a folder, or the errno of `open`/`read`;
    ///   `FileError.deviceFile` for a character or block device; `FileError.textPipeTooLarge`
    ///   past `pipeLimit` bytes from anything else that is not a regular file.
    public static func read(_ path: String) throws(FileError) -> TextFile {
        try read(name: FileSystemName(path), shownAs: path)
    }

    /// `read(_:)` of the file of that name, whatever its bytes (`FileSystemName`: a name typed on
    /// the command line that is not UTF-8); errors name it as `name.shown`.
    public static func read(name: FileSystemName) throws(FileError) -> TextFile {
        try read(name: name, shownAs: name.shown)
    }

    /// `read(name:)` with `pipeLimit` bytes at most from anything but a regular file.
    static func read(name: FileSystemName, shownAs path: String, pipeLimit: Int = TextFile.pipeLimit)
        throws(FileError) -> TextFile
    {
        var info = stat()
        guard stat(name.cString, &info) == 0 else {
            var folder = stat()
            let parent = AtomicFile.split(name).folder
            if stat(parent.cString, &folder) == 0 && (folder.st_mode & S_IFMT) == S_IFDIR {
                return TextFile(text: "", isNew: true)
            }
            throw .unreadable(path: path, errno: ENOENT)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, errno: EISDIR) }
        // A device gives bytes without end (`/dev/zero`, `/dev/urandom`) or waits on a terminal:
        // refused, as nano refuses it ("is a device file").
        if [S_IFCHR, S_IFBLK].contains(info.st_mode & S_IFMT) { throw .deviceFile(path: path) }
        // The bytes are let go as soon as the rope holds the text: about twice the file at most.
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        let (content, format) = TextFormat.decodeContent(
            try readAll(
                name, shownAs: path, expectedSize: Int(info.st_size), limit: regular ? Int.max : pipeLimit))
        return TextFile(content: content, isNew: false, format: format)
    }

    /// The bytes of the file `name`; `expectedSize` (its size when it was looked at) sizes the
    /// buffer, so that a large file is read straight into it and never copied as it grows.
    /// - Throws: `FileError.unreadable` (naming it `path`) with the errno of the `open` or `read`
    ///   that failed; `FileError.textPipeTooLarge` past `limit` bytes.
    private static func readAll(_ name: FileSystemName, shownAs path: String, expectedSize: Int, limit: Int)
        throws(FileError) -> [UInt8]
    {
        let fd = open(name.cString, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        if fd < 0 { throw .unreadable(path: path, errno: errno) }
        defer { close(fd) }
        // Straight into the buffer up to the expected size, then in chunks for whatever more there is.
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: max(0, expectedSize) + 1) { buffer, count in
            while count < buffer.count {
                let n = systemRead(fd, buffer.baseAddress! + count, buffer.count - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { return }
                count += n
            }
        }
        if failure != 0 { throw .unreadable(path: path, errno: failure) }
        if bytes.count <= expectedSize { return bytes }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, errno: errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
            if bytes.count > limit { throw .textPipeTooLarge(path: path, limit: limit) }
        }
    }
}

/// read(2), out of reach of `TextFile.read`'s name.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
