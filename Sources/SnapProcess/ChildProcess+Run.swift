import CLibc
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One program run to its end (the mail command, `^T`'s command): its standard input fed and its
/// standard output and error collected, all in one `poll(2)` loop on the calling thread.
///
/// The program runs in a session of its own (`ChildProcess(newSession: true)`): it has no
/// controlling terminal, so it cannot draw over the editor or read keys from it through
/// `/dev/tty`, and a timeout or a cancel kills its whole process group (a `sh -c '…'` and what it
/// started).
extension ChildProcess {
    package struct Result {
        /// Exit status, or 128 + N when the program was killed by signal N.
        package var status: Int32
        /// Standard error (at most the limit), decoded as UTF-8, trailing blanks removed.
        package var stderr: String
        /// Standard output, at most `stdoutLimit` octets (empty when it was not kept).
        package var stdout: [UInt8] = []
        /// Whether the program wrote more than `stdoutLimit` octets to standard output.
        package var stdoutTruncated = false
        /// How many octets of the input the program accepted before closing its input.
        package var bytesWritten: Int
    }

    /// Why a run ended without an exit status of the program's own.
    package enum Failure: Error, Equatable {
        /// `posix_spawn` (or a pipe) failed; `reason` is "PATH: strerror".
        case notRunnable(reason: String)
        /// The program passed its `timeout` and was killed (SIGKILL, its process group).
        case timedOut
        /// ``Cancellation/cancel()`` was called and the program was killed (its process group).
        case cancelled
    }

    /// Runs `path` with `arguments` (its whole `argv`, `argv[0]` first) and waits for its end.
    /// - Parameters:
    ///   - stdoutLimit: octets of standard output to keep (0: read and drop it). A program that
    ///     writes more is killed (SIGKILL, its process group): the result then has
    ///     `stdoutTruncated` and status 137 (a command that never ends, `yes`, ran for ever).
    ///   - timeout: seconds the program may take in all; then its process group is killed
    ///     (SIGKILL) and ``Failure/timedOut`` is thrown.
    ///   - cancellation: when cancelled, the process group is killed at once (SIGKILL) and
    ///     ``Failure/cancelled`` is thrown.
    /// - Throws: ``Failure``.
    package static func run(
        path: String, arguments: [String], input: [UInt8], stderrLimit: Int, stdoutLimit: Int = 0,
        timeout: Double = .infinity, cancellation: Cancellation? = nil
    ) throws(Failure) -> Result {
        // A timeout past UInt64's nanoseconds (about 584 years; `--mail-timeout 1e12`) is none.
        let start = DispatchTime.now().uptimeNanoseconds
        let nanoseconds = max(0, timeout) * 1e9
        let deadline =
            nanoseconds < Double(UInt64.max - start) ? start + UInt64(nanoseconds) : UInt64.max
        func millisecondsLeft() -> Int32 {
            let now = DispatchTime.now().uptimeNanoseconds
            return now >= deadline ? 0 : Int32(min(UInt64(Int32.max), (deadline - now) / 1_000_000 + 1))
        }
        func notRunnable(_ code: Int32) -> Failure {
            .notRunnable(reason: "\(path): \(String(cString: strerror(code)))")
        }
        if cancellation?.isCancelled == true { throw .cancelled }
        // [read, write] pairs; every descriptor is close-on-exec, dup2 clears it for 0/1/2.
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        var opened: [Int32] = []
        defer { for fd in opened where fd >= 0 { close(fd) } }
        for index in 0..<3 {
            var fds: [Int32] = [-1, -1]
            // pipe2(O_CLOEXEC): no child spawned meanwhile by another thread inherits an end
            // (pipe() then fcntl left a window in which one could, and its copy of a write end
            // would hold the pipe open).
            if clibc_close_on_exec_pipe(&fds) != 0 { throw notRunnable(errno) }
            opened += fds
            switch index {
            case 0: stdinPipe = fds
            case 1: stdoutPipe = fds
            default: stderrPipe = fds
            }
        }
        func closeOnce(_ fd: inout Int32) {
            if fd >= 0, let k = opened.firstIndex(of: fd) {
                close(fd)
                opened[k] = -1
            }
            fd = -1
        }

        // The child's ends go to 0, 1 and 2 (dup2 clears their close-on-exec there); the child
        // starts with no blocked signals and every action the default, in a session of its own.
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: path, arguments: Array(arguments.dropFirst()), argumentZero: arguments.first ?? path,
                descriptors: (stdinPipe[0], stdoutPipe[1], stderrPipe[1]), newSession: true)
        } catch let error as POSIXError {
            throw notRunnable(error.code.rawValue)
        } catch {
            throw notRunnable(EIO)
        }

        /// Kills the program and everything in its process group, and reaps it.
        func killAndReap() {
            child.kill(group: true)
            child.waitForExit()
        }

        var inFD = stdinPipe[1]
        var outFD = stdoutPipe[0]
        var errFD = stderrPipe[0]
        var childIn = stdinPipe[0]
        var childOut = stdoutPipe[1]
        var childErr = stderrPipe[1]
        closeOnce(&childIn)
        closeOnce(&childOut)
        closeOnce(&childErr)
        for fd in [inFD, outFD, errFD] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

        // A write to a pipe the child closed raises SIGPIPE in this thread; block it here and
        // take the EPIPE instead, then discard the pending signal before unblocking.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var savedMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &savedMask)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &zero)
            }
            pthread_sigmask(SIG_SETMASK, &savedMask, nil)
        }

        var written = 0
        var errBytes: [UInt8] = []
        var outBytes: [UInt8] = []
        var outTruncated = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        var exitStatus: Int32? = nil
        if input.isEmpty { closeOnce(&inFD) }
        let cancelFD = cancellation?.descriptor ?? -1

        /// Reads what is available now (until EAGAIN); closes `fd` at end of file or on error.
        func drain(_ fd: inout Int32, into kept: inout [UInt8], limit: Int, truncated: inout Bool) {
            while fd >= 0 {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n > 0 {
                    let room = max(0, limit - kept.count)
                    kept += buffer[0..<min(n, room)]
                    if n > room { truncated = true }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    closeOnce(&fd)
                } else if errno == EAGAIN {
                    return
                }
            }
        }
        var errTruncated = false
        func drainOut() { drain(&outFD, into: &outBytes, limit: stdoutLimit, truncated: &outTruncated) }
        func drainErr() { drain(&errFD, into: &errBytes, limit: stderrLimit, truncated: &errTruncated) }

        while inFD >= 0 || ((outFD >= 0 || errFD >= 0) && exitStatus == nil) {
            if cancellation?.isCancelled == true {
                killAndReap()
                throw .cancelled
            }
            var polls: [pollfd] = []
            if inFD >= 0 { polls.append(pollfd(fd: inFD, events: Int16(POLLOUT), revents: 0)) }
            if outFD >= 0 { polls.append(pollfd(fd: outFD, events: Int16(POLLIN), revents: 0)) }
            if errFD >= 0 { polls.append(pollfd(fd: errFD, events: Int16(POLLIN), revents: 0)) }
            if cancelFD >= 0 { polls.append(pollfd(fd: cancelFD, events: Int16(POLLIN), revents: 0)) }
            // Once input is done, wake up now and then to notice an exited child whose
            // background descendants still hold its output pipes open.
            let left = millisecondsLeft()
            if left == 0 {
                killAndReap()
                throw .timedOut
            }
            let ready = poll(&polls, nfds_t(polls.count), min(left, inFD >= 0 && cancelFD >= 0 ? left : 100))
            if ready < 0 && errno != EINTR { break }
            for p in polls where p.revents != 0 {
                if p.fd == inFD {
                    let n = input.withUnsafeBytes { write(inFD, $0.baseAddress! + written, input.count - written) }
                    if n > 0 {
                        written += n
                        if written == input.count { closeOnce(&inFD) }
                    } else if n < 0 && errno != EINTR && errno != EAGAIN {
                        closeOnce(&inFD)  // EPIPE: the command stopped reading
                    }
                } else if p.fd == outFD {
                    drainOut()
                    if outTruncated && stdoutLimit > 0 {
                        killAndReap()
                        exitStatus = 128 + SIGKILL
                        closeOnce(&inFD)
                        closeOnce(&outFD)
                    }
                } else if p.fd == errFD {
                    drainErr()
                }
            }
            if inFD < 0, exitStatus == nil, let ended = child.exitedYet() { exitStatus = code(of: ended) }
        }
        closeOnce(&inFD)
        if exitStatus != nil {
            drainOut()
            drainErr()
        }
        closeOnce(&outFD)
        closeOnce(&errFD)

        while exitStatus == nil {
            if let ended = child.exitedYet() {
                exitStatus = code(of: ended)
                break
            }
            if cancellation?.isCancelled == true {
                killAndReap()
                throw .cancelled
            }
            if millisecondsLeft() == 0 {
                killAndReap()
                throw .timedOut
            }
            usleep(10_000)
        }

        var text = String(decoding: errBytes, as: UTF8.self)
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" || last == " " || last == "\t" {
            text.unicodeScalars.removeLast()
        }
        return Result(
            status: exitStatus ?? 0, stderr: text, stdout: outBytes, stdoutTruncated: outTruncated,
            bytesWritten: written)
    }

    /// An exit status as a shell gives it: the program's own, or 128 + N after signal N.
    private static func code(of termination: Termination) -> Int32 {
        switch termination {
        case .exited(let status): status
        case .signalled(let signal): 128 + signal
        }
    }
}
