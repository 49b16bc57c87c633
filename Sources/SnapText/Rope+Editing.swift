/// Inserting and removing bytes: each copies only the path to the leaves it changes.
extension Rope {
    /// Inserts `bytes` (whole scalars) at `offset` (a scalar boundary, 0 ... ``utf8Count``).
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard !bytes.isEmpty else { return }
        var nodes = Self.inserting(bytes, at: min(max(0, offset), root.count), into: root)
        while nodes.count > 1 { nodes = RopeBuilder.parents(of: nodes) }
        root = nodes[0]
    }

    /// Inserts the UTF-8 bytes of `string` at `offset`.
    mutating func insert(_ string: String, at offset: Int) {
        var string = string
        string.withUTF8 { insert($0, at: offset) }
    }

    /// Removes the bytes of `range` (scalar boundaries; clamped into the text).
    mutating func remove(_ range: Range<Int>) {
        let lower = min(max(0, range.lowerBound), root.count)
        let upper = min(max(lower, range.upperBound), root.count)
        guard lower < upper else { return }
        var node = Self.removing(lower..<upper, from: root) ?? Node(leaf: [])
        while node.height > 0 && node.children.count == 1 { node = node.children[0] }
        root = node
    }

    /// The nodes (one, or several siblings of `node`'s height when it overflowed) that replace
    /// `node` once `bytes` are inserted at `offset` within it.
    private static func inserting(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, into node: Node) -> [Node] {
        if node.height == 0 {
            if node.count + bytes.count <= maxLeafBytes {
                var joined: [UInt8] = []
                joined.reserveCapacity(node.count + bytes.count)
                joined.append(contentsOf: node.bytes[..<offset])
                joined.append(contentsOf: bytes)
                joined.append(contentsOf: node.bytes[offset...])
                return [Node(leaf: joined)]
            }
            var builder = RopeBuilder()
            node.bytes.withUnsafeBufferPointer { leaf in
                builder.append(UnsafeBufferPointer(rebasing: leaf[..<offset]))
                builder.append(bytes)
                builder.append(UnsafeBufferPointer(rebasing: leaf[offset...]))
            }
            return builder.finishLeaves()
        }
        var start = 0
        var index = node.children.count - 1
        for (i, child) in node.children.enumerated() {
            if offset - start <= child.count {
                index = i
                break
            }
            start += child.count
        }
        let parts = inserting(bytes, at: offset - start, into: node.children[index])
        var children = node.children
        children.replaceSubrange(index...index, with: parts)
        if children.count <= maxChildren { return [Node(children: children)] }
        return RopeBuilder.parents(of: children)
    }

    /// `node` without the bytes of `range` (relative to it), or nil when nothing is left.
    private static func removing(_ range: Range<Int>, from node: Node) -> Node? {
        if range.lowerBound <= 0 && range.upperBound >= node.count { return nil }
        if node.height == 0 {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(node.count - range.count)
            bytes.append(contentsOf: node.bytes[..<range.lowerBound])
            bytes.append(contentsOf: node.bytes[range.upperBound...])
            return Node(leaf: bytes)
        }
        var children: [Node] = []
        children.reserveCapacity(node.children.count)
        var start = 0
        var firstTouched: Int?
        var lastTouched = 0
        for child in node.children {
            let end = start + child.count
            if end <= range.lowerBound || start >= range.upperBound {
                children.append(child)
            } else {
                if firstTouched == nil { firstTouched = children.count }
                let inner = max(range.lowerBound, start) - start..<min(range.upperBound, end) - start
                if let kept = removing(inner, from: child) { children.append(kept) }
                lastTouched = children.count
            }
            start = end
        }
        guard !children.isEmpty else { return nil }
        if let first = firstTouched {
            mergeSmallNeighbours(&children, from: max(0, first - 1), to: min(children.count - 1, lastTouched))
        }
        return Node(children: children)
    }

    /// Merges neighbours among `children[from...to]` while one of two is small and both fit in one.
    private static func mergeSmallNeighbours(_ children: inout [Node], from: Int, to: Int) {
        var i = from
        var upper = to
        while i < upper && i + 1 < children.count {
            if let merged = merge(children[i], children[i + 1]) {
                children[i] = merged
                children.remove(at: i + 1)
                upper -= 1
            } else {
                i += 1
            }
        }
    }

    private static func merge(_ a: Node, _ b: Node) -> Node? {
        if a.height == 0 {
            guard a.count + b.count <= maxLeafBytes, a.count < minLeafBytes || b.count < minLeafBytes else {
                return nil
            }
            return Node(leaf: a.bytes + b.bytes)
        }
        guard a.children.count + b.children.count <= maxChildren,
            a.children.count < minChildren || b.children.count < minChildren
        else { return nil }
        return Node(children: a.children + b.children)
    }
}

/// Builds a ``Rope`` from bytes appended in order, in O(n): full leaves cut at scalar
/// boundaries, whole leaves of another rope reused as they are, then the levels above them.
struct RopeBuilder {
    private var leaves: [Node] = []
    private var pending: [UInt8] = []

    init() { pending.reserveCapacity(Rope.maxLeafBytes) }

    /// Bytes appended so far.
    private(set) var count = 0

    /// Appends `bytes` (whole scalars overall: a scalar may be split between two calls).
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        count += bytes.count
        var rest = bytes[...]
        while !rest.isEmpty {
            let room = Rope.maxLeafBytes - pending.count
            if rest.count < room {
                pending.append(contentsOf: rest)
                return
            }
            pending.append(contentsOf: rest.prefix(room))
            rest = rest.dropFirst(room)
            flushFullLeaf()
        }
    }

    /// Appends the bytes of `string`.
    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// Appends the bytes of `range` of `rope` (scalar boundaries), reusing its leaves that lie
    /// wholly inside the range.
    mutating func append(_ rope: Rope, _ range: Range<Int>) {
        for (leaf, start) in rope.leaves(in: range) where leaf.count > 0 {
            let lower = max(range.lowerBound, start)
            let upper = min(range.upperBound, start + leaf.count)
            if lower < upper { append(leaf, lower - start..<upper - start) }
        }
    }

    /// Appends the bytes `range` of `leaf` (relative to it), reusing the leaf itself when the
    /// range is all of it.
    mutating func append(_ leaf: Node, _ range: Range<Int>) {
        if range.count == leaf.count && (pending.isEmpty || pending.count >= Rope.minLeafBytes) {
            if !pending.isEmpty { flushPending() }
            leaves.append(leaf)
            count += leaf.count
        } else {
            leaf.bytes.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[range])) }
        }
    }

    /// `pending` is full: it becomes a leaf, up to the start of a scalar it holds only part of.
    private mutating func flushFullLeaf() {
        let n = pending.count
        var s = n - 1
        while s > 0 && pending[s] & 0xC0 == 0x80 && n - s < 4 { s -= 1 }
        let lead = pending[s]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let cut = s + length <= n ? n : s
        leaves.append(Node(leaf: Array(pending[..<cut])))
        pending.removeFirst(cut)
    }

    private mutating func flushPending() {
        leaves.append(Node(leaf: pending))
        pending = []
        pending.reserveCapacity(Rope.maxLeafBytes)
    }

    /// The leaves, the last two evened out when the last is small.
    mutating func finishLeaves() -> [Node] {
        if !pending.isEmpty || leaves.isEmpty { flushPending() }
        if leaves.count >= 2, let last = leaves.last, last.count < Rope.minLeafBytes,
            leaves[leaves.count - 2].height == 0
        {
            let both = leaves[leaves.count - 2].bytes + last.bytes
            var cut = both.count / 2
            while cut > 0 && both[cut] & 0xC0 == 0x80 { cut -= 1 }
            if cut > 0 && both.count - cut > 0 && both.count <= 2 * Rope.maxLeafBytes {
                leaves.replaceSubrange(
                    (leaves.count - 2)..., with: [Node(leaf: Array(both[..<cut])), Node(leaf: Array(both[cut...]))])
            }
        }
        return leaves
    }

    /// The rope of everything appended.
    mutating func finish() -> Rope {
        var level = finishLeaves()
        while level.count > 1 { level = Self.parents(of: level) }
        return Rope(root: level[0])
    }

    /// `nodes` grouped under parents of at most ``Rope/maxChildren`` children, as evenly as possible.
    static func parents(of nodes: [Node]) -> [Node] {
        let groups = (nodes.count + Rope.maxChildren - 1) / Rope.maxChildren
        var result: [Node] = []
        result.reserveCapacity(groups)
        var start = 0
        for g in 0..<groups {
            let size = (nodes.count - start) / (groups - g)
            result.append(Node(children: Array(nodes[start..<(start + size)])))
            start += size
        }
        return result
    }
}

extension Rope {
    /// This text with each of `ranges` (sorted, non-overlapping, on scalar boundaries) replaced by
    /// `replacement(i)`, built in one pass over the leaves; the leaves no range touches are shared.
    func replacing(_ ranges: [Range<Int>], with replacement: (Int) -> [UInt8]) -> Rope {
        let leaves = leaves(in: 0..<utf8Count)
        var builder = RopeBuilder()
        var index = 0
        var position = 0
        func copy(upTo end: Int) {
            while position < end && index < leaves.count {
                let (leaf, start) = leaves[index]
                let leafEnd = start + leaf.count
                if leafEnd <= position {
                    index += 1
                    continue
                }
                let upper = min(end, leafEnd)
                builder.append(leaf, (position - start)..<(upper - start))
                position = upper
            }
        }
        for (i, range) in ranges.enumerated() {
            copy(upTo: range.lowerBound)
            replacement(i).withUnsafeBufferPointer { builder.append($0) }
            position = range.upperBound
        }
        copy(upTo: utf8Count)
        return builder.finish()
    }
}
