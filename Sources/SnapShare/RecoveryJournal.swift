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
/// One file per document **and per editor** (two editors on one file keep two files), in
/// `$XDG_STATE_HOME/lovesnap/` (XDG Base Directory 0.8: state data that should persist between
/// restarts; default `~/.local/state/lovesnap/`), named after the document's absolute path and
/// the editor's process: `BASENAME.HASH.PID-START.recovery`, where BASENAME is at most the first
/// 40 octets of the document's name (whole characters), HASH the 64-bit FNV-1a of that path in
/// hex (so `poem.txt` of two folders are two files), PID the editor's process ID and START its
/// start time in clock ticks after boot (`/proc/PID/stat`, field 22: a PID used again by a later
/// process is another editor). The file holds the text exactly, in UTF-8 with LF line ends.
///
/// The folder is private: made with mode 0700, and refused (nothing written nor read) when it is
/// a symbolic link, not owned by the user or writable by group or others. Each file is written
/// by rename over its name (``AtomicFile/replace(_:named:in:mode:)``: a link planted there is
/// replaced, never followed), mode 0600, and read back only when it is a regular file of the
/// user's, opened with `O_NOFOLLOW`.
///
/// The document is the file Write Out writes to: the text file itself, or for a photo the `.txt`
/// beside it. So opening `raven.jpg` or `raven.txt` finds the same recovery files.
public struct RecoveryJournal: Sendable {
    /// The folder holding the recovery files.
    public let folder: String
    /// The editor process whose files `write`, `remove` and `path` name.
    public let owner: Owner

    /// A journal in `folder`, for the editor process `owner` (this process by default).
    public init(folder: String, owner: Owner = .current) {
        self.folder = folder
        self.owner = owner
    }

    /// The editor process that writes a recovery file, as the file's name says: "PID-START".
    public struct Owner: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// Its process ID.
        public var pid: Int32
        /// Its start time, clock ticks after boot (`/proc/PID/stat` field 22); 0 where unknown.
        public var started: UInt64

        /// The editor `pid` started at `started`.
        public init(pid: Int32, started: UInt64) {
            self.pid = pid
            self.started = started
        }

        /// This process.
        public static let current = Owner(pid: getpid(), started: startTime(of: getpid()) ?? 0)

        /// Whether that process still runs (the same PID with the same start time).
        public var isRunning: Bool {
            guard let now = Self.startTime(of: pid) else { return false }
            return started == 0 || now == started
        }

        /// "PID-START", as in the file names.
        public var description: String { "\(pid)-\(started)" }

        /// "PID-START" read back; nil for anything else.
        init?(_ text: Substring) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, let started = UInt64(parts[1]) else {
                return nil
            }
            self.init(pid: pid, started: started)
        }

        /// Field 22 of `/proc/PID/stat` (after the command name in parentheses, which may hold
        /// spaces); nil when there is no such process, or only its zombie.
        static func startTime(of pid: Int32) -> UInt64? {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
                let text = String(data: data, encoding: .utf8), let close = text.lastIndex(of: ")")
            else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ")
            // fields[0] is field 3, the state: a zombie (Z) or dead (X) process is no editor. Field
            // 22 is fields[19].
            guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
            return UInt64(fields[19])
        }
    }

    /// `$XDG_STATE_HOME/lovesnap` when that variable is an absolute path (the specification
    /// says to ignore a relative one), else `$HOME/.local/state/lovesnap`; nil without either.
    public static func defaultFolder(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return join(state, "lovesnap") }
        if let home = environment["HOME"], home.hasPrefix("/") { return join(join(home, ".local/state"), "lovesnap") }
        return nil
    }

    /// What a recovery file holds, when it was written, and which editor wrote it.
    public struct Entry: Equatable, Sendable {
        /// The recovery file.
        public var path: String
        /// Its bytes (the text in UTF-8).
        public var bytes: [UInt8]
        /// When it was last written (its modification time).
        public var modified: Date
        /// The editor process that wrote it; nil for a file named before editors were named (one
        /// per document).
        public var owner: Owner?

        /// The text (invalid UTF-8, which lovesnap never writes, is replaced by U+FFFD).
        public var text: String { String(decoding: bytes, as: UTF8.self) }
        /// Whether the editor that writes it still runs (its text may still change).
        public var isInUse: Bool { owner?.isRunning ?? false }
    }

    /// This editor's recovery file for `document` (as the user named it; made absolute against
    /// the current folder, its folder's symbolic links resolved).
    public func path(forDocument document: String) -> String {
        Self.join(folder, prefix(forDocument: document) + "\(owner).recovery")
    }

    /// "BASENAME.HASH." shared by every editor's recovery file of `document`.
    private func prefix(forDocument document: String) -> String {
        let absolute = Self.absolutePath(document)
        let base = (absolute as NSString).lastPathComponent
        let hash = String(Self.fnv1a(Array(absolute.utf8)), radix: 16)
        // At most 40 octets of the name (whole characters), so that the whole file name, and the
        // temporary name AtomicFile.replace derives from its first 100 octets, stay whole.
        var shownBase = ""
        for character in base where shownBase.utf8.count + character.utf8.count <= 40 { shownBase.append(character) }
        return "\(shownBase).\(String(repeating: "0", count: 16 - hash.count) + hash)."
    }

    /// Writes `text` as this editor's recovery file of `document`.
    /// - Throws: `ShareError.writeFailed`, as `write(_:forDocument:)` with bytes.
    public func write(_ text: String, forDocument document: String) throws {
        try write(Array(text.utf8), forDocument: document)
    }

    /// Writes `bytes` (UTF-8 text, e.g. a buffer rope's bytes) as this editor's recovery file of
    /// `document` (the folder made first, mode 0700; the file mode 0600, by rename).
    /// - Throws: `ShareError.writeFailed` naming the recovery file or the folder and the reason,
    ///   e.g. "…/lovesnap: writable by others; recovery is off".
    public func write(_ bytes: [UInt8], forDocument document: String) throws {
        try makeFolder()
        try checkFolder()
        let name = (path(forDocument: document) as NSString).lastPathComponent
        try AtomicFile.replace(bytes, named: name, in: folder, mode: 0o600)
    }

    /// Removes this editor's recovery file of `document`; nothing happens when there is none.
    public func remove(forDocument document: String) {
        unlink(path(forDocument: document))
    }

    /// Removes `entry`'s file (another editor's, offered and discarded).
    public func remove(_ entry: Entry) {
        unlink(entry.path)
    }

    /// Makes the recovery file `file` (an ``Entry/path``) this editor's recovery file of
    /// `document` (a rename): the text recovered from it is then kept, and removed on save, as
    /// this editor's own.
    /// - Throws: `ShareError.writeFailed` naming the recovery file and the reason.
    public func adopt(_ file: String, forDocument document: String) throws {
        let own = path(forDocument: document)
        guard file != own else { return }
        if rename(file, own) != 0 {
            throw ShareError.writeFailed(path: file, reason: ShareError.reason(errno))
        }
    }

    /// Whether `file` is a recovery file of this journal's folder (by name).
    public func holds(_ file: String) -> Bool {
        file.hasSuffix(".recovery") && Self.join(folder, (file as NSString).lastPathComponent) == file
    }

    /// This editor's recovery file of `document`, or nil when there is none (or it cannot be
    /// read safely).
    public func entry(forDocument document: String) -> Entry? {
        guard (try? checkFolder()) != nil else { return nil }
        return Self.read(path(forDocument: document), owner: owner)
    }

    /// Every recovery file of `document` but this editor's, newest first: those of editors that
    /// ended without saving, and of editors still running on it. None when the folder is not
    /// private (``checkFolder()``).
    public func entries(forDocument document: String) -> [Entry] {
        guard (try? checkFolder()) != nil,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return [] }
        let prefix = prefix(forDocument: document)
        let own = (path(forDocument: document) as NSString).lastPathComponent
        let old = String(prefix.dropLast()) + ".recovery"  // the name of one file per document
        var found: [Entry] = []
        for name in names where name != own && name.hasPrefix(prefix) && name.hasSuffix(".recovery") {
            let middle = name.dropFirst(prefix.count).dropLast(".recovery".count)
            guard let owner = Owner(middle) else { continue }
            if let entry = Self.read(Self.join(folder, name), owner: owner) { found.append(entry) }
        }
        if let entry = Self.read(Self.join(folder, old), owner: nil) { found.append(entry) }
        return found.sorted { $0.modified > $1.modified }
    }

    /// Removes the temporary files of recovery-file writes that a killed editor left for
    /// `document` (`.NAME.HASH.PID-START.recovery.lovesnap-XXXXXX`, ``AtomicFile/replace(_:named:in:mode:)``'s):
    /// those whose editor no longer runs and that were not written for `quietSeconds`. That
    /// editor's last complete recovery file stays (the write that was cut short held at most the
    /// last seconds of typing). Returns how many were removed. Nothing is done when the folder is
    /// not private.
    @discardableResult
    public func removeUnfinishedWrites(forDocument document: String, quietSeconds: Double = 60, now: Date = Date())
        -> Int
    {
        guard (try? checkFolder()) != nil,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return 0 }
        let prefix = "." + prefix(forDocument: document)
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let marker = rest.range(of: ".recovery.lovesnap-"), rest[marker.upperBound...].count == 6,
                let owner = Owner(rest[..<marker.lowerBound]), owner != self.owner, !owner.isRunning
            else { continue }
            let path = Self.join(folder, name)
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else {
                continue
            }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            if now.timeIntervalSince1970 - modified >= quietSeconds, unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// `path` read when it is a regular file of this user's, not through a link (``OwnFile``).
    private static func read(_ path: String, owner: Owner?) -> Entry? {
        guard let (bytes, modified) = OwnFile.read(FileSystemName(path)) else { return nil }
        return Entry(path: path, bytes: bytes, modified: modified, owner: owner)
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
    }

    /// Refuses a folder others could plant files or links in: it must be a folder itself (not a
    /// symbolic link to one), owned by this user, not writable by group or others.
    /// - Throws: `ShareError.writeFailed(path: folder, reason:)`, the reason ending in
    ///   "recovery is off".
    public func checkFolder() throws {
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw ShareError.writeFailed(path: folder, reason: ShareError.reason(errno))
        }
        let refusal: String?
        if (info.st_mode & S_IFMT) == S_IFLNK {
            refusal = "a symbolic link, not a folder of its own"
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            refusal = ShareError.reason(ENOTDIR)
        } else if info.st_uid != geteuid() {
            refusal = "owned by another user"
        } else if info.st_mode & 0o022 != 0 {
            refusal = "writable by others"
        } else {
            refusal = nil
        }
        if let refusal { throw ShareError.writeFailed(path: folder, reason: refusal + "; recovery is off") }
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
