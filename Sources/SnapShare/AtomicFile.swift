#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Saving a file so that readers (and a crash) see either the old bytes or the new ones.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    ///
    /// The steps: a temporary file in the same folder (`mkstemp`), write all bytes, `fsync`,
    /// `close`, `rename` over the target, `fsync` the folder (POSIX `rename(2)` atomicity).
    ///
    /// - A symbolic link is written through: its final target is replaced, the link stays.
    /// - An existing file keeps its permission bits (and, when the OS allows, its owner); a new
    ///   file gets 0666 minus the umask, or `mode` when given (`mode` also replaces the bits of
    ///   an existing file: the recovery journal is always 0600).
    /// - A file with more than one hard link is rewritten in place, so that every name sees the
    ///   new text (a rename would give this name a new file and leave the others on the old
    ///   one): first a backup copy of the old bytes is written and `fsync`ed beside it
    ///   (`NAME.lovesnap-backup-XXXXXX`, or `NAME~` with `backup`), then the file is rewritten as
    ///   below, then the temporary backup is removed. A crash during the rewrite leaves the old
    ///   text in the backup copy.
    /// - `backup`: the old file is kept as `NAME~` (beside the final target), replacing an older
    ///   `NAME~`: the old file itself under the new name (a hard link, so mode, owner and times
    ///   are kept), or a copy for a hard-linked file or where links are not supported.
    /// - An existing file that the user may not write is refused ("Permission denied") even
    ///   though the folder would allow a rename over it.
    /// - When the file is writable but its folder is not (no temporary file can be made), the
    ///   file is rewritten in place without ever truncating it first: space for a longer text is
    ///   reserved up front, the new bytes are written from offset 0, the file is cut to the new
    ///   length only after every byte was written, then `fsync`. If any step fails, the old bytes
    ///   are written back before the error is thrown. (Only a crash or power loss during that
    ///   write can leave mixed content; a temp-file save has no such window.)
    /// - On failure no temporary file is left and the old file is byte-identical.
    ///
    /// - Parameters:
    ///   - bytes: the complete new contents, in octets.
    ///   - path: the file name as the user gave it; it is echoed in errors.
    ///   - backup: keep the old file as `NAME~` (nano's `--backup`).
    ///   - mode: permission bits to give the file (nil: keep the old ones, or 0666 minus umask).
    /// - Throws: `ShareError.writeFailed(path:reason:)` with `path` as given and `reason` the
    ///   `strerror(errno)` of the failing call, e.g. "poem.txt: Permission denied",
    ///   "poem.txt: Is a directory", "poem.txt: No such file or directory"; for a folder that
    ///   exists and makes no temporary file, the folder and the `mkstemp` reason ("poem.txt: cannot
    ///   create a file in /proc: No such file or directory"); for the backup, the `NAME~` path
    ///   ("poem.txt~: Permission denied": nothing was written).
    public static func write(_ bytes: [UInt8], to path: String, backup: Bool = false, mode: mode_t? = nil) throws {
        try write(bytes, to: FileSystemName(path), shownAs: path, backup: backup, mode: mode)
    }

    /// `write(_:to:backup:mode:)` to the file of that name, whatever its bytes (a name that is not
    /// UTF-8: `FileSystemName`); errors name it as `name.shown`.
    /// - Throws: `ShareError.writeFailed(path:reason:)`, as `write(_:to:backup:mode:)`.
    public static func write(_ bytes: [UInt8], to name: FileSystemName, backup: Bool = false, mode: mode_t? = nil)
        throws
    {
        try write(bytes, to: name, shownAs: name.shown, backup: backup, mode: mode)
    }

    /// Writes `bytes` as the file `name` in `folder` by rename, for private files in a private
    /// folder (the recovery journal): a temporary file made there (`mkstemp`, `O_EXCL`), given
    /// `mode`, written, `fsync`ed and renamed over `name` (rename(2) replaces the entry, never
    /// follows it: a symbolic link planted at `name` is replaced, its target untouched), then
    /// the folder `fsync`ed. No backup, no hard-link rewrite: the entry is always replaced.
    /// - Throws: `ShareError.writeFailed(path: folder/name, reason:)` with the failing call's
    ///   `strerror(errno)`; no temporary file is left.
    public static func replace(_ bytes: [UInt8], named name: String, in folder: String, mode: mode_t) throws {
        let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        func fail(_ code: Int32) -> ShareError { .writeFailed(path: path, reason: ShareError.reason(code)) }
        let folderName = FileSystemName(folder)
        let tempFD: Int32
        let tempName: [CChar]
        do {
            (tempFD, tempName) = try makeTemporary(
                in: folderName, for: FileSystemName(name), suffix: ".lovesnap-XXXXXX")
        } catch let code as Errno {
            throw noTemporaryFile(in: folderName, path: path, code: code.code)
        }
        var tempOpen = true
        var renamed = false
        defer {
            if tempOpen { close(tempFD) }
            if !renamed { unlink(tempName) }
        }
        if fchmod(tempFD, mode) != 0 { throw fail(errno) }
        if let code = writeAll(bytes, to: tempFD) { throw fail(code) }
        if fsync(tempFD) != 0 { throw fail(errno) }
        tempOpen = false
        if close(tempFD) != 0 { throw fail(errno) }
        if rename(tempName, path) != 0 { throw fail(errno) }
        renamed = true
        try syncFolder(folderName, path: path)
    }

    private static func write(
        _ bytes: [UInt8], to name: FileSystemName, shownAs path: String, backup: Bool, mode: mode_t?
    ) throws {
        func fail(_ code: Int32) -> ShareError {
            .writeFailed(path: path, reason: ShareError.reason(code))
        }
        let target = try resolvedTarget(name, shownAs: path)

        // Probe the existing target: its kind, its mode, and whether we may write it. The probe
        // never truncates (no O_TRUNC) and O_NONBLOCK keeps a FIFO swapped in from blocking us.
        var existing: stat? = nil
        var writableFD: Int32 = -1
        var info = stat()
        if stat(target.cString, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw fail(EISDIR) }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw ShareError.writeFailed(path: path, reason: "Not a regular file")
            }
            writableFD = open(target.cString, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if writableFD < 0 { throw fail(errno) }
            var opened = stat()
            guard fstat(writableFD, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG else {
                close(writableFD)
                throw ShareError.writeFailed(path: path, reason: "Not a regular file")
            }
            existing = opened
        } else if errno != ENOENT {
            throw fail(errno)
        }
        defer { if writableFD >= 0 { close(writableFD) } }

        if let existing, existing.st_nlink > 1 {
            try writeKeepingLinks(
                bytes, fd: writableFD, existing: existing, target: target, path: path, backup: backup, mode: mode)
            return
        }

        let (folder, file) = split(target)
        let tempFD: Int32
        var tempName: [CChar]
        do {
            (tempFD, tempName) = try makeTemporary(in: folder, for: file, suffix: ".lovesnap-XXXXXX")
        } catch let code as Errno {
            // The file is writable, the folder is not: rewrite the file in place.
            if let existing, writableFD >= 0, code.code == EACCES || code.code == EPERM || code.code == EROFS {
                if backup {
                    throw ShareError.writeFailed(
                        path: target.appending("~").shown, reason: ShareError.reason(code.code))
                }
                let old = try readOld(fd: writableFD, size: Int(existing.st_size), path: path, refusal: code.code)
                try writeInPlace(bytes, fd: writableFD, old: old, path: path)
                if let mode { _ = fchmod(writableFD, mode) }
                return
            }
            throw noTemporaryFile(in: folder, path: path, code: code.code)
        }
        var tempOpen = true
        var keepTemp = false
        defer {
            if tempOpen { close(tempFD) }
            if !keepTemp { unlink(tempName) }
        }

        if let existing {
            // Best effort: only root (or the owner, for the group) may hand the file back.
            _ = fchown(tempFD, existing.st_uid, existing.st_gid)
            if fchmod(tempFD, mode ?? (existing.st_mode & 0o7777)) != 0 { throw fail(errno) }
        } else {
            if fchmod(tempFD, mode ?? (0o666 & ~currentUmask())) != 0 { throw fail(errno) }
        }

        if let code = writeAll(bytes, to: tempFD) { throw fail(code) }
        if fsync(tempFD) != 0 { throw fail(errno) }
        tempOpen = false
        if close(tempFD) != 0 { throw fail(errno) }
        if backup, existing != nil {
            try keepOldFile(target, folder: folder, file: file, fd: writableFD, existing: existing!)
        }
        if rename(tempName, target.cString) != 0 { throw fail(errno) }
        keepTemp = true
        try syncFolder(folder, path: path)
    }

    /// The file `write(_:to:backup:mode:)` writes for `path`, its links followed
    /// (`resolveSymlinks`).
    /// - Throws: `ShareError.writeFailed(path:reason:)`: an empty name (`ENOENT`), a name ending
    ///   in "/" (`EISDIR`, as open(2) with O_CREAT says), a link that cannot be followed.
    private static func resolvedTarget(_ name: FileSystemName, shownAs path: String) throws -> FileSystemName {
        func fail(_ code: Int32) -> ShareError { .writeFailed(path: path, reason: ShareError.reason(code)) }
        if name.bytes.isEmpty { throw fail(ENOENT) }
        if name.bytes.last == FileSystemName.separator { throw fail(EISDIR) }
        switch resolveSymlinks(name) {
        case .success(let resolved): return resolved
        case .failure(let error): throw fail(error.code)
        }
    }

    /// Refuses, before anything is written, what `write(_:to:backup:mode:)` would refuse whatever
    /// the bytes: the name itself (`resolvedTarget`), a folder (`EISDIR`), a file that is not a
    /// regular file or cannot be opened for writing, a name `stat(2)` refuses other than as
    /// missing (`ENOTDIR`, `EACCES`), a new file whose folder is missing (`ENOENT`), not a folder
    /// (`ENOTDIR`) or not writable (`access(2)`, `W_OK | X_OK`), and a folder that makes no
    /// temporary file (`mkstemp`, removed at once: as root `access` passes where the file system
    /// refuses, in /proc or on a read-only mount), unless the file is rewritten in place there, as
    /// `write` does. Writes nothing that stays.
    /// The file is named by its bytes (`name`), and errors name it as `path`.
    /// - Throws: `ShareError.writeFailed(path:reason:)`, as `write` would.
    public static func check(_ name: FileSystemName, shownAs path: String) throws {
        func fail(_ code: Int32) -> ShareError { .writeFailed(path: path, reason: ShareError.reason(code)) }
        let target = try resolvedTarget(name, shownAs: path)
        let (folder, file) = split(target)
        var info = stat()
        var writable = false
        if stat(target.cString, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw fail(EISDIR) }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw ShareError.writeFailed(path: path, reason: "Not a regular file")
            }
            // Opened as `write` opens it: never truncated.
            let fd = open(target.cString, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if fd < 0 { throw fail(errno) }
            close(fd)
            writable = true
        } else {
            if errno != ENOENT { throw fail(errno) }
            guard stat(folder.cString, &info) == 0 else { throw fail(errno) }
            if (info.st_mode & S_IFMT) != S_IFDIR { throw fail(ENOTDIR) }
            if access(folder.cString, W_OK | X_OK) != 0 { throw noTemporaryFile(in: folder, path: path, code: errno) }
        }
        do {
            let (fd, tempName) = try makeTemporary(in: folder, for: file, suffix: ".lovesnap-XXXXXX")
            close(fd)
            unlink(tempName)
        } catch let code as Errno {
            if writable && (code.code == EACCES || code.code == EPERM || code.code == EROFS) { return }
            throw noTemporaryFile(in: folder, path: path, code: code.code)
        }
    }

    /// The error of a folder that exists and makes no temporary file (`mkstemp` failed with
    /// `code`): it names the folder, as the file's own name would mislead ("/proc/version: No such
    /// file or directory"); a missing folder is `code`'s own reason.
    private static func noTemporaryFile(in folder: FileSystemName, path: String, code: Int32) -> ShareError {
        var info = stat()
        guard stat(folder.cString, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            return .writeFailed(path: path, reason: ShareError.reason(code))
        }
        return .writeFailed(path: path, reason: "cannot create a file in \(folder.shown): \(ShareError.reason(code))")
    }

    /// Makes the rename itself durable. Some file systems cannot fsync a folder (EINVAL); the
    /// data are already in place then, so only a real I/O error is reported.
    private static func syncFolder(_ folder: FileSystemName, path: String) throws {
        let folderFD = open(folder.cString, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            defer { close(folderFD) }
            if fsync(folderFD) != 0, errno == EIO {
                throw ShareError.writeFailed(path: path, reason: ShareError.reason(EIO))
            }
        }
    }

    /// `mkstemp` of `folder/.NAME<suffix>` (NAME cut to 100 octets, so the name fits NAME_MAX),
    /// close-on-exec; the descriptor and the name made. `suffix` ends in "XXXXXX".
    /// - Throws: ``Errno`` of `mkstemp`.
    private static func makeTemporary(
        in folder: FileSystemName, for file: FileSystemName, suffix: String, hidden: Bool = true
    ) throws -> (Int32, [CChar]) {
        var template =
            folder.bytes + Array((hidden ? "/." : "/").utf8) + Array(file.bytes.prefix(100)) + Array(suffix.utf8)
        template.append(0)
        var tempName = template.map { CChar(bitPattern: $0) }
        let fd = mkstemp(&tempName)
        if fd < 0 { throw Errno(code: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (fd, tempName)
    }

    /// `--backup` for a file about to be replaced by a rename: the old file becomes `NAME~`.
    ///
    /// A hard link to it under a temporary name is renamed over `NAME~` (atomic; mode, owner and
    /// times kept); where the file system has no hard links, a copy is made instead.
    private static func keepOldFile(
        _ target: FileSystemName, folder: FileSystemName, file: FileSystemName, fd: Int32, existing: stat
    ) throws {
        let backupName = target.appending("~")
        func fail(_ code: Int32) -> ShareError {
            .writeFailed(path: backupName.shown, reason: ShareError.reason(code))
        }
        var linkName: [CChar]
        do {
            let (probe, made) = try makeTemporary(in: folder, for: file, suffix: "~.lovesnap-XXXXXX")
            close(probe)
            linkName = made
        } catch let code as Errno {
            throw fail(code.code)
        }
        unlink(linkName)
        if link(target.cString, linkName) == 0 {
            if rename(linkName, backupName.cString) != 0 {
                let code = errno
                unlink(linkName)
                throw fail(code)
            }
            return
        }
        let old = try readOld(fd: fd, size: Int(existing.st_size), path: backupName.shown, refusal: errno)
        try writeCopy(old, to: backupName, folder: folder, file: file, like: existing)
    }

    /// Writes `bytes` to a new file at `destination` with `like`'s mode (and owner, where
    /// allowed): a temporary file, fsync, rename.
    private static func writeCopy(
        _ bytes: [UInt8], to destination: FileSystemName, folder: FileSystemName, file: FileSystemName, like: stat
    ) throws {
        func fail(_ code: Int32) -> ShareError {
            .writeFailed(path: destination.shown, reason: ShareError.reason(code))
        }
        let fd: Int32
        let tempName: [CChar]
        do { (fd, tempName) = try makeTemporary(in: folder, for: file, suffix: "~.lovesnap-XXXXXX") } catch let code
            as Errno
        {
            throw fail(code.code)
        }
        var done = false
        defer {
            close(fd)
            if !done { unlink(tempName) }
        }
        _ = fchown(fd, like.st_uid, like.st_gid)
        if fchmod(fd, like.st_mode & 0o7777) != 0 { throw fail(errno) }
        if let code = writeAll(bytes, to: fd) { throw fail(code) }
        if fsync(fd) != 0 { throw fail(errno) }
        if rename(tempName, destination.cString) != 0 { throw fail(errno) }
        done = true
    }

    /// A file with several hard links: a backup copy first, then the file itself rewritten in
    /// place (every name sees the new text), then the temporary backup removed.
    private static func writeKeepingLinks(
        _ bytes: [UInt8], fd: Int32, existing: stat, target: FileSystemName, path: String, backup: Bool,
        mode: mode_t?
    ) throws {
        let (folder, file) = split(target)
        let old = try readOld(fd: fd, size: Int(existing.st_size), path: path, refusal: EIO)
        var temporaryBackup: [CChar]? = nil
        if backup {
            try writeCopy(old, to: target.appending("~"), folder: folder, file: file, like: existing)
        } else if let (backupFD, backupName) = try? makeTemporary(
            in: folder, for: file, suffix: ".lovesnap-backup-XXXXXX", hidden: false)
        {
            // The old text on disk while the file is rewritten; a crash leaves it here.
            var ok = writeAll(old, to: backupFD) == nil && fsync(backupFD) == 0
            _ = fchmod(backupFD, existing.st_mode & 0o7777)
            ok = close(backupFD) == 0 && ok
            if !ok {
                unlink(backupName)
                throw ShareError.writeFailed(
                    path: FileSystemName(bytes: backupName.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }).shown,
                    reason: ShareError.reason(errno == 0 ? EIO : errno))
            }
            try? syncFolder(folder, path: path)
            temporaryBackup = backupName
        }
        try writeInPlace(bytes, fd: fd, old: old, path: path)
        if let mode { _ = fchmod(fd, mode) }
        if let temporaryBackup { unlink(temporaryBackup) }
    }

    /// The `size` old bytes of the open file `fd`, read through a second, read-only descriptor.
    /// `refusal` is the errno reported when they cannot be read (without them there is no undo).
    private static func readOld(fd: Int32, size: Int, path: String, refusal: Int32) throws -> [UInt8] {
        func fail(_ code: Int32) -> ShareError {
            .writeFailed(path: path, reason: ShareError.reason(code))
        }
        let readFD = open("/proc/self/fd/\(fd)", O_RDONLY | O_CLOEXEC)
        if readFD < 0 { throw fail(refusal) }
        defer { close(readFD) }
        var old = [UInt8](repeating: 0, count: size)
        var got = 0
        while got < size {
            let n = old.withUnsafeMutableBytes { pread(readFD, $0.baseAddress! + got, size - got, off_t(got)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail(refusal)
            }
            if n == 0 { break }
            got += n
        }
        if got != size {
            // The file shrank under us; refuse rather than guess.
            throw fail(refusal)
        }
        return old
    }

    /// Rewrites an open regular file in place, restoring the `old` bytes if anything fails.
    private static func writeInPlace(_ bytes: [UInt8], fd: Int32, old: [UInt8], path: String) throws {
        func fail(_ code: Int32) -> ShareError {
            .writeFailed(path: path, reason: ShareError.reason(code))
        }
        let oldSize = old.count
        // Reserve blocks for a longer text before touching any old byte, so a full disk shows
        // up here and not half-way through the rewrite. Only the region past the old end is
        // allocated, so even glibc's emulation never writes over old data.
        if bytes.count > oldSize {
            let code = posix_fallocate(fd, off_t(oldSize), off_t(bytes.count - oldSize))
            if code != 0 && code != EOPNOTSUPP && code != EINVAL { throw fail(code) }
        }
        if let code = pwriteAll(bytes, to: fd) ?? (fsync(fd) == 0 ? nil : errno) {
            restore(old, fd: fd)
            throw fail(code)
        }
        if bytes.count < oldSize, ftruncate(fd, off_t(bytes.count)) != 0 {
            let code = errno
            restore(old, fd: fd)
            throw fail(code)
        }
        if fsync(fd) != 0 {
            let code = errno
            restore(old, fd: fd)
            throw fail(code)
        }
    }

    /// Puts the old contents back after a failed in-place write (best effort).
    private static func restore(_ old: [UInt8], fd: Int32) {
        _ = pwriteAll(old, to: fd)
        _ = ftruncate(fd, off_t(old.count))
        _ = fsync(fd)
    }

    /// Writes every byte (retrying short writes and EINTR); returns errno on failure.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return nil
    }

    /// Like `writeAll`, from offset 0 with `pwrite`.
    private static func pwriteAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(done)) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return nil
    }

    /// Follows symbolic links (at most 40, like the kernel) to the file that is really written,
    /// by their bytes (a link's target need not be UTF-8). A dangling link resolves to its
    /// missing target, which is then created.
    static func resolveSymlinks(_ name: FileSystemName) -> Result<FileSystemName, Errno> {
        var current = name
        for _ in 0..<40 {
            var info = stat()
            if lstat(current.cString, &info) != 0 {
                return errno == ENOENT ? .success(current) : .failure(Errno(code: errno))
            }
            guard (info.st_mode & S_IFMT) == S_IFLNK else { return .success(current) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current.cString, &buffer, Int(PATH_MAX))
            if n < 0 { return .failure(Errno(code: errno)) }
            let link = buffer[0..<n].map { UInt8(bitPattern: $0) }
            current =
                link.first == FileSystemName.separator
                ? FileSystemName(bytes: link) : split(current).folder.appending("/").appending(bytes: link)
        }
        return .failure(Errno(code: ELOOP))
    }

    /// A C `errno` value carried through a `Result`.
    struct Errno: Error { let code: Int32 }

    /// Splits "a/b/c.txt" into ("a/b", "c.txt"), by bytes; a bare name lives in ".".
    static func split(_ name: FileSystemName) -> (folder: FileSystemName, file: FileSystemName) {
        guard let at = name.bytes.lastIndex(of: FileSystemName.separator) else { return (FileSystemName("."), name) }
        let folder = Array(name.bytes[..<at])
        return (
            folder.isEmpty ? FileSystemName("/") : FileSystemName(bytes: folder),
            FileSystemName(bytes: Array(name.bytes[(at + 1)...]))
        )
    }

    /// The process umask, read without changing it where Linux allows (`/proc/self/status`).
    private static func currentUmask() -> mode_t {
        if let file = fopen("/proc/self/status", "r") {
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.hasPrefix("Umask:"),
                    let value = mode_t(text.dropFirst(6).trimmingCharacters(in: " \t\n"), radix: 8)
                {
                    return value
                }
            }
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
