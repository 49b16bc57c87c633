import CLibc
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of the worker's kind (the worker, the reader, the spelling process, the
/// orientation process), started with `posix_spawn` (`clibc_spawn`): its standard input, output
/// and error from the descriptors given, every other descriptor closed (`closefrom(3)`), no
/// signal blocked, every signal's action the default, in a process group of its own.
///
/// Not Foundation's `Process`: on Linux, swift-corelibs-foundation's `Process.run`
/// (`Sources/Foundation/Process.swift`) closes in the child only the descriptors open when it
/// builds the spawn's file actions, and learns that a child ended from a socket whose other end
/// the child holds. A child started by another thread meanwhile inherited that socket, and
/// `waitUntilExit` then waited for that other child too: once in 145 photos the orientation
/// process's end was waited for 300 s, to the timeout, held by the spelling process; in the tests
/// a worker's end waited for the SMTP server of another suite. Here the child's end is
/// `waitpid`'s, and the pipes are close-on-exec (`pipe()`), so no child holds another's.
final class ChildProcess: Sendable {
    /// How a child ended.
    enum Termination: Equatable, Sendable {
        case exited(status: Int32)
        case signalled(Int32)
    }

    /// The child's process id.
    let processIdentifier: pid_t
    private let ended = Mutex<Termination?>(nil)
    private static let counts = Mutex<[String: Int]>([:])

    /// Starts `executable` with `arguments` (its `argv` after `argv[0]`, which is `executable`).
    /// - Parameters:
    ///   - environment: the child's environment (nil: this process's).
    ///   - standardInput, standardOutput, standardError: descriptors the child gets as 0, 1 and
    ///     2 (nil: /dev/null).
    ///   - counting: counted as this helper (`__reader`, …) of `executable` (`count(_:executable:)`).
    /// - Throws: `POSIXError` when it cannot be started (`ENOENT`, `EACCES`, …).
    init(
        executable: String, arguments: [String], environment: [String: String]? = nil,
        standardInput: FileHandle? = nil, standardOutput: FileHandle? = nil, standardError: FileHandle? = nil,
        counting helper: String? = nil
    ) throws {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for a in argv { free(a) }
            for e in envp ?? [] { free(e) }
        }
        var pid: Int32 = 0
        let rc = envp.withOptionalPointer { envPointer in
            argv.withUnsafeBufferPointer { argPointer in
                clibc_spawn(
                    executable, argPointer.baseAddress, envPointer ?? UnsafePointer(environ),
                    standardInput?.fileDescriptor ?? -1, standardOutput?.fileDescriptor ?? -1,
                    standardError?.fileDescriptor ?? -1, &pid)
            }
        }
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
        processIdentifier = pid
        if let helper { ChildProcess.counts.withLock { $0["\(helper) \(executable)", default: 0] += 1 } }
    }

    /// Forks this process, which must have one thread (`clibc_fork_child`: its standard output and
    /// error from the descriptors given, every other descriptor closed, every signal's action the
    /// default, a process group of its own); the child runs `child`, which never returns.
    /// - Throws: `POSIXError` when the process cannot be forked (`EAGAIN`, `ENOMEM`).
    init(forking child: () -> Never, standardOutput: FileHandle, standardError: FileHandle) throws {
        let pid = clibc_fork_child(standardOutput.fileDescriptor, standardError.fileDescriptor)
        if pid < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if pid == 0 { child() }
        processIdentifier = pid
    }

    /// Waits for the child to end (`waitpid`), from one thread; later calls return at once.
    @discardableResult
    func waitForExit() -> Termination {
        if let done = ended.withLock({ $0 }) { return done }
        var signal: Int32 = 0
        var status: Int32 = 0
        let termination: Termination =
            clibc_wait_child(processIdentifier, &signal, &status) == 0
            ? (signal != 0 ? .signalled(signal) : .exited(status: status)) : .exited(status: -1)
        ended.withLock { $0 = termination }
        return termination
    }

    /// Whether the child has not been seen to end (`waitForExit()`).
    var isRunning: Bool { ended.withLock { $0 == nil } }

    /// Sends SIGKILL unless the child was seen to end (its id may then be another process's).
    func kill() {
        ended.withLock { done in if done == nil { _ = Glibc.kill(processIdentifier, SIGKILL) } }
    }

    /// How a child named `name` ended, in words: "the NAME exited with status 1", "the NAME was
    /// ended by signal 9".
    static func describe(_ termination: Termination, of name: String) -> String {
        switch termination {
        case .exited(let status): "the \(name) exited with status \(status)"
        case .signalled(let signal): "the \(name) was ended by signal \(signal)"
        }
    }

    /// A pipe whose two ends are closed on `exec` (`pipe2`, `O_CLOEXEC`): an end given to a
    /// child as its standard input or output is duplicated onto 0 or 1 there (`dup2`), and stays
    /// open; the caller closes its copy of the child's end once the child is started.
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

    /// Starts a helper of the worker (this executable, `executable helper arguments…`) that
    /// talks in lines, one pipe each way, its standard error to /dev/null: the worker's parent
    /// reads the worker's standard error to its end, which would come only once every helper is
    /// gone. Started on a thread of its own after `ready`, which then reads its lines until it
    /// ends: the thread lives as long as the helper, as the helper's `PR_SET_PDEATHSIG` needs
    /// (it follows the thread that started the process), and the start is not taken from the
    /// caller. What the caller writes meanwhile waits in the pipe. Ignores SIGPIPE in this
    /// process: a line written to a helper that has ended must fail (EPIPE), not end this
    /// process, as the worker ignores it (`WorkerServer.prepareProcess`).
    /// - Parameters:
    ///   - name: the helper in words ("reader"), for `ended`.
    ///   - started: called with the helper's process id once it runs; true asks for it to be
    ///     killed at once (the caller cancelled meanwhile).
    ///   - line: each line of its standard output, without the newline, in order.
    ///   - ended: why it ended (`describe(_:of:)`, or "the NAME could not be started: …"), once,
    ///     after its last line.
    /// - Returns: the helper's standard input.
    /// - Throws: `POSIXError` when no pipe can be made.
    static func startHelper(
        _ helper: String, arguments: [String], executable: String, name: String,
        after ready: @escaping @Sendable () -> Void = {},
        started: @escaping @Sendable (pid_t) -> Bool,
        line: @escaping @Sendable (Data) -> Void,
        ended: @escaping @Sendable (String) -> Void
    ) throws -> FileHandle {
        signal(SIGPIPE, SIG_IGN)
        let out = try pipe()
        let input = try pipe()
        let (lines, childsEnds) = (out.reading, (out.writing, input.reading))
        Thread.detachNewThread {
            ready()
            let child: ChildProcess
            do {
                defer {
                    try? childsEnds.0.close()
                    try? childsEnds.1.close()
                }
                child = try ChildProcess(
                    executable: executable, arguments: [helper] + arguments, standardInput: childsEnds.1,
                    standardOutput: childsEnds.0, counting: helper)
            } catch {
                ended("the \(name) could not be started: \(error)")
                return
            }
            if started(child.processIdentifier) { child.kill() }
            WorkerClient.readLines(lines) { line($0) }
            ended(describe(child.waitForExit(), of: name))
        }
        return input.writing
    }
}

/// A helper of the worker (the reader, the spelling process, the orientation process) failed,
/// could not be started, or ended without the answer waited for; `reason` says which, in words.
struct HelperFailure: Error, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

extension Optional where Wrapped == [UnsafeMutablePointer<CChar>?] {
    /// The array's elements' address (nil for nil), for the call.
    fileprivate func withOptionalPointer<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
        guard let self else { return body(nil) }
        return self.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
