import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Messages on stderr, prefixed with the program name.
enum Console {
    static func error(_ message: String) { write("lovesnap: \(message)\n") }
    static func note(_ message: String) { write("lovesnap: \(message)\n") }
    /// Rewrites one status line on a terminal; nil clears it.
    static func progress(_ line: String?) { write("\r\u{1B}[K" + (line ?? "")) }
    private static func write(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }
}

/// This program's own path, for starting the worker.
enum Executable {
    static var path: String {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 { return String(cString: buf) }
        return CommandLine.arguments[0]
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
