import Testing

@testable import SnapText

/// The rope against a plain byte array: seeded random inserts and removes of every size, from a
/// byte to many leaves, and after each one the bytes, the line index and the tree's shape.
struct RopeTests {
    /// Every leaf at the same depth, none empty (but an empty text's), none over the limit, each
    /// holding whole scalars; every inner node's counts the sum of its children's.
    static func checkShape(
        _ node: Node, depth: Int, leafDepth: inout Int?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if node.height == 0 {
            #expect(node.count <= Rope.maxLeafBytes, sourceLocation: sourceLocation)
            if let d = leafDepth { #expect(d == depth, sourceLocation: sourceLocation) } else { leafDepth = depth }
            if let first = node.bytes.first {
                #expect(first & 0xC0 != 0x80, "a leaf starts inside a scalar", sourceLocation: sourceLocation)
            }
            #expect(
                String(validating: node.bytes, as: UTF8.self) != nil, "a leaf holds part of a scalar",
                sourceLocation: sourceLocation)
            return
        }
        #expect(!node.children.isEmpty && node.children.count <= Rope.maxChildren, sourceLocation: sourceLocation)
        #expect(node.count == node.children.reduce(0) { $0 + $1.count }, sourceLocation: sourceLocation)
        #expect(node.newlines == node.children.reduce(0) { $0 + $1.newlines }, sourceLocation: sourceLocation)
        for child in node.children {
            #expect(child.height == node.height - 1, sourceLocation: sourceLocation)
            #expect(child.count > 0, sourceLocation: sourceLocation)
            checkShape(child, depth: depth + 1, leafDepth: &leafDepth, sourceLocation: sourceLocation)
        }
    }

    static func check(_ rope: Rope, _ model: [UInt8], _ step: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(rope.bytes(in: 0..<rope.utf8Count) == model, "\(step)", sourceLocation: sourceLocation)
        #expect(rope.newlineCount == model.filter { $0 == 0x0A }.count, "\(step)", sourceLocation: sourceLocation)
        var leafDepth: Int?
        checkShape(rope.root, depth: 0, leafDepth: &leafDepth, sourceLocation: sourceLocation)
        // The line index: where each line starts, and which line each of a few offsets is on.
        var starts = [0]
        for (i, b) in model.enumerated() where b == 0x0A { starts.append(i + 1) }
        for line in Set([0, starts.count / 2, starts.count - 1, starts.count]) {
            #expect(
                rope.startOffset(ofLine: line) == (line < starts.count ? starts[line] : model.count), "\(step)",
                sourceLocation: sourceLocation)
        }
        for offset in Set([0, model.count / 3, model.count]) {
            #expect(
                rope.line(containing: offset) == starts.filter { $0 <= offset }.count - 1, "\(step)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [7, 8])
    func randomInsertsAndRemovesMatchAByteArray(seed: UInt64) {
        var random = LongLineModelTests.Random(state: seed)
        let pieces = ["a", "é", "\n", "見", "🌙", "Lenore\n", "e\u{301}"]
        func text(_ scalars: Int) -> String {
            var s = ""
            while s.unicodeScalars.count < scalars { s += pieces[random.below(pieces.count)] }
            return s
        }
        var model = Array(text(5_000).utf8)
        var rope = Rope(String(decoding: model, as: UTF8.self))
        Self.check(rope, model, "building")
        for step in 0..<200 {
            // A scalar boundary of the model.
            func boundary() -> Int {
                var i = random.below(model.count + 1)
                while i < model.count && model[i] & 0xC0 == 0x80 { i += 1 }
                return i
            }
            if random.below(2) == 0 || model.count < 100 {
                let size = [1, 5, 300, 1_500, 6_000][random.below(5)]
                let inserted = text(size)
                let at = boundary()
                rope.insert(inserted, at: at)
                model.insert(contentsOf: inserted.utf8, at: at)
            } else {
                let a = boundary()
                var b = min(model.count, a + [1, 7, 2_500, 9_000][random.below(4)])
                while b < model.count && model[b] & 0xC0 == 0x80 { b += 1 }
                rope.remove(a..<b)
                model.removeSubrange(a..<b)
            }
            if step % 20 == 0 { Self.check(rope, model, "step \(step)") }
        }
        Self.check(rope, model, "the end")
        #expect(rope == Rope(String(decoding: model, as: UTF8.self)))
    }

    /// Newlines are counted eight bytes at a time; every byte value next to them is counted right.
    @Test func newlinesAreCountedExactly() {
        var bytes: [UInt8] = []
        for value in 0...255 { bytes += [UInt8(value), 0x0A, UInt8(value), UInt8(value), 0x0A, 0x0A] }
        for length in [0, 1, 7, 8, 9, 15, 16, 17, bytes.count] {
            let part = Array(bytes[..<length])
            let counted = part.withUnsafeBufferPointer { Node.countNewlines($0) }
            #expect(counted == part.filter { $0 == 0x0A }.count, "\(length) bytes")
        }
    }

    @Test func removingEverythingLeavesAnEmptyText() {
        var rope = Rope(String(repeating: "Lenore\n", count: 10_000))
        rope.remove(5..<(rope.utf8Count - 5))
        #expect(String(rope) == "Lenornore\n")
        rope.remove(0..<rope.utf8Count)
        #expect(rope.isEmpty && rope.newlineCount == 0 && rope.startOffset(ofLine: 1) == 0)
        rope.insert("a\nb", at: 0)
        #expect(String(rope) == "a\nb")
    }
}
