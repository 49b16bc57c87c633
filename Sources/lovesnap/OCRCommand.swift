import Foundation
import SnapOCR
import SnapShare
#if canImport(Glibc)
import Glibc
#endif

/// `lovesnap ocr PHOTO`: OCR in a supervised worker, text to stdout or `-o FILE`.
enum OCRCommand {
    static func run(_ args: Arguments, input: InputFile, stdoutIsOpen: Bool) -> Int32 {
        let path = input.path
        let name = input.name
        if let output = args.output, OutputFile.isSameFile(output, as: path) {
            Console.error("-o \(output) is the photo itself; lovesnap will not overwrite it")
            return ExitCode.usage.rawValue
        }
        if args.output == nil && !stdoutIsOpen {
            Console.error("standard output is closed; give -o FILE")
            return ExitCode.outputFailed.rawValue
        }
        let client: WorkerClient
        do {
            client = try WorkerClient(executable: Executable.path, workerArguments: ["__worker"],
                                      request: WorkerRequest(options: args.options), path: path,
                                      displayName: name, timeout: args.timeout)
        } catch {
            Console.error("cannot start the OCR worker: \(error)")
            return ExitCode.failure.rawValue
        }
        let interrupt = Interrupts.onSIGINT { client.cancel() }
        defer { interrupt.cancel() }

        let showProgress = isatty(2) == 1 && !args.verbose
        let started = Date()
        var lastStage = ""
        var last = -1
        var outcome: WorkerEvent?
        while outcome == nil {
            for event in client.poll() {
                switch event {
                case .progress(let p, let stage):
                    if args.verbose && stage != lastStage {
                        Console.note(String(format: "%6.3f s  %@", locale: Locale(identifier: "en_US_POSIX"),
                                            Date().timeIntervalSince(started), stage))
                        lastStage = stage
                    }
                    if showProgress && p != last { Console.progress("Reading \(name)… \(p)%"); last = p }
                case .finished, .failed: outcome = event
                }
            }
            if outcome == nil { usleep(20_000) }
        }
        if showProgress { Console.progress(nil) }

        switch outcome! {
        case .progress: return ExitCode.failure.rawValue
        case .failed(let kind, let message):
            Console.error(input.userFacing(message))
            switch kind {
            case .input: return ExitCode.badInput.rawValue
            case .engine: return ExitCode.engineSetup.rawValue
            case .cancelled: return ExitCode.interrupted.rawValue
            case .internal: return ExitCode.engineFailed.rawValue
            }
        case .finished(let result):
            for note in result.notes where !note.isDiagnostic { Console.note("\(name): \(note)") }
            if args.verbose { for note in result.notes where note.isDiagnostic { Console.note("\(name): \(note)") } }
            if result.text.isEmpty { Console.note("no text found in \(name)") }
            do {
                try OutputFile.write(Array(result.text.utf8), to: args.output)
            } catch {
                Console.error("\(error)")
                return ExitCode.outputFailed.rawValue
            }
            return ExitCode.ok.rawValue
        }
    }
}
