#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file a text is rescued to when the editor is told to stop (SIGTERM, SIGHUP), as GNU nano
/// does: `NAME.save` beside the document, or `NAME.save.1`, `NAME.save.2`… when that exists.
///
/// `NAME` is the path Write Out would use (`raven.jpg` → `raven.txt`, `poem.txt` → `poem.txt`). When
/// that folder cannot take the file, the same name is tried in the home folder, then in `/tmp`.
/// Each file is created new (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600: never overwriting or
/// following a link), written whole, `fsync`ed and closed, and its folder is `fsync`ed.
public enum EmergencyFile {
    /// How many numbered names (`.save.1` …) are tried in one folder before giving up on it.
    public static let maximumNumber = 999

    /// The candidate name: `NAME.save` for 0, `NAME.save.N` for N ≥ 1.
    public static func candidate(_ name: String, number: Int) -> String {
        candidate(FileSystemName(name), number: number).shown
    }

    static func candidate(_ name: FileSystemName, number: Int) -> FileSystemName {
        name.appending(number == 0 ? ".save" : ".save.\(number)")
    }

    /// The names to try, in order, for the document `saveName`: its own path (folder kept as given,
    /// relative or not), then `home/BASE`, then `temporaryFolder/BASE`, where `BASE` is its last
    /// component. An empty name (or one ending in `/`) becomes `lovesnap`. Duplicates are dropped.
    public static func locations(forSaveName saveName: String, home: String?, temporaryFolder: String = "/tmp")
        -> [String]
    {
        locations(
            forSaveName: FileSystemName(saveName), home: home.map { FileSystemName($0) },
            temporaryFolder: FileSystemName(temporaryFolder)
        ).map(\.shown)
    }

    static func locations(forSaveName saveName: FileSystemName, home: FileSystemName?, temporaryFolder: FileSystemName)
        -> [FileSystemName]
    {
        var own = saveName
        if own.bytes.isEmpty || own.bytes.last == FileSystemName.separator { own = own.appending("lovesnap") }
        // `own` ends in a name, never in "/": its last component.
        let base = AtomicFile.split(own).file
        var result = [own]
        for folder in [home, temporaryFolder].compactMap({ $0 }) where !folder.bytes.isEmpty {
            let path = (folder.bytes.last == FileSystemName.separator ? folder : folder.appending("/"))
                .appending(bytes: base.bytes)
            if !result.contains(path) { result.append(path) }
        }
        return result
    }

    /// Writes `bytes` to the first free candidate of the first location that takes it and returns
    /// that path.
    ///
    /// In each location, `NAME.save` is created, or `NAME.save.1`, `.2`… while the name exists; any
    /// other failure (folder missing or not writable, disk full) moves on to the next location,
    /// removing a partly written file.
    /// - Throws: `ShareError.writeFailed(path:reason:)` of the first location when none worked,
    ///   e.g. "/ro/poem.txt.save: Permission denied".
    public static func write(_ bytes: [UInt8], saveName: String, home: String?, temporaryFolder: String = "/tmp") throws
        -> String
    {
        try write(
            bytes, saveName: FileSystemName(saveName), home: home.map { FileSystemName($0) },
            temporaryFolder: FileSystemName(temporaryFolder)
        ).shown
    }

    /// `write(_:saveName:home:temporaryFolder:)` by the bytes of the names (a document whose name
    /// is not UTF-8 is rescued beside itself, under its own bytes); errors name files as shown.
    public static func write(
        _ bytes: [UInt8], saveName: FileSystemName, home: FileSystemName?,
        temporaryFolder: FileSystemName = FileSystemName("/tmp")
    ) throws -> FileSystemName {
        var firstError: ShareError?
        for location in locations(forSaveName: saveName, home: home, temporaryFolder: temporaryFolder) {
            switch write(bytes, beside: location) {
            case .success(let path): return path
            case .failure(let error): firstError = firstError ?? error
            }
        }
        throw firstError
            ?? ShareError.writeFailed(path: candidate(saveName, number: 0).shown, reason: "no place to write")
    }

    /// Tries `name.save`, `name.save.1`… in `name`'s folder.
    static func write(_ bytes: [UInt8], beside name: FileSystemName) -> Result<FileSystemName, ShareError> {
        for number in 0...maximumNumber {
            let path = candidate(name, number: number)
            var fd: Int32
            repeat {
                fd = open(path.cString, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            } while fd < 0 && errno == EINTR
            if fd < 0 {
                if errno == EEXIST { continue }
                return .failure(.writeFailed(path: path.shown, reason: ShareError.reason(errno)))
            }
            var code = AtomicFile.writeAll(bytes, to: fd)
            if code == nil && fsync(fd) != 0 { code = errno }
            if let code {
                close(fd)
                unlink(path.cString)
                return .failure(.writeFailed(path: path.shown, reason: ShareError.reason(code)))
            }
            if close(fd) != 0 && errno != EINTR {
                let code = errno
                unlink(path.cString)
                return .failure(.writeFailed(path: path.shown, reason: ShareError.reason(code)))
            }
            syncFolder(of: path)
            return .success(path)
        }
        return .failure(
            .writeFailed(path: candidate(name, number: maximumNumber).shown, reason: "too many emergency files"))
    }

    /// Best effort: makes the new directory entry durable too.
    private static func syncFolder(of path: FileSystemName) {
        let fd = open(AtomicFile.split(path).folder.cString, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
