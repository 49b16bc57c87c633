#if canImport(Glibc)
    import Glibc
#endif

/// How the editor ended on a termination signal: the signal, what became of the text, and the
/// line to print on stderr once the terminal is restored.
///
/// The text is rescued as GNU nano does, through ``DocumentSharing/saveEmergencyCopy(_:forDocument:)``
/// (`NAME.save` beside the document, `NAME.save.1`… when taken, else in the home folder, then `/tmp`).
public struct TerminationReport: Equatable, Sendable {
    /// What became of the text.
    public enum Outcome: Equatable, Sendable {
        /// The text was written to this path.
        case saved(path: String)
        /// The text was neither changed nor new: no file was written.
        case nothingToSave
        /// No file could be written; the reason names the file and the system's error.
        case failed(reason: String)
    }

    /// The signal (SIGTERM, SIGHUP).
    public var signal: Int32
    /// The emergency save.
    public var outcome: Outcome

    /// Creates a report.
    public init(signal: Int32, outcome: Outcome) {
        self.signal = signal
        self.outcome = outcome
    }

    /// The process exit status: 128 + the signal (143 for SIGTERM, 129 for SIGHUP).
    public var exitCode: Int32 { 128 + signal }

    /// `received SIGTERM; the text was saved to PATH` (or `; nothing to save`, or
    /// `; could not save the text: REASON`), without the program name.
    public var message: String {
        let head = "received \(Self.signalName(signal))"
        switch outcome {
        case .saved(let path): return "\(head); the text was saved to \(path)"
        case .nothingToSave: return "\(head); nothing to save"
        case .failed(let reason): return "\(head); could not save the text: \(reason)"
        }
    }

    /// `SIGTERM`, `SIGHUP`, … (`signal N` for others).
    public static func signalName(_ sig: Int32) -> String {
        switch sig {
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        default: return "signal \(sig)"
        }
    }
}
