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
