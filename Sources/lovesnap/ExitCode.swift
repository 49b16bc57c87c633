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
    /// The text could not be written (-o FILE) or mailed.
    case outputFailed = 6
    /// Interrupted by SIGINT (Ctrl-C) or SIGTERM.
    case interrupted = 130
}

/// Why a lovesnap command stops: the one place that knows each failure's message and exit code.
enum CommandFailure: Error {
    /// The command line cannot work (the parser's error, or a bad `--mail-command`).
    case usage(any Error)
    /// `-o` names the photo itself.
    case outputIsThePhoto(output: String)
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
    /// The terminal could not be set up for the editor.
    case terminalUnavailable(any Error)
    /// `lovesnap ocr` without `-o` found fd 1 closed at start.
    case standardOutputClosed
    /// The text (or --help, --version) could not be written.
    case outputFailed(any Error)

    /// The line printed on stderr after "lovesnap: ", or nil for none.
    var message: String? {
        switch self {
        case .usage(let error): return "\(error)"
        case .outputIsThePhoto(let output): return "-o \(output) is the photo itself; lovesnap will not overwrite it"
        case .unusableInput(let error, let input): return input.map { $0.userFacing("\(error)") } ?? "\(error)"
        case .unreadableTextFile(let error, let input): return input.userFacing("\(error)")
        case .recognition(let failure, let input): return input.userFacing(failure.description)
        case .workerEnded, .parentGone: return nil
        case .workerNotStarted(let error): return "cannot start the OCR worker: \(error)"
        case .terminalUnavailable(let error): return "\(error)"
        case .standardOutputClosed: return "standard output is closed; give -o FILE"
        case .outputFailed(let error): return "\(error)"
        }
    }

    /// The status lovesnap exits with.
    var exitCode: ExitCode {
        switch self {
        case .usage, .outputIsThePhoto: return .usage
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
        case .workerNotStarted, .terminalUnavailable, .unreadableTextFile: return .failure
        case .standardOutputClosed, .outputFailed: return .outputFailed
        }
    }
}
