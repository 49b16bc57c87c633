import CLibc
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one program with `posix_spawn`, feeding its standard input and collecting its
/// standard output and error, all in one `poll(2)` loop on the calling thread.
///
/// The program runs in a session of its own (`setsid`): it has no controlling terminal, so it
/// cannot draw over the editor or read keys from it through `/dev/tty`, and a timeout or a
/// cancel kills its whole process group (a `sh -c '…'` and what it started).
enum ChildProcess {
    struct Result {
        /// Exit status, or 128 + N when the program was killed by signal N.
        var status: Int32
        /// Standard error (at most the limit), decoded as UTF-8, trailing blanks removed.
        var stderr: String
        /// Standard output, at most `stdoutLimit` octets (empty when it was not kept).
        var stdout: [UInt8] = []
        /// Whether the program wrote more than `stdoutLimit` octets to standard output.
        var stdoutTruncated = false
        /// How many octets of the input the program accepted before closing its input.
        var bytesWritten: Int
    }

    /// Why a run ended without an exit status of the program's own.
    enum Failure: Error, Equatable {
        /// `posix_spawn` (or a pipe) failed; `reason` is "PATH: strerror".
        case notRunnable(reason: String)
        /// The program passed its `timeout` and was killed (SIGKILL, its process group).
        case timedOut
        /// ``Cancellation/cancel()`` was called and the program was killed (its process group).
        case cancelled
    }

    /// `POSIX_SPAWN_SETSID`, the platform's (``CLibc``: glibc declares it behind `_GNU_SOURCE`).
    private static let spawnSetsid = Int32(clibc_posix_spawn_setsid)

    /// - Parameters:
    ///   - stdoutLimit: octets of standard output to keep (0: read and drop it). A program that
    ///     writes more is killed (SIGKILL, its process group): the result then has
    ///     `stdoutTruncated` and status 137 (a command that never ends, `yes`, ran for ever).
    ///   - timeout: seconds the program may take in all; then its process group is killed
    ///     (SIGKILL) and ``Failure/timedOut`` is thrown.
    ///   - cancellation: when cancelled, the process group is killed at once (SIGKILL) and
    ///     ``Failure/cancelled`` is thrown.
    /// - Throws: ``Failure``.
    static func run(
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
            .notRunnable(reason: "\(path): \(ShareError.reason(code))")
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

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)

        // The child starts with no blocked signals and SIGPIPE at its default, whatever we have,
        // in a new session (no controlling terminal; its pid is its process group).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGHUP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | spawnSetsid))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }

        var pid: pid_t = 0
        var spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        // ETXTBSY: a script just written may still be open for writing in a child that another
        // thread is forking right now; that fd goes away at its exec, so wait briefly and retry.
        var attempt = 0
        while spawned == ETXTBSY && attempt < 20 {
            attempt += 1
            usleep(10_000)
            spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        if spawned != 0 { throw notRunnable(spawned) }

        /// Kills the program and everything in its process group, and reaps it.
        func killAndReap() {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
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
                        exitStatus = SIGKILL
                        closeOnce(&inFD)
                        closeOnce(&outFD)
                    }
                } else if p.fd == errFD {
                    drainErr()
                }
            }
            if inFD < 0, exitStatus == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
            }
        }
        closeOnce(&inFD)
        if exitStatus != nil {
            drainOut()
            drainErr()
        }
        closeOnce(&outFD)
        closeOnce(&errFD)

        var status: Int32 = exitStatus ?? 0
        while exitStatus == nil {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { break }
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
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)

        var text = String(decoding: errBytes, as: UTF8.self)
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" || last == " " || last == "\t" {
            text.unicodeScalars.removeLast()
        }
        return Result(
            status: code, stderr: text, stdout: outBytes, stdoutTruncated: outTruncated, bytesWritten: written)
    }
}
