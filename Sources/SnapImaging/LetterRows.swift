/// Which ink components stand in words: letters printed side by side, as opposed to the flecks
/// of a texture (a stone wall, wood grain, a halftone photo), which Otsu's threshold also turns
/// into components of a few pixels.
///
/// Pure geometry on bounding boxes (pixels, y down), no image: the components come from
/// Leptonica's `pixConnCompBB`.
enum LetterRows {
    /// A component's bounding box in pixels.
    typealias Box = (x: Int, y: Int, width: Int, height: Int)

    /// How many of `boxes` stand in a row of at least three components, each the nearest next
    /// to the one before it, along the x axis or (a page turned by 90°) along the y axis,
    /// whichever gives more.
    ///
    /// Two components are next to each other when the second begins after the first and at most
    /// `0.6 ×` the taller one's height beyond its end (overlapping by at most a quarter of the
    /// narrower one: kerned letters), overlap across the row by at least half the lower one's
    /// height, and their heights differ at most 2.5× (a capital beside a small letter, not a
    /// fleck beside a blot). Measured on the corpus and the stress set (145 pages): 43–100 % of
    /// the components stand in such rows on every page of print read upright (small print,
    /// receipts, tables, handwriting-like typewriting), 2 % on a stone wall's texture.
    static func inRows(_ boxes: [Box]) -> Int {
        max(inRowsAlongX(boxes), inRowsAlongX(boxes.map { (x: $0.y, y: $0.x, width: $0.height, height: $0.width) }))
    }

    /// `inRows` along the x axis only.
    static func inRowsAlongX(_ boxes: [Box]) -> Int {
        guard boxes.count >= 3 else { return 0 }
        let heights = boxes.map(\.height).sorted()
        let cell = max(4, 2 * heights[heights.count / 2])
        // Components by grid cell of their top-left corner, to find the candidates near each.
        var grid: [Int: [Int]] = [:]
        func key(_ cx: Int, _ cy: Int) -> Int { cx &* 1_000_003 &+ cy }
        for (i, b) in boxes.enumerated() { grid[key(b.x / cell, b.y / cell), default: []].append(i) }

        // Each component's nearest neighbour to the right, or -1.
        var next = [Int](repeating: -1, count: boxes.count)
        for (i, a) in boxes.enumerated() {
            let end = a.x + a.width
            // A neighbour at most 2.5× taller begins within 1.5 × a.height of a's end, and, to
            // overlap a's row, at most 2.5 × a.height above it.
            let reach = (a.height * 3 + 1) / 2
            var best = -1
            for cx in (max(0, end - a.width / 4 - 1) / cell)...((end + reach) / cell) {
                for cy in (max(0, a.y - 5 * a.height / 2) / cell)...((a.y + a.height) / cell) {
                    for j in grid[key(cx, cy)] ?? [] where j != i {
                        let b = boxes[j]
                        guard b.x > a.x, b.height * 5 >= a.height * 2, b.height * 2 <= a.height * 5 else { continue }
                        let gap = b.x - end
                        let taller = max(a.height, b.height)
                        guard gap * 5 <= taller * 3, gap >= -max(1, min(a.width, b.width) / 4) else { continue }
                        let overlap = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
                        guard overlap * 2 >= min(a.height, b.height) else { continue }
                        if best < 0 || b.x < boxes[best].x || (b.x == boxes[best].x && j < best) { best = j }
                    }
                }
            }
            next[i] = best
        }
        // Rows start at components nobody points to; x grows along a row, so rows end.
        var pointedTo = [Bool](repeating: false, count: boxes.count)
        for j in next where j >= 0 { pointedTo[j] = true }
        var inRow = [Bool](repeating: false, count: boxes.count)
        var row: [Int] = []
        for start in boxes.indices where !pointedTo[start] {
            row.removeAll(keepingCapacity: true)
            var i = start
            while i >= 0 {
                row.append(i)
                i = next[i]
            }
            if row.count >= 3 { for k in row { inRow[k] = true } }
        }
        return inRow.count { $0 }
    }
}
