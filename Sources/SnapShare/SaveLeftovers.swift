import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files a save of a document leaves behind when it is killed (`kill -9`, a crash, a power loss)
/// before it ends, found when the document is opened again (``AtomicFile`` makes them):
///
/// - `.NAME.lovesnap-XXXXXX` beside the file: the new text being written before the rename over
///   NAME (perhaps not all of it);
/// - `NAME.lovesnap-backup-XXXXXX` beside a file with several hard links: the text as it was
///   before the file was rewritten in place (the file itself may then hold the new text with
///   the end of the old).
///
/// NAME is the file's name cut to 100 octets, XXXXXX what `mkstemp` chose. Only regular files of
/// this user, not written for ``quietSeconds`` (a save in progress writes its file), read with
/// `O_NOFOLLOW`.
public enum SaveLeftovers {
    /// What a leftover file is.
    public enum Kind: Equatable, Sendable {
        /// `.NAME.lovesnap-XXXXXX`: the text of a save that did not finish.
        case unfinishedSave
        /// `NAME.lovesnap-backup-XXXXXX`: the old text kept while a hard-linked file was rewritten.
        case backupOfOldText
    }

    /// A leftover file of a save and what it holds.
    public struct Leftover: Equatable, Sendable {
        /// The file.
        public var path: String
        /// What it is.
        public var kind: Kind
        /// Its bytes.
        public var bytes: [UInt8]
        /// When it was last written.
        public var modified: Date
    }

    /// Seconds a leftover must have gone unwritten before it counts as one (a save still
    /// running, of another editor, keeps writing its temporary file).
    public static let quietSeconds = 60.0

    /// The leftovers of `document` (as the user named it; its links followed, as a save
    /// follows them), newest first.
    public static func find(forDocument document: String, now: Date = Date()) -> [Leftover] {
        guard case .success(let target) = AtomicFile.resolveSymlinks(FileSystemName(document)) else { return [] }
        let (folder, file) = AtomicFile.split(target)
        let base = Array(file.bytes.prefix(100))
        let temporary = Array(".".utf8) + base + Array(".lovesnap-".utf8)
        let backup = base + Array(".lovesnap-backup-".utf8)
        guard let directory = opendir(folder.cString) else { return [] }
        defer { closedir(directory) }
        var found: [Leftover] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            let kind: Kind
            if matches(name, prefix: temporary) {
                kind = .unfinishedSave
            } else if matches(name, prefix: backup) {
                kind = .backupOfOldText
            } else {
                continue
            }
            let path = FileSystemName(bytes: folder.bytes + [FileSystemName.separator] + name)
            guard let (bytes, modified) = OwnFile.read(path), now.timeIntervalSince(modified) >= quietSeconds else {
                continue
            }
            found.append(Leftover(path: path.shown, kind: kind, bytes: bytes, modified: modified))
        }
        return found.sorted { $0.modified > $1.modified }
    }

    /// Removes `leftover`'s file.
    public static func remove(_ leftover: Leftover) {
        remove(path: leftover.path)
    }

    /// Removes the file `path` (a ``Leftover/path``: a name that is not UTF-8 shown with `\xNN`).
    public static func remove(path: String) {
        unlink(FileSystemName(shown: path).cString)
    }

    /// Whether `name` is `prefix` and six letters or digits (what `mkstemp` puts for XXXXXX).
    private static func matches(_ name: [UInt8], prefix: [UInt8]) -> Bool {
        guard name.count == prefix.count + 6, name.starts(with: prefix) else { return false }
        return name[prefix.count...].allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        }
    }
}
