import SnapOCR
import SnapShare

/// lovesnap's exit codes (documented in README.md and `--help`).
enum ExitCode: Int32 {
    /// Success (also when the photo holds no text: a notice goes to stderr).
    case ok = 0
    /// A general failure not covered below.
    case failure = 1
    /// Bad command line.
    case usage = 2
    /// The photo could not be used: missing, unreadable, not an image, corrupt, too large.
    case badInput = 3
    /// The OCR engine could not start: a language or the tessdata folder is missing.
    case engineSetup = 4
    /// The OCR engine crashed, was killed or did not finish within --timeout.
    case engineFailed = 5
    /// The text could not be written (-o FILE, stdout).
    case outputFailed = 6
    /// `--mail`: the mail command was not found or could not be started.
    case mailCommandNotRunnable = 7
    /// `--mail`: the mail command failed (non-zero exit status, or it did not read the whole message).
    case mailFailed = 8
    /// `--mail`: the mail command did not finish within `--mail-timeout` and was stopped.
    case mailTimedOut = 9
    /// `--mail`: no text was found in the photos (or none was left after `--replace`), so nothing
    /// was mailed.
    case nothingToMail = 10
    /// Interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP.
    case interrupted = 130
}

/// Why a lovesnap command stops: the one place that knows each failure's message and exit code.
enum CommandFailure: Error {
    /// The command line cannot work (the parser's error, or a bad `--mail-command`).
    case usage(any Error)
    /// `-o` names the photo itself.
    case outputIsThePhoto(output: String)
    /// `-o` names an image (another photo, or a new file named as one: `ImageName`).
    case outputIsAnImage(output: String)
    /// The file named on the command line cannot be used; `input` shows its name as typed.
    case unusableInput(any Error, input: InputFile?)
    /// The text file named for `lovesnap edit` cannot be read (a text file is not a photo: exit 1).
    case unreadableTextFile(any Error, input: InputFile)
    /// OCR ended without a result; `input` shows the photo's name as typed.
    case recognition(WorkerFailure, input: InputFile)
    /// The worker process's own end (its parent reads the failure from the pipe: no message).
    case workerEnded(WorkerFailure)
    /// The worker's parent was gone before it started (no message).
    case parentGone
    /// The OCR worker process could not be started.
    case workerNotStarted(any Error)
    /// `--list-langs`: Tesseract could not start on the tessdata folder (exit 4).
    case tessdataUnusable(any Error)
    /// The terminal could not be set up for the editor.
    case terminalUnavailable(any Error)
    /// `lovesnap ocr` without `-o` found fd 1 closed at start.
    case standardOutputClosed
    /// A binary document (`--format pdf`) would go to standard output, a terminal.
    case binaryToTerminal(format: String)
    /// The text (or --help, --version) could not be written.
    case outputFailed(any Error)
    /// `--mail`: the mail could not be sent (the `ShareError` of the mail command).
    case mailFailed(ShareError)
    /// `--mail`: the photos hold no text (or none is left after `--replace`); `inputs` are they.
    case nothingToMail(inputs: [InputFile], emptiedByReplace: Bool)

    /// The line printed on stderr after "lovesnap: ", or nil for none.
    var message: String? {
        switch self {
        case .usage(let error): return "\(error)"
        case .outputIsThePhoto(let output): return "-o \(output) is the photo itself; lovesnap will not overwrite it"
        case .outputIsAnImage(let output):
            return "-o \(output) is named as an image; write text or .hocr .tsv .xml .pdf"
        case .unusableInput(let error, let input): return input.map { $0.userFacing("\(error)") } ?? "\(error)"
        case .unreadableTextFile(let error, let input): return input.userFacing("\(error)")
        case .recognition(let failure, let input): return input.userFacing(failure.description)
        case .workerEnded, .parentGone: return nil
        case .workerNotStarted(let error): return "cannot start the OCR worker: \(error)"
        case .tessdataUnusable(let error): return "\(error)"
        case .terminalUnavailable(let error): return "\(error)"
        case .standardOutputClosed: return "standard output is closed; give -o FILE"
        case .binaryToTerminal(let format):
            return "not writing a binary \(format) to the terminal; give -o FILE or redirect it"
        case .outputFailed(let error): return "\(error)"
        case .mailFailed(let error): return "\(error)"
        case .nothingToMail(let inputs, let emptiedByReplace):
            if emptiedByReplace { return "the text is empty after --replace; nothing was mailed" }
            return "no text found in \(inputs.map(\.shownPath).joined(separator: ", ")); nothing was mailed"
        }
    }

    /// The status lovesnap exits with.
    var exitCode: ExitCode {
        switch self {
        case .usage, .outputIsThePhoto, .outputIsAnImage, .binaryToTerminal: return .usage
        case .unusableInput: return .badInput
        case .recognition(let failure, _), .workerEnded(let failure):
            switch failure {
            case .unusablePhoto: return .badInput
            case .engineUnavailable: return .engineSetup
            case .cancelled: return .interrupted
            case .badRegion: return .usage
            case .recognitionFailed, .unexpected, .badRequest, .timedOut, .crashed, .exited: return .engineFailed
            }
        case .parentGone: return .interrupted
        case .tessdataUnusable: return .engineSetup
        case .workerNotStarted, .terminalUnavailable, .unreadableTextFile: return .failure
        case .standardOutputClosed, .outputFailed: return .outputFailed
        case .nothingToMail: return .nothingToMail
        case .mailFailed(let error):
            switch error {
            case .mailCommandNotRunnable: return .mailCommandNotRunnable
            case .mailCommandTimedOut: return .mailTimedOut
            case .mailCommandCancelled: return .interrupted
            case .invalidAddress, .invalidHeader, .noRecipients, .invalidCommandLine: return .usage
            default: return .mailFailed
            }
        }
    }
}
