import CLeptonica
import Foundation

/// A page found in a photo: its four corners, in pixels of the image it was found in.
public struct PageQuadrilateral: Equatable, Sendable {
    /// A point in pixels (x to the right, y down).
    public struct Point: Equatable, Codable, Sendable {
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
/// grey closing, then thresholds from Otsu's down, see `find`); its corners are where straight
/// lines fitted to its four sides meet (leaving out where it runs along the frame's edge), or its
/// extreme points along the two diagonals when its sides are not straight (a curled page), and
/// the page is straightened by a projective transform from those
/// corners (`pixProjectivePtaGray`, bilinear). A photo whose bright region fills (nearly) the
/// whole frame, such as a scan, has no page to find, unless a dark margin frames most of it.
public enum PageFinder {
    /// Grey levels by which print is darker than the paper around it, at the least.
    static let minimumInkContrast: l_int32 = 40

    /// The share of the frame's border (0–1) a page found below Otsu's threshold may touch: lit
    /// table joins a shadowed page along the frame's edge, and a page running off the frame has
    /// a side only where it is lit.
    static let maximumBorderFraction = 0.05

    /// The share of each side's outline (0–1) that must lie on its line for a page found below
    /// Otsu's threshold: a shadow darker than the threshold cuts a corner off the page, and the
    /// cut is not on the page's sides.
    static let minimumStraightness = 0.85

    /// The most of the frame (0–1) a page scanned on a dark ground may cover: beyond it the dark
    /// margin is a few pixels of the scanner's edge, and the page is left as it is.
    static let maximumScanFraction = 0.98

    /// The most of the frame's border (0–1) such a page may touch: a corner or a short side may
    /// run off the frame, but a page touching more of it is not framed by a dark ground. (A long
    /// side of a portrait page is 0.29 of the border: 0.35 also cut out such pages, and read the
    /// 22 `archive-scan` pages of seeds 200–219 and 300–301 one better and one worse.)
    static let maximumScanBorderFraction = 0.25

    /// Whether a bright region of more than 90 % of the frame, found at Otsu's threshold, is a page
    /// scanned on a dark ground (an archive's typewritten page on a black scanner lid): at most
    /// `maximumScanFraction` of the frame, touching at most `maximumScanBorderFraction` of its
    /// border. Left in, the dark margin drew Tesseract's global Otsu threshold between it and the
    /// paper, and made the page's light count as uneven: a page in faint ink then read as
    /// nothing. Measured with `scripts/make-stress-set.py --only archive-scan` (38 pages) and the
    /// corpus (docs/design.md, "How a photo becomes text").
    static func isScanOnDarkGround(fraction: Double, region: Region) -> Bool {
        fraction <= maximumScanFraction && region.borderFraction <= maximumScanBorderFraction
    }

    /// Grey levels by which a page is brighter than what surrounds it, at the least (the print
    /// closed away, the mean over the bright region's side of the threshold against the rest).
    /// Measured on the corpus, the stress set and 64 more stress pages (208 photos): every page
    /// found on a table stood out by 34 or more (the least, dim photos on a dark table), and the
    /// brighter middle of a book page filling the frame (`meditations.jpg`, its paper 229–247
    /// once closed), taken for a page and warped, by 4.5.
    static let minimumPaperContrast = 20.0

    /// Whether the bright side of `paper` (ON: at least as bright as the threshold) is brighter
    /// than its dark side by `minimumPaperContrast` in `closed` (the photo reduced, print closed
    /// away). Leptonica `pixGetAverageMasked` on each side.
    static func standsOut(_ paper: Image, in closed: Image) throws -> Bool {
        let surroundings = try paper.inverted()
        // With nothing on one side, nothing stands out.
        guard try paper.blackFraction() > 0, try surroundings.blackFraction() > 0 else { return false }
        let bright = try closed.meanGray(sampling: 1, under: paper)
        let dark = try closed.meanGray(sampling: 1, under: surroundings)
        return bright - dark >= minimumPaperContrast
    }

    /// Grey levels between the thresholds tried, from Otsu's down.
    static let thresholdStep = 8

    /// The long side (pixels) the photo is reduced to for the search.
    static let searchSize = 600.0

    /// Finds the page in an 8 bpp grey image, reduced to `searchSize` with its print closed away.
    ///
    /// Thresholds from Otsu's down, in steps of `thresholdStep` grey levels, each give a largest
    /// bright region; the page is the first of them that is four-sided (its area within 12 % of
    /// its corners' quadrilateral, every corner angle within 55°–125°), is brighter than the rest
    /// of the frame by `minimumPaperContrast` (`standsOut`), covers 8–90 % of the frame,
    /// when found below Otsu's threshold touches at most `maximumBorderFraction` of the frame's
    /// border and has straight sides (`minimumStraightness`), and has no print continuing outside
    /// it (`printContinuesOutside`). The sweep stops when the bright region covers more than 90 %
    /// of the frame (the table has joined the page), unless at Otsu's threshold it is a page
    /// scanned on a dark ground (`isScanOnDarkGround`).
    /// - Returns: the corners in pixels of `gray`, or nil when no page stands out (a scan, a page
    ///   filling the frame, a page whose edges are lost).
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func find(_ gray: Image) throws -> PageQuadrilateral? {
        precondition(gray.depth == 8, "PageFinder.find needs an 8 bpp grey image")
        let factor = min(1, searchSize / Double(max(gray.width, gray.height)))
        let small = try gray.scaled(by: factor)
        guard small.width >= 32, small.height >= 32 else { return nil }
        // Close away the print: a grey closing wider than a text line's strokes at this size.
        let brick = l_int32(max(5, (max(small.width, small.height) / 50) | 1))
        let closed = try Image.wrap(pixCloseGray(small.pix, brick, brick), "pixCloseGray")
        let frame = Double(small.width * small.height)
        var ink: [(x: Int, y: Int, width: Int, height: Int)]? = nil
        var best: PageQuadrilateral? = nil
        // Otsu's threshold splits paper from table when the light is even; a shadow across the
        // page splits the page itself (its lit part is one class, the shadowed part and the table
        // the other). Lower thresholds take in darker paper until the table joins the page: the
        // first four-sided region of that sweep is the page.
        let otsu = try closed.otsuThreshold()
        for threshold in stride(from: otsu, through: 16, by: -thresholdStep) {
            let paper = try withExtendedLifetime(closed) {
                try Image.wrap(pixThresholdToBinary(closed.pix, l_int32(threshold)), "pixThresholdToBinary").inverted()
            }  // ON = at least as bright as the threshold
            guard let region = try largestComponent(paper) else { continue }
            let fraction = Double(region.count) / frame
            // Past 90 % of the frame the table has joined the page, or there is no table: a scan.
            // But a page scanned (or photographed close) on a dark ground fills the frame but for
            // a thin margin around most of it, at Otsu's threshold (`isScanOnDarkGround`).
            if fraction > 0.9 && !(threshold == otsu && isScanOnDarkGround(fraction: fraction, region: region)) {
                break
            }
            guard fraction >= 0.08 else { continue }
            guard
                threshold == otsu
                    || (region.borderFraction <= maximumBorderFraction && region.straightness >= minimumStraightness)
            else { continue }
            // Paper brighter in the middle than at its edges (a page filling the frame, lit from
            // the front) splits at Otsu's threshold too: that is not a page on a table.
            guard try standsOut(paper, in: closed) else { continue }
            // The region's corners in their order (`Region.quadrilaterals`), the next when one
            // fails.
            for quad in region.quadrilaterals {
                guard quad.area > 0, abs(quad.area - Double(region.count)) / quad.area <= 0.12, isPlausible(quad)
                else { continue }
                if ink == nil { ink = try inkBoxes(small: small, closed: closed) }
                guard !printContinuesOutside(quad, ink: ink ?? []) else { continue }
                best = quad
                break
            }
            if best != nil { break }
        }
        guard let quad = best else { return nil }
        // Back to the pixels of `gray`.
        let scaled = PageQuadrilateral(
            corners: quad.corners.map { .init(x: ($0.x + 0.5) / factor, y: ($0.y + 0.5) / factor) })
        return scaled
    }

    /// The page inside `quad` as an upright rectangle of its straightened size less 1 % on every
    /// side, white outside the photo.
    ///
    /// - Parameters:
    ///   - gray: the 8 bpp image the corners are measured in.
    ///   - quad: corners in pixels of `gray`.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func straighten(_ gray: Image, to quad: PageQuadrilateral) throws -> Image {
        try straightened(gray, to: quad).image
    }

    /// `straighten(_:to:)`, with the geometric step that maps the straightened page's points
    /// back to `gray`'s (`PageGeometry.Step.projective`).
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func straightened(_ gray: Image, to quad: PageQuadrilateral) throws -> (
        image: Image, step: PageGeometry.Step
    ) {
        var (w, h) = quad.straightenedSize
        // pixProjectivePtaGray keeps the source's size: fit the straightened page into it.
        let fit = min(1, Double(gray.width) / Double(w), Double(gray.height) / Double(h))
        w = max(1, Int(Double(w) * fit))
        h = max(1, Int(Double(h) * fit))
        let destination = [(0.0, 0.0), (Double(w - 1), 0.0), (Double(w - 1), Double(h - 1)), (0.0, Double(h - 1))]
        let corners = quad.corners.map { (Double($0.x), Double($0.y)) }
        let warped = try PageGeometry.withPointArrays(corners, destination) { source, target in
            try withExtendedLifetime(gray) {
                try Image.wrap(pixProjectivePtaGray(gray.pix, target, source, 255), "pixProjectivePtaGray")
            }
        }
        // A found edge is a pixel or two off, and a sliver of table along it reads as a column of
        // "I"s: a page's margins are wider than 1 % of it, so that much is left out on every side.
        let (mx, my) = (w / 100, h / 100)
        let step = PageGeometry.Step.projective(
            coefficients: try PageGeometry.projectiveCoefficients(
                from: destination, to: corners),
            clipX: Double(mx), clipY: Double(my))
        return (try warped.clipped(x: mx, y: my, width: w - 2 * mx, height: h - 2 * my), step)
    }

    /// The print of the search image: what is darker than its grey closing by `minimumInkContrast`
    /// (so a shadow's darkness does not count), as component boxes at most 15 times as wide as high
    /// (letters and words, not rules), in pixels of `small`.
    static func inkBoxes(small: Image, closed: Image) throws -> [(x: Int, y: Int, width: Int, height: Int)] {
        let contrast = try withExtendedLifetime((small, closed)) {
            try Image.wrap(pixSubtractGray(nil, closed.pix, small.pix), "pixSubtractGray")
        }
        let ink = try withExtendedLifetime(contrast) {
            try Image.wrap(pixThresholdToBinary(contrast.pix, minimumInkContrast), "pixThresholdToBinary").inverted()
        }
        return try ink.componentBoxes().filter { $0.height >= 3 && $0.width <= 15 * $0.height }
    }

    /// Whether print lies outside `quad` as well as inside it: then the bright region is only the
    /// lit part of a page (a shadow across it has a straight edge too), not the page.
    ///
    /// `boxes` is the print (`inkBoxes`); those with heights within half and twice the median
    /// height of the print inside count. More than a quarter as many outside as inside means the
    /// page goes on.
    static func printContinuesOutside(_ quad: PageQuadrilateral, ink boxes: [(x: Int, y: Int, width: Int, height: Int)])
        -> Bool
    {
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

    /// The largest 8-connected ON region of a 1 bpp image: its pixel count and its corners
    /// (`Outline.fittedQuadrilateral` when its sides are straight, and its extreme points).
    struct Region {
        var count: Int
        /// The share of the outline's points (0–1) near the fitted sides, on the least straight side.
        var straightness: Double
        /// Its corners, best first: where its fitted sides meet and its extreme points along the
        /// diagonals, the fitted sides first when they are straight (`minimumStraightness`).
        var quadrilaterals: [PageQuadrilateral]
        /// The share of the frame's border pixels that belong to the region (0–1).
        var borderFraction: Double
    }

    static func largestComponent(_ binary: Image) throws -> Region? {
        guard let largest = try binary.components().max(by: { $0.width * $0.height < $1.width * $1.height }) else {
            return nil
        }
        let mask = largest.mask
        let (ox, oy) = (largest.x, largest.y)
        let w = mask.width
        let h = mask.height
        // Extreme points along the diagonals (top-left minimizes x + y, bottom-right maximizes it,
        // top-right maximizes x − y, bottom-left minimizes it), and the region's outline: its
        // first and last pixel in every column and row.
        var count = 0
        var onBorder = 0
        var tl = (Double.infinity, 0.0, 0.0)
        var br = (-Double.infinity, 0.0, 0.0)
        var tr = (-Double.infinity, 0.0, 0.0)
        var bl = (Double.infinity, 0.0, 0.0)
        var top = [Int](repeating: -1, count: w)
        var bottom = [Int](repeating: -1, count: w)
        var left = [Int](repeating: -1, count: h)
        var right = [Int](repeating: -1, count: h)
        for (i, v) in mask.pixelValues().enumerated() where v != 0 {
            count += 1
            let (px, py) = (i % w, i / w)
            if top[px] < 0 { top[px] = py }
            bottom[px] = py
            if left[py] < 0 { left[py] = px }
            right[py] = px
            if px + ox == 0 || py + oy == 0 || px + ox == binary.width - 1 || py + oy == binary.height - 1 {
                onBorder += 1
            }
            let x = Double(px + ox)
            let y = Double(py + oy)
            if x + y < tl.0 { tl = (x + y, x, y) }
            if x + y > br.0 { br = (x + y, x, y) }
            if x - y > tr.0 { tr = (x - y, x, y) }
            if x - y < bl.0 { bl = (x - y, x, y) }
        }
        guard count > 0 else { return nil }
        let rough = PageQuadrilateral(corners: [tl, tr, br, bl].map { .init(x: $0.1, y: $0.2) })
        // Where the region runs along the frame's edge, the page goes on outside the photo: those
        // outline points are the frame's, not the page's sides.
        let outline = Outline(
            top: insideFrame(top, edge: 0, offset: oy),
            bottom: insideFrame(bottom, edge: binary.height - 1, offset: oy),
            left: insideFrame(left, edge: 0, offset: ox), right: insideFrame(right, edge: binary.width - 1, offset: ox),
            x: ox, y: oy)
        let fitted = outline.fittedQuadrilateral(near: rough)
        // A curled page's sides are not lines, and its extreme points hold all of it.
        let quadrilaterals =
            fitted.map {
                $0.straightness >= minimumStraightness ? [$0.quadrilateral, rough] : [rough, $0.quadrilateral]
            }
            ?? [rough]
        return Region(
            count: count, straightness: fitted?.straightness ?? 0, quadrilaterals: quadrilaterals,
            borderFraction: Double(onBorder) / Double(2 * (binary.width + binary.height)))
    }

    /// One side of a region's outline (`Outline`) without the points on the frame's edge `edge`
    /// (pixels of the frame; `offset` places the outline in it), −1 there: a page that runs off
    /// the photo has no side there. The side is kept whole when fewer than 8 points would remain
    /// (a page cut by the frame along all of that side).
    static func insideFrame(_ side: [Int], edge: Int, offset: Int) -> [Int] {
        let inside = side.map { $0 >= 0 && $0 + offset != edge ? $0 : -1 }
        return inside.filter { $0 >= 0 }.count >= 8 ? inside : side
    }

    /// A region's outline: the first and last ON pixel of every column (`top`, `bottom`) and row
    /// (`left`, `right`) of its mask, −1 where empty; `x`, `y` place the mask in the image.
    struct Outline {
        var top: [Int], bottom: [Int], left: [Int], right: [Int]
        var x: Int, y: Int

        /// The quadrilateral whose sides are straight lines fitted to the outline between the rough
        /// corners (the middle 80 % of each side: the line most points lie near, then Leptonica
        /// `ptaGetLinearLSF` over those), its corners where the lines meet. A dog-eared corner,
        /// lit table along part of a side or a thumb on its edge move the extreme points of a
        /// region but not the lines of its sides. Nil when a side has fewer
        /// than 8 points or two lines do not meet. The straightness is the share of the outline's
        /// points within 2 % of a side's length of its line, on the least straight side.
        func fittedQuadrilateral(near rough: PageQuadrilateral) -> (
            quadrilateral: PageQuadrilateral, straightness: Double
        )? {
            let c = rough.corners.map { (x: $0.x - Double(x), y: $0.y - Double(y)) }
            // Horizontal sides as y = a·x + b over columns, vertical ones as x = a·y + b over rows.
            guard let topLine = fit(top, from: c[0].x, to: c[1].x),
                let bottomLine = fit(bottom, from: c[3].x, to: c[2].x),
                let leftLine = fit(left, from: c[0].y, to: c[3].y),
                let rightLine = fit(right, from: c[1].y, to: c[2].y)
            else { return nil }
            // y = a·x + b meets x = c·y + d at y = (a·d + b) / (1 − a·c).
            func meet(_ horizontal: (Double, Double), _ vertical: (Double, Double)) -> PageQuadrilateral.Point? {
                let denominator = 1 - horizontal.0 * vertical.0
                guard abs(denominator) > 1e-6 else { return nil }
                let py = (horizontal.0 * vertical.1 + horizontal.1) / denominator
                return .init(x: vertical.0 * py + vertical.1 + Double(x), y: py + Double(y))
            }
            guard let a = meet(topLine.line, leftLine.line), let b = meet(topLine.line, rightLine.line),
                let d = meet(bottomLine.line, rightLine.line), let e = meet(bottomLine.line, leftLine.line)
            else { return nil }
            let straightness = [topLine, bottomLine, leftLine, rightLine].map(\.inliers).min() ?? 0
            return (PageQuadrilateral(corners: [a, b, d, e]), straightness)
        }

        /// A robust line through `edge[i]` over `i` in the middle 80 % of `from...to`: (slope,
        /// intercept), and the share of the points (0–1) within 2 % of the side's length of it.
        private func fit(_ edge: [Int], from: Double, to: Double) -> (line: (Double, Double), inliers: Double)? {
            let (lo, hi) = (min(from, to), max(from, to))
            let margin = (hi - lo) / 10
            let first = max(0, Int((lo + margin).rounded(.up)))
            let last = min(edge.count - 1, Int((hi - margin).rounded(.down)))
            guard last - first >= 8 else { return nil }
            let points = (first...last).filter { edge[$0] >= 0 }.map { (x: Double($0), y: Double(edge[$0])) }
            guard points.count >= 8 else { return nil }
            let tolerance = max(2, Double(last - first) / 50)
            func inliers(_ a: Double, _ b: Double, within: Double) -> [(x: Double, y: Double)] {
                points.filter { abs($0.y - (a * $0.x + b)) <= within }
            }
            // Consensus (MSAC, Torr & Zisserman 2000): of the lines through two of 32 points spread
            // along the side, the one with the least sum of squared distances, each capped at half
            // the tolerance. A bump of lit table along a third of a side, a dog-ear or a thumb
            // each cost only the cap, where a least-squares fit over all points tilts toward them.
            let close = max(1, tolerance / 2)
            let step = max(1, points.count / 32)
            let sample = stride(from: 0, to: points.count, by: step).map { points[$0] }
            var best: (cost: Double, a: Double, b: Double) = (.infinity, 0, 0)
            for i in sample.indices {
                for j in sample.indices where j > i && sample[j].x != sample[i].x {
                    let a = (sample[j].y - sample[i].y) / (sample[j].x - sample[i].x)
                    let b = sample[i].y - a * sample[i].x
                    let cost = points.reduce(0.0) {
                        let d = $1.y - (a * $1.x + b)
                        return $0 + min(d * d, close * close)
                    }
                    if cost < best.cost { best = (cost, a, b) }
                }
            }
            // Then least squares over the points close to that line (Leptonica `ptaGetLinearLSF`).
            let near = inliers(best.a, best.b, within: close)
            guard near.count >= 2, let pta = ptaCreate(l_int32(near.count)) else { return nil }
            var p: UnsafeMutablePointer<PTA>? = pta
            defer { ptaDestroy(&p) }
            for q in near { ptaAddPt(pta, l_float32(q.x), l_float32(q.y)) }
            var slope: l_float32 = 0
            var intercept: l_float32 = 0
            guard ptaGetLinearLSF(pta, &slope, &intercept, nil) == 0 else { return nil }
            let (a, b) = (Double(slope), Double(intercept))
            return ((a, b), Double(inliers(a, b, within: tolerance).count) / Double(points.count))
        }
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
