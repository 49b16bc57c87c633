import Foundation

/// What can go wrong in the OCR engine, with the wording shown to the user.
public enum OCRError: Error, Equatable, Codable, Sendable, CustomStringConvertible {
    /// One or more requested languages did not load. `problems` maps each language to the reason,
    /// `tessdata` is the folder searched.
    case languagesNotLoaded(problems: [LanguageProblem], tessdata: String)
    /// The tessdata folder itself does not exist.
    case tessdataMissing(path: String)
    /// A language code that cannot name a traineddata file (empty, or with a path separator).
    case invalidLanguage(String)
    /// A `-c` variable Tesseract refused: no such variable, or one only `Init` may set.
    case invalidVariable(String)
    /// Tesseract's `Recognize` failed (returned non-zero without a cancel request).
    case recognitionFailed
    /// The caller cancelled the recognition.
    case cancelled
    /// The text detector failed (OpenCV's reason: a model it cannot read, an image it refuses).
    case detectionFailed(reason: String)

    /// The message shown to the user (what failed, and what to install or pass).
    public var description: String {
        switch self {
        case .languagesNotLoaded(let problems, let tessdata):
            let each = problems.map { "language '\($0.language)': \($0.reason) (\($0.path))" }.joined(separator: "; ")
            return "Tesseract could not load \(each). Searched the tessdata folder \(tessdata). "
                + "Install the language with `apt-get install \(problems.map { "tesseract-ocr-\($0.language.lowercased())" }.joined(separator: " "))` "
                + "or give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files."
        case .tessdataMissing(let path):
            return
                "the tessdata folder \(path) does not exist; give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files"
        case .invalidLanguage(let l):
            if l == "osd" { return "'osd' is orientation data, not a language (lovesnap uses it by itself)" }
            return "'\(l)' is not a language code (expected names such as eng, fra, eng+fra)"
        case .invalidVariable(let name):
            return "-c \(name): Tesseract has no such variable, or sets it only when it starts"
        case .recognitionFailed: return "Tesseract failed to recognize the page"
        case .cancelled: return "OCR cancelled"
        case .detectionFailed(let reason): return "the text detector failed: \(reason)"
        }
    }
}

/// Why one language's traineddata could not be used.
public struct LanguageProblem: Equatable, Codable, Sendable {
    /// The language code as requested (e.g. "fra").
    public let language: String
    /// The file looked at.
    public let path: String
    /// What is wrong with it.
    public let reason: Reason

    /// What is wrong with a traineddata file; `description` is the wording.
    public enum Reason: Equatable, Codable, Sendable, CustomStringConvertible {
        /// There is no such file.
        case fileNotFound
        /// There is no such file, but `existing` differs only by case ("Fra.traineddata").
        case fileNotFoundButCaseDiffers(existing: String)
        /// The file has 0 bytes.
        case emptyFile
        /// The file is an HTML page (a download that fetched a web page).
        case htmlPage
        /// The file could not be opened for reading.
        case unreadable
        /// Tesseract did not accept the file as a model.
        case notTraineddata

        /// "file not found", "file is empty (0 bytes)", …
        public var description: String {
            switch self {
            case .fileNotFound: return "file not found"
            case .fileNotFoundButCaseDiffers(let existing):
                return "file not found (there is \(existing): names are case-sensitive)"
            case .emptyFile: return "file is empty (0 bytes)"
            case .htmlPage: return "not a traineddata file (it is an HTML page)"
            case .unreadable: return "file is not readable"
            case .notTraineddata: return "not a valid traineddata file"
            }
        }
    }
}
