import SnapTerminal
import SnapText

/// The state of the OCR job.
public enum RecognitionState: Equatable, Sendable {
    /// No OCR (a text file, or an empty buffer).
    case none
    /// Running; progress in percent (0...100).
    case running(percent: Int)
    /// Done; Tesseract's mean confidence (0–100).
    case finished(meanConfidence: Int)
    /// Failed with this message.
    case failed(message: String)
    /// Cancelled by the user.
    case cancelled
}

/// What keys do at the moment.
public enum Mode: Equatable, Sendable {
    /// Keys edit the text.
    case editing
    /// A one-line prompt on the status line is open.
    case prompt(Prompt)
    /// "Replace this instance?" with Y / N / A / ^C, the match highlighted.
    case confirmReplace(ReplaceSession)
    /// "Save modified buffer?" with Y / N / ^C (from ^X).
    case confirmSave
    /// "File "x" exists; OVERWRITE?" with Y / N / ^C.
    case confirmOverwrite(path: String)
    /// The help screen; any key closes it.
    case help
    /// The alternatives menu of a word (M-Space).
    case alternatives(AlternativesMenu)
    /// "Correct this one too?" with Y / N / A / ^C, for each other word read as the one just
    /// corrected (an error series).
    case confirmSeries(SeriesCorrection)
    /// "The text is empty; mail it anyway?" with Y / N / ^C (from M-M).
    case confirmEmptyMail
    /// "File "x" has changed on disk; overwrite?" with Y / N / ^C (Write Out of a file another
    /// program changed since it was read or written).
    case confirmChangedOnDisk(path: String)
    /// A mail command or a command typed for ^T runs; ^C stops it, the screen keeps drawing.
    case running(RunningJob)
    /// A ^T command's output, shown in place of the text: Y replaces the region (or the whole
    /// text) with it, I inserts it at the cursor, N / ^C drop it.
    case commandOutput(CommandOutput)
    /// A recovery file was found for the document: R recovers it, D discards it, O opens the
    /// document read-only (keeping it), ^X leaves. Its text is shown meanwhile.
    case recoveryOffer(RecoveryOffer)
    /// The photo view (M-P): the photo with the words' boxes above, the text below.
    case photo(PhotoView)
    /// The list of data found in the text (M-F): card numbers, dates, addresses, phone numbers.
    case data(DataMenu)
    /// A new reading of the photo (M-O) of a text changed since it was read, shown in place of
    /// the text: Y replaces the text with it, B puts it below the text, N / ^C drop it.
    case confirmReading(NewReading)
    /// The file browser (^T in the File to insert and File Name to Write prompts).
    case browser(FileBrowser)
}

/// What runs in the background while the editor waits (``Mode/running(_:)``).
public enum RunningJob: Equatable, Sendable {
    /// The mail command, sending to `to` (the To field as typed).
    case mail(to: String)
    /// A command typed for ^T, its input the region `region` (UTF-8 offsets), or the whole text
    /// when nil.
    case command(commandLine: String, region: Range<Int>?)

    /// The command of a ^T answer written as nano's pipe, `|cmd` (white space around the bar
    /// ignored): `cmd`; nil when the answer is no pipe.
    public static func pipedCommand(_ answer: String) -> String? {
        let trimmed = answer.trimmingWhitespace()
        guard trimmed.hasPrefix("|") else { return nil }
        return String(trimmed.dropFirst())
    }
}

/// The output of a ^T command, waiting for the user's decision.
public struct CommandOutput: Equatable, Sendable {
    /// The command line as typed.
    public var commandLine: String
    /// What it wrote on standard output (decoded as UTF-8, CR LF as LF).
    public var output: String
    /// The region it was given (UTF-8 offsets of the text), or nil for the whole text.
    public var region: Range<Int>?
    /// The output as a buffer, for showing it.
    public var preview: TextBuffer

    /// The output of `commandLine` run on `region`.
    public init(commandLine: String, output: String, region: Range<Int>?) {
        self.commandLine = commandLine
        self.output = output
        self.region = region
        self.preview = TextBuffer(text: output)
    }
}
