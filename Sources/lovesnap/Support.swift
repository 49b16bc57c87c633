import Foundation
import SnapShare
#if canImport(Glibc)
import Glibc
#endif

/// Messages on stderr, prefixed with the program name.
enum Console {
    static func error(_ message: String) { write("lovesnap: \(message)\n") }
    static func note(_ message: String) { write("lovesnap: \(message)\n") }
    /// Rewrites one status line on a terminal; nil clears it.
    static func progress(_ line: String?) { write("\r\u{1B}[K" + (line ?? "")) }
    /// Never traps: a full or closed stderr loses the message, not the program.
    private static func write(_ s: String) { try? FileHandle.standardError.write(contentsOf: Data(s.utf8)) }
}

/// The process's standard descriptors and signal mask, made safe at start-up.
enum StandardStreams {
    /// Opens /dev/null on any of fds 0–2 that is closed, so that a pipe or file opened later can
    /// never land on them (a worker's result pipe on fd 1 would mix with the text).
    /// - Returns: whether fd 1 was open when lovesnap started.
    static func secure() -> Bool {
        var stdoutIsOpen = true
        // A parent may hand down blocked signals (Foundation's Process inherits its thread's mask):
        // unblock them, or SIGTERM/SIGINT would stay pending and never stop lovesnap.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 {
            if fd == 1 { stdoutIsOpen = false }
            let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd { dup2(null, fd); close(null) }
        }
        return stdoutIsOpen
    }
}

/// Where `lovesnap ocr` puts the text.
enum OutputFile {
    struct WriteError: Error, CustomStringConvertible { let description: String }

    /// Writes `bytes` to stdout (nil), to a device or pipe such as /dev/null or /dev/stdout
    /// (written directly), or to a file (atomically: temporary file, fsync, rename).
    /// - Throws: `WriteError` or `ShareError`, naming the file and the OS's reason.
    static func write(_ bytes: [UInt8], to path: String?) throws {
        guard let path else {
            do { try FileHandle.standardOutput.write(contentsOf: Data(bytes)) } catch {
                throw WriteError(description: "standard output: \(reason(error))")
            }
            return
        }
        var st = stat()
        if stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFREG && (st.st_mode & S_IFMT) != S_IFDIR {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw WriteError(description: "\(path): \(String(cString: strerror(errno)))")
            }
            defer { try? handle.close() }
            do { try handle.write(contentsOf: Data(bytes)) } catch {
                throw WriteError(description: "\(path): \(reason(error))")
            }
            return
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// Whether `a` and `b` name the same existing file (same device and inode).
    static func isSameFile(_ a: String, as b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileWriteOutOfSpaceError { return String(cString: strerror(ENOSPC)) }
        return ns.localizedDescription
    }
}

/// This program's own path, for starting the worker.
enum Executable {
    static var path: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// SIGINT/SIGTERM turned into a callback on a dispatch queue.
enum Interrupts {
    final class Token { let sources: [DispatchSourceSignal]; init(_ s: [DispatchSourceSignal]) { sources = s }
        func cancel() { sources.forEach { $0.cancel() } } }

    static func onSIGINT(_ action: @escaping () -> Void) -> Token {
        let sources = [SIGINT, SIGTERM].map { sig -> DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler(handler: action)
            s.resume()
            return s
        }
        return Token(sources)
    }
}
