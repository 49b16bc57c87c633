import Foundation
import SnapImaging

/// A text region the detector found (`TextDetector.detect`): a quadrilateral in pixels of the
/// photo it was given, corners from the top-left clockwise, and its score (0–1).
public struct DetectedRegion: Equatable, Codable, Sendable {
    /// A point in pixels (x to the right, y down), as a page's corners are.
    public typealias Point = PageQuadrilateral.Point

    /// Top-left, top-right, bottom-right, bottom-left.
    public var corners: [Point]
    /// The mean text probability over the region's own pixels (0–1).
    public var score: Double

    /// A region from its four corners (top-left, top-right, bottom-right, bottom-left) and score.
    public init(corners: [Point], score: Double) {
        precondition(corners.count == 4, "a region has four corners")
        self.corners = corners
        self.score = score
    }

    private static func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }

    /// Length along the line: the mean of the top and bottom edges (pixels).
    public var width: Double {
        (DetectedRegion.distance(corners[0], corners[1]) + DetectedRegion.distance(corners[3], corners[2])) / 2
    }
    /// Height across the line: the mean of the left and right edges (pixels).
    public var height: Double {
        (DetectedRegion.distance(corners[0], corners[3]) + DetectedRegion.distance(corners[1], corners[2])) / 2
    }
    /// The centre (pixels).
    public var centre: Point {
        Point(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
    }
    /// The slope of the line in radians (positive: it falls to the right), from the top edge.
    public var angle: Double { atan2(corners[1].y - corners[0].y, corners[1].x - corners[0].x) }
    /// The axis-aligned box around the corners (pixels, rounded out).
    public var bounds: BoundingBox { DetectedRegion.box(around: corners) }

    /// The axis-aligned box around `points` (pixels, rounded out); `points` is not empty.
    static func box(around points: [Point]) -> BoundingBox {
        let left = points.map(\.x).min()!.rounded(.down)
        let right = points.map(\.x).max()!.rounded(.up)
        let top = points.map(\.y).min()!.rounded(.down)
        let bottom = points.map(\.y).max()!.rounded(.up)
        return BoundingBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }
}

/// The order in which detected regions are read, as a page is: columns one after the other, the
/// regions of one row left to right (a receipt's item and its price on one line).
///
/// A recursive XY-cut (Nagy and Seth, 1984) in the page's own frame (turned by the median slope of
/// the regions, so that a skewed photo's rows stay rows): a set of regions is cut at a vertical
/// gutter when both sides are columns (each at least `minimumColumnShare` of the set's width, of
/// two rows or more, their rows not level with each other unless both are full of prose lines as
/// a newspaper's are: a receipt's narrow column of prices and a table's columns are not columns of
/// text, `maximumLevelRows`, `isFullColumn`), otherwise at
/// its widest horizontal gap; a set with no cut left is grouped into rows by their centres, and
/// pieces one below the other closer than a paragraph's gap (`minimumBandGapHeights`) make one
/// block.
public enum ReadingOrder {
    /// A row of regions read as one line of text, in a block (a column).
    public struct Row: Equatable, Sendable {
        /// Indices into the regions given, left to right.
        public var regions: [Int]
        /// The block (column piece) it belongs to, counted in reading order.
        public var block: Int
    }

    /// The narrowest side of a vertical cut that counts as a column, as a share of the set's width.
    public static let minimumColumnShare = 0.25

    /// A gutter narrower than this many median region heights is a space between words (the
    /// regions hold their lines' margins: a real gutter looks narrower between them).
    public static let minimumGutterHeights = 0.5

    /// Two sides whose rows are level with each other this often (0–1) are a table's or a
    /// receipt's columns, read across, not columns of text.
    public static let maximumLevelRows = 0.5

    /// A horizontal gap narrower than this many median region heights is the space between two
    /// lines of one block, not a new block (the regions hold their lines' margins).
    public static let minimumBandGapHeights = 0.5

    /// The rows of `regions` in reading order.
    public static func rows(of regions: [DetectedRegion]) -> [Row] {
        guard !regions.isEmpty else { return [] }
        let slopes = regions.filter { $0.width > 2 * $0.height }.map(\.angle).sorted()
        let slope = slopes.isEmpty ? 0 : slopes[slopes.count / 2]
        let (c, s) = (cos(-slope), sin(-slope))
        // Each region's extent in the page's frame.
        let boxes: [Extent] = regions.map { r in
            let xs = r.corners.map { $0.x * c - $0.y * s }
            let ys = r.corners.map { $0.x * s + $0.y * c }
            return Extent(left: xs.min()!, right: xs.max()!, top: ys.min()!, bottom: ys.max()!, height: r.height)
        }
        let heights = regions.map(\.height).sorted()
        let median = heights[heights.count / 2]
        var rows: [Row] = []
        var block = -1
        var previous: (top: Double, bottom: Double)?
        cut(Array(boxes.indices), boxes, median: median) { leaf in
            let top = leaf.map { boxes[$0].top }.min()!
            let bottom = leaf.map { boxes[$0].bottom }.max()!
            // A piece straight below the last, closer than a paragraph's gap, is the same block.
            if let previous, top >= previous.bottom - median / 2, top - previous.bottom < minimumBandGapHeights * median
            {
            } else {
                block += 1
            }
            previous = (top, bottom)
            for row in groupedInRows(leaf, boxes) { rows.append(Row(regions: row, block: block)) }
        }
        return rows
    }

    struct Extent {
        var left, right, top, bottom, height: Double
    }

    /// The gaps between the union of the intervals, widest first: (start, end) of each gap.
    private static func gaps(_ intervals: [(Double, Double)]) -> [(Double, Double)] {
        let sorted = intervals.sorted { $0.0 < $1.0 }
        var out: [(Double, Double)] = []
        var reach = sorted[0].1
        for (lo, hi) in sorted.dropFirst() {
            if lo > reach { out.append((reach, lo)) }
            reach = max(reach, hi)
        }
        return out.sorted { $0.1 - $0.0 > $1.1 - $1.0 }
    }

    private static func cut(_ set: [Int], _ boxes: [Extent], median: Double, leaf: ([Int]) -> Void) {
        guard set.count > 1 else {
            leaf(set)
            return
        }
        let left = set.map { boxes[$0].left }.min()!
        let right = set.map { boxes[$0].right }.max()!
        for gap in gaps(set.map { (boxes[$0].left, boxes[$0].right) })
        where gap.1 - gap.0 >= minimumGutterHeights * median {
            let middle = (gap.0 + gap.1) / 2
            let a = set.filter { boxes[$0].right <= middle }
            let b = set.filter { boxes[$0].left >= middle }
            let share = min(gap.0 - left, right - gap.1) / max(right - left, 1)
            let (rowsA, rowsB) = (groupedInRows(a, boxes), groupedInRows(b, boxes))
            if share >= minimumColumnShare && rowsA.count >= 2 && rowsB.count >= 2
                && (levelShare(rowsA, rowsB, boxes) <= maximumLevelRows
                    || (isFullColumn(rowsA, boxes) && isFullColumn(rowsB, boxes)))
            {
                cut(a, boxes, median: median, leaf: leaf)
                cut(b, boxes, median: median, leaf: leaf)
                return
            }
        }
        if let gap = gaps(set.map { (boxes[$0].top, boxes[$0].bottom) }).first {
            let middle = (gap.0 + gap.1) / 2
            cut(set.filter { boxes[$0].bottom <= middle }, boxes, median: median, leaf: leaf)
            cut(set.filter { boxes[$0].top >= middle }, boxes, median: median, leaf: leaf)
            return
        }
        leaf(set)
    }

    /// The share (0–1) of the rows of the side with fewer rows that are level with a row of the
    /// other side: their vertical extents overlap by 80 % of the lower one (a table's cells share
    /// their rows exactly; columns of text drift apart).
    static func levelShare(_ a: [[Int]], _ b: [[Int]], _ boxes: [Extent]) -> Double {
        func extent(_ row: [Int]) -> (Double, Double) {
            (row.map { boxes[$0].top }.min()!, row.map { boxes[$0].bottom }.max()!)
        }
        let (fewer, more) = a.count <= b.count ? (a.map(extent), b.map(extent)) : (b.map(extent), a.map(extent))
        let level = fewer.filter { r in
            more.contains { o in min(r.1, o.1) - max(r.0, o.0) >= 0.8 * min(r.1 - r.0, o.1 - o.0) }
        }
        return Double(level.count) / Double(fewer.count)
    }

    /// `set` grouped into rows, top to bottom, each left to right: a region joins the row when its
    /// centre is within half a height (the lower of its own and the row's mean) of the row's mean
    /// centre. Centres, not extents: the regions hold their lines' margins, and a short one's
    /// overlaps the next line's.
    static func groupedInRows(_ set: [Int], _ boxes: [Extent]) -> [[Int]] {
        func centre(_ i: Int) -> Double { (boxes[i].top + boxes[i].bottom) / 2 }
        let byCentre = set.sorted { centre($0) < centre($1) }
        var rows: [(centres: Double, heights: Double, members: [Int])] = []
        for i in byCentre {
            if let last = rows.indices.last {
                let n = Double(rows[last].members.count)
                let limit = min(rows[last].heights / n, boxes[i].height) / 2
                if abs(centre(i) - rows[last].centres / n) < limit {
                    rows[last].members.append(i)
                    rows[last].centres += centre(i)
                    rows[last].heights += boxes[i].height
                    continue
                }
            }
            rows.append((centre(i), boxes[i].height, [i]))
        }
        return rows.map { $0.members.sorted { boxes[$0].left < boxes[$1].left } }
    }

    /// Whether the regions of `rows` fill their column as lines of prose do: at least
    /// `minimumFullLines` of the rows are one region reaching across `fullLineShare` of the
    /// column's width (a table's row holds several cells).
    static func isFullColumn(_ rows: [[Int]], _ boxes: [Extent]) -> Bool {
        let left = rows.flatMap { $0.map { boxes[$0].left } }.min()!
        let right = rows.flatMap { $0.map { boxes[$0].right } }.max()!
        let full = rows.filter { row in
            row.count == 1 && boxes[row[0]].right - boxes[row[0]].left >= fullLineShare * (right - left)
        }
        return rows.count >= 3 && Double(full.count) >= minimumFullLines * Double(rows.count)
    }

    /// A row reaching across this share of its column's width (0–1) is a full line of prose.
    public static let fullLineShare = 0.8
    /// The share of a column's rows (0–1) that must be full lines for it to be prose.
    public static let minimumFullLines = 0.6
}
