import Foundation
import SnapExport
import SnapImaging
import SnapOCR
import SnapProcess
import SnapShare
import SnapText
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `lovesnap ocr PHOTO…`: OCR in a supervised worker per photo, then the text (or Tesseract's
/// documents, `--format`) to stdout or `-o`, after the `--replace` edits.
enum OCRCommand {
    /// - Throws: `CommandFailure` for every way the run can fail.
    static func run(
        _ args: Arguments, inputs: [InputFile], output: FileSystemName?, stdoutIsOpen: Bool
    ) throws(CommandFailure) {
        // A slip in LOVESNAP_NO_TUNING turns nothing off: say so rather than measure the wrong thing.
        if let warning = LibraryTuning.unknownNamesWarning { Console.note(warning) }
        // A pattern that does not compile is a bad command line, found before any OCR.
        for r in args.replacements where r.regularExpression {
            do { _ = try TextBuffer(text: "").matches(of: r.find, regularExpression: true) } catch {
                throw .usage(Arguments.UsageError(description: "--replace-regex: \(error)"))
            }
        }
        // --mail: the addresses, sender and subject are checked before any OCR is done.
        var mailing: Mailing?
        if let to = args.mailTo {
            let settings = try Mailing(args, environment: ProcessInfo.processInfo.environment)
            do { _ = try settings.message("", to: to, subject: args.subject ?? "") } catch { throw .mailFailed(error) }
            // And the mail command: one found nowhere is said before the photos are read, not after.
            do { try settings.command.checkRunnable() } catch { throw .mailFailed(error) }
            mailing = settings
        }
        let formats = args.formats ?? [.txt]
        // With --mail the text goes by mail, and to -o only when it is given.
        let targets =
            mailing != nil && output == nil
            ? [] : OCRCommand.targets(formats, output: output, explicit: args.formats != nil)
        for case let target? in targets.map(\.path) + (args.json && output != standardOutput ? [output] : []) {
            for input in inputs where PathName.isSameFile(target, FileSystemName(input.path)) {
                throw .outputIsThePhoto(output: target.shown)
            }
            // Another photo, or a new name of an image: text in place of a photo is a slip.
            if ImageName.names(target.shown) && !OutputFile.isDevice(target) {
                throw .outputIsAnImage(output: target.shown)
            }
        }
        if targets.contains(where: { $0.path == nil }) && !stdoutIsOpen { throw .standardOutputClosed }
        // A PDF is not poured onto a terminal (gzip refuses so too): -o or a redirection takes it.
        if targets.contains(where: { $0.path == nil && $0.format == .pdf }) && isatty(STDOUT_FILENO) == 1 {
            throw .binaryToTerminal(format: "PDF")
        }
        // A name that cannot be written (a folder, a missing or read-only folder) is refused before
        // any OCR is done, not after it; the names are checked again when the documents are made.
        for path in targets.map(\.path) + (args.json ? [output == standardOutput ? nil : output] : []) {
            do { try OutputFile.check(name: path) } catch { throw .outputFailed(error) }
        }

        // A photo that cannot be opened is named before any is read, not after the ones before it
        // (the worker would say the same of it, later); after the command line's own faults.
        for input in inputs where access(input.path, R_OK) != 0 {
            throw .unusableInput(FileError.unreadable(path: input.path, errno: errno), input: input)
        }
        var options = args.options
        options.exports = formats.filter { $0 != .txt }
        // Only the JSON report carries the words' spelling marks.
        options.marksSpelling = args.json
        // The first photo's worker is forked from this process before any thread of it starts
        // (the signal handler's below is its first): about 15 ms sooner than one started anew
        // (`WorkerClient(forksWhenAlone:)`). One that cannot be forked is started in `recognize`.
        var first: WorkerClient? = inputs.first.flatMap { input in
            try? worker(for: input, options: options, args: args, forksWhenAlone: true)
        }
        // One handler for the whole run (SIGINT, SIGTERM, SIGHUP): it stops the OCR worker running then,
        // any later one at its start, and the mail command.
        let stop = Interruption()
        let interrupt = Interrupts.onSIGINT { stop.interrupt() }
        defer { interrupt.cancel() }
        var results: [RecognitionResult] = []
        for input in inputs {
            let started = first
            first = nil
            let result = try recognize(input, options: options, args: args, stop: stop, started: started)
            for note in result.notes where !note.isDiagnostic { Console.note("\(input.name): \(note)") }
            if args.verbose {
                for note in result.notes where note.isDiagnostic { Console.note("\(input.name): \(note)") }
            }
            results.append(result)
        }
        // When nothing is mailed for want of text, the failure names the photos instead.
        let nothingFound = results.allSatisfy { $0.text.allSatisfy(\.isWhitespace) }
        if mailing == nil || !nothingFound {
            for (input, result) in zip(inputs, results) where result.text.isEmpty {
                Console.note("no text found in \(input.name)")
            }
        }
        if args.json {
            // One document per photo, one per line (JSON Lines), in the order given; every photo
            // is read before any is written.
            let rules = Proofreading(uncertainBelow: args.uncertainBelow)
            let bytes = zip(inputs, results).flatMap { input, result in
                OCRReport(result, photo: input.name, rules: rules).json()
            }
            do {
                try OutputFile.write(bytes, toName: output == standardOutput ? nil : output, backup: args.backup)
            } catch {
                throw .outputFailed(error)
            }
            return
        }
        let edited = HeadlessEdits.apply(args.replacements, to: results)
        for (i, count) in edited.counts.enumerated() where count == 0 {
            let r = args.replacements[i]
            Console.note("\(r.regularExpression ? "--replace-regex" : "--replace") \(r.find): no match")
        }
        if mailing != nil && edited.text.allSatisfy(\.isWhitespace) {
            throw .nothingToMail(inputs: inputs, emptiedByReplace: !nothingFound)
        }
        // Every document is made, and every name checked, before any is written: a format that
        // cannot be made or a name refused leaves none of them written.
        var documents: [(bytes: [UInt8], path: FileSystemName?)] = []
        for (format, path) in targets {
            do {
                documents.append((try ExportDocument.bytes(format, pages: edited.pages, text: edited.text), path))
                try OutputFile.check(name: path)
            } catch {
                throw .outputFailed(error)
            }
        }
        for (bytes, path) in documents {
            do { try OutputFile.write(bytes, toName: path, backup: args.backup) } catch { throw .outputFailed(error) }
        }
        if let mailing, let to = args.mailTo {
            try mail(edited.text, to: to, mailing: mailing, args: args, cancellation: stop.mail)
        }
    }

    /// `--mail TO`: the text (after `--replace`) mailed by the same code as the editor's M-M
    /// (``Mailing``); `cancellation` (SIGINT or SIGTERM) stops the mail command (exit 130).
    private static func mail(
        _ text: String, to: String, mailing: Mailing, args: Arguments, cancellation: Cancellation
    ) throws(CommandFailure) {
        do {
            let message = try mailing.message(
                text, to: to, subject: args.subject ?? MailMessage.defaultSubject(of: text))
            try mailing.send(message, cancellation: cancellation)
        } catch {
            throw .mailFailed(error)
        }
    }

    /// Where each format goes: stdout (nil), or a file. Without `--format`, `-o FILE` is the
    /// file as given; with it, FILE.EXT unless FILE already ends in .EXT (one format) or is a
    /// device or pipe. Names are bytes: `-o` given in another encoding than UTF-8 is written
    /// under that very name (`FileSystemName`).
    static func targets(_ formats: [ExportFormat], output: FileSystemName?, explicit: Bool) -> [(
        format: ExportFormat, path: FileSystemName?
    )] {
        guard let output, output != standardOutput else { return formats.map { ($0, nil) } }
        if formats.count == 1, let format = formats.first {
            let isDevice = OutputFile.isDevice(output)
            let hasExtension = output.mappingAsLatin1 { $0.lowercased() }.bytes.reversed()
                .starts(with: Array(("." + format.fileExtension).utf8).reversed())
            if !explicit || isDevice || hasExtension { return [(format, output)] }
        }
        return formats.map { ($0, output.appending("." + $0.fileExtension)) }
    }

    /// `-o -`: standard output.
    static let standardOutput = FileSystemName("-")

    /// The OCR worker of `input` (`lovesnap __worker`), forked from this process instead when
    /// `forksWhenAlone` and it has one thread (`WorkerClient(forksWhenAlone:)`).
    /// - Throws: `POSIXError` when it cannot be started.
    static func worker(
        for input: InputFile, options: RecognitionOptions, args: Arguments, forksWhenAlone: Bool = false
    ) throws -> WorkerClient {
        try WorkerClient(
            executable: Executable.path, workerArguments: ["__worker"], options: options, path: input.path,
            displayName: input.name, timeout: args.timeout, forksWhenAlone: forksWhenAlone)
    }

    /// One photo read in a worker, with progress on a terminal; `started` is its worker when one
    /// was already started for it (the first photo's, forked in `run`), else one is started here.
    static func recognize(
        _ input: InputFile, options: RecognitionOptions, args: Arguments, stop: Interruption,
        started: WorkerClient? = nil
    ) throws(CommandFailure) -> RecognitionResult {
        let name = input.name
        let client: WorkerClient
        do {
            client = try started ?? worker(for: input, options: options, args: args)
        } catch {
            throw .workerNotStarted(error)
        }
        stop.running(client)
        defer { stop.running(nil) }

        let showProgress = isatty(2) == 1 && !args.verbose
        let started = Date()
        var lastStage: RecognitionStage?
        var last = -1
        // Progress until the run's last event.
        func outcome() -> Result<RecognitionResult, WorkerFailure> {
            while true {
                // The result is taken as soon as it is written, not at the next tick (a tick of
                // 20 ms kept each photo waiting 10 ms on average).
                for event in client.poll(waitingAtMost: 0.02) {
                    switch event {
                    case .progress(let p, let stage):
                        if args.verbose && stage != lastStage {
                            // Named as the notes name it: with several photos, whose stage it is.
                            Console.note(
                                name + ": "
                                    + String(
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
            }
        }
        let ending = outcome()
        if showProgress { Console.progress(nil) }
        // Reaped before going on, as tesseract's own work is counted: `/usr/bin/time lovesnap
        // ocr` counts the worker's CPU time, and no zombie is left (issue 43).
        client.awaitExit(atMost: 2)
        switch ending {
        case .failure(let failure): throw .recognition(failure, input: input)
        case .success(let result): return result
        }
    }
}

/// What SIGINT, SIGTERM or SIGHUP stops during `lovesnap ocr`: the OCR worker running at the moment (and
/// any started after, at once), and the mail command (``mail``). Safe from any thread.
final class Interruption: Sendable {
    private let state = Mutex<(client: WorkerClient?, interrupted: Bool)>((nil, false))
    /// Cancels the `--mail` command.
    let mail = Cancellation()

    /// `client` is the worker running now (nil: none); it is cancelled at once after an interrupt.
    func running(_ client: WorkerClient?) {
        let cancel = state.withLock { s in
            s.client = client
            return s.interrupted
        }
        if cancel { client?.cancel() }
    }

    /// The signal arrived.
    func interrupt() {
        let client = state.withLock { s in
            s.interrupted = true
            return s.client
        }
        client?.cancel()
        mail.cancel()
    }
}
