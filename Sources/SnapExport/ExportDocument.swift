import Foundation

/// The file of one export format, made from Tesseract's page documents (`PageDocuments`) with
/// the reader's corrections put into them: one document, pages in order.
public enum ExportDocument {
    /// One page of a document: Tesseract's documents of a photo and, for each of its words in
    /// order, what the text says now (nil: as recognized; "": removed).
    public struct Page: Sendable {
        /// The page's documents (photo pixels); nil when only plain text was asked for.
        public var documents: PageDocuments?
        /// Per word: nil when it reads as recognized, "" when it was deleted, else its new text.
        public var corrections: [String?]

        /// A page from its documents and corrections (shorter than the words: the rest unchanged).
        public init(documents: PageDocuments?, corrections: [String?] = []) {
            self.documents = documents
            self.corrections = corrections
        }

        func correction(_ i: Int) -> String? { i < corrections.count ? corrections[i] : nil }
    }

    /// The bytes of the file: `text` itself (UTF-8) for `.txt`, else Tesseract's document of
    /// that format with every page, its words corrected.
    ///
    /// hOCR pages are `ocr_page` elements of one body (ids and `ppageno` numbered in order), ALTO
    /// pages `Page` elements of one `Layout`, TSV rows carry their `page_num`, PDF pages follow
    /// each other (qpdf).
    /// - Throws: `ExportError.notRendered` when a page lacks the format, `.malformed` when a
    ///   document cannot be read back.
    public static func bytes(_ format: ExportFormat, pages: [Page], text: String) throws -> [UInt8] {
        switch format {
        case .txt: return Array(text.utf8)
        case .hocr: return Array(try hocr(pages).utf8)
        case .alto: return Array(try alto(pages).utf8)
        case .tsv: return Array(try tsv(pages).utf8)
        case .pdf:
            let pdfs = try pages.map { page -> [UInt8] in
                guard let pdf = page.documents?.pdf else { throw ExportError.notRendered(.pdf) }
                return Array(pdf)
            }
            let joined = try PDFPages.joined(pdfs)
            let corrections = pages.flatMap { page in (0..<(page.documents?.wordCount ?? 0)).map { page.correction($0) }
            }
            if corrections.allSatisfy({ $0 == nil }) { return joined }
            return try PDFPages.substituted(joined, corrections)
        }
    }

    /// Tesseract's hOCR ids (`word_1_12`, `lstm_choices_1_3_2`), whose first number is the
    /// page's (from 1), renumbered for page `number`.
    static func renumbered(_ id: String, page number: Int) -> String {
        var parts = id.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard let i = parts.firstIndex(where: { Int($0) != nil }) else { return id }
        parts[i] = String(number)
        return parts.joined(separator: "_")
    }

    static func hocr(_ pages: [Page]) throws -> String {
        var trees: [XMLTree] = []
        for (n, page) in pages.enumerated() {
            guard let hocr = page.documents?.hocr else { throw ExportError.notRendered(.hocr) }
            let tree = try XMLTree(hocr, format: .hocr)
            var removed: [XMLTree.Node] = []
            for (i, word) in HOCRPage.words(tree).enumerated() {
                guard let text = page.correction(i) else { continue }
                if text.isEmpty { removed.append(word) } else { XMLTree.setText(word, text) }
            }
            for node in removed { XMLTree.remove(node) }
            HOCRPage.removeEmpty(tree)
            for node in tree.elements() {
                if let id = XMLTree.attribute(node, "id") {
                    XMLTree.setAttribute(node, "id", renumbered(id, page: n + 1))
                }
                if HOCRPage.classOf(node) == "ocr_page", let raw = XMLTree.attribute(node, "title") {
                    var title = HOCRPage.Title(raw)
                    title["ppageno"] = String(n)
                    XMLTree.setAttribute(node, "title", title.text)
                }
            }
            trees.append(tree)
        }
        guard let first = trees.first else { throw ExportError.notRendered(.hocr) }
        if let body = first.elements().first(where: { XMLTree.name($0) == "body" }) {
            for tree in trees.dropFirst() {
                for page in tree.elements() where HOCRPage.classOf(page) == "ocr_page" {
                    first.append(copyOf: page, to: body)
                }
            }
        }
        return first.serialized()
    }

    static func alto(_ pages: [Page]) throws -> String {
        var trees: [XMLTree] = []
        for (n, page) in pages.enumerated() {
            guard let alto = page.documents?.alto else { throw ExportError.notRendered(.alto) }
            let tree = try XMLTree(alto, format: .alto)
            var removed: [XMLTree.Node] = []
            var i = 0
            var dropSpace = false
            for node in tree.elements() {
                switch XMLTree.name(node) {
                case "String":
                    dropSpace = false
                    if let text = page.correction(i) {
                        if text.isEmpty {
                            removed.append(node)
                            dropSpace = true
                        } else {
                            XMLTree.setAttribute(node, "CONTENT", text)
                        }
                    }
                    i += 1
                case "SP" where dropSpace:
                    removed.append(node)
                    dropSpace = false
                case "Page":
                    XMLTree.setAttribute(node, "PHYSICAL_IMG_NR", String(n))
                default: break
                }
                // Tesseract numbers ALTO ids within a page (`string_0` on every page): the pages
                // after the first get a prefix, so that ids stay unique in the document.
                if let id = XMLTree.attribute(node, "ID"), XMLTree.name(node) != "OCRProcessing" {
                    let name = XMLTree.name(node)
                    XMLTree.setAttribute(node, "ID", name == "Page" ? "page_\(n)" : n == 0 ? id : "p\(n)_\(id)")
                }
            }
            for node in removed { XMLTree.remove(node) }
            trees.append(tree)
        }
        guard let first = trees.first else { throw ExportError.notRendered(.alto) }
        if let layout = first.elements().first(where: { XMLTree.name($0) == "Layout" }) {
            for tree in trees.dropFirst() {
                for page in tree.elements() where XMLTree.name(page) == "Page" {
                    first.append(copyOf: page, to: layout)
                }
            }
        }
        return first.serialized()
    }

    static func tsv(_ pages: [Page]) throws -> String {
        var rows: [[String]] = []
        for (n, page) in pages.enumerated() {
            guard let tsv = page.documents?.tsv else { throw ExportError.notRendered(.tsv) }
            var i = 0
            for var row in TSVPage.rows(tsv) {
                row[1] = String(n + 1)
                if row[0] == "5" {
                    defer { i += 1 }
                    if let text = page.correction(i) {
                        if text.isEmpty { continue }
                        // A tab or line break would break the row: TSV words hold neither.
                        row[11] = text.replacingOccurrences(of: "\t", with: " ")
                            .replacingOccurrences(of: "\n", with: " ")
                    }
                }
                rows.append(row)
            }
        }
        return TSVPage.join(rows)
    }
}
