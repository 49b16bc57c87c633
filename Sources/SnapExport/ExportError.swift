/// Why a document could not be exported.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// Tesseract's renderer for `format` did not write its document (`reason` says why).
    case renderFailed(format: ExportFormat, reason: String)
    /// A rendered document could not be read back (libxml2 or qpdf said `reason`).
    case malformed(format: ExportFormat, reason: String)
    /// The page was read without the renderer this format needs.
    case notRendered(ExportFormat)

    /// The message, naming the format and the reason.
    public var description: String {
        switch self {
        case .renderFailed(let format, let reason): return "cannot write \(format.rawValue): \(reason)"
        case .malformed(let format, let reason): return "cannot read Tesseract's \(format.rawValue) back: \(reason)"
        case .notRendered(.pdf): return "cannot write a PDF: no pdf.ttf in the tessdata folder"
        case .notRendered(let format): return "the photo was read without Tesseract's \(format.rawValue) renderer"
        }
    }
}
