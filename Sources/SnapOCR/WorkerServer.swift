import CInterposed
import CLibc
import Foundation
import SnapImaging
import SnapProcess
import SnapSpelling

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's half of the protocol (`WorkerProtocol`): reads the request, runs the
/// `Recognizer` on the photo and writes progress, then the result or the failure, as
/// `WorkerMessage` JSON lines. `WorkerClient` is the parent's half.
public struct WorkerServer: Sendable {
    private let output: FileHandle

    /// A server that writes its messages to `output` (the worker's standard output).
    public init(output: FileHandle) { self.output = output }

    /// Serves one request: OCR of the photo at `path` with the settings in `request`.
    ///
    /// Writes `.progress` messages while the run goes on, then exactly one `.result` or
    /// `.failure`. A write that fails (the parent went away) is ignored: the run just ends.
    /// - Parameters:
    ///   - request: the `WorkerRequest` as JSON (the worker's argument).
    ///   - path: the photo.
    ///   - resultSent: called once the result was written (or the parent was found gone), before
    ///     the run's engines and dictionaries are freed (`Recognizer.recognize`'s hand-off): the
    ///     worker process ends there (`_exit`), and its parent, which waits for it to end, goes
    ///     on about 0.12 s sooner. Not called when a failure is sent.
    /// - Returns: the result, or the failure that was sent (`.badRequest` for a request that is
    ///   not one of this version).
    public func serve(request: String, path: String, resultSent: () -> Void = {}) -> Result<
        RecognitionResult, WorkerFailure
    > {
        guard let request = try? WorkerRequest.decode(json: request) else {
            send(.failure(.badRequest))
            return .failure(.badRequest)
        }
        var unsendable: WorkerFailure?
        do {
            // The second engine is a reader process of this executable (`ReaderProcess`).
            let recognizer = Recognizer(options: request.options, readerExecutable: "/proc/self/exe")
            let result = try recognizer.recognize(
                path: path, photoName: request.displayName,
                progress: { percent, stage in
                    send(.progress(percent: percent, stage: stage))
                    return true
                },
                handOff: { result in
                    do {
                        try write(.result(result))
                    } catch let error as EncodingError {
                        // A value JSON cannot hold (a non-finite number): say so rather than fall silent.
                        unsendable = WorkerFailure.unexpected(photo: request.displayName, reason: "\(error)")
                        return
                    } catch {
                        // The parent is gone: the run is over all the same.
                    }
                    resultSent()
                })
            if let unsendable {
                send(.failure(unsendable))
                return .failure(unsendable)
            }
            return .success(result)
        } catch {
            let failure = WorkerFailure(error, photo: request.displayName)
            send(.failure(failure))
            return .failure(failure)
        }
    }

    private func send(_ message: WorkerMessage) { try? write(message) }

    private func write(_ message: WorkerMessage) throws {
        try output.write(contentsOf: message.encodedLine())
    }

    // MARK: The worker process

    /// Address-space cap for the worker, in bytes: 4 GiB is far above what a 100-megapixel photo needs.
    public static let addressSpaceLimit = 4 << 30
    /// CPU-time cap for the worker, in seconds: 15 minutes, three times the default `--timeout`.
    public static let cpuSecondsLimit = 900

    /// Blocks of this many bytes and more are mapped from the kernel one by one (glibc's
    /// `M_MMAP_THRESHOLD`, 32 MiB: where glibc's own threshold stops rising). glibc starts at
    /// 128 KiB and raises the threshold only as such blocks are freed, so a page's first images
    /// of a few MiB (a line's, a block's, a scaled copy) are each mapped, faulted in page by page
    /// (the kernel zeroing every 4 KiB) and unmapped, which also stops the other core of a
    /// process with two threads (a TLB shootdown).
    public static let mallocMapThreshold = 32 << 20
    /// Free memory at the top of a heap is given back to the kernel above this many bytes
    /// (`M_TRIM_THRESHOLD`, 256 MiB; glibc's default follows the threshold above, at twice it).
    public static let mallocTrimThreshold = 256 << 20

    /// Has glibc's malloc keep freed image memory for the next images (`mallocMapThreshold`,
    /// `mallocTrimThreshold`, set by `mallopt(3)`), as the worker does.
    /// - Returns: whether glibc took both settings.
    public static func keepFreedImageMemory() -> Bool {
        clibc_set_malloc_thresholds(mallocMapThreshold, mallocTrimThreshold) == 1
    }

    /// The body of a worker forked from its parent (`WorkerClient(forksWhenAlone:)`, which set up
    /// its descriptors and signals): what `lovesnap __worker REQUEST -- PHOTO` does, in a process
    /// that never ran `exec`. Its helpers (the reader, …) are started with the environment a
    /// started worker gets (OMP_THREAD_LIMIT=1 unless set, SWIFT_BACKTRACE=enable=no), and its
    /// engines' parallel regions run on one thread, as the started worker's (libgomp read its
    /// settings when the parent loaded it: `serial_openmp_assume_one_thread`). Ends the process:
    /// status 0 once the result is sent, 1 after a failure (sent as a message).
    /// - Parameter parent: the parent's process id, taken before the fork (`prepareProcess`).
    /// How long a worker whose result is sent waits for its helpers to be reaped
    /// (`endHelpers()`), seconds: SIGKILLed, they end at once.
    static let helpersReapedWithin = 0.5

    /// Ends the worker's helpers (the reader, the spelling process) and reaps them, at most
    /// `helpersReapedWithin` seconds (`ChildProcess.endHelpers`): for a worker whose result is
    /// sent, just before it ends, so that their CPU time counts as lovesnap's.
    public static func endHelpers() {
        ChildProcess.endHelpers(waitingAtMost: helpersReapedWithin)
    }

    static func serveForked(request: String, path: String, parent: pid_t) -> Never {
        if getenv("OMP_THREAD_LIMIT") == nil {
            serial_openmp_assume_one_thread()
            setenv("OMP_THREAD_LIMIT", "1", 1)
        }
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        guard prepareProcess(parent: parent, keepsFreedImageMemory: true, tunesLibraries: true) else { _exit(1) }
        let served = WorkerServer(output: .standardOutput).serve(request: request, path: path) {
            endHelpers()
            _exit(0)
        }
        if case .failure = served { _exit(1) }
        _exit(0)
    }

    /// Sets up the calling process as a worker, or as one of its helpers (the reader, the
    /// spelling and orientation processes): it dies with its parent (`PR_SET_PDEATHSIG`,
    /// SIGKILL), its address space and CPU time are capped (`addressSpaceLimit`,
    /// `cpuSecondsLimit`; the kernel ends a worker that burnt that much CPU even if nobody watches
    /// it any more), SIGPIPE is ignored so that writing to a parent that went away fails
    /// instead of killing it, and, in the worker, glibc's malloc keeps freed image memory for the
    /// next images (`keepFreedImageMemory`).
    ///
    /// A helper keeps glibc's own settings: one thread works there, so a block mapped and
    /// unmapped stops no other core, and memory it frees is given back. With the worker's
    /// settings, the reader's peak memory was the run's largest on most photos, above the CLI's
    /// (a page on a textured table: 107–118 MiB, 89–95 MiB with glibc's; the CLI 85 MiB).
    /// `speed-ab` over the 156 pages: peak memory ×0.944 (median), wall time ×0.996, the same text.
    /// - Parameters:
    ///   - parent: the parent's process id when known from before the worker started (a forked
    ///     worker's); nil: the parent is the one the process has on entry.
    ///   - keepsFreedImageMemory: true in the worker, false in a helper.
    ///   - tunesLibraries: true in a process that reads with Tesseract (the worker, the reader,
    ///     the orientation process): the library workarounds are turned on (`LibraryTuning`).
    /// - Returns: false when the parent was already gone (the process should end at once).
    public static func prepareProcess(parent: pid_t? = nil, keepsFreedImageMemory: Bool, tunesLibraries: Bool) -> Bool {
        // Die with the parent: an editor killed with SIGKILL must not leave an orphan engine running.
        let parent = parent ?? getppid()
        _ = clibc_set_parent_death_signal(SIGKILL)
        if getppid() != parent { return false }
        var memory = rlimit(rlim_cur: rlim_t(addressSpaceLimit), rlim_max: rlim_t(addressSpaceLimit))
        _ = setrlimit(Int32(RLIMIT_AS.rawValue), &memory)
        // A backstop under the parent's watchdog (--timeout).
        var cpu = rlimit(rlim_cur: rlim_t(cpuSecondsLimit), rlim_max: rlim_t(cpuSecondsLimit + 10))
        _ = setrlimit(Int32(RLIMIT_CPU.rawValue), &cpu)
        signal(SIGPIPE, SIG_IGN)
        if keepsFreedImageMemory { _ = keepFreedImageMemory() }
        if tunesLibraries { LibraryTuning.activate() }
        return true
    }
}
