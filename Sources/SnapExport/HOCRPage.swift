import Foundation

/// Edits of Tesseract's hOCR (hOCR 1.2: `title` properties `bbox`, `baseline`, `x_size`, …):
/// coordinates to the photo, words left out, words corrected, pages joined.
enum HOCRPage {
    /// The `title` properties of an hOCR element, in order (`bbox 1 2 3 4; x_wconf 96`).
    struct Title {
        var properties: [(name: String, value: String)]

        init(_ title: String) {
            properties = title.split(separator: ";").compactMap { part in
                let p = part.trimmingCharacters(in: .whitespaces)
                guard !p.isEmpty else { return nil }
                let name = p.prefix { $0 != " " }
                return (String(name), p.dropFirst(name.count).trimmingCharacters(in: .whitespaces))
            }
        }

        subscript(name: String) -> String? {
            get { properties.first { $0.name == name }?.value }
            set {
                if let i = properties.firstIndex(where: { $0.name == name }) {
                    if let newValue { properties[i].value = newValue } else { properties.remove(at: i) }
                } else if let newValue {
                    properties.append((name, newValue))
                }
            }
        }

        var box: PageBox? {
            guard let v = self["bbox"] else { return nil }
            let n = v.split(separator: " ").compactMap { Int($0) }
            return n.count == 4 ? PageBox(left: n[0], top: n[1], right: n[2], bottom: n[3]) : nil
        }

        var text: String { properties.map { "\($0.name) \($0.value)" }.joined(separator: "; ") }
    }

    static func classOf(_ node: XMLTree.Node) -> String { XMLTree.attribute(node, "class") ?? "" }

    /// The hOCR with coordinates in the photo's pixels and only the words in `words` (matched by
    /// their boxes, in order); lines, paragraphs and areas left empty are removed too.
    /// - Returns: the document, and for each `ocrx_word` Tesseract wrote whether it was kept.
    /// - Throws: `ExportError.malformed` when the hOCR is not well-formed.
    static func normalized(_ hocr: String, words: [PageBox], frame: PhotoFrame) throws -> (String, [Bool]) {
        let tree = try XMLTree(hocr, format: .hocr)
        var kept: [Bool] = []
        var next = 0
        var removed: [XMLTree.Node] = []
        for node in tree.elements() {
            guard let raw = XMLTree.attribute(node, "title") else { continue }
            var title = Title(raw)
            let cls = classOf(node)
            if cls == "ocrx_word" {
                let match = next < words.count && title.box == words[next]
                kept.append(match)
                if match { next += 1 } else { removed.append(node) }
            }
            if cls == "ocr_page" {
                title["image"] = "\"\(frame.name.replacingOccurrences(of: "\"", with: "'"))\""
                title["bbox"] = "0 0 \(frame.width) \(frame.height)"
            } else if let box = title.box {
                let mapped = frame.map(box)
                title["bbox"] = "\(mapped.left) \(mapped.top) \(mapped.right) \(mapped.bottom)"
                let factor = Double(max(1, mapped.bottom - mapped.top)) / Double(max(1, box.bottom - box.top))
                if let baseline = title["baseline"] {
                    title["baseline"] = mappedBaseline(baseline, box: box, mapped: mapped, frame: frame)
                }
                for name in ["x_size", "x_descenders", "x_ascenders"] {
                    if let v = title[name].flatMap(Double.init) {
                        title[name] = format(v * factor)
                    }
                }
            }
            XMLTree.setAttribute(node, "title", title.text)
        }
        guard next == words.count else {
            throw ExportError.malformed(
                format: .hocr, reason: "\(words.count - next) of the reading's words are not in Tesseract's hOCR")
        }
        for node in removed { XMLTree.remove(node) }
        removeEmpty(tree)
        return (tree.serialized(), kept)
    }

    /// Lines, then paragraphs, then areas that hold no word any more are removed.
    static func removeEmpty(_ tree: XMLTree) {
        for classes in [["ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"], ["ocr_par"], ["ocr_carea"]] {
            for node in tree.elements() where classes.contains(classOf(node)) {
                if !tree.elements(node).contains(where: { classOf($0) == "ocrx_word" }) { XMLTree.remove(node) }
            }
        }
    }

    /// A `baseline` (slope, offset from the box's bottom-left corner) mapped with its line.
    static func mappedBaseline(_ value: String, box: PageBox, mapped: PageBox, frame: PhotoFrame) -> String {
        let n = value.split(separator: " ").compactMap { Double($0) }
        guard n.count == 2 else { return value }
        let (slope, offset) = (n[0], n[1])
        let y0 = Double(box.bottom) + offset
        let y1 = y0 + slope * Double(box.right - box.left)
        let a = frame.geometry.photoPoint(x: Double(box.left), y: y0)
        let b = frame.geometry.photoPoint(x: Double(box.right), y: y1)
        let newSlope = abs(b.x - a.x) < 1e-9 ? 0 : (b.y - a.y) / (b.x - a.x)
        let atLeft = a.y + newSlope * (Double(mapped.left) - a.x)
        return "\(format(newSlope, places: 3)) \(format(atLeft - Double(mapped.bottom)))"
    }

    static func format(_ v: Double, places: Int = 0) -> String {
        if places == 0 { return String(Int(v.rounded())) }
        let p = pow(10, Double(places))
        let r = (v * p).rounded() / p
        return r == 0 ? "0" : String(r)
    }

    /// The words (`ocrx_word`) of a page, in order.
    static func words(_ tree: XMLTree) -> [XMLTree.Node] {
        tree.elements().filter { classOf($0) == "ocrx_word" }
    }
}
