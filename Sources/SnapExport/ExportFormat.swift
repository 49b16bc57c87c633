/// A file format lovesnap writes the text in.
public enum ExportFormat: String, Codable, CaseIterable, Sendable, Comparable {
    /// Plain text, UTF-8 (NFC), the verse layout as shown in the editor.
    case txt
    /// hOCR 1.2 (XHTML with `ocr_page`, `ocr_carea`, `ocr_par`, `ocr_line`, `ocrx_word`),
    /// Tesseract's `TessHOcrRenderer`.
    case hocr
    /// Tesseract's tab-separated words (`TessTsvRenderer`): level, page_num, block_num, par_num,
    /// line_num, word_num, left, top, width, height, conf, text.
    case tsv
    /// ALTO 3.0 XML (`TessAltoRenderer`).
    case alto
    /// A searchable PDF: the photo with an invisible text layer (`TessPDFRenderer`).
    case pdf

    /// The file name extension, without the dot (`.xml` for ALTO, as Tesseract names it).
    public var fileExtension: String {
        switch self {
        case .alto: return "xml"
        default: return rawValue
        }
    }

    /// The format a file name's extension asks for (case-insensitive), or nil for any other name.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        let ext = fileName[fileName.index(after: dot)...].lowercased()
        guard let format = ExportFormat.allCases.first(where: { $0.fileExtension == ext }) else { return nil }
        self = format
    }

    /// The formats Tesseract's renderers write (all but plain text).
    public static let rendered: [ExportFormat] = [.hocr, .tsv, .alto, .pdf]

    /// The order of `allCases` (txt, hocr, tsv, alto, pdf).
    public static func < (a: ExportFormat, b: ExportFormat) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
