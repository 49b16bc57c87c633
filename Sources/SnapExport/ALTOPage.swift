/// Edits of Tesseract's ALTO (3.0: `Page`, `PrintSpace`, `TextBlock`, `TextLine`, `String`,
/// `SP`, positions in `HPOS`, `VPOS`, `WIDTH`, `HEIGHT`, pixels).
enum ALTOPage {
    static func int(_ node: XMLTree.Node, _ name: String) -> Int? { XMLTree.attribute(node, name).flatMap { Int($0) } }

    static func box(_ node: XMLTree.Node) -> PageBox? {
        guard let l = int(node, "HPOS"), let t = int(node, "VPOS"), let w = int(node, "WIDTH") else { return nil }
        let h = int(node, "HEIGHT") ?? 0
        return PageBox(left: l, top: t, right: l + w, bottom: t + h)
    }

    static func setBox(_ node: XMLTree.Node, _ b: PageBox, height: Bool) {
        XMLTree.setAttribute(node, "HPOS", String(b.left))
        XMLTree.setAttribute(node, "VPOS", String(b.top))
        XMLTree.setAttribute(node, "WIDTH", String(b.right - b.left))
        if height { XMLTree.setAttribute(node, "HEIGHT", String(b.bottom - b.top)) }
    }

    /// The ALTO with positions in the photo's pixels and only the words in `words` (matched by
    /// box, in order; a space after a word left out goes with it); lines and blocks left empty go too.
    /// - Throws: `ExportError.malformed` when the ALTO is not well-formed.
    static func normalized(_ alto: String, words: [PageBox], frame: PhotoFrame) throws -> String {
        let tree = try XMLTree(alto, format: .alto)
        var next = 0
        var removed: [XMLTree.Node] = []
        var dropSpace = false
        for node in tree.elements() {
            switch XMLTree.name(node) {
            case "fileName": XMLTree.setText(node, frame.name)
            case "Page":
                XMLTree.setAttribute(node, "WIDTH", String(frame.width))
                XMLTree.setAttribute(node, "HEIGHT", String(frame.height))
            case "PrintSpace":
                setBox(node, PageBox(left: 0, top: 0, right: frame.width, bottom: frame.height), height: true)
            case "String":
                guard let b = box(node) else { continue }
                if next < words.count && b == words[next] {
                    next += 1
                    dropSpace = false
                    setBox(node, frame.map(b), height: true)
                } else {
                    removed.append(node)
                    dropSpace = true
                }
            case "SP":
                if dropSpace {
                    removed.append(node)
                    dropSpace = false
                } else if let b = box(node) {
                    setBox(node, frame.map(b), height: false)
                }
            default:
                if let b = box(node), XMLTree.attribute(node, "HEIGHT") != nil {
                    setBox(node, frame.map(b), height: true)
                }
            }
        }
        for node in removed { XMLTree.remove(node) }
        for name in ["TextLine", "TextBlock", "ComposedBlock"] {
            for node in tree.elements() where XMLTree.name(node) == name {
                if !tree.elements(node).contains(where: { XMLTree.name($0) == "String" }) { XMLTree.remove(node) }
            }
        }
        return tree.serialized()
    }
}
