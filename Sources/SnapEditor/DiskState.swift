import SnapTerminal
import SnapText

/// A file as seen on disk, for noticing that another program changed it.
public enum DiskState: Equatable, Sendable {
    /// There was no such file.
    case absent
    /// The file, at this version.
    case present(DiskVersion)
}

/// What tells two versions of a file apart: device and inode (a rename over it makes a new
/// one), size, modification and status change times (nanoseconds: the status change time
/// catches a same-size change whose modification time was put back).
public struct DiskVersion: Hashable, Sendable {
    /// `st_dev`, `st_ino`, `st_size`, `st_mtim` and `st_ctim` in nanoseconds since 1970.
    public var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64

    /// A version from `stat(2)` fields.
    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64 = 0) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }
}
