import Foundation
import SnapTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh folder (`TestPaths.temporaryDirectory`: mode 0755 so an unprivileged reader can enter
/// it), removed by `cleanup()` or when the test process exits.
struct TempFolder {
    let path: String

    init() throws {
        path = TestPaths.temporaryDirectory("snapshare-tests").path
        guard FileManager.default.fileExists(atPath: path) else { throw POSIXError(.EIO) }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Names in `folder` (default: the root of this temp folder), sorted.
    func names(in folder: String? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder ?? path)) ?? []).sorted()
    }

    func cleanup() {
        // Read-only folders made by a test would stop the removal; open them up first.
        _ = try? run("/bin/chmod", ["-R", "u+rwx", path])
        try? FileManager.default.removeItem(atPath: path)
    }
}

func bytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func put(_ text: String, _ path: String, mode: mode_t = 0o644) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, mode)
}

func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
}

struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program with Foundation's `Process` (independent of the code under test).
@discardableResult
func run(
    _ program: String, _ arguments: [String], stdin: [UInt8] = [],
    environment: [String: String]? = nil
) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var out = Data()
    nonisolated(unsafe) var err = Data()
    DispatchQueue.global().async(group: group) { out = output.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { err = errors.fileHandleForReading.readDataToEndOfFile() }
    try input.fileHandleForWriting.write(contentsOf: Data(stdin))
    try input.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return Output(
        status: process.terminationStatus,
        stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self))
}

/// python3 with the standard `email` package, used as an independent MIME decoder.
let python3Available: Bool = (try? run("/usr/bin/env", ["python3", "-c", "import email.policy"]).status) == 0

/// A file of Tests/Fixtures (made by Tests/Fixtures/make_fixtures.py).
func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// Runs code with the file-system identity of an ordinary user (nobody, 65534) on a dedicated
/// thread, so that permission bits apply as they would for a user; root bypasses them.
///
/// Linux `setfsuid(2)` is per thread and, when moving away from 0, drops CAP_DAC_OVERRIDE and
/// CAP_FOWNER for that thread, so open/mkstemp/rename are checked like for that user.
/// Not running as root, the current user is already ordinary and the code runs directly.
enum OrdinaryUser {
    typealias SetFS = @convention(c) (UInt32) -> Int32
    static let uid: UInt32 = 65534
    static let gid: UInt32 = 65534

    private static let setfsuid: SetFS? = symbol("setfsuid")
    private static let setfsgid: SetFS? = symbol("setfsgid")

    private static func symbol(_ name: String) -> SetFS? {
        guard let handle = dlopen(nil, RTLD_NOW), let sym = dlsym(handle, name) else { return nil }
        return unsafeBitCast(sym, to: SetFS.self)
    }

    static var isRoot: Bool { geteuid() == 0 }

    /// Whether permission checks can be made to apply (not root, or root able to switch).
    static let available: Bool = {
        if !isRoot { return true }
        return (try? perform { setfsuid!(UInt32.max) == uid }) ?? false
    }()

    /// The owner the fixture files should have: nobody when running as root, else ourselves.
    static var owner: (uid: UInt32, gid: UInt32) { isRoot ? (uid, gid) : (getuid(), getgid()) }

    static func perform<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        if !isRoot { return try body() }
        guard let setfsuid, let setfsgid else { throw POSIXError(.ENOSYS) }
        nonisolated(unsafe) var result: Result<T, Error>? = nil
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = setfsgid(gid)
            _ = setfsuid(uid)
            if setfsuid(UInt32.max) != uid {
                result = .failure(POSIXError(.EPERM))
            } else {
                result = Result { try body() }
            }
            _ = setfsuid(0)
            _ = setfsgid(0)
            done.signal()
        }
        thread.start()
        done.wait()
        return try result!.get()
    }
}
