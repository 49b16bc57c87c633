import Foundation

/// Tesseract's documents of one recognized page, as its renderers wrote them: coordinates in
/// pixels of the prepared page Tesseract read, every word it found.
public struct RenderedPage: Equatable, Sendable {
    /// hOCR (`TessHOcrRenderer`); always rendered, as the list of words the others follow.
    public var hocr: String
    /// TSV (`TessTsvRenderer`), when asked for.
    public var tsv: String?
    /// ALTO (`TessAltoRenderer`), when asked for.
    public var alto: String?
    /// The searchable PDF (`TessPDFRenderer`) of the photo given as its input image, when asked for.
    public var pdf: [UInt8]?
    /// The resolution Tesseract read the page at (DPI): the PDF's pixels-to-points factor is 72 / it.
    public var resolution: Int

    /// A rendered page from its parts.
    public init(hocr: String, tsv: String? = nil, alto: String? = nil, pdf: [UInt8]? = nil, resolution: Int) {
        self.hocr = hocr
        self.tsv = tsv
        self.alto = alto
        self.pdf = pdf
        self.resolution = resolution
    }
}
