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
        guard let path else {
            if let code = writeAll(bytes, to: STDOUT_FILENO) { throw FileError.standardOutput(errno: code) }
            return
        }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR {
            let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            if fd < 0 { throw FileError.unwritable(path: path, errno: errno) }
            defer { close(fd) }
            if let code = writeAll(bytes, to: fd) { throw FileError.unwritable(path: path, errno: code) }
            return
        }
        try AtomicFile.write(bytes, to: path, backup: backup)
    }

    /// Refuses, before anything is written, a `path` that `write(_:to:backup:)` would refuse
    /// whatever the bytes: an empty name, a folder (`EISDIR`), a name `stat(2)` refuses other than
    /// as missing (`ENOTDIR`, `EACCES`, `ELOOP`), or a new file whose folder is missing (`ENOENT`),
    /// not a folder (`ENOTDIR`) or not writable (`access(2)`, `W_OK | X_OK`).
    /// Several files written together (`lovesnap ocr --format A,B -o BASE`) are all checked
    /// first, so that a name refused leaves none of them written. nil (standard output) passes.
    /// - Throws: `ShareError.writeFailed(path:reason:)`, as `write` would, with `strerror`'s reason.
    public static func check(_ path: String?) throws {
        guard let path else { return }
        func fail(_ code: Int32) -> ShareError { .writeFailed(path: path, reason: ShareError.reason(code)) }
        if path.isEmpty { throw fail(ENOENT) }
        if path.hasSuffix("/") { throw fail(EISDIR) }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw fail(EISDIR) }
            return
        }
        // A name under a file (`ENOTDIR`), or past a folder that cannot be searched (`EACCES`).
        let code = errno
        if code != ENOENT { throw fail(code) }
        // A dangling link is left to `write`, which follows it.
        guard lstat(path, &info) != 0 else { return }
        let folder = AtomicFile.splitPath(path).folder
        guard stat(folder, &info) == 0 else { throw fail(errno) }
        if (info.st_mode & S_IFMT) != S_IFDIR { throw fail(ENOTDIR) }
        if access(folder, W_OK | X_OK) != 0 { throw fail(errno) }
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
