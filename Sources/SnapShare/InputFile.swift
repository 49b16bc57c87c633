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
    /// The name as typed, with undecodable bytes shown as `\xNN`.
    public let shownPath: String
    /// The name as typed with undecodable bytes read as Latin-1: a valid name to derive new file
    /// names from (the default `.txt` beside the photo).
    public let pathForDerivedNames: String
    /// The descriptor behind `/proc/PID/fd/N`, kept open until the process ends.
    private let descriptor: Int32?

    /// The last component of `shownPath`, control characters escaped, for titles and messages.
    public var name: String { PathName.displayName(of: shownPath) }

    /// Resolves a command-line argument.
    /// - Parameters:
    ///   - argument: the argument as decoded (undecodable bytes replaced).
    ///   - rawBytes: its original bytes when they were not valid UTF-8 (see `CommandLineArguments`).
    /// - Throws: `FileError.unreadable(path:errno:)`, with `shownPath`, when a non-UTF-8 name cannot be opened.
    public init(argument: String, rawBytes: [UInt8]?) throws(FileError) {
        guard let raw = rawBytes else {
            path = argument
            shownPath = argument
            pathForDerivedNames = argument
            descriptor = nil
            return
        }
        shownPath = raw.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + hexByte($0) }.joined()
        pathForDerivedNames = String(raw.map { Character(UnicodeScalar($0)) })
        let fd = open(raw.map { CChar(bitPattern: $0) } + [0], O_RDONLY)
        if fd < 0 { throw .unreadable(path: shownPath, errno: errno) }
        descriptor = fd
        path = "/proc/\(getpid())/fd/\(fd)"
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

/// Two upper-case hex digits.
private func hexByte(_ b: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
}
