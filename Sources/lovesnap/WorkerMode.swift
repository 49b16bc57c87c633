import CLibc
import Foundation
import SnapImaging
import SnapOCR
#if canImport(Glibc)
import Glibc
#endif

/// `lovesnap __worker REQUEST_JSON -- PHOTO`: the child process that runs the engine and speaks
/// `WorkerMessage` JSON lines on stdout. Never started by hand; see `WorkerClient`.
enum WorkerMode {
    /// Address-space cap for the worker: 4 GiB is far above what a 100-megapixel photo needs.
    static let addressSpaceLimit: rlim_t = 4 << 30
    /// CPU-time cap for the worker: 15 minutes, three times the default --timeout.
    static let cpuSecondsLimit: rlim_t = 900

    static func run(_ args: Arguments) -> Int32 {
        // Die with the parent: an editor killed with SIGKILL must not leave an orphan engine running.
        let parent = getppid()
        _ = clibc_set_parent_death_signal(SIGKILL)
        if getppid() != parent { return ExitCode.interrupted.rawValue }
        var limit = rlimit(rlim_cur: addressSpaceLimit, rlim_max: addressSpaceLimit)
        _ = setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
        // A backstop under the parent's watchdog (--timeout): the kernel ends a worker that has
        // burnt this much CPU even if nobody is watching it any more.
        var cpu = rlimit(rlim_cur: cpuSecondsLimit, rlim_max: cpuSecondsLimit + 10)
        _ = setrlimit(Int32(RLIMIT_CPU.rawValue), &cpu)
        let out = FileHandle.standardOutput
        // A parent that went away closes the pipe: the write fails (SIGPIPE is ignored below) and
        // the worker simply ends; it never traps.
        signal(SIGPIPE, SIG_IGN)
        func send(_ m: WorkerMessage) { try? out.write(contentsOf: m.encodedLine()) }

        guard let json = args.workerRequestJSON, let path = args.input,
              let request = try? JSONDecoder().decode(WorkerRequest.self, from: Data(json.utf8)),
              request.v == WorkerMessage.currentVersion else {
            send(.error(.internal, "worker: bad request"))
            return ExitCode.usage.rawValue
        }
        let name = DisplayName.of(path)
        do {
            let result = try Recognizer(options: request.options).recognize(path: path) { percent, stage in
                send(.progress(percent, stage: stage.rawValue))
                return true
            }
            send(.result(result))
            return ExitCode.ok.rawValue
        } catch let e as ImagingError {
            send(.error(.input, e.description))
            return ExitCode.badInput.rawValue
        } catch let e as OCRError {
            switch e {
            case .cancelled: send(.error(.cancelled, e.description))
            case .recognitionFailed: send(.error(.internal, "\(name): \(e.description)"))
            default: send(.error(.engine, e.description))
            }
            return ExitCode.engineSetup.rawValue
        } catch {
            send(.error(.internal, "\(name): \(error)"))
            return ExitCode.failure.rawValue
        }
    }
}

/// How a path is shown to the user: its last component, control characters made visible.
enum DisplayName {
    static func of(_ path: String) -> String {
        let base = (path as NSString).lastPathComponent
        return String(base.unicodeScalars.map { s -> String in
            s.properties.generalCategory == .control ? "\\u{\(String(s.value, radix: 16))}" : String(s)
        }.joined())
    }
}
