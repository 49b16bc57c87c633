import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where and how the editor writes the text when it is told to stop (SIGTERM, SIGHUP), as GNU nano
/// does: `NAME.save` beside the document, or `NAME.save.1`, `NAME.save.2`… when that exists.
///
/// `NAME` is the path Write Out offers (`raven.jpg` → `raven.txt`, `poem.txt` → `poem.txt`). When
/// that folder cannot take the file, the same name is tried in the home folder, then in `/tmp`.
/// Each file is created new (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600: never overwriting or
/// following a link), written whole, `fsync`ed and closed.
public enum EmergencySave {
    /// How the emergency save turned out.
    public enum Outcome: Equatable, Sendable {
        /// The text was written to this path.
        case saved(path: String)
        /// The buffer was empty and untouched: no file was written.
        case nothingToSave
        /// No file could be written; the reason names the file and the system's error.
        case failed(reason: String)
    }

    /// How many numbered names (`.save.1` …) are tried in one folder before giving up on it.
    public static let maximumNumber = 999

    /// The candidate name: `NAME.save` for 0, `NAME.save.N` for N ≥ 1.
    public static func candidate(_ name: String, number: Int) -> String {
        number == 0 ? name + ".save" : name + ".save.\(number)"
    }

    /// The names to try, in order, for the document `saveName`: its own path (folder kept as given,
    /// relative or not), then `home/BASE`, then `temporaryFolder/BASE`, where `BASE` is its last
    /// component. An empty name (or one ending in `/`) becomes `lovesnap`. Duplicates are dropped.
    public static func locations(forSaveName saveName: String, home: String?, temporaryFolder: String = "/tmp") -> [String] {
        var own = saveName
        if own.isEmpty || own.hasSuffix("/") { own += "lovesnap" }
        let base = own.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? "lovesnap"
        var result = [own]
        for folder in [home, temporaryFolder].compactMap({ $0 }) where !folder.isEmpty {
            let path = (folder.hasSuffix("/") ? folder : folder + "/") + base
            if !result.contains(path) { result.append(path) }
        }
        return result
    }

    /// Writes `bytes` to the first free candidate of the first location that takes it.
    ///
    /// In each location, `NAME.save` is created, or `NAME.save.1`, `.2`… while the name exists; any
    /// other failure (folder missing or not writable, disk full) moves on to the next location,
    /// removing a partly written file. Returns `.failed` with the first location's reason if none worked.
    public static func write(_ bytes: [UInt8], saveName: String, home: String?, temporaryFolder: String = "/tmp") -> Outcome {
        var firstError: String?
        for location in locations(forSaveName: saveName, home: home, temporaryFolder: temporaryFolder) {
            switch write(bytes, beside: location) {
            case .success(let path): return .saved(path: path)
            case .failure(let error): firstError = firstError ?? error.description
            }
        }
        return .failed(reason: firstError ?? "no place to write")
    }

    struct WriteError: Error, CustomStringConvertible { let description: String }

    /// Tries `name.save`, `name.save.1`… in `name`'s folder.
    static func write(_ bytes: [UInt8], beside name: String) -> Result<String, WriteError> {
        for number in 0...maximumNumber {
            let path = candidate(name, number: number)
            var fd: Int32
            repeat {
                fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            } while fd < 0 && errno == EINTR
            if fd < 0 {
                if errno == EEXIST { continue }
                return .failure(WriteError(description: "\(path): \(String(cString: strerror(errno)))"))
            }
            if let failure = writeAll(bytes, to: fd) {
                close(fd)
                unlink(path)
                return .failure(WriteError(description: "\(path): \(failure)"))
            }
            if close(fd) != 0 && errno != EINTR {
                let reason = String(cString: strerror(errno))
                unlink(path)
                return .failure(WriteError(description: "\(path): \(reason)"))
            }
            syncFolder(of: path)
            return .success(path)
        }
        return .failure(WriteError(description: "\(candidate(name, number: maximumNumber)): too many emergency files"))
    }

    /// Writes everything and fsyncs; nil on success, else the system's reason.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            if n == 0 { return String(cString: strerror(EIO)) }
            offset += n
        }
        if fsync(fd) != 0 { return String(cString: strerror(errno)) }
        return nil
    }

    /// Best effort: makes the new directory entry durable too.
    private static func syncFolder(of path: String) {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let fd = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// `SIGTERM`, `SIGHUP`, … (`signal N` for others).
    public static func signalName(_ sig: Int32) -> String {
        switch sig {
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        default: return "signal \(sig)"
        }
    }
}

/// How the editor ended on a termination signal: the signal, what became of the text, and the
/// line to print on stderr once the terminal is restored.
public struct TerminationReport: Equatable, Sendable {
    /// The signal (SIGTERM, SIGHUP).
    public var signal: Int32
    /// The emergency save.
    public var outcome: EmergencySave.Outcome

    /// Creates a report.
    public init(signal: Int32, outcome: EmergencySave.Outcome) {
        self.signal = signal
        self.outcome = outcome
    }

    /// The process exit status: 128 + the signal (143 for SIGTERM, 129 for SIGHUP).
    public var exitCode: Int32 { 128 + signal }

    /// `received SIGTERM; the text was saved to PATH` (or `; nothing to save`, or
    /// `; could not save the text: REASON`), without the program name.
    public var message: String {
        let head = "received \(EmergencySave.signalName(signal))"
        switch outcome {
        case .saved(let path): return "\(head); the text was saved to \(path)"
        case .nothingToSave: return "\(head); nothing to save"
        case .failed(let reason): return "\(head); could not save the text: \(reason)"
        }
    }
}
