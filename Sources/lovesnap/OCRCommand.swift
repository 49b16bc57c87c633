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
        if output == nil && !stdoutIsOpen && args.mailTo == nil { throw .standardOutputClosed }
        // --mail: the addresses, sender and subject are checked before any OCR is done.
        var mailing: Mailing?
        if let to = args.mailTo {
            let settings = try Mailing(args, environment: ProcessInfo.processInfo.environment)
            do { _ = try settings.message("", to: to, subject: args.subject ?? "") } catch { throw .mailFailed(error) }
            mailing = settings
        }
        let mailCancellation = Cancellation()
        let client: WorkerClient
        do {
            client = try WorkerClient(
                executable: Executable.path, workerArguments: ["__worker"], options: args.options,
                path: input.path, displayName: name, timeout: args.timeout)
        } catch {
            throw .workerNotStarted(error)
        }
        let interrupt = Interrupts.onSIGINT {
            client.cancel()
            mailCancellation.cancel()
        }
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
            if result.text.isEmpty && mailing == nil { Console.note("no text found in \(name)") }
            let bytes =
                args.json
                ? ProofreadingReport(result, rules: Proofreading(uncertainBelow: args.uncertainBelow)).json()
                : Array(result.text.utf8)
            if let mailing, let to = args.mailTo {
                try mail(
                    result.text, to: to, input: input, output: output, mailing: mailing, args: args,
                    cancellation: mailCancellation)
                return
            }
            do { try OutputFile.write(bytes, to: output, backup: args.backup) } catch { throw .outputFailed(error) }
        }
    }

    /// `--mail TO`: the text, also written to `-o FILE` when given, mailed by the same code as
    /// the editor's M-M (``Mailing``); an empty text is not mailed.
    private static func mail(
        _ text: String, to: String, input: InputFile, output: String?, mailing: Mailing, args: Arguments,
        cancellation: Cancellation
    ) throws(CommandFailure) {
        if text.allSatisfy(\.isWhitespace) { throw .nothingToMail(input: input) }
        if let output {
            do { try OutputFile.write(Array(text.utf8), to: output, backup: args.backup) } catch {
                throw .outputFailed(error)
            }
        }
        do {
            let message = try mailing.message(
                text, to: to, subject: args.subject ?? MailMessage.defaultSubject(of: text))
            try mailing.send(message, cancellation: cancellation)
        } catch {
            throw .mailFailed(error)
        }
    }
}

/// `lovesnap ocr --json`: the text and each word with its place, confidence and marks, for
/// scripts/mark-quality.py. One JSON object (sorted keys) and a LF:
/// `{"text": …, "uncertainBelow": 80, "words": [{"text", "confidence", "range": [from, to] (UTF-8
/// bytes of text), "box": [x, y, width, height] (photo pixels), "line", "alternatives",
/// "runnerUp" (the strongest character choice not taken, 0–100), "known" (spelling, or null),
/// "doubts": reasons besides confidence, "uncertain"}]}`.
struct ProofreadingReport: Encodable {
    struct Word: Encodable {
        var text: String
        var confidence: Double
        var range: [Int]
        var box: [Int]
        var line: Int
        var alternatives: [String]
        var runnerUp: Double
        var known: Bool?
        var doubts: [String]
        var uncertain: Bool
    }
    var text: String
    var uncertainBelow: Double
    var words: [Word]

    init(_ result: RecognitionResult, rules: Proofreading) {
        text = result.text
        uncertainBelow = rules.uncertainBelow
        let others = Proofreading.otherSignals(result.words)
        let all = rules.doubts(about: result.words)
        words = result.words.indices.map { i in
            let w = result.words[i]
            let b = w.boundingBox
            return Word(
                text: w.text, confidence: w.confidence, range: [w.textRange.lowerBound, w.textRange.upperBound],
                box: [b.x, b.y, b.width, b.height], line: w.line, alternatives: w.alternatives,
                runnerUp: w.runnerUpConfidence, known: w.isKnownWord,
                doubts: others[i].map(\.rawValue), uncertain: !all[i].isEmpty)
        }
    }

    func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [0x0A]
    }
}
