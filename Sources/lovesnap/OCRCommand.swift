import Foundation
import SnapExport
import SnapOCR
import SnapShare
import SnapText

#if canImport(Glibc)
    import Glibc
#endif

/// `lovesnap ocr PHOTO…`: OCR in a supervised worker per photo, then the text (or Tesseract's
/// documents, `--format`) to stdout or `-o`, after the `--replace` edits.
enum OCRCommand {
    /// - Throws: `CommandFailure` for every way the run can fail.
    static func run(
        _ args: Arguments, inputs: [InputFile], output: String?, stdoutIsOpen: Bool
    ) throws(CommandFailure) {
        // A pattern that does not compile is a bad command line, found before any OCR.
        for r in args.replacements where r.regularExpression {
            do { _ = try TextBuffer(text: "").matches(of: r.find, regularExpression: true) } catch {
                throw .usage(Arguments.UsageError(description: "--replace-regex: \(error)"))
            }
        }
        let formats = args.formats ?? [.txt]
        let targets = OCRCommand.targets(formats, output: output, explicit: args.formats != nil)
        for case let target? in targets.map(\.path) {
            for input in inputs where PathName.isSameFile(target, input.path) {
                throw .outputIsThePhoto(output: target)
            }
        }
        if targets.contains(where: { $0.path == nil }) && !stdoutIsOpen { throw .standardOutputClosed }

        var options = args.options
        options.exports = formats.filter { $0 != .txt }
        var results: [RecognitionResult] = []
        for input in inputs {
            let result = try recognize(input, options: options, args: args)
            for note in result.notes where !note.isDiagnostic { Console.note("\(input.name): \(note)") }
            if args.verbose {
                for note in result.notes where note.isDiagnostic { Console.note("\(input.name): \(note)") }
            }
            if result.text.isEmpty { Console.note("no text found in \(input.name)") }
            results.append(result)
        }
        if args.json, let result = results.first {
            let bytes = OCRReport(
                result, photo: inputs[0].name, rules: Proofreading(uncertainBelow: args.uncertainBelow)
            ).json()
            do { try OutputFile.write(bytes, to: output == "-" ? nil : output) } catch { throw .outputFailed(error) }
            return
        }
        let edited = HeadlessEdits.apply(args.replacements, to: results)
        for (i, count) in edited.counts.enumerated() where count == 0 {
            let r = args.replacements[i]
            Console.note("\(r.regularExpression ? "--replace-regex" : "--replace") \(r.find): no match")
        }
        for (format, path) in targets {
            do {
                let bytes = try ExportDocument.bytes(format, pages: edited.pages, text: edited.text)
                try OutputFile.write(bytes, to: path)
            } catch {
                throw .outputFailed(error)
            }
        }
    }

    /// Where each format goes: stdout (nil), or a file. Without `--format`, `-o FILE` is the
    /// file as given; with it, FILE.EXT unless FILE already ends in .EXT (one format) or is a
    /// device or pipe.
    static func targets(_ formats: [ExportFormat], output: String?, explicit: Bool) -> [(
        format: ExportFormat, path: String?
    )] {
        guard let output, output != "-" else { return formats.map { ($0, nil) } }
        if formats.count == 1, let format = formats.first {
            var info = stat()
            let isDevice =
                stat(output, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR
            if !explicit || isDevice || output.lowercased().hasSuffix("." + format.fileExtension) {
                return [(format, output)]
            }
        }
        return formats.map { ($0, output + "." + $0.fileExtension) }
    }

    /// One photo read in a worker, with progress on a terminal.
    static func recognize(_ input: InputFile, options: RecognitionOptions, args: Arguments) throws(CommandFailure)
        -> RecognitionResult
    {
        let name = input.name
        let client: WorkerClient
        do {
            client = try WorkerClient(
                executable: Executable.path, workerArguments: ["__worker"], options: options,
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
        case .success(let result): return result
        }
    }
}
