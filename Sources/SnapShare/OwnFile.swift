import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading back a file lovesnap left for itself (a recovery file, a killed save's temporary file
/// or backup), so that nothing planted in its place is read: opened with `O_NOFOLLOW` (a
/// symbolic link fails), then `fstat` must show a regular file owned by this user.
enum OwnFile {
    /// The bytes and modification time of `name`, or nil when it is missing, a link, not a
    /// regular file, another user's, or cannot be read.
    static func read(_ name: FileSystemName) -> (bytes: [UInt8], modified: Date)? {
        let fd = open(name.cString, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return nil }
            if got == 0 { break }
            bytes += chunk[0..<got]
        }
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return (bytes, Date(timeIntervalSince1970: seconds))
    }
}
