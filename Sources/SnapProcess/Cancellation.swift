import CLibc
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request to stop a running command, made from another thread (the editor's ^C, its exit).
///
/// It is a pipe: ``cancel()`` writes one byte, which wakes a `poll(2)` waiting on
/// ``descriptor`` at once (``ChildProcess`` polls it beside the child's pipes). Idempotent and
/// safe from any thread; the pipe is closed when the object goes away.
public final class Cancellation: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let cancelled = Atomic<Bool>(false)

    /// A request not made yet.
    public init() {
        // Close-on-exec from the start (pipe2, as `ChildProcess.pipe`): a child spawned by another
        // thread meanwhile does not inherit an end.
        var fds: [Int32] = [-1, -1]
        if clibc_close_on_exec_pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        } else {
            fds = [-1, -1]
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Asks the command to stop (it is killed, and its run throws ``ShareError/cancelled(command:)``).
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        if writeEnd >= 0 {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    /// The descriptor that becomes readable once cancelled (-1 if no pipe could be made; then
    /// only ``isCancelled`` tells, checked at least every 100 ms).
    var descriptor: Int32 { readEnd }
}
