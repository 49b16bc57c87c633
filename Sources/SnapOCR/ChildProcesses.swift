import CLibc
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Starting child processes with Foundation's `Process` from several threads at once, safely,
/// and counting the worker's helpers (`__reader`, `__spelling`, `__orientation`).
///
/// swift-corelibs-foundation's `Process.run` (Linux, `Sources/Foundation/Process.swift`) closes
/// in the child the descriptors open when it builds the spawn's file actions, and keeps open in
/// the child its end of a socket pair by which the parent learns that the child ended
/// (`waitUntilExit`). A descriptor another thread opens meanwhile is inherited by that child:
/// another child's pipe, or another child's end of that socket — then `waitUntilExit` on that
/// other child waits until this one ends too. In the worker, a spelling process was seen holding
/// the orientation process's socket, and one run of `stained-paper.png` in 145 photos waited
/// 300 s, to the timeout, for an orientation process long gone. So every start goes through
/// `run(_:)`, one at a time, and the pipes are made close-on-exec (`pipe()`), which only the
/// descriptors the child is given as its standard input and output lose (`dup2`).
enum ChildProcesses {
    private static let starting = Mutex(())
    private static let counts = Mutex<[String: Int]>([:])

    /// Starts `process`, no other start running meanwhile; counts it as `helper` (when given) of
    /// its executable path.
    /// - Throws: Foundation's error when it cannot be started.
    static func run(_ process: Process, counting helper: String? = nil) throws {
        try starting.withLock { _ in try process.run() }
        if let helper, let path = process.executableURL?.path {
            counts.withLock { $0["\(helper) \(path)", default: 0] += 1 }
        }
    }

    /// A pipe whose two ends are closed on `exec` (`pipe2`, `O_CLOEXEC`): given to a child as
    /// its standard input or output (`Process.standardInput = reading`), an end is duplicated
    /// onto descriptor 0 or 1 and stays open there; the caller closes its copy of the child's end
    /// once the child is started.
    /// - Throws: `POSIXError` when the system has no descriptor left.
    static func pipe() throws -> (reading: FileHandle, writing: FileHandle) {
        var fds: [Int32] = [0, 0]
        guard clibc_close_on_exec_pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (
            FileHandle(fileDescriptor: fds[0], closeOnDealloc: true),
            FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        )
    }

    /// How many times `helper` (`__reader`, `__spelling`, `__orientation`) was started from
    /// `executable` (tests tell a reading made apart from one made here; each such test starts
    /// its helpers through an executable path of its own, a link, so that suites running at once
    /// do not count each other's).
    static func count(_ helper: String, executable: String) -> Int {
        counts.withLock { $0["\(helper) \(executable)"] ?? 0 }
    }
}
