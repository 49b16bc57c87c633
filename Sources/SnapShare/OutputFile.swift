#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `lovesnap ocr` puts the text: standard output, a device or pipe, or a file.
public enum OutputFile {
    /// Writes `bytes` to standard output (`path` nil), to a device or pipe such as `/dev/null` or
    /// `/dev/stdout` (opened and written directly, never replaced), or to a file (atomically:
    /// `AtomicFile`, temporary file, fsync, rename). With `backup`, a file written over is kept as
    /// `NAME~` (see ``AtomicFile/write(_:to:backup:mode:)``).
    ///
    /// - Throws: `FileError.standardOutput(errno:)` or `FileError.unwritable(path:errno:)` for
    ///   standard output or a device; `ShareError.writeFailed` for a file.
    public static func write(_ bytes: [UInt8], to path: String?, backup: Bool = false) throws {
        try write(bytes, toName: path.map { FileSystemName($0) }, backup: backup)
    }

    /// `write(_:to:backup:)` to the file of that name (nil: standard output), whatever its bytes
    /// (`FileSystemName`: a name given on the command line that is not UTF-8); errors name it as
    /// `name.shown`.
    public static func write(_ bytes: [UInt8], toName name: FileSystemName?, backup: Bool = false) throws {
        guard let name else {
            if let code = writeAll(bytes, to: STDOUT_FILENO) { throw FileError.standardOutput(errno: code) }
            return
        }
        if isDevice(name) {
            let fd = open(name.cString, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            if fd < 0 { throw FileError.unwritable(path: name.shown, errno: errno) }
            defer { close(fd) }
            if let code = writeAll(bytes, to: fd) { throw FileError.unwritable(path: name.shown, errno: code) }
            return
        }
        try AtomicFile.write(bytes, to: name, backup: backup)
    }

    /// Refuses, before anything is written, a `path` that `write(_:to:backup:)` would refuse
    /// whatever the bytes (`AtomicFile.check`; a device or pipe, written directly, passes, and so
    /// does nil, standard output). Several files written together (`lovesnap ocr --format A,B
    /// -o BASE`) are all checked first, so that a name refused leaves none of them written.
    /// - Throws: `ShareError.writeFailed(path:reason:)`, as `write` would, with `strerror`'s reason.
    public static func check(_ path: String?) throws { try check(name: path.map { FileSystemName($0) }) }

    /// `check(_:)` of the file of that name, whatever its bytes; errors name it as `name.shown`.
    public static func check(name: FileSystemName?) throws {
        guard let name else { return }
        if isDevice(name) { return }
        try AtomicFile.check(name, shownAs: name.shown)
    }

    /// Whether `name` names something that exists and is neither a regular file nor a folder (a
    /// device, a pipe, a socket: `stat(2)`, links followed): written directly, never replaced.
    public static func isDevice(_ name: FileSystemName) -> Bool {
        var info = stat()
        return stat(name.cString, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
            && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// Writes every byte to `fd`, retrying after EINTR and short writes.
    /// - Returns: nil, or the errno of the `write` that failed.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}

/// write(2), out of reach of `OutputFile.write`'s name.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
