import Foundation
import SnapImaging
import SnapProcess

#if canImport(Glibc)
    import Glibc
#endif

/// A process of this executable started for one question about one image, and ended with its
/// answer: orientation detection (`OrientationProcess`) and text detection (`DetectorProcess`).
/// The image is handed over in a memory file on its standard input (`ReaderProcess.memoryFile`),
/// the request is its one argument after the role (JSON), and its standard output is read to its
/// end; its standard error goes to /dev/null (the worker's parent reads the worker's to its end).
enum OneShotHelper {
    /// Runs `executable ROLE REQUEST_JSON` with `image` on its standard input and waits for it.
    /// - Parameter timeout: seconds the answer may take before the process is killed (a stopped or
    ///   hung process must not hold the worker to its own timeout).
    /// - Returns: what it wrote, and how it ended.
    /// - Throws: `HelperFailure` when it could not be started or gave no answer in time.
    static func run<Request: Encodable>(
        _ role: String, request: Request, image: Image, executable: String, timeout: Double
    ) throws -> (Data, ChildProcess.Termination) {
        // "orientation" for `__orientation`, in names and messages.
        let name = role.drop { $0 == "_" }
        let fd = try ReaderProcess.memoryFile(holding: image, named: "lovesnap-\(name)")
        let input = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // The image is read from the start of the file: its offset is shared with the process.
        lseek(fd, 0, SEEK_SET)
        let out = try ChildProcess.pipe()
        let child: ChildProcess
        do {
            defer { try? out.writing.close() }
            child = try ChildProcess(
                executable: executable,
                arguments: [role, String(decoding: try JSONEncoder().encode(request), as: UTF8.self)],
                standardInput: input, standardOutput: out.writing, counting: role)
        } catch {
            throw HelperFailure(reason: "the \(name) process could not be started: \(error)")
        }
        // Its output to its end, or to the deadline.
        var data = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var descriptor = pollfd(fd: out.reading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                child.kill()
                child.waitForExit()
                throw HelperFailure(reason: "the \(name) process gave no answer within \(timeout) s")
            }
            guard poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1) > 0 else { continue }
            let chunk = out.reading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        return (data, child.waitForExit())
    }
}
