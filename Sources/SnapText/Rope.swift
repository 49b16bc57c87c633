/// UTF-8 text in a balanced tree of chunks (a rope): inserting or removing anywhere, finding a
/// line and copying out a range cost O(log n) whatever the text's size.
///
/// Leaves hold up to ``maxLeafBytes`` bytes of whole Unicode scalars; every node keeps its byte
/// and line-feed counts, so line offsets (the line index) come from the tree. Nodes never change
/// once made: an edit copies the path to the leaf it changes (a few nodes and one leaf of at most
/// 2 KiB), so a copy of a rope is a snapshot that costs nothing, and the undo history keeps whole
/// texts (a replace-all and its undo) for the price of the chunks that differ.
///
/// Offsets count UTF-8 bytes from the start; ranges given to a rope must lie on scalar
/// boundaries (a ``TextBuffer`` checks its edits).
public struct Rope: Sendable {
    /// The most bytes a leaf holds.
    static let maxLeafBytes = 2048
    /// Neighbouring leaves smaller than this are merged after a removal.
    static let minLeafBytes = 512
    /// The most children of an inner node.
    static let maxChildren = 16
    /// Neighbouring inner nodes with fewer children than this are merged after a removal.
    static let minChildren = 4

    var root: Node

    init(root: Node) { self.root = root }

    /// An empty text.
    public init() { root = Node(leaf: []) }

    /// The UTF-8 bytes of `string`, exactly (nothing is normalised).
    public init(_ string: String) {
        var string = string
        var builder = RopeBuilder()
        string.withUTF8 { builder.append($0) }
        self = builder.finish()
    }

    /// Length in UTF-8 bytes.
    public var utf8Count: Int { root.count }
    /// Number of line feeds (`"\n"`, 0x0A).
    public var newlineCount: Int { root.newlines }
    /// Whether the text is empty.
    public var isEmpty: Bool { root.count == 0 }

    /// The byte at `offset` (0 ..< ``utf8Count``).
    func byte(at offset: Int) -> UInt8 {
        var node = root
        var offset = offset
        while node.height > 0 {
            for child in node.children {
                if offset < child.count {
                    node = child
                    break
                }
                offset -= child.count
            }
        }
        return node.bytes[offset]
    }

    /// Offset of the first byte of line `line` (0-based, lines separated by `"\n"`); the end of
    /// the text for a line past the last.
    func startOffset(ofLine line: Int) -> Int {
        guard line > 0 else { return 0 }
        guard line <= root.newlines else { return root.count }
        var node = root
        var remaining = line
        var offset = 0
        while node.height > 0 {
            for child in node.children {
                if child.newlines < remaining {
                    remaining -= child.newlines
                    offset += child.count
                } else {
                    node = child
                    break
                }
            }
        }
        for (i, byte) in node.bytes.enumerated() where byte == 0x0A {
            remaining -= 1
            if remaining == 0 { return offset + i + 1 }
        }
        return offset + node.count
    }

    /// The 0-based line `offset` is on: the number of `"\n"` before it.
    func line(containing offset: Int) -> Int {
        var node = root
        var offset = min(max(0, offset), root.count)
        var line = 0
        while node.height > 0 {
            var next: Node?
            for child in node.children {
                if offset < child.count {
                    next = child
                    break
                }
                offset -= child.count
                line += child.newlines
            }
            guard let next else { return line }
            node = next
        }
        for byte in node.bytes[..<offset] where byte == 0x0A { line += 1 }
        return line
    }

    /// Calls `body` with the bytes of `range` in order, one leaf's part at a time, until it
    /// returns false. The range is clamped into the text.
    func forEachChunk(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) rethrows {
        let lower = min(max(0, range.lowerBound), root.count)
        let upper = min(max(lower, range.upperBound), root.count)
        guard lower < upper else { return }
        _ = try Self.visit(root, lower..<upper, body)
    }

    private static func visit(
        _ node: Node, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Bool
    ) rethrows -> Bool {
        if node.height == 0 {
            return try node.bytes.withUnsafeBufferPointer {
                try body(UnsafeBufferPointer(rebasing: $0[range]))
            }
        }
        var start = 0
        for child in node.children {
            let end = start + child.count
            if end > range.lowerBound && start < range.upperBound {
                let inner = max(range.lowerBound, start) - start..<min(range.upperBound, end) - start
                if try !visit(child, inner, body) { return false }
            }
            if end >= range.upperBound { break }
            start = end
        }
        return true
    }

    /// The whole text's UTF-8 bytes (``utf8Count`` of them), copied in one pass over the chunks.
    public var utf8Bytes: [UInt8] { bytes(in: 0..<root.count) }

    /// The bytes of `range` (clamped into the text).
    func bytes(in range: Range<Int>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(max(0, min(range.upperBound, root.count) - max(0, range.lowerBound)))
        forEachChunk(in: range) {
            result.append(contentsOf: $0)
            return true
        }
        return result
    }

    /// The text of `range` (clamped; on scalar boundaries).
    func string(in range: Range<Int>) -> String {
        let lower = min(max(0, range.lowerBound), root.count)
        let upper = min(max(lower, range.upperBound), root.count)
        guard lower < upper else { return "" }
        return String(
            unsafeUninitializedCapacity: upper - lower,
            initializingUTF8With: { buffer in
                var written = 0
                forEachChunk(in: lower..<upper) { chunk in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(from: chunk)
                    written += chunk.count
                    return true
                }
                return written
            })
    }

    /// The offset of the last `byte` in `range`, or nil.
    func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        let lower = min(max(0, range.lowerBound), root.count)
        let upper = min(max(lower, range.upperBound), root.count)
        guard lower < upper else { return nil }
        return Self.lastIndex(of: byte, in: root, lower..<upper, base: 0)
    }

    private static func lastIndex(of byte: UInt8, in node: Node, _ range: Range<Int>, base: Int) -> Int? {
        if node.height == 0 {
            return node.bytes[range].lastIndex(of: byte).map { base + $0 }
        }
        var starts: [Int] = []
        var start = 0
        for child in node.children {
            starts.append(start)
            start += child.count
        }
        for i in node.children.indices.reversed() {
            let childStart = starts[i]
            let childEnd = childStart + node.children[i].count
            guard childEnd > range.lowerBound, childStart < range.upperBound else { continue }
            let inner = max(range.lowerBound, childStart) - childStart..<min(range.upperBound, childEnd) - childStart
            if let found = lastIndex(of: byte, in: node.children[i], inner, base: base + childStart) { return found }
        }
        return nil
    }

    /// Whether `range` holds `byte`.
    func contains(_ byte: UInt8, in range: Range<Int>) -> Bool {
        var found = false
        forEachChunk(in: range) { chunk in
            found = chunk.contains(byte)
            return !found
        }
        return found
    }

    /// The leaves overlapping `range`, with the offset each starts at.
    func leaves(in range: Range<Int>) -> [(node: Node, start: Int)] {
        var result: [(node: Node, start: Int)] = []
        func collect(_ node: Node, _ base: Int) {
            guard base < range.upperBound, base + node.count > range.lowerBound || node.count == 0 else { return }
            if node.height == 0 {
                result.append((node, base))
                return
            }
            var start = base
            for child in node.children {
                collect(child, start)
                start += child.count
            }
        }
        collect(root, 0)
        return result
    }
}

extension Rope: Equatable {
    /// Whether both hold the same bytes.
    public static func == (lhs: Rope, rhs: Rope) -> Bool {
        if lhs.root === rhs.root { return true }
        guard lhs.utf8Count == rhs.utf8Count, lhs.newlineCount == rhs.newlineCount else { return false }
        var other = rhs.leaves(in: 0..<rhs.utf8Count).lazy.filter { $0.node.count > 0 }.makeIterator()
        var current: [UInt8] = []
        var index = 0
        var equal = true
        lhs.forEachChunk(in: 0..<lhs.utf8Count) { chunk in
            for byte in chunk {
                while index == current.count {
                    guard let next = other.next() else {
                        equal = false
                        return false
                    }
                    current = next.node.bytes
                    index = 0
                }
                if current[index] != byte {
                    equal = false
                    return false
                }
                index += 1
            }
            return true
        }
        return equal
    }
}

extension Rope: ExpressibleByStringLiteral, CustomStringConvertible {
    /// The literal's UTF-8 bytes.
    public init(stringLiteral value: String) { self.init(value) }

    /// The whole text.
    public var description: String { string(in: 0..<utf8Count) }
}

extension String {
    /// The whole text of `rope`.
    public init(_ rope: Rope) { self = rope.string(in: 0..<rope.utf8Count) }
}

/// A node of a ``Rope``: a leaf of bytes, or an inner node over children of equal height.
/// Immutable, so that ropes share nodes.
final class Node: Sendable {
    /// Bytes below this node.
    let count: Int
    /// Line feeds below this node.
    let newlines: Int
    /// 0 for a leaf.
    let height: Int
    /// A leaf's bytes (empty for an inner node).
    let bytes: [UInt8]
    /// An inner node's children (empty for a leaf).
    let children: [Node]

    init(leaf bytes: [UInt8]) {
        self.bytes = bytes
        count = bytes.count
        newlines = bytes.withUnsafeBufferPointer { Self.countNewlines($0) }
        height = 0
        children = []
    }

    init(children: [Node]) {
        self.children = children
        var count = 0
        var newlines = 0
        for child in children {
            count += child.count
            newlines += child.newlines
        }
        self.count = count
        self.newlines = newlines
        height = (children.first?.height ?? 0) + 1
        bytes = []
    }

    static func countNewlines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var n = 0
        var i = 0
        // Eight bytes at a time: the high bit of each byte of `zero` is set exactly where the
        // byte is 0x0A (no borrow crosses bytes).
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= bytes.count {
            let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let zero = ~(((x & low7) &+ low7) | x | low7)
            n += zero.nonzeroBitCount
            i += 8
        }
        while i < bytes.count {
            if bytes[i] == 0x0A { n += 1 }
            i += 1
        }
        return n
    }
}
