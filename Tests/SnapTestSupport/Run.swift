import Foundation

/// The outcome of running a program.
public struct RunResult: Sendable {
    /// The exit status (128 + signal when killed).
    public let status: Int32
    /// Standard output, decoded as UTF-8.
    public let stdout: String
    /// Standard error, decoded as UTF-8.
    public let stderr: String

    /// A result from its parts.
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `executable` with `arguments` (no shell), feeding `stdin`, and waits.
public func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    stdin: String? = nil, currentDirectory: URL? = nil
) throws -> RunResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    var env = environment ?? ProcessInfo.processInfo.environment
    env["LANG"] = env["LANG"] ?? "C.UTF-8"
    p.environment = env
    if let currentDirectory { p.currentDirectoryURL = currentDirectory }
    let out = Pipe()
    let err = Pipe()
    let inp = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = inp
    try p.run()
    if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? inp.fileHandleForWriting.close()
    // stderr on another thread so that neither pipe can fill up and block the child.
    final class Box: @unchecked Sendable { var data = Data() }
    let e = Box()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        e.data = err.fileHandleForReading.readDataToEndOfFile()
        done.signal()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    p.waitUntilExit()
    return RunResult(
        status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
        stderr: String(decoding: e.data, as: UTF8.self))
}

/// Runs the built `lovesnap` with `arguments`.
public func lovesnap(_ arguments: [String], environment: [String: String]? = nil) throws -> RunResult {
    try run(TestPaths.lovesnap, arguments, environment: environment)
}
