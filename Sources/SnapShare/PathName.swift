import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File names as the user types and sees them.
public enum PathName {
    /// `~` → `home`, `~/x` → `home/x`, as nano's Write Out prompt does. Any other path, and any
    /// path when `home` is nil or empty, is returned as given (`~user/` is not expanded).
    public static func expandingTilde(_ path: String, home: String?) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home, !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// How a file is named in titles and messages: the last component of `path` (trailing "/"
    /// ignored, "/" for the root), with control characters shown as `\u{1b}` so that they
    /// cannot act on the terminal. A descriptor's name (`/dev/fd/63`, `/proc/self/fd/3`: a
    /// shell's process substitution `<(…)`) is shown whole: "63" alone says nothing.
    public static func displayName(of path: String) -> String {
        // Split here: Foundation's `NSString.deletingLastPathComponent` traps on "." and "./" on
        // Linux (swift-corelibs-foundation), which crashed `lovesnap ocr .`.
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        var base = String(trimmed)
        var folder = ""
        if trimmed != "/", let slash = trimmed.lastIndex(of: "/") {
            base = String(trimmed[trimmed.index(after: slash)...])
            folder = String(trimmed[..<slash])
        }
        if !base.isEmpty, base.allSatisfy({ $0.isASCII && $0.isNumber }),
            folder == "/dev/fd" || folder.hasPrefix("/proc/") && folder.hasSuffix("/fd")
        {
            base = path
        }
        return String(
            base.unicodeScalars.map { s -> String in
                s.properties.generalCategory == .control ? "\\u{\(String(s.value, radix: 16))}" : String(s)
            }.joined())
    }

    /// Whether `a` and `b` name the same existing file (same device and inode, links followed).
    /// False when either cannot be `stat`ed.
    public static func isSameFile(_ a: String, _ b: String) -> Bool { isSameFile(FileSystemName(a), FileSystemName(b)) }

    /// `isSameFile(_:_:)` of the files of those names, whatever their bytes.
    public static func isSameFile(_ a: FileSystemName, _ b: FileSystemName) -> Bool {
        var sa = stat()
        var sb = stat()
        guard stat(a.cString, &sa) == 0, stat(b.cString, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}

extension PathName {
    /// What a name stands for on disk, links followed: a folder, a regular file (`other`), or a
    /// device, a FIFO or a socket (`special`, which `AtomicFile` does not write).
    public enum Kind: Sendable { case folder, other, special }

    /// Whether the file of that name exists, and what it is (`stat(2)`, links followed); nil
    /// when it cannot be `stat`ed (there is none).
    public static func kind(of name: FileSystemName) -> Kind? {
        var info = stat()
        guard stat(name.cString, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .other
        default: return .special
        }
    }

    /// What tells two versions of a file apart: `st_dev`, `st_ino`, `st_size`, `st_mtim` and
    /// `st_ctim` (nanoseconds since 1970) of `stat(2)`, links followed. The status change time
    /// is set by the kernel on every write: a same-size change whose modification time was put
    /// back (`touch -d`, `cp -p`, a tool restoring it) is still a change.
    public struct Version: Hashable, Sendable {
        public var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64
    }

    /// The version now of the file of that name, whatever its bytes, or nil when it cannot be
    /// `stat`ed (there is none).
    public static func version(of name: FileSystemName) -> Version? {
        var info = stat()
        guard stat(name.cString, &info) == 0 else { return nil }
        return Version(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}
