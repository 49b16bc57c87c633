import Foundation

/// How the pixels of a prepared page map back to the image the preparation was given: the bound
/// on the long side, the page cut out and straightened, the rescale to the text height, and the
/// deskew, undone in the reverse order (dewarping, a few pixels at most, is not undone).
public struct PreparedGeometry: Equatable, Sendable {
    /// The straightened page: its quadrilateral in the source scaled by ``scaleBeforePage``, the
    /// straightened size (pixels) and the margin trimmed on each side.
    public struct Page: Equatable, Sendable {
        /// Corners in the scaled source: top-left, top-right, bottom-right, bottom-left.
        public var corners: [PageQuadrilateral.Point]
        /// The straightened page's size before the trim (pixels).
        public var width: Int, height: Int
        /// Pixels trimmed on the left and right (`marginX`) and on the top and bottom (`marginY`).
        public var marginX: Int, marginY: Int

        /// A page from its parts (pixels).
        public init(corners: [PageQuadrilateral.Point], width: Int, height: Int, marginX: Int, marginY: Int) {
            self.corners = corners
            self.width = width
            self.height = height
            self.marginX = marginX
            self.marginY = marginY
        }
    }

    /// The `maxDimension` bound: scaled-source pixels per source pixel (≤ 1).
    public var scaleBeforePage = 1.0
    /// The straightened page, when one was cut out.
    public var page: Page?
    /// The text-height rescale: prepared pixels per page pixel.
    public var scaleAfterPage = 1.0
    /// The deskew rotation (degrees, clockwise positive, as `Image.rotated(degrees:)`) and the
    /// size of the image it turned (about its centre), in prepared pixels.
    public var deskewDegrees = 0.0
    /// Width and height of the image the deskew turned.
    public var deskewWidth = 0, deskewHeight = 0

    /// A mapping that scales only (a page not cut out, not turned).
    public init(scale: Double = 1) { scaleBeforePage = scale }

    /// The point of the source image (pixels) that prepared pixel (`x`, `y`) shows.
    public func sourcePoint(x: Double, y: Double) -> (x: Double, y: Double) {
        var (px, py) = (x, y)
        if deskewDegrees != 0 {
            // Undo the clockwise turn about the centre.
            let t = -deskewDegrees * .pi / 180
            let (cx, cy) = (Double(deskewWidth) / 2, Double(deskewHeight) / 2)
            let (dx, dy) = (px - cx, py - cy)
            (px, py) = (cx + dx * cos(t) - dy * sin(t), cy + dx * sin(t) + dy * cos(t))
        }
        px /= scaleAfterPage
        py /= scaleAfterPage
        if let page {
            let u = (px + Double(page.marginX)) / Double(max(1, page.width - 1))
            let v = (py + Double(page.marginY)) / Double(max(1, page.height - 1))
            (px, py) = Self.unitSquareToQuad(u, v, page.corners)
        }
        return (px / scaleBeforePage, py / scaleBeforePage)
    }

    /// The projective map of the unit square onto `quad` (corners TL, TR, BR, BL at (0,0), (1,0),
    /// (1,1), (0,1)), after Heckbert, "Fundamentals of Texture Mapping and Image Warping" (1989), §2.2.3.
    static func unitSquareToQuad(_ u: Double, _ v: Double, _ q: [PageQuadrilateral.Point]) -> (Double, Double) {
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y)
        let (dx1, dx2, dx3) = (x1 - x2, x3 - x2, x0 - x1 + x2 - x3)
        let (dy1, dy2, dy3) = (y1 - y2, y3 - y2, y0 - y1 + y2 - y3)
        var g = 0.0
        var h = 0.0
        let det = dx1 * dy2 - dx2 * dy1
        if abs(dx3) > 1e-9 || abs(dy3) > 1e-9, abs(det) > 1e-12 {
            g = (dx3 * dy2 - dx2 * dy3) / det
            h = (dx1 * dy3 - dx3 * dy1) / det
        }
        let a = x1 - x0 + g * x1
        let b = x3 - x0 + h * x3
        let c = x0
        let d = y1 - y0 + g * y1
        let e = y3 - y0 + h * y3
        let f = y0
        let w = g * u + h * v + 1
        return ((a * u + b * v + c) / w, (d * u + e * v + f) / w)
    }
}
