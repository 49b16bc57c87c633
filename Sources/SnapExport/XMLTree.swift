import CLibxml2
import Foundation

/// A parsed XML document (libxml2 `xmlReadMemory`), edited in place and serialized again.
final class XMLTree {
    typealias Node = UnsafeMutablePointer<xmlNode>
    private let doc: xmlDocPtr
    let format: ExportFormat

    /// Parses `text` (no network, no DTD loading, entities kept as they are).
    /// - Throws: `ExportError.malformed` with libxml2's message when it is not well-formed XML.
    init(_ text: String, format: ExportFormat) throws {
        self.format = format
        let bytes = Array(text.utf8)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), "page.xml", "UTF-8", options)
            }
        }
        guard let parsed else {
            let message = xmlGetLastError().flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "not XML"
            throw ExportError.malformed(format: format, reason: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        doc = parsed
    }

    deinit { xmlFreeDoc(doc) }

    /// The root element.
    var root: Node? { xmlDocGetRootElement(doc) }

    /// Every element under `node` (itself included), depth first, in document order.
    func elements(_ node: Node? = nil) -> [Node] {
        var out: [Node] = []
        func walk(_ n: Node) {
            if n.pointee.type == XML_ELEMENT_NODE { out.append(n) }
            var child = n.pointee.children
            while let c = child {
                let next = c.pointee.next
                walk(c)
                child = next
            }
        }
        if let start = node ?? root { walk(start) }
        return out
    }

    /// The element's local name (`div`, `String`).
    static func name(_ node: Node) -> String { node.pointee.name.map { String(cString: $0) } ?? "" }

    /// The attribute's value, or nil.
    static func attribute(_ node: Node, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { cx_xmlFree(value) }
        return String(cString: value)
    }

    /// Sets (or adds) an attribute; characters XML forbids become U+FFFD (`xmlCharacters`).
    static func setAttribute(_ node: Node, _ name: String, _ value: String) {
        xmlSetProp(node, name, xmlCharacters(value))
    }

    /// Replaces the element's content by `text` (raw text: libxml2 escapes it on output);
    /// characters XML forbids become U+FFFD (`xmlCharacters`).
    static func setText(_ node: Node, _ text: String) {
        xmlNodeSetContent(node, nil)
        xmlNodeAddContent(node, xmlCharacters(text))
    }

    /// `text` with each character XML 1.0 forbids (its `Char` production, § 2.2: the C0 controls
    /// but tab, line feed and carriage return; U+FFFE, U+FFFF) as U+FFFD, the replacement
    /// character. libxml2 writes a control character as `&#1;`, which no XML 1.0 parser
    /// reads: a `--replace` that put one into a word made the hOCR and ALTO documents invalid.
    static func xmlCharacters(_ text: String) -> String {
        func allowed(_ s: Unicode.Scalar) -> Bool {
            s.value >= 0x20 ? s.value != 0xFFFE && s.value != 0xFFFF : s == "\t" || s == "\n" || s == "\r"
        }
        guard !text.unicodeScalars.allSatisfy(allowed) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars { out.append(allowed(s) ? s : "\u{FFFD}") }
        return String(out)
    }

    /// The text content of the element and its descendants.
    static func text(_ node: Node) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { cx_xmlFree(content) }
        return String(cString: content)
    }

    /// Unlinks and frees the element (and what it holds).
    static func remove(_ node: Node) {
        xmlUnlinkNode(node)
        xmlFreeNode(node)
    }

    /// A deep copy of `node` (of another document) appended as the last child of `parent`.
    func append(copyOf node: Node, to parent: Node) {
        if let copy = xmlDocCopyNode(node, doc, 1) { xmlAddChild(parent, copy) }
    }

    /// The document as UTF-8 text, with its XML declaration (and DOCTYPE, when it had one).
    func serialized() -> String {
        var buffer: UnsafeMutablePointer<xmlChar>? = nil
        var size: Int32 = 0
        xmlDocDumpMemoryEnc(doc, &buffer, &size, "UTF-8")
        guard let buffer else { return "" }
        defer { cx_xmlFree(buffer) }
        return String(decoding: UnsafeBufferPointer(start: buffer, count: Int(size)), as: UTF8.self)
    }
}
