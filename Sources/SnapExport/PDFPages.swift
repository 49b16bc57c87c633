import CQpdf
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Edits of Tesseract's searchable PDF with qpdf (its C API, `qpdf-c.h`): each page's text layer
/// (Tesseract's invisible text, `3 Tr`, one `TJ` of UTF-16BE glyph codes per word) moved onto
/// the photo's words and given the corrected words; pages of several documents joined.
enum PDFPages {
    /// One open PDF (`qpdf_read_memory`); the bytes stay alive as long as qpdf reads them.
    final class Document {
        let q: qpdf_data
        private let bytes: UnsafeMutableRawPointer

        /// - Throws: `ExportError.malformed` with qpdf's message.
        init(_ pdf: [UInt8]) throws {
            guard let q = qpdf_init() else { throw ExportError.malformed(format: .pdf, reason: "qpdf_init failed") }
            let copy = malloc(max(1, pdf.count))!
            pdf.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: pdf.count) }
            bytes = copy
            self.q = q
            qpdf_set_suppress_warnings(q, 1)
            _ = qpdf_read_memory(q, "page.pdf", bytes.assumingMemoryBound(to: CChar.self), UInt64(pdf.count), nil)
            try check()
        }

        deinit {
            var handle: qpdf_data? = q
            qpdf_cleanup(&handle)
            free(bytes)
        }

        func check() throws {
            guard qpdf_has_error(q) != 0 else { return }
            let message = qpdf_get_error(q).flatMap { qpdf_get_error_full_text(q, $0) }.map { String(cString: $0) }
            throw ExportError.malformed(format: .pdf, reason: message ?? "qpdf failed")
        }

        var pageCount: Int { Int(qpdf_get_num_pages(q)) }

        /// The page's content stream, decoded.
        func content(page: Int) throws -> (handle: qpdf_oh, text: String) {
            let p = qpdf_get_page_n(q, page)
            let contents = qpdf_oh_get_key(q, p, "/Contents")
            var filtered: QPDF_BOOL = 0
            var buffer: UnsafeMutablePointer<UInt8>? = nil
            var length = 0
            _ = qpdf_oh_get_stream_data(q, contents, qpdf_dl_generalized, &filtered, &buffer, &length)
            try check()
            defer { free(buffer) }
            let text = buffer.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
            return (contents, text ?? "")
        }

        /// Replaces a content stream's data (written compressed).
        func replace(_ stream: qpdf_oh, with text: String) throws {
            let data = Array(text.utf8)
            data.withUnsafeBufferPointer {
                qpdf_oh_replace_stream_data(
                    q, stream, $0.baseAddress, $0.count, qpdf_oh_new_null(q), qpdf_oh_new_null(q))
            }
            try check()
        }

        /// Appends the pages of `other` (which must stay alive until `written()`).
        func append(pagesOf other: Document) throws {
            for i in 0..<other.pageCount {
                _ = qpdf_add_page(q, other.q, qpdf_get_page_n(other.q, i), 0)
                try check()
            }
        }

        /// The document as a new file, streams compressed.
        func written() throws -> [UInt8] {
            _ = qpdf_init_write_memory(q)
            qpdf_set_compress_streams(q, 1)
            qpdf_set_deterministic_ID(q, 1)
            _ = qpdf_write(q)
            try check()
            guard let buffer = qpdf_get_buffer(q) else { return [] }
            return Array(UnsafeBufferPointer(start: buffer, count: qpdf_get_buffer_length(q)))
        }
    }

    /// One word of the text layer: its text matrix (a b c d e f, points), font size (points),
    /// horizontal scaling (percent) and glyph codes (UTF-16BE, hex).
    struct Word {
        var matrix: [Double]
        var fontSize: Double
        var scaling: Double
        var hex: String
        /// The text line it is on, counted from 0 on its page: Tesseract starts each line with a
        /// `Tm` or a `Td` that moves down (the words of a line follow with `dx 0 Td`).
        var lineIndex = 0

        /// Characters (Unicode scalars) the word shows.
        var count: Int { PDFPages.scalars(ofHex: hex) }
        /// The word's length along its baseline (points): Tesseract's glyphs are half an em wide.
        var length: Double { scaling / 100 * fontSize * Double(count) / 2 }

        var line: String {
            let m = matrix.map { PDFPages.number($0) }.joined(separator: " ")
            return
                "\(m) Tm /f-0-0 \(PDFPages.number(fontSize)) Tf \(PDFPages.number(scaling)) Tz [ <\(hex)> ] TJ\n"
        }
    }

    static func number(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        if r == 0 { return "0" }
        if r == r.rounded() && abs(r) < 1e15 { return String(Int(r)) }
        return String(format: "%.3f", r)
    }

    /// The number of Unicode scalars in UTF-16BE hex digits.
    static func scalars(ofHex hex: String) -> Int {
        let units = stride(from: 0, to: hex.count / 4 * 4, by: 4).compactMap { i -> UInt16? in
            let start = hex.index(hex.startIndex, offsetBy: i)
            return UInt16(hex[start..<hex.index(start, offsetBy: 4)], radix: 16)
        }
        return String(decoding: units, as: UTF16.self).unicodeScalars.count
    }

    /// `text` as UTF-16BE hex digits, as Tesseract writes glyph codes.
    static func hex(_ text: String) -> String {
        text.utf16.map { String(format: "%04X", $0) }.joined()
    }

    /// The content stream with its text layer rewritten: everything before the first `BT` (the
    /// photo, `/Im1 Do`) kept, then one text object with each word `transform` returns, placed
    /// absolutely (`Tm`).
    static func rewrite(_ content: String, _ transform: (Int, Word) -> Word?) -> String {
        let scalars = Array(content.unicodeScalars)
        var tokens: [String] = []
        var i = 0
        var prefixEnd: Int?
        while i < scalars.count {
            let c = scalars[i]
            if c == " " || c == "\n" || c == "\r" || c == "\t" {
                i += 1
                continue
            }
            var j = i + 1
            if c == "<" {
                while j < scalars.count && scalars[j] != ">" { j += 1 }
                j = min(scalars.count, j + 1)
            } else if c != "[" && c != "]" {
                while j < scalars.count && !" \n\r\t[]<".unicodeScalars.contains(scalars[j]) { j += 1 }
            }
            let token = String(String.UnicodeScalarView(scalars[i..<j]))
            if token == "BT" && prefixEnd == nil { prefixEnd = i }
            tokens.append(token)
            i = j
        }
        let prefix = String(String.UnicodeScalarView(scalars[0..<(prefixEnd ?? scalars.count)]))
        var words: [Word] = []
        var operands: [String] = []
        var matrix = [1.0, 0, 0, 1, 0, 0]
        var fontSize = 8.0
        var scaling = 100.0
        var index = 0
        var lineIndex = -1
        var inText = false
        for token in tokens {
            switch token {
            case "BT":
                inText = true
                matrix = [1, 0, 0, 1, 0, 0]
            case "ET": inText = false
            case "Tm" where operands.count >= 6:
                matrix = operands.suffix(6).map { Double($0) ?? 0 }
                lineIndex += 1
            case "Td" where operands.count >= 2:
                let t = operands.suffix(2).map { Double($0) ?? 0 }
                matrix[4] += t[0] * matrix[0] + t[1] * matrix[2]
                matrix[5] += t[0] * matrix[1] + t[1] * matrix[3]
                if t[1] != 0 { lineIndex += 1 }
            case "Tf" where operands.count >= 1: fontSize = Double(operands.last!) ?? fontSize
            case "Tz" where operands.count >= 1: scaling = Double(operands.last!) ?? scaling
            case "TJ" where inText:
                let hex = operands.first { $0.hasPrefix("<") }.map { String($0.dropFirst().dropLast()) } ?? ""
                let word = Word(
                    matrix: matrix, fontSize: fontSize, scaling: scaling, hex: hex, lineIndex: max(0, lineIndex))
                if let w = transform(index, word) {
                    words.append(w)
                }
                index += 1
            default:
                // Operands until an operator (a word of letters); other operators are dropped.
                if let first = token.unicodeScalars.first, !CharacterSet.letters.contains(first) {
                    operands.append(token)
                    continue
                }
            }
            operands = []
        }
        guard !words.isEmpty else { return prefix }
        return prefix + "BT\n3 Tr\n" + words.map(\.line).joined() + "ET\n"
    }

    /// Tesseract's one-page PDF with its text layer on the photo: each word Tesseract placed on
    /// the prepared page is placed where `frame` maps it (position and size), and the words not
    /// kept are left out.
    ///
    /// The words of a line share one straight baseline, horizontal (or turned by a multiple of
    /// 90° on a page photographed sideways): where the photo's lines are tilted or curled, each
    /// word's own direction put its glyphs off the line by more than half a point, and text
    /// extraction (poppler's `pdftotext`) broke it there ("représ entations", "curtai ns").
    /// - Parameters:
    ///   - keep: for each word Tesseract wrote, in order, whether it stays.
    ///   - frame: maps prepared-page pixels to pixels of the image the page shows.
    ///   - resolution: the DPI Tesseract placed the text at (points = pixels × 72 / it).
    /// - Throws: `ExportError.malformed` when qpdf cannot read or write it.
    static func normalized(_ pdf: [UInt8], keep: [Bool], frame: PhotoFrame, resolution: Int) throws -> [UInt8] {
        let document = try Document(pdf)
        let (stream, content) = try document.content(page: 0)
        let k = 72 / Double(max(1, resolution))
        let pageHeight = Double(frame.height) * k
        let g = frame.geometry
        func toPixels(_ x: Double, _ y: Double) -> (Double, Double) { (x / k, (pageHeight - y) / k) }
        func toPoints(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) { (p.x * k, pageHeight - p.y * k) }
        // Where each kept word lands on the photo (points): its baseline's start and end, and
        // the point a font size above its start.
        var placed: [Int: (word: Word, start: (x: Double, y: Double), end: (x: Double, y: Double), size: Double)] = [:]
        _ = rewrite(content) { index, word in
            guard index < keep.count, keep[index] else { return nil }
            let (a, b, c, d, e, f) = (
                word.matrix[0], word.matrix[1], word.matrix[2], word.matrix[3], word.matrix[4], word.matrix[5]
            )
            let start = toPixels(e, f)
            let end = toPixels(e + a * word.length, f + b * word.length)
            let up = toPixels(e + c * word.fontSize, f + d * word.fontSize)
            let s = toPoints(g.photoPoint(x: start.0, y: start.1))
            let u = toPoints(g.photoPoint(x: up.0, y: up.1))
            let size = max(1, ((u.x - s.x) * (u.x - s.x) + (u.y - s.y) * (u.y - s.y)).squareRoot())
            placed[index] = (word, s, toPoints(g.photoPoint(x: end.0, y: end.1)), size)
            return nil
        }
        let lines = placedLines(placed.mapValues { ($0.word.lineIndex, $0.start, $0.end) })
        let rewritten = rewrite(content) { index, _ in
            guard let p = placed[index], let line = lines[p.word.lineIndex] else { return nil }
            let (dx, dy) = line.direction
            // Along the line's direction from the word's own start; across it, the line's.
            let along = p.start.x * dx + p.start.y * dy
            let length = max(0.5, (p.end.x - p.start.x) * dx + (p.end.y - p.start.y) * dy)
            var out = p.word
            out.matrix = [dx, dy, -dy, dx, along * dx - line.across * dy, along * dy + line.across * dx]
            out.fontSize = p.size
            out.scaling = p.word.count == 0 ? 100 : 200 * length / (p.size * Double(p.word.count))
            return out
        }
        try document.replace(stream, with: rewritten)
        return try document.written()
    }

    /// For each line of `words` (index → its line, baseline start and end, in points), the
    /// direction its words are written in, that of the line from its first word's start to its
    /// last word's end turned to the nearest multiple of 90° (a unit vector), and where its
    /// baseline lies across that direction: the median of its words' starts.
    static func placedLines(_ words: [Int: (line: Int, start: (x: Double, y: Double), end: (x: Double, y: Double))])
        -> [Int: (direction: (Double, Double), across: Double)]
    {
        var out: [Int: (direction: (Double, Double), across: Double)] = [:]
        for (line, members) in Dictionary(grouping: words.sorted { $0.key < $1.key }, by: { $0.value.line }) {
            guard let first = members.first?.value, let last = members.last?.value else { continue }
            let angle = atan2(last.end.y - first.start.y, last.end.x - first.start.x)
            let quarter = (angle / (Double.pi / 2)).rounded()
            let direction = (cos(quarter * Double.pi / 2).rounded(), sin(quarter * Double.pi / 2).rounded())
            let across = members.map { -$0.value.start.x * direction.1 + $0.value.start.y * direction.0 }.sorted()
            out[line] = (direction, across[across.count / 2])
        }
        return out
    }

    /// The PDF with its words (in order over all pages) replaced: `replacements[i]` nil keeps the
    /// word, "" removes it, any other text takes its place, stretched over the same length.
    /// - Throws: `ExportError.malformed` when qpdf cannot read or write it.
    static func substituted(_ pdf: [UInt8], _ replacements: [String?]) throws -> [UInt8] {
        let document = try Document(pdf)
        var offset = 0
        for page in 0..<document.pageCount {
            let (stream, content) = try document.content(page: page)
            var count = 0
            let rewritten = rewrite(content) { index, word in
                count += 1
                let i = offset + index
                guard i < replacements.count, let text = replacements[i] else { return word }
                if text.isEmpty { return nil }
                var out = word
                let length = word.length
                out.hex = hex(text)
                out.scaling = 200 * length / (word.fontSize * Double(max(1, out.count)))
                return out
            }
            offset += count
            try document.replace(stream, with: rewritten)
        }
        return try document.written()
    }

    /// The pages of `pdfs`, in order, as one document.
    /// - Throws: `ExportError.malformed` when qpdf cannot read or write them.
    static func joined(_ pdfs: [[UInt8]]) throws -> [UInt8] {
        guard let first = pdfs.first else { return [] }
        if pdfs.count == 1 { return first }
        let out = try Document(first)
        let others = try pdfs.dropFirst().map { try Document($0) }
        for other in others { try out.append(pagesOf: other) }
        return try withExtendedLifetime(others) { try out.written() }
    }
}
