import Foundation
import SnapImaging
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
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
        return stdoutIsOpen
    }
}

/// This program's own path, for starting the worker: the file it was started from while that is
/// still the same file (device and inode of `/proc/self/exe`), else `/proc/self/exe` itself, which
/// runs the very program that is running even after its file was replaced or deleted (a rebuild or
/// an upgrade while the editor is open: the new file's worker could speak another protocol).
enum Executable {
    static var path: String {
        let running = "/proc/self/exe"
        guard let named = try? FileManager.default.destinationOfSymbolicLink(atPath: running) else {
            return CommandLine.arguments[0]
        }
        var a = stat()
        var b = stat()
        guard stat(running, &a) == 0 else { return named }
        if stat(named, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino { return named }
        return running
    }
}

/// Names of images: lovesnap writes text and documents, never a file named as an image (the
/// editor's Write Out, `lovesnap ocr -o`): such a name is a slip that would put text in place of a
/// photo.
enum ImageName {
    /// File name extensions of images, lower case.
    static let extensions = [
        "png", "jpg", "jpeg", "tif", "tiff", "gif", "bmp", "webp", "pnm", "ppm", "pgm", "pbm", "jp2",
    ]

    /// Whether `path` ends in an image's extension (any case).
    static func names(_ path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Whether the regular file at `path` is text, not a photo: not named as an image, not an
    /// image Leptonica knows (`findFileFormat`: an ASCII PBM is text and an image), and its first
    /// 4 KiB are UTF-8 without NUL (the last character may be cut at 4096 bytes). What a nano
    /// user's `lovesnap notes.txt` means to edit.
    static func isTextFile(_ path: String) -> Bool {
        var info = stat()
        guard !names(path), stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, !ImageLoader.isImageFile(path)
        else { return false }
        return startsAsUTF8Text(path)
    }

    /// Whether the file at `path` begins as text: its first 4 KiB are UTF-8 without NUL (the
    /// last character may be cut at 4096 bytes); false when it is empty or cannot be read.
    static func startsAsUTF8Text(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: 4096), !head.isEmpty, !head.contains(0) else { return false }
        return (0...min(3, head.count - 1)).contains { cut in
            String(validating: head.dropLast(cut), as: UTF8.self) != nil
        }
    }
}

/// SIGINT/SIGTERM/SIGHUP (the terminal closed) turned into a callback on a dispatch queue, for
/// `lovesnap ocr`: its worker and its mail command are stopped, not orphaned. A signal ignored when lovesnap
/// started stays ignored, as a shell's background job (`lovesnap ocr … &` in a script) has SIGINT
/// ignored: the job is not interrupted by the terminal's ^C, nor by a `kill -INT` (POSIX, Shell
/// Command Language 2.11: "signals that were ignored on entry … cannot be trapped or reset").
enum Interrupts {
    final class Token {
        let sources: [DispatchSourceSignal]
        init(_ s: [DispatchSourceSignal]) { sources = s }
        func cancel() {
            for source in sources { source.cancel() }
        }
    }

    static func onSIGINT(_ action: @escaping () -> Void) -> Token {
        let sources = [SIGINT, SIGTERM, SIGHUP].filter { !isIgnored($0) }.map { sig -> DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler(handler: action)
            s.resume()
            return s
        }
        return Token(sources)
    }

    /// Whether `signal`'s action is to be ignored (`sigaction(2)`, asked without changing it).
    static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
