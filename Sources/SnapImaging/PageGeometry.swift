import CLeptonica
import Foundation

/// How the pixels of a prepared page relate to the photo they came from: the geometric steps of
/// the preparation, in the order they were applied, each of which can map a point back.
///
/// Points are continuous pixel coordinates (x to the right, y down, origin at the top-left
/// corner). `photoPoint(_:)` maps a point of the prepared page to the photo the first step was
/// applied to; a box maps to the bounding box of its four mapped corners.
public struct PageGeometry: Codable, Equatable, Sendable {
    /// One geometric step from an image to the next.
    public enum Step: Codable, Equatable, Sendable {
        /// Both sides multiplied by `factor` (Leptonica `pixScale`).
        case scale(Double)
        /// Turned clockwise by `quarterTurns` × 90° (`pixRotateOrth`); the size is the image's
        /// before the turn (pixels).
        case quarterTurns(Int, width: Double, height: Double)
        /// A quadrilateral straightened into a rectangle (`pixProjectivePtaGray`), then
        /// `clipX`, `clipY` pixels cut from the left and top: `coefficients` are Leptonica's 8
        /// projective coefficients from the rectangle's points to the quadrilateral's
        /// (`getProjectiveXformCoeffs`).
        case projective(coefficients: [Double], clipX: Double, clipY: Double)
        /// Turned by `degrees` (clockwise positive) about the centre (`centerX`, `centerY`),
        /// keeping the size (`pixRotate`, area mapping).
        case rotation(degrees: Double, centerX: Double, centerY: Double)
        /// Lines straightened by Leptonica's vertical disparity (`dewarpaApplyDisparity`):
        /// a prepared point (x, y) came from (x, y − disparity(x, y)); the disparity sampled
        /// every `step` pixels, `columns` samples a row, row after row.
        case verticalDisparity(samples: [Float], step: Int, columns: Int)
        /// A rectangle cut out (`pixClipRectangle`) whose top-left corner was at (`x`, `y`): a
        /// region of the photo read on its own.
        case crop(x: Double, y: Double)
    }

    /// The steps from the photo to the prepared page, in the order applied.
    public var steps: [Step]

    /// A geometry of `steps` (photo → page order).
    public init(_ steps: [Step] = []) { self.steps = steps }

    /// The geometry of `self` applied after `earlier` (whose steps come first).
    public func after(_ earlier: [Step]) -> PageGeometry { PageGeometry(earlier + steps) }

    /// Whether every step is a pure scale (the page is the photo resized).
    public var isScaleOnly: Bool {
        steps.allSatisfy { if case .scale = $0 { return true } else { return false } }
    }

    /// The photo point (pixels) that the prepared page's point (`x`, `y`) shows.
    public func photoPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        var (px, py) = (x, y)
        for step in steps.reversed() {
            switch step {
            case .scale(let f):
                px /= f
                py /= f
            case .quarterTurns(let q, let w, let h):
                switch ((q % 4) + 4) % 4 {
                case 1: (px, py) = (py, h - px)
                case 2: (px, py) = (w - px, h - py)
                case 3: (px, py) = (w - py, px)
                default: break
                }
            case .projective(let c, let clipX, let clipY):
                let (u, v) = (px + clipX, py + clipY)
                let d = c[6] * u + c[7] * v + 1
                if abs(d) > 1e-12 {
                    (px, py) = ((c[0] * u + c[1] * v + c[2]) / d, (c[3] * u + c[4] * v + c[5]) / d)
                }
            case .rotation(let degrees, let cx, let cy):
                let t = degrees * .pi / 180
                let (dx, dy) = (px - cx, py - cy)
                (px, py) = (cx + dx * cos(t) + dy * sin(t), cy - dx * sin(t) + dy * cos(t))
            case .crop(let x, let y):
                px += x
                py += y
            case .verticalDisparity(let samples, let stepSize, let columns):
                guard columns > 0, !samples.isEmpty else { break }
                let rows = samples.count / columns
                let col = min(columns - 1, max(0, Int((px / Double(stepSize)).rounded())))
                let row = min(rows - 1, max(0, Int((py / Double(stepSize)).rounded())))
                py -= Double(samples[row * columns + col])
            }
        }
        return (px, py)
    }

    /// The photo's axis-aligned bounding box (pixels: left, top, right, bottom) of the prepared
    /// page's box from (`left`, `top`) to (`right`, `bottom`): the four corners mapped.
    public func photoBox(left: Double, top: Double, right: Double, bottom: Double) -> (
        left: Double, top: Double, right: Double, bottom: Double
    ) {
        let corners = [(left, top), (right, top), (right, bottom), (left, bottom)].map { photoPoint(x: $0.0, y: $0.1) }
        return (
            corners.map(\.x).min()!, corners.map(\.y).min()!, corners.map(\.x).max()!, corners.map(\.y).max()!
        )
    }

    /// Leptonica's coefficients of the projective map from the straightened rectangle's corners
    /// (`rectangle`) to the page's corners in the photo (`quadrilateral`), both top-left first
    /// (`getProjectiveXformCoeffs`).
    /// - Throws: `ImagingError.operationFailed` when Leptonica cannot solve for them.
    static func projectiveCoefficients(
        from rectangle: [(Double, Double)], to quadrilateral: [(Double, Double)]
    ) throws -> [Double] {
        try withPointArrays(rectangle, quadrilateral) { source, target in
            var vc: UnsafeMutablePointer<l_float32>? = nil
            guard getProjectiveXformCoeffs(source, target, &vc) == 0, let vc else {
                throw ImagingError.operationFailed(operation: "getProjectiveXformCoeffs")
            }
            defer { lept_free(vc) }
            return (0..<8).map { Double(vc[$0]) }
        }
    }

    /// `body` with two Leptonica point arrays (`ptaCreate`, `ptaAddPt`) holding `first` and
    /// `second` (pixels), destroyed when it returns.
    /// - Throws: `ImagingError.operationFailed` when Leptonica cannot make them; what `body` throws.
    static func withPointArrays<Result>(
        _ first: [(Double, Double)], _ second: [(Double, Double)],
        _ body: (UnsafeMutablePointer<PTA>, UnsafeMutablePointer<PTA>) throws -> Result
    ) throws -> Result {
        guard let a = ptaCreate(l_int32(first.count)), let b = ptaCreate(l_int32(second.count)) else {
            throw ImagingError.operationFailed(operation: "ptaCreate")
        }
        var pa: UnsafeMutablePointer<PTA>? = a
        var pb: UnsafeMutablePointer<PTA>? = b
        defer {
            ptaDestroy(&pa)
            ptaDestroy(&pb)
        }
        for p in first { ptaAddPt(a, l_float32(p.0), l_float32(p.1)) }
        for p in second { ptaAddPt(b, l_float32(p.0), l_float32(p.1)) }
        return try body(a, b)
    }
}
