import SnapImaging
import Testing

@Suite struct PageGeometryTests {
    func close(_ a: (x: Double, y: Double), _ b: (Double, Double)) -> Bool {
        abs(a.x - b.0) < 1e-9 && abs(a.y - b.1) < 1e-9
    }

    @Test func scalesAreUndone() {
        let g = PageGeometry([.scale(0.5), .scale(3)])
        #expect(close(g.photoPoint(x: 30, y: 60), (20, 40)))
    }

    /// A 400 × 200 photo turned clockwise is 200 × 400; its top-left corner came from the
    /// photo's bottom-left.
    @Test(arguments: [
        (1, (0.0, 0.0), (0.0, 200.0)), (1, (200.0, 0.0), (0.0, 0.0)), (1, (200.0, 400.0), (400.0, 0.0)),
        (2, (0.0, 0.0), (400.0, 200.0)), (2, (400.0, 200.0), (0.0, 0.0)),
        (3, (0.0, 0.0), (400.0, 0.0)), (3, (200.0, 400.0), (0.0, 200.0)),
    ])
    func quarterTurnsAreUndone(turns: Int, page: (Double, Double), photo: (Double, Double)) {
        let g = PageGeometry([.quarterTurns(turns, width: 400, height: 200)])
        #expect(close(g.photoPoint(x: page.0, y: page.1), photo))
    }

    /// Leptonica's `pixRotate` turns clockwise for a positive angle: a point right of the centre
    /// of the turned page came from above-right of it in the photo.
    @Test func aRotationIsUndoneAboutTheCentre() {
        let g = PageGeometry([.rotation(degrees: 90, centerX: 100, centerY: 50)])
        #expect(close(g.photoPoint(x: 110, y: 50), (100, 40)))
        #expect(close(g.photoPoint(x: 100, y: 50), (100, 50)))
    }

    @Test func stepsAreUndoneLastFirst() {
        // Turned, then halved: a page point is doubled first, then turned back.
        let g = PageGeometry([.quarterTurns(1, width: 400, height: 200), .scale(0.5)])
        #expect(close(g.photoPoint(x: 100, y: 0), (0, 0)))
        #expect(g.after([.scale(2)]).steps.count == 3)
    }

    @Test func verticalDisparityMovesPointsUp() {
        // Two rows of two samples, every 8 px: 4 px of disparity on the right.
        let g = PageGeometry([.verticalDisparity(samples: [0, 4, 0, 4], step: 8, columns: 2)])
        #expect(close(g.photoPoint(x: 8, y: 8), (8, 4)))
        #expect(close(g.photoPoint(x: 0, y: 8), (0, 8)))
    }

    @Test func aBoxMapsToTheBoundsOfItsCorners() {
        let g = PageGeometry([.rotation(degrees: 90, centerX: 0, centerY: 0)])
        let b = g.photoBox(left: 0, top: 0, right: 10, bottom: 2)
        #expect(abs(b.left - 0) < 1e-9 && abs(b.right - 2) < 1e-9 && abs(b.top + 10) < 1e-9 && abs(b.bottom) < 1e-9)
    }
}
