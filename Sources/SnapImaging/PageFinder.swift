import CLeptonica
import Foundation

/// A page found in a photo: its four corners, in pixels of the image it was found in.
public struct PageQuadrilateral: Equatable, Sendable {
    /// A point in pixels (x to the right, y down).
    public struct Point: Equatable, Sendable {
        /// Pixels from the left edge.
        public var x: Double
        /// Pixels from the top edge.
        public var y: Double
        /// - Parameters: x and y in pixels.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// Corners in the order top-left, top-right, bottom-right, bottom-left (as the page reads).
    public var corners: [Point]

    /// Width and height of the straightened page (pixels): the longer of each pair of opposite sides.
    public var straightenedSize: (width: Int, height: Int) {
        func d(_ a: Point, _ b: Point) -> Double {
            ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        let c = corners
        return (Int(max(d(c[0], c[1]), d(c[3], c[2])).rounded()), Int(max(d(c[0], c[3]), d(c[1], c[2])).rounded()))
    }

    /// Whether `p` lies inside the quadrilateral (same side of every edge; corners in order).
    public func contains(_ p: Point) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = corners[i]
            let b = corners[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross != 0 {
                if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
            }
        }
        return true
    }

    /// Area enclosed by the corners (square pixels), by the shoelace formula.
    public var area: Double {
        var s = 0.0
        for i in 0..<4 {
            let a = corners[i]
            let b = corners[(i + 1) % 4]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }
}

/// Finds a sheet of paper lying on a darker surface (a table, a desk) and straightens it.
///
/// The page is the largest bright region of the photo once print has been closed away (Leptonica
/// grey closing, then Otsu); its corners are the region's extreme points along the two diagonals,
/// and the page is straightened by a projective transform from those corners
/// (`pixProjectivePtaGray`, bilinear). A photo whose bright region fills (nearly) the whole frame,
/// such as a scan, has no page to find.
public enum PageFinder {
    /// Grey levels by which print is darker than the paper around it, at the least.
    static let minimumInkContrast: l_int32 = 40

    /// The long side (pixels) the photo is reduced to for the search.
    static let searchSize = 600.0

    /// Finds the page in an 8 bpp grey image.
    ///
    /// - Returns: the corners in pixels of `gray`, or nil when no page stands out: the brightest
    ///   region covers more than 90 % or less than 8 % of the frame, or is not four-sided (its area
    ///   differs from the quadrilateral's by more than 12 %, or a corner angle is outside 55°–125°).
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func find(_ gray: Image) throws -> PageQuadrilateral? {
        precondition(gray.depth == 8, "PageFinder.find needs an 8 bpp grey image")
        let factor = min(1, searchSize / Double(max(gray.width, gray.height)))
        let small = try gray.scaled(by: factor)
        guard small.width >= 32, small.height >= 32 else { return nil }
        // Close away the print: a grey closing wider than a text line's strokes at this size.
        let brick = l_int32(max(5, (max(small.width, small.height) / 50) | 1))
        let closed = try Image.wrap(pixCloseGray(small.pix, brick, brick), "pixCloseGray")
        let paper = try closed.otsuGlobal().inverted()  // ON = bright
        guard let region = try largestComponent(paper) else { return nil }
        let frame = Double(small.width * small.height)
        let fraction = Double(region.count) / frame
        guard fraction >= 0.08, fraction <= 0.9 else { return nil }
        let quad = region.quadrilateral
        guard quad.area > 0, abs(quad.area - Double(region.count)) / quad.area <= 0.12, isPlausible(quad) else {
            return nil
        }
        guard try !printContinuesOutside(quad, small: small, closed: closed) else { return nil }
        // Back to the pixels of `gray`.
        let scaled = PageQuadrilateral(
            corners: quad.corners.map { .init(x: ($0.x + 0.5) / factor, y: ($0.y + 0.5) / factor) })
        return scaled
    }

    /// The page inside `quad` as an upright rectangle of its straightened size, white outside the photo.
    ///
    /// - Parameters:
    ///   - gray: the 8 bpp image the corners are measured in.
    ///   - quad: corners in pixels of `gray`.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func straighten(_ gray: Image, to quad: PageQuadrilateral) throws -> Image {
        var (w, h) = quad.straightenedSize
        // pixProjectivePtaGray keeps the source's size: fit the straightened page into it.
        let fit = min(1, Double(gray.width) / Double(w), Double(gray.height) / Double(h))
        w = max(1, Int(Double(w) * fit))
        h = max(1, Int(Double(h) * fit))
        guard let source = ptaCreate(4), let target = ptaCreate(4) else {
            throw ImagingError.operationFailed(operation: "ptaCreate")
        }
        var s: UnsafeMutablePointer<PTA>? = source
        var t: UnsafeMutablePointer<PTA>? = target
        defer {
            ptaDestroy(&s)
            ptaDestroy(&t)
        }
        let destination = [(0.0, 0.0), (Double(w - 1), 0.0), (Double(w - 1), Double(h - 1)), (0.0, Double(h - 1))]
        for (corner, d) in zip(quad.corners, destination) {
            ptaAddPt(source, l_float32(corner.x), l_float32(corner.y))
            ptaAddPt(target, l_float32(d.0), l_float32(d.1))
        }
        let warped = try withExtendedLifetime(gray) {
            try Image.wrap(pixProjectivePtaGray(gray.pix, target, source, 255), "pixProjectivePtaGray")
        }
        return try warped.clipped(x: 0, y: 0, width: w, height: h)
    }

    /// Whether print lies outside `quad` as well as inside it: then the bright region is only the
    /// lit part of a page (a shadow across it has a straight edge too), not the page.
    ///
    /// Print is what is darker than its surroundings by `minimumInkContrast` grey levels (the
    /// photo subtracted from its grey closing, so a shadow's darkness does not count), in
    /// components at most 15 times as wide as high (letters and words, not rules) with heights
    /// within half and twice the median height of those inside. More than a quarter as many
    /// outside as inside means the page goes on.
    static func printContinuesOutside(_ quad: PageQuadrilateral, small: Image, closed: Image) throws -> Bool {
        let contrast = try withExtendedLifetime((small, closed)) {
            try Image.wrap(pixSubtractGray(nil, closed.pix, small.pix), "pixSubtractGray")
        }
        let ink = try withExtendedLifetime(contrast) {
            try Image.wrap(pixThresholdToBinary(contrast.pix, minimumInkContrast), "pixThresholdToBinary").inverted()
        }
        let boxes = try ink.componentBoxes().filter { $0.height >= 3 && $0.width <= 15 * $0.height }
        var inside: [Int] = []
        var outside: [Int] = []
        for b in boxes {
            let centre = PageQuadrilateral.Point(
                x: Double(b.x) + Double(b.width) / 2, y: Double(b.y) + Double(b.height) / 2)
            if quad.contains(centre) { inside.append(b.height) } else { outside.append(b.height) }
        }
        guard inside.count >= 5 else { return false }
        let median = inside.sorted()[inside.count / 2]
        let similar = { (h: Int) in h * 2 >= median && h <= median * 2 }
        return outside.filter(similar).count * 4 > inside.filter(similar).count
    }

    /// The largest 8-connected ON region of a 1 bpp image: its pixel count and its extreme points.
    struct Region {
        var count: Int
        var quadrilateral: PageQuadrilateral
    }

    static func largestComponent(_ binary: Image) throws -> Region? {
        guard let largest = try binary.components().max(by: { $0.width * $0.height < $1.width * $1.height }) else {
            return nil
        }
        let mask = largest.mask
        let (ox, oy) = (largest.x, largest.y)
        // Extreme points along the diagonals: top-left minimizes x + y, bottom-right maximizes it,
        // top-right maximizes x − y, bottom-left minimizes it.
        var count = 0
        var tl = (Double.infinity, 0.0, 0.0)
        var br = (-Double.infinity, 0.0, 0.0)
        var tr = (-Double.infinity, 0.0, 0.0)
        var bl = (Double.infinity, 0.0, 0.0)
        let values = mask.pixelValues()
        let w = mask.width
        for (i, v) in values.enumerated() where v != 0 {
            count += 1
            let x = Double(i % w + ox)
            let y = Double(i / w + oy)
            if x + y < tl.0 { tl = (x + y, x, y) }
            if x + y > br.0 { br = (x + y, x, y) }
            if x - y > tr.0 { tr = (x - y, x, y) }
            if x - y < bl.0 { bl = (x - y, x, y) }
        }
        guard count > 0 else { return nil }
        let corners = [tl, tr, br, bl].map { PageQuadrilateral.Point(x: $0.1, y: $0.2) }
        return Region(count: count, quadrilateral: PageQuadrilateral(corners: corners))
    }

    /// Whether every corner angle lies within 55°–125° and every side is at least 32 px long.
    static func isPlausible(_ q: PageQuadrilateral) -> Bool {
        let c = q.corners
        for i in 0..<4 {
            let p = c[(i + 3) % 4]
            let o = c[i]
            let n = c[(i + 1) % 4]
            let a = (p.x - o.x, p.y - o.y)
            let b = (n.x - o.x, n.y - o.y)
            let la = (a.0 * a.0 + a.1 * a.1).squareRoot()
            let lb = (b.0 * b.0 + b.1 * b.1).squareRoot()
            guard la >= 32, lb >= 32 else { return false }
            let angle = acos(max(-1, min(1, (a.0 * b.0 + a.1 * b.1) / (la * lb)))) * 180 / .pi
            guard angle >= 55, angle <= 125 else { return false }
        }
        return true
    }
}
