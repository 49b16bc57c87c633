import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The recovery files that keep a modified text safe from a crash, a `kill -9` or a power loss:
/// the editor writes the buffer here a few seconds after each change, removes it on a clean save
/// or exit, and offers it back when the same document is opened again.
///
/// One file per document, in `$XDG_STATE_HOME/lovesnap/` (XDG Base Directory 0.8: state data
/// that should persist between restarts; default `~/.local/state/lovesnap/`), named after the
/// document's absolute path: `BASENAME.HASH.recovery`, where HASH is the 64-bit FNV-1a of that
/// path in hex (so `poem.txt` of two folders are two files). The file holds the text exactly, in
/// UTF-8 with LF line ends. The folder is made with mode 0700, each file is written atomically
/// (``AtomicFile``: temporary file, fsync, rename, fsync of the folder) with mode 0600.
///
/// The document is the file Write Out writes to: the text file itself, or for a photo the `.txt`
/// beside it. So opening `raven.jpg` or `raven.txt` finds the same recovery file.
public struct RecoveryJournal: Sendable {
    /// The folder holding the recovery files.
    public let folder: String

    /// A journal in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// `$XDG_STATE_HOME/lovesnap` when that variable is an absolute path (the specification
    /// says to ignore a relative one), else `$HOME/.local/state/lovesnap`; nil without either.
    public static func defaultFolder(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return join(state, "lovesnap") }
        if let home = environment["HOME"], home.hasPrefix("/") { return join(join(home, ".local/state"), "lovesnap") }
        return nil
    }

    /// What a recovery file holds, and when it was written.
    public struct Entry: Equatable, Sendable {
        /// The recovery file.
        public var path: String
        /// Its bytes (the text in UTF-8).
        public var bytes: [UInt8]
        /// When it was last written (its modification time).
        public var modified: Date

        /// The text (invalid UTF-8, which lovesnap never writes, is replaced by U+FFFD).
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// The recovery file's path for `document` (as the user named it; made absolute against the
    /// current folder, its folder's symbolic links resolved).
    public func path(forDocument document: String) -> String {
        let absolute = Self.absolutePath(document)
        let base = (absolute as NSString).lastPathComponent
        let hash = String(Self.fnv1a(Array(absolute.utf8)), radix: 16)
        let shownBase = String(decoding: Array(base.utf8.prefix(180)), as: UTF8.self)
        return Self.join(folder, "\(shownBase).\(String(repeating: "0", count: 16 - hash.count) + hash).recovery")
    }

    /// Writes `text` as the recovery file of `document` (the folder made first, mode 0700).
    /// - Throws: `ShareError.writeFailed` naming the recovery file (or folder) and the reason.
    public func write(_ text: String, forDocument document: String) throws {
        try write(Array(text.utf8), forDocument: document)
    }

    /// Writes `bytes` (UTF-8 text, e.g. a buffer rope's bytes) as the recovery file of `document`
    /// (the folder made first, mode 0700; the file mode 0600).
    /// - Throws: `ShareError.writeFailed` naming the recovery file (or folder) and the reason.
    public func write(_ bytes: [UInt8], forDocument document: String) throws {
        try makeFolder()
        try AtomicFile.write(bytes, to: path(forDocument: document), mode: 0o600)
    }

    /// Removes `document`'s recovery file; nothing happens when there is none.
    public func remove(forDocument document: String) {
        unlink(path(forDocument: document))
    }

    /// `document`'s recovery file, or nil when there is none (or it cannot be read).
    public func entry(forDocument document: String) -> Entry? {
        let file = path(forDocument: document)
        var info = stat()
        guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            let data = FileManager.default.contents(atPath: file)
        else { return nil }
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return Entry(path: file, bytes: Array(data), modified: Date(timeIntervalSince1970: seconds))
    }

    /// Makes the folder and its missing parents, mode 0700 (XDG: state folders are private).
    private func makeFolder() throws {
        var partial = ""
        for component in folder.split(separator: "/", omittingEmptySubsequences: true) {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw ShareError.writeFailed(path: partial, reason: ShareError.reason(errno))
            }
        }
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ShareError.writeFailed(path: folder, reason: ShareError.reason(ENOTDIR))
        }
    }

    /// `path` made absolute: `realpath` of the file, else of its folder plus its name, else the
    /// current folder joined with it.
    static func absolutePath(_ path: String) -> String {
        if let resolved = realPath(path) { return resolved }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        if let resolved = realPath(folder.isEmpty ? "." : folder) { return join(resolved, name) }
        if path.hasPrefix("/") { return path }
        return join(FileManager.default.currentDirectoryPath, path)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// 64-bit FNV-1a (Fowler–Noll–Vo): a short, stable name for a path; not cryptographic.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
