import SnapImaging
import Testing

@testable import SnapOCR

/// `--region`'s values and their pixels, and the mapping of a prepared page's pixels back to the photo.
@Suite struct PhotoRegionTests {
    @Test func pixelsAndPercentages() throws {
        let pixels = try PhotoRegion.parse("120,300,800,90")
        #expect(pixels == PhotoRegion(x: 120, y: 300, width: 800, height: 90, unit: .pixels))
        #expect(pixels.description == "120,300,800,90")
        let percent = try PhotoRegion.parse("10%, 20%,50%,12.5%")
        #expect(percent == PhotoRegion(x: 10, y: 20, width: 50, height: 12.5, unit: .percent))
        #expect(percent.description == "10%,20%,50%,12.5%")
        let (box, clipped) = try percent.pixels(inWidth: 1000, height: 800)
        #expect(box == BoundingBox(x: 100, y: 160, width: 500, height: 100))
        #expect(!clipped)
    }

    @Test func aRegionPastTheEdgeIsCutAndOneOutsideIsRefused() throws {
        let region = try PhotoRegion.parse("900,700,300,300")
        let (box, clipped) = try region.pixels(inWidth: 1000, height: 800)
        #expect(box == BoundingBox(x: 900, y: 700, width: 100, height: 100))
        #expect(clipped)
        #expect(throws: PhotoRegion.Problem.self) {
            try PhotoRegion.parse("1000,0,10,10").pixels(inWidth: 1000, height: 800)
        }
    }

    @Test(arguments: ["", "1,2,3", "1,2,3,4,5", "a,b,c,d", "1,2,0,4", "+1,2,3,4", "1%,2%,3%,101%", "60%,0%,50%,10%"])
    func malformed(_ text: String) {
        #expect(throws: PhotoRegion.Problem.self) { try PhotoRegion.parse(text) }
    }
}

@Suite struct PreparedGeometryTests {
    @Test func scalingOnly() {
        let g = PreparedGeometry(scale: 0.5)
        let p = g.sourcePoint(x: 100, y: 40)
        #expect(p.x == 200 && p.y == 80)
    }

    @Test func aStraightenedPageMapsToItsQuadrilateral() {
        // A page found as a parallelogram in the photo, straightened to 101 × 51 pixels.
        var g = PreparedGeometry(scale: 1)
        g.page = PreparedGeometry.Page(
            corners: [.init(x: 10, y: 20), .init(x: 110, y: 20), .init(x: 120, y: 70), .init(x: 20, y: 70)],
            width: 101, height: 51, marginX: 0, marginY: 0)
        let corner = g.sourcePoint(x: 0, y: 0)
        #expect(corner.x == 10 && corner.y == 20)
        let far = g.sourcePoint(x: 100, y: 50)
        #expect(abs(far.x - 120) < 1e-9 && abs(far.y - 70) < 1e-9)
        let middle = g.sourcePoint(x: 50, y: 25)
        #expect(abs(middle.x - 65) < 1e-9 && abs(middle.y - 45) < 1e-9)
        // The 1 % trim and an enlargement by 2 are undone first.
        g.page?.marginX = 1
        g.page?.marginY = 1
        g.scaleAfterPage = 2
        let trimmed = g.sourcePoint(x: 0, y: 0)
        #expect(abs(trimmed.x - 11.2) < 1e-9 && abs(trimmed.y - 21) < 1e-9)  // u = 0.01, v = 0.02
    }

    @Test func aPerspectiveQuadrilateralKeepsItsCorners() {
        var g = PreparedGeometry(scale: 0.5)
        g.page = PreparedGeometry.Page(
            corners: [.init(x: 0, y: 0), .init(x: 200, y: 10), .init(x: 180, y: 150), .init(x: 30, y: 120)],
            width: 201, height: 141, marginX: 0, marginY: 0)
        for (x, y, ex, ey) in [(0.0, 0.0, 0.0, 0.0), (200, 0, 400, 20), (200, 140, 360, 300), (0, 140, 60, 240)] {
            let p = g.sourcePoint(x: x, y: y)
            #expect(abs(p.x - ex) < 1e-6 && abs(p.y - ey) < 1e-6, "\(x),\(y) → \(p)")
        }
    }

    @Test func theDeskewIsTurnedBack() {
        var g = PreparedGeometry(scale: 1)
        g.deskewDegrees = 90
        (g.deskewWidth, g.deskewHeight) = (100, 100)
        // Turned 90° clockwise about (50, 50): the top-right corner came from the top-left.
        let p = g.sourcePoint(x: 100, y: 0)
        #expect(abs(p.x - 0) < 1e-9 && abs(p.y - 0) < 1e-9)
    }
}
