import CLibc
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process: every process lovesnap starts (the OCR worker and its reader, spelling,
/// orientation and detector processes, the mail command, `^T`'s command) is one, started with
/// `posix_spawn` (`clibc_spawn`): its standard input, output and error from the descriptors
/// given, every other descriptor closed (`closefrom(3)`), no signal blocked, every signal's
/// action the default, in a process group of its own, or a session of its own (`newSession`:
/// no controlling terminal, so it cannot draw over the editor or read its keys through
/// `/dev/tty`). The worker may also be forked (`init(forking:…)`).
///
/// Not Foundation's `Process`: on Linux, swift-corelibs-foundation's `Process.run`
/// (`Sources/Foundation/Process.swift`) closes in the child only the descriptors open when it
/// builds the spawn's file actions, and learns that a child ended from a socket whose other end
/// the child holds. A child started by another thread meanwhile inherited that socket, and
/// `waitUntilExit` then waited for that other child too: once in 145 photos the orientation
/// process's end was waited for 300 s, to the timeout, held by the spelling process; in the tests
/// a worker's end waited for the SMTP server of another suite. Here the child's end is
/// `waitpid`'s, and the pipes are close-on-exec from the start (`pipe2`), so no child holds another's.
package final class ChildProcess: Sendable {
    /// How a child ended.
    package enum Termination: Equatable, Sendable {
        case exited(status: Int32)
        case signalled(Int32)
    }

    /// The child's process id.
    package let processIdentifier: pid_t
    private let ended = Mutex<Termination?>(nil)
    private static let counts = Mutex<[String: Int]>([:])

    /// Starts `executable` with `arguments` (its `argv` after `argv[0]`, which is `executable`,
    /// unless `argumentZero` is given).
    /// - Parameters:
    ///   - environment: the child's environment (nil: this process's).
    ///   - standardInput, standardOutput, standardError: descriptors the child gets as 0, 1 and
    ///     2 (nil: /dev/null).
    ///   - newSession: in a session of its own (`setsid`) instead of a process group of its own.
    ///   - counting: counted as this helper (`__reader`, …) of `executable` (`count(_:executable:)`).
    /// - Throws: `POSIXError` when it cannot be started (`ENOENT`, `EACCES`, …). `ETXTBSY` (a
    ///   script just written, still open for writing in a child another thread is forking) is
    ///   retried for up to 0.2 s: that descriptor goes away at the other child's `exec`.
    package convenience init(
        executable: String, arguments: [String], argumentZero: String? = nil, environment: [String: String]? = nil,
        standardInput: FileHandle? = nil, standardOutput: FileHandle? = nil, standardError: FileHandle? = nil,
        newSession: Bool = false, counting helper: String? = nil
    ) throws {
        try self.init(
            executable: executable, arguments: arguments, argumentZero: argumentZero, environment: environment,
            descriptors: (
                standardInput?.fileDescriptor ?? -1, standardOutput?.fileDescriptor ?? -1,
                standardError?.fileDescriptor ?? -1
            ), newSession: newSession, counting: helper)
    }

    /// `init(executable:…)` with the child's standard input, output and error as raw descriptors
    /// (-1: /dev/null).
    package init(
        executable: String, arguments: [String], argumentZero: String? = nil, environment: [String: String]? = nil,
        descriptors: (input: Int32, output: Int32, error: Int32), newSession: Bool = false,
        counting helper: String? = nil
    ) throws {
        let argv = ([argumentZero ?? executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for a in argv { free(a) }
            for e in envp ?? [] { free(e) }
        }
        var pid: Int32 = 0
        func spawn() -> Int32 {
            envp.withOptionalPointer { envPointer in
                argv.withUnsafeBufferPointer { argPointer in
                    clibc_spawn(
                        executable, argPointer.baseAddress, envPointer ?? UnsafePointer(environ), descriptors.input,
                        descriptors.output, descriptors.error, newSession ? 1 : 0, &pid)
                }
            }
        }
        var rc = spawn()
        for _ in 0..<20 where rc == ETXTBSY {
            usleep(10_000)
            rc = spawn()
        }
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
        processIdentifier = pid
        if let helper { ChildProcess.counts.withLock { $0["\(helper) \(executable)", default: 0] += 1 } }
    }

    /// Forks this process, which must have one thread (`clibc_fork_child`: its standard output and
    /// error from the descriptors given, every other descriptor closed, every signal's action the
    /// default, a process group of its own); the child runs `child`, which never returns.
    /// - Throws: `POSIXError` when the process cannot be forked (`EAGAIN`, `ENOMEM`).
    package init(forking child: () -> Never, standardOutput: FileHandle, standardError: FileHandle) throws {
        let pid = clibc_fork_child(standardOutput.fileDescriptor, standardError.fileDescriptor)
        if pid < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if pid == 0 { child() }
        processIdentifier = pid
    }

    /// Waits for the child to end (`waitpid`), from one thread; later calls return at once.
    @discardableResult
    package func waitForExit() -> Termination {
        if let done = ended.withLock({ $0 }) { return done }
        let termination = reap(waiting: true) ?? .exited(status: -1)
        ended.withLock { $0 = termination }
        return termination
    }

    /// How the child ended, if it has (`waitpid` with `WNOHANG`); nil while it runs.
    package func exitedYet() -> Termination? {
        ended.withLock { done in
            if done == nil { done = reap(waiting: false) }
            return done
        }
    }

    /// `clibc_wait_child` for this child: how it ended; nil when it still runs (`waiting` false)
    /// or cannot be waited for.
    private func reap(waiting: Bool) -> Termination? {
        var signal: Int32 = 0
        var status: Int32 = 0
        guard clibc_wait_child(processIdentifier, waiting ? 0 : 1, &signal, &status) == 0 else { return nil }
        return signal != 0 ? .signalled(signal) : .exited(status: status)
    }

    /// Whether the child has not been seen to end (`waitForExit()`, `exitedYet()`).
    package var isRunning: Bool { ended.withLock { $0 == nil } }

    /// Sends SIGKILL unless the child was seen to end (its id may then be another process's);
    /// with `group`, to its whole process group first (what a `sh -c '…'` started too).
    package func kill(group: Bool = false) {
        ended.withLock { done in
            guard done == nil else { return }
            if group { _ = Glibc.kill(-processIdentifier, SIGKILL) }
            _ = Glibc.kill(processIdentifier, SIGKILL)
        }
    }

    /// How a child named `name` ended, in words: "the NAME exited with status 1", "the NAME was
    /// ended by signal 9".
    package static func describe(_ termination: Termination, of name: String) -> String {
        switch termination {
        case .exited(let status): "the \(name) exited with status \(status)"
        case .signalled(let signal): "the \(name) was ended by signal \(signal)"
        }
    }

    /// A pipe whose two ends are closed on `exec` (`pipe2`, `O_CLOEXEC`): an end given to a
    /// child as its standard input or output is duplicated onto 0 or 1 there (`dup2`), and stays
    /// open; the caller closes its copy of the child's end once the child is started.
    /// - Throws: `POSIXError` when the system has no descriptor left.
    package static func pipe() throws -> (reading: FileHandle, writing: FileHandle) {
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
    package static func count(_ helper: String, executable: String) -> Int {
        counts.withLock { $0["\(helper) \(executable)"] ?? 0 }
    }
}

extension Optional where Wrapped == [UnsafeMutablePointer<CChar>?] {
    /// The array's elements' address (nil for nil), for the call.
    fileprivate func withOptionalPointer<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
        guard let self else { return body(nil) }
        return self.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
