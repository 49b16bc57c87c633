import Foundation
import SnapProcess
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
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
            HelperProcesses.started(child)
            if started(child.processIdentifier) { child.kill() }
            WorkerClient.readLines(lines) { line($0) }
            let termination = child.waitForExit()
            HelperProcesses.reaped(child)
            ended(describe(termination, of: name))
        }
        return input.writing
    }

    /// Ends the helpers still running (`startHelper`: the reader, the spelling process) with
    /// SIGKILL and waits, at most `seconds`, until their threads have reaped them: called by a
    /// worker whose result is sent, just before it ends, so that their CPU time is counted as its
    /// children's, and through it as lovesnap's (`/usr/bin/time`, `getrusage(RUSAGE_CHILDREN)`).
    /// Left to `PR_SET_PDEATHSIG`, they were reaped by init and their time counted nowhere. Their
    /// work is done by then: the worker sent its answer.
    /// - Returns: whether every helper was reaped in time.
    @discardableResult
    static func endHelpers(waitingAtMost seconds: Double) -> Bool {
        for child in HelperProcesses.running.withLock({ Array($0.values) }) { child.kill() }
        return HelperProcesses.group.wait(timeout: .now() + seconds) == .success
    }
}

/// The helpers `startHelper` started that their threads have not reaped yet.
private enum HelperProcesses {
    static let running = Mutex<[pid_t: ChildProcess]>([:])
    /// Entered when a helper starts, left once its thread has reaped it.
    static let group = DispatchGroup()

    static func started(_ child: ChildProcess) {
        group.enter()
        running.withLock { $0[child.processIdentifier] = child }
    }

    static func reaped(_ child: ChildProcess) {
        running.withLock { $0[child.processIdentifier] = nil }
        group.leave()
    }
}

/// A helper of the worker (the reader, the spelling process, the orientation process) failed,
/// could not be started, or ended without the answer waited for; `reason` says which, in words.
struct HelperFailure: Error, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
