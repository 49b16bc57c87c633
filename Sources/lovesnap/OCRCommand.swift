import Foundation
import SnapOCR
import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

/// `lovesnap ocr PHOTO`: OCR in a supervised worker, text to stdout or `-o FILE`.
enum OCRCommand {
    /// - Throws: `CommandFailure` for every way the run can fail.
    static func run(_ args: Arguments, input: InputFile, output: String?, stdoutIsOpen: Bool) throws(CommandFailure) {
        let name = input.name
        if let output, PathName.isSameFile(output, input.path) { throw .outputIsThePhoto(output: output) }
        if output == nil && !stdoutIsOpen { throw .standardOutputClosed }
        let client: WorkerClient
        do {
            client = try WorkerClient(
                executable: Executable.path, workerArguments: ["__worker"], options: args.options,
                path: input.path, displayName: name, timeout: args.timeout)
        } catch {
            throw .workerNotStarted(error)
        }
        let interrupt = Interrupts.onSIGINT { client.cancel() }
        defer { interrupt.cancel() }

        let showProgress = isatty(2) == 1 && !args.verbose
        let started = Date()
        var lastStage: RecognitionStage?
        var last = -1
        // Progress until the run's last event.
        func outcome() -> Result<RecognitionResult, WorkerFailure> {
            while true {
                for event in client.poll() {
                    switch event {
                    case .progress(let p, let stage):
                        if args.verbose && stage != lastStage {
                            Console.note(
                                String(
                                    format: "%6.3f s  %@", locale: Locale(identifier: "en_US_POSIX"),
                                    Date().timeIntervalSince(started), stage.rawValue))
                            lastStage = stage
                        }
                        if showProgress && p != last {
                            Console.progress("Reading \(name)… \(p)%")
                            last = p
                        }
                    case .finished(let result): return .success(result)
                    case .failed(let failure): return .failure(failure)
                    }
                }
                usleep(20_000)
            }
        }
        let ending = outcome()
        if showProgress { Console.progress(nil) }

        switch ending {
        case .failure(let failure): throw .recognition(failure, input: input)
        case .success(let result):
            for note in result.notes where !note.isDiagnostic { Console.note("\(name): \(note)") }
            if args.verbose { for note in result.notes where note.isDiagnostic { Console.note("\(name): \(note)") } }
            if result.text.isEmpty { Console.note("no text found in \(name)") }
            let bytes =
                args.json
                ? OCRReport(result, photo: name, rules: Proofreading(uncertainBelow: args.uncertainBelow)).json()
                : Array(result.text.utf8)
            do { try OutputFile.write(bytes, to: output) } catch { throw .outputFailed(error) }
        }
    }
}
