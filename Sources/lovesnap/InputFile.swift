import Foundation
import SnapEditor
#if canImport(Glibc)
import Glibc
#endif

/// The file named on the command line, kept usable even when its name is not UTF-8.
///
/// Linux file names are bytes. A name that is not valid UTF-8 (a Latin-1 `po\xE8me.png` from an
/// old camera or zip) cannot round-trip through a Swift `String`, so such a file is opened by its
/// bytes here and handed on as `/proc/PID/fd/N`, which the worker can open too.
struct InputFile {
    /// What to open (the name itself, or `/proc/PID/fd/N`).
    let path: String
    /// The name as typed, with undecodable bytes shown as `\xNN`.
    let shownPath: String
    /// The last component of `shownPath`, control characters escaped, for titles and messages.
    var name: String { DisplayName.of(shownPath) }
    /// The default Write Out path: the photo's with `.txt` (undecodable bytes read as Latin-1).
    let textPath: String
    /// An open descriptor kept for `/proc/PID/fd/N`; closed when the process ends.
    private let descriptor: Int32?

    /// Resolves `argument`; `rawBytes` are its original bytes when they were not valid UTF-8.
    /// - Throws: `InputFile.OpenError` when a non-UTF-8 name cannot be opened (errno's reason).
    init(argument: String, rawBytes: [UInt8]?) throws {
        guard let raw = rawBytes else {
            path = argument
            shownPath = argument
            textPath = EditorConfiguration.textFileName(forPhoto: argument)
            descriptor = nil
            return
        }
        shownPath = raw.map { $0 < 0x80 ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
        textPath = EditorConfiguration.textFileName(forPhoto: String(raw.map { Character(UnicodeScalar($0)) }))
        let fd = (raw + [0]).withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { open($0, O_RDONLY) }
        }
        if fd < 0 {
            throw OpenError(description: "\(shownPath): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        path = "/proc/\(getpid())/fd/\(fd)"
    }

    struct OpenError: Error, CustomStringConvertible { let description: String }

    /// `message` with the internal path replaced by the name the user typed.
    func userFacing(_ message: String) -> String {
        path == shownPath ? message : message.replacingOccurrences(of: path, with: shownPath)
    }

    /// The program's arguments as strings, plus the original bytes of those that are not UTF-8
    /// (keyed by their lossy decoding, which is what the parser sees).
    static func commandLine() -> (arguments: [String], undecodable: [String: [UInt8]]) {
        var arguments: [String] = []
        var undecodable: [String: [UInt8]] = [:]
        for i in 1..<Int(CommandLine.argc) {
            guard let p = CommandLine.unsafeArgv[i] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
            let text = String(decoding: bytes, as: UTF8.self)
            if Array(text.utf8) != bytes { undecodable[text] = bytes }
            arguments.append(text)
        }
        return (arguments, undecodable)
    }
}
