/// Edits of Tesseract's TSV (columns level, page_num, block_num, par_num, line_num, word_num,
/// left, top, width, height, conf, text; level 1 page, 2 block, 3 paragraph, 4 line, 5 word).
enum TSVPage {
    /// The column names Tesseract writes on the first line.
    static let header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"

    /// The rows of `tsv` (header left out), each split into its columns.
    static func rows(_ tsv: String) -> [[String]] {
        tsv.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count >= 12 && $0[0] != "level" }
    }

    static func box(_ row: [String]) -> PageBox? {
        guard let l = Int(row[6]), let t = Int(row[7]), let w = Int(row[8]), let h = Int(row[9]) else { return nil }
        return PageBox(left: l, top: t, right: l + w, bottom: t + h)
    }

    static func setBox(_ row: inout [String], _ b: PageBox) {
        row[6] = String(b.left)
        row[7] = String(b.top)
        row[8] = String(b.right - b.left)
        row[9] = String(b.bottom - b.top)
    }

    /// The TSV with boxes in the photo's pixels and only the words in `words` (matched by box, in order).
    static func normalized(_ tsv: String, words: [PageBox], frame: PhotoFrame) -> String {
        var out: [[String]] = []
        var next = 0
        for var row in rows(tsv) {
            if row[0] == "1" {
                setBox(&row, PageBox(left: 0, top: 0, right: frame.width, bottom: frame.height))
            } else if let b = box(row) {
                if row[0] == "5" {
                    guard next < words.count, b == words[next] else { continue }
                    next += 1
                }
                setBox(&row, frame.map(b))
            }
            out.append(row)
        }
        return join(out)
    }

    static func join(_ rows: [[String]]) -> String {
        ([header] + rows.map { $0.joined(separator: "\t") }).joined(separator: "\n") + "\n"
    }
}
