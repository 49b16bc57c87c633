#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file named on the command line, kept usable even when its name is not UTF-8.
///
/// Linux file names are bytes. A name that is not valid UTF-8 (a Latin-1 `po\xE8me.png` from an
/// old camera or zip) cannot round-trip through a Swift `String`, so such a file is opened by its
/// bytes here and handed on as `/proc/PID/fd/N`, which a child process can open too.
public struct InputFile: Sendable {
    /// What to open: the name itself, or `/proc/PID/fd/N`.
    public let path: String
    /// The name as typed, by its bytes (not always UTF-8): names derived from it (the default
    /// `.txt` beside the photo) are made of its bytes (`FileSystemName.mappingAsLatin1`).
    public let fileName: FileSystemName
    /// The name as typed, as names are shown (`FileSystemName.shown`: undecodable bytes and control
    /// characters as `\xNN`, a backslash as `\\`).
    public let shownPath: String
    /// The descriptor behind `/proc/PID/fd/N`, kept open until the process ends.
    private let descriptor: Int32?

    /// The last component of `shownPath`, control characters escaped, for titles and messages.
    public var name: String { PathName.displayName(of: shownPath) }

    /// Resolves a command-line argument.
    /// - Parameters:
    ///   - argument: the argument as decoded (undecodable bytes replaced).
    ///   - rawBytes: its original bytes when they were not valid UTF-8 (see `CommandLineArguments`).
    ///   - opening: whether a non-UTF-8 name is opened here (a photo, read by the worker through
    ///     `/proc/PID/fd/N`); a text file is read and written by `fileName`, and may not exist yet.
    /// - Throws: `FileError.unreadable(path:errno:)`, with `shownPath`, when a non-UTF-8 name cannot be opened.
    public init(argument: String, rawBytes: [UInt8]?, opening: Bool = true) throws(FileError) {
        guard let raw = rawBytes else {
            path = argument
            fileName = FileSystemName(argument)
            shownPath = fileName.shown
            descriptor = nil
            return
        }
        fileName = FileSystemName(bytes: raw)
        shownPath = fileName.shown
        guard opening else {
            descriptor = nil
            path = shownPath
            return
        }
        let fd = open(fileName.cString, O_RDONLY)
        if fd < 0 { throw .unreadable(path: shownPath, errno: errno) }
        descriptor = fd
        path = "/proc/\(getpid())/fd/\(fd)"
    }

    /// The file of that name, by its bytes (one typed in the editor, `FileSystemName(shown:)`),
    /// as `init(argument:rawBytes:)` makes one from the command line.
    /// - Throws: `FileError.unreadable(path:errno:)`, with `shownPath`, when a non-UTF-8 name cannot be opened.
    public init(name: FileSystemName) throws(FileError) {
        try self.init(argument: String(decoding: name.bytes, as: UTF8.self), rawBytes: name.isUTF8 ? nil : name.bytes)
    }

    /// An input read through a descriptor this process keeps open (`/proc/PID/fd/N`).
    private init(descriptor fd: Int32, shownPath: String, fileName: FileSystemName) {
        self.shownPath = shownPath
        self.fileName = fileName
        descriptor = fd
        path = "/proc/\(getpid())/fd/\(fd)"
    }

    /// The most bytes read from a pipe (`readingPipes(limit:)`): the decoded-size limit's 512 MiB.
    public static let pipeLimit = 512 << 20

    /// The input as the OCR worker can read it: a regular file as it is; `-` (standard input),
    /// a FIFO, a socket or a pipe such as `/dev/stdin` or a process substitution
    /// (`/dev/fd/63`) read here, once, up to `limit` bytes, into an unlinked temporary file
    /// (mode 0600) that this process keeps open (the worker opens `/proc/PID/fd/N`), so that a
    /// pipe never blocks the worker and is never read twice. Standard input that is a regular
    /// file is handed on as it is.
    /// - Throws: `FileError.notRegular` for a device (a terminal, `/dev/zero`),
    ///   `.pipeTooLarge` past `limit`, `.unreadable` when it cannot be read.
    public func readingPipes(limit: Int = InputFile.pipeLimit) throws(FileError) -> InputFile {
        let isStandardInput = shownPath == "-"
        let shown = isStandardInput ? "standard input" : shownPath
        let name = isStandardInput ? FileSystemName(shown) : fileName
        var info = stat()
        let statted = isStandardInput ? fstat(STDIN_FILENO, &info) : stat(path, &info)
        guard statted == 0 else {
            if isStandardInput { throw .unreadable(path: shown, errno: errno) }
            return self  // missing or unreadable: the loader says so, with the reason
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if isStandardInput { return InputFile(descriptor: dup(STDIN_FILENO), shownPath: shown, fileName: name) }
            // `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N` name this process's descriptors: the
            // worker would open its own.
            if path.hasPrefix("/dev/") || path.hasPrefix("/proc/self/") {
                let fd = open(path, O_RDONLY | O_NOCTTY)
                if fd < 0 { throw .unreadable(path: shown, errno: errno) }
                return InputFile(descriptor: fd, shownPath: shown, fileName: name)
            }
            return self
        case S_IFDIR: return self
        case S_IFIFO, S_IFSOCK: break
        default: throw .notRegular(path: shown)
        }
        let source = isStandardInput ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        if source < 0 { throw .unreadable(path: shown, errno: errno) }
        defer { if !isStandardInput { close(source) } }
        var template = Array(
            ((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/lovesnap-XXXXXX").utf8CString)
        let spool = mkstemp(&template)
        if spool < 0 { throw .unreadable(path: shown, errno: errno) }
        unlink(template)
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(spool)
                throw .unreadable(path: shown, errno: code)
            }
            if n == 0 { break }
            total += n
            if total > limit {
                close(spool)
                throw .pipeTooLarge(path: shown, limit: limit)
            }
            var offset = 0
            while offset < n {
                let w = buffer[offset..<n].withUnsafeBytes { write(spool, $0.baseAddress, $0.count) }
                if w < 0 {
                    if errno == EINTR { continue }
                    let code = errno
                    close(spool)
                    throw .unreadable(path: shown, errno: code)
                }
                offset += w
            }
        }
        return InputFile(descriptor: spool, shownPath: shown, fileName: name)
    }

    /// `message` with the internal path (`/proc/PID/fd/N`) replaced by the name the user typed.
    public func userFacing(_ message: String) -> String {
        path == shownPath ? message : message.replacing(path, with: shownPath)
    }
}

/// The program's arguments, decoded so that names that are not UTF-8 survive.
public enum CommandLineArguments {
    /// The arguments as strings (invalid UTF-8 replaced by U+FFFD), and the original bytes of
    /// those that were not valid UTF-8, keyed by that decoding (which is what a parser sees).
    public static func decode(_ raw: [[UInt8]]) -> (arguments: [String], undecodable: [String: [UInt8]]) {
        var arguments: [String] = []
        var undecodable: [String: [UInt8]] = [:]
        for bytes in raw {
            let text = String(decoding: bytes, as: UTF8.self)
            if Array(text.utf8) != bytes { undecodable[text] = bytes }
            arguments.append(text)
        }
        return (arguments, undecodable)
    }

    /// This process's arguments without the program name, decoded by `decode(_:)`.
    public static func current() -> (arguments: [String], undecodable: [String: [UInt8]]) {
        let raw = (1..<Int(CommandLine.argc)).compactMap { i -> [UInt8]? in
            guard let p = CommandLine.unsafeArgv[i] else { return nil }
            return Array(
                UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
        }
        return decode(raw)
    }
}
