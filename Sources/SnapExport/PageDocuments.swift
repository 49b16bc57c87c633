import Foundation
import SnapImaging

/// A box in pixels: left and top edges, right and bottom edges (exclusive), as Tesseract's
/// iterators and hOCR `bbox` give it.
public struct PageBox: Codable, Equatable, Hashable, Sendable {
    /// Edges in pixels from the image's left and top.
    public var left: Int, top: Int, right: Int, bottom: Int

    /// A box from its edges (pixels).
    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    /// The box `geometry` maps it to (the bounding box of its mapped corners, rounded), kept
    /// inside a `width` × `height` image.
    func mapped(_ geometry: PageGeometry, width: Int, height: Int) -> PageBox {
        let m = geometry.photoBox(
            left: Double(left), top: Double(top), right: Double(right), bottom: Double(bottom))
        func clamp(_ v: Double, _ limit: Int) -> Int { min(limit, max(0, Int(v.rounded()))) }
        return PageBox(
            left: clamp(m.left, width), top: clamp(m.top, height), right: clamp(m.right, width),
            bottom: clamp(m.bottom, height))
    }
}

/// Tesseract's documents of one page, in pixels of the photo (upright after its EXIF orientation),
/// holding exactly the words of the reading lovesnap kept, in order: the `n`-th word of each
/// document is the reading's `n`-th word. Made in the OCR worker by `normalized(…)`; joined into
/// files, with the editor's corrections, by `ExportDocument`.
public struct PageDocuments: Codable, Equatable, Sendable {
    /// The photo's name as shown to the user (hOCR `image`, ALTO `fileName`).
    public var photoName: String
    /// The photo's size in pixels (upright).
    public var width: Int, height: Int
    /// How many words each document holds.
    public var wordCount: Int
    /// hOCR (always present: the list of words the other formats follow).
    public var hocr: String
    /// TSV, when asked for.
    public var tsv: String?
    /// ALTO, when asked for.
    public var alto: String?
    /// The searchable PDF, when asked for: one page, the photo with the text layer on its words.
    public var pdf: Data?

    /// Tesseract's documents of one page with every coordinate mapped to the photo and the words
    /// lovesnap left out (noise lines) removed.
    ///
    /// - Parameters:
    ///   - page: the renderers' output, in prepared-page pixels.
    ///   - words: the boxes (prepared-page pixels, as Tesseract gave them) of the words kept, in order.
    ///   - toPhoto: maps prepared-page points to photo pixels.
    ///   - toPDFImage: maps prepared-page points to pixels of the image the PDF shows (the photo
    ///     as decoded, which a large JPEG is at a reduced size).
    ///   - pdfImageSize: that image's size in pixels.
    ///   - photoName: the photo's name for the documents.
    ///   - width: the photo's width in pixels; `height` its height.
    /// - Throws: `ExportError.malformed` when a document cannot be read back.
    public static func normalized(
        _ page: RenderedPage, words: [PageBox], toPhoto: PageGeometry, toPDFImage: PageGeometry,
        pdfImageSize: (width: Int, height: Int), photoName: String, width: Int, height: Int
    ) throws -> PageDocuments {
        let frame = PhotoFrame(geometry: toPhoto, width: width, height: height, name: photoName)
        let (hocr, kept) = try HOCRPage.normalized(page.hocr, words: words, frame: frame)
        var out = PageDocuments(
            photoName: photoName, width: width, height: height, wordCount: words.count, hocr: hocr)
        if let tsv = page.tsv { out.tsv = TSVPage.normalized(tsv, words: words, frame: frame) }
        if let alto = page.alto { out.alto = try ALTOPage.normalized(alto, words: words, frame: frame) }
        if let pdf = page.pdf {
            let pdfFrame = PhotoFrame(
                geometry: toPDFImage, width: pdfImageSize.width, height: pdfImageSize.height, name: photoName)
            out.pdf = Data(
                try PDFPages.normalized(pdf, keep: kept, frame: pdfFrame, resolution: page.resolution))
        }
        return out
    }
}

extension PageDocuments {
    /// These documents with the words the reading itself corrected rewritten in every format,
    /// the way an editor's corrections are at export (`ExportDocument.bytes`): hOCR word text,
    /// ALTO `CONTENT`, TSV `text`, the PDF's text layer (qpdf).
    /// - Parameter corrections: per word in order, its text in the reading, nil to keep
    ///   Tesseract's ("|" read for "I": `WordCorrections` in SnapOCR).
    /// - Returns: self when there is nothing to correct.
    /// - Throws: `ExportError.malformed` when a document cannot be read back.
    public func correcting(_ corrections: [String?]) throws -> PageDocuments {
        guard corrections.contains(where: { $0 != nil }) else { return self }
        let page = [ExportDocument.Page(documents: self, corrections: corrections)]
        var out = self
        out.hocr = try ExportDocument.hocr(page)
        if tsv != nil { out.tsv = try ExportDocument.tsv(page) }
        if alto != nil { out.alto = try ExportDocument.alto(page) }
        if pdf != nil { out.pdf = Data(try ExportDocument.bytes(.pdf, pages: page, text: "")) }
        return out
    }
}

/// Where a page's coordinates go: the geometry to the photo, the photo's size and name.
struct PhotoFrame {
    var geometry: PageGeometry
    var width: Int
    var height: Int
    var name: String

    func map(_ box: PageBox) -> PageBox { box.mapped(geometry, width: width, height: height) }
}
