import Testing

@testable import SnapImaging
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

    @Test func aBareZeroIsZeroPercentAmongPercentages() throws {
        // 0 is the same in both units: the whole photo framed in percent (a new user's try).
        #expect(
            try PhotoRegion.parse("0,0,100%,100%") == PhotoRegion(x: 0, y: 0, width: 100, height: 100, unit: .percent))
        #expect(try PhotoRegion.parse("0,0,100,100") == PhotoRegion(x: 0, y: 0, width: 100, height: 100, unit: .pixels))
        // Any other number without % among percentages is still a mix.
        #expect(
            throws: PhotoRegion.Problem(
                description: "--region '0,5,100%,90%': give all four numbers in pixels or all four in percent")
        ) { try PhotoRegion.parse("0,5,100%,90%") }
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

@Suite struct StraightenedPageGeometryTests {
    @Test func aStraightenedPageMapsToItsQuadrilateral() throws {
        // A page found as a parallelogram in the photo, straightened to 101 × 51 pixels.
        let quad = [(10.0, 20.0), (110.0, 20.0), (120.0, 70.0), (20.0, 70.0)]
        let rectangle = [(0.0, 0.0), (100.0, 0.0), (100.0, 50.0), (0.0, 50.0)]
        let c = try PageGeometry.projectiveCoefficients(from: rectangle, to: quad)
        let g = PageGeometry([.projective(coefficients: c, clipX: 0, clipY: 0)])
        for (x, y, ex, ey) in [(0.0, 0.0, 10.0, 20.0), (100, 50, 120, 70), (50, 25, 65, 45)] {
            let p = g.photoPoint(x: x, y: y)
            #expect(abs(p.x - ex) < 1e-3 && abs(p.y - ey) < 1e-3, "\(x),\(y) → \(p)")
        }
        // The 1 % trim (1 px) and an enlargement by 2 are undone first.
        let trimmed = PageGeometry([.projective(coefficients: c, clipX: 1, clipY: 1), .scale(2)])
        let p = trimmed.photoPoint(x: 0, y: 0)
        #expect(abs(p.x - 11.2) < 1e-3 && abs(p.y - 21) < 1e-3)  // u = 0.01, v = 0.02
    }
}
