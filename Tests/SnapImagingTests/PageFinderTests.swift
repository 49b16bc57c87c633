import Foundation
import SnapTestSupport
import Testing

@testable import SnapImaging

/// Finding a sheet on a table, polarity per region and dewarping, on the project's own photos.
@Suite struct PageFinderTests {
    let loader = ImageLoader()

    func gray(_ path: String) throws -> Image { try loader.load(path).image.grayscale() }

    @Test func aPageOnADarkTableIsFoundInsideTheFrame() throws {
        let photo = try gray(TestPaths.fixture("page-on-dark-table.jpg"))
        let quad = try #require(try PageFinder.find(photo))
        // The page fills 35–60 % of the frame's width there: every corner lies inside the frame,
        // away from its edges, and the straightened page is narrower than the frame.
        for c in quad.corners {
            #expect(c.x > 50 && c.x < Double(photo.width - 50) && c.y > 20 && c.y < Double(photo.height - 20))
        }
        let size = quad.straightenedSize
        #expect(size.width < photo.width * 7 / 10 && size.height < photo.height)
        // Straightened to that size less 1 % on every side (a sliver of table along an edge reads
        // as a column of "I"s).
        let page = try PageFinder.straighten(photo, to: quad)
        #expect(page.width == size.width - 2 * (size.width / 100))
        #expect(page.height == size.height - 2 * (size.height / 100))
    }

    @Test func aPageScannedOnADarkGroundIsFoundThoughItFillsTheFrame() throws {
        // A typewritten page in faint ink, on a black scanner lid that shows as a thin margin:
        // the page covers more than 90 % of the frame, as no page on a table does.
        let photo = try gray(TestPaths.fixture("scan-on-dark-ground.jpg"))
        let quad = try #require(try PageFinder.find(photo))
        let size = quad.straightenedSize
        #expect(photo.width == 1000 && photo.height == 1380)
        #expect(size.width == 956)
        #expect(size.height == 1320)
    }

    @Test(arguments: [
        // (paper inside, around it, stands out): a page on a dark table, a dim photo's page, the
        // brighter middle of paper filling the frame, and paper with nothing around it.
        (UInt8(230), UInt8(60), true), (95, 60, true), (243, 232, false), (240, 240, false),
    ])
    func aPageStandsOutFromItsSurroundingsByTwentyGreyLevels(inside: UInt8, around: UInt8, standsOut: Bool) throws {
        // A 40×30 frame, the page the middle 20×10, or all of it when both are the same.
        let (w, h) = (40, 30)
        var grey = [UInt8](repeating: around, count: w * h)
        var mask = [UInt8](repeating: inside == around ? 255 : 0, count: w * h)
        for y in 10..<20 {
            for x in 10..<30 {
                grey[y * w + x] = inside
                mask[y * w + x] = 255
            }
        }
        let paper = try Image(gray8: mask, width: w, height: h).binarized(.otsu).inverted()
        #expect(try PageFinder.standsOut(paper, in: Image(gray8: grey, width: w, height: h)) == standsOut)
    }

    @Test(arguments: [
        "kettle.png",  // a clean scan: the paper is the whole frame
        "shadow-across-page.jpg",  // the lit part of a page is not the page
        "page-lit-in-the-middle.jpg",  // paper split by its own light (brighter in the middle)
    ])
    func noPageIsFoundWhereNoneStandsOut(name: String) throws {
        let path = name == "kettle.png" ? TestPaths.sample(name) : TestPaths.fixture(name)
        #expect(try PageFinder.find(gray(path)) == nil)
    }

    @Test func quadrilateralGeometry() {
        let q = PageQuadrilateral(corners: [
            .init(x: 10, y: 10), .init(x: 110, y: 20), .init(x: 100, y: 220), .init(x: 0, y: 200),
        ])
        #expect(q.area == 19_650)
        #expect(q.contains(.init(x: 50, y: 100)))
        #expect(!q.contains(.init(x: 5, y: 5)))
        #expect(!q.contains(.init(x: 120, y: 100)))
        // The longer of each pair of opposite sides: bottom 102.0, right 200.2.
        #expect(q.straightenedSize.width == 102 && q.straightenedSize.height == 200)
    }

    @Test func lightOnDarkBlocksAreFoundOneByOne() throws {
        // Harbour's second stanza is light text in a dark band across the page.
        let mixed = try gray(TestPaths.fixture("mixed-polarity.png"))
        let regions = try RegionPolarity.lightOnDarkRegions(mixed)
        #expect(regions.count == 1)
        #expect(regions.first.map { $0.width * 10 >= mixed.width * 9 && $0.y > mixed.height / 2 } == true)
        #expect(try RegionPolarity.lightOnDarkRegions(gray(TestPaths.sample("kettle.png"))).isEmpty)
    }

    @Test func aSignAloneIsItsBlockInvertedOnABlankPage() throws {
        let photo = try gray(TestPaths.fixture("sign-on-stone-wall.jpg"))
        let alone = try #require(try RegionPolarity.blocksAlone(photo))
        #expect(alone.blocks == 1)
        let (w, h) = (photo.width, photo.height)
        let pixels = alone.page.pixelValues()
        // The stone wall is blanked out, also inside the tilted sign's bounding box (its corners).
        let region = try #require(try RegionPolarity.lightOnDarkRegions(photo).first)
        #expect(pixels[0] == 255 && pixels[(h - 1) * w + w - 1] == 255)
        #expect(pixels[(region.y + 2) * w + region.x + 2] == 255)
        // The dark blue sign is light now, its middle line's letters dark.
        let middle = (region.y + region.height / 2) * w
        let row = pixels[(middle + region.x)..<(middle + region.x + region.width)]
        #expect(row.filter { $0 > 128 }.count * 2 > row.count && row.contains { $0 < 64 })
        // A page that is one negative block is not "blocks alone": the page inverts whole.
        #expect(try RegionPolarity.blocksAlone(gray(TestPaths.fixture("white-on-black.png"))) == nil)
    }

    @Test func aDarkPhotoBesideTheTextIsNotLightText() throws {
        // Its highlights are flecks of letter size, but scattered and covering 0.5 % of it.
        let page = try gray(TestPaths.fixture("dark-photo-beside-text.png"))
        #expect(try RegionPolarity.lightOnDarkRegions(page).isEmpty)
    }

    @Test(arguments: [
        // Doubled centres (half pixels) of letters, tolerance 5 px: a line of four, and two strays.
        ([100, 104, 96, 102, 300, 420], 4),
        // Two letters only on each line: neither line counts.
        ([100, 104, 200, 206], 0),
        // Three, 5 px apart (10 half pixels): only the middle one has two others within 5 px.
        ([90, 100, 110], 1),
        // Half a pixel farther: none has.
        ([89, 100, 111], 0),
    ])
    func lettersInLines(centres: [Int], expected: Int) {
        #expect(RegionPolarity.inLines(centres, tolerance: 5) == expected)
    }

    @Test func sidesAreFittedPastADogEarAndASpike() throws {
        // The outline of a 200 × 100 px region at (10, 20): top-left corner folded away (a 30 px
        // diagonal), a 5 px spike of lit table on the bottom edge at x = 100…104.
        let (w, h) = (200, 100)
        var top = [Int](repeating: 0, count: w)
        var left = [Int](repeating: 0, count: h)
        for i in 0..<30 {
            top[i] = 30 - i
            left[i] = 30 - i
        }
        var bottom = [Int](repeating: h - 1, count: w)
        for x in 100..<105 { bottom[x] = h + 4 }
        let right = [Int](repeating: w - 1, count: h)
        let outline = PageFinder.Outline(top: top, bottom: bottom, left: left, right: right, x: 10, y: 20)
        // The extreme points along the diagonals: the fold moves the top-left one inward.
        let rough = PageQuadrilateral(corners: [
            .init(x: 25, y: 35), .init(x: 209, y: 20), .init(x: 209, y: 119), .init(x: 10, y: 119),
        ])
        let fitted = try #require(outline.fittedQuadrilateral(near: rough))
        // Every corner within half a pixel of the true one.
        let corners = fitted.quadrilateral.corners.map { [$0.x.rounded(), $0.y.rounded()] }
        #expect(corners == [[10, 20], [209, 20], [209, 119], [10, 119]])
        // The left side is sampled over rows 24…90 (the middle 80 % between the rough corners):
        // the fold's rows 24…27 lie 3–6 px off the line, more than its 2 px tolerance, 63 of 67 on it.
        #expect(fitted.straightness == 63.0 / 67.0)
    }

    @Test func aPageRunningOffTheFrameBesideLitTableIsCutAlongItsOwnSides() throws {
        // A 240 × 160 frame: a page from y = 20 to 139 and x = 199 on the right, its left side
        // slanting from (12, 20) to (−7.8, 139) so its lower part runs off the photo, and lit
        // table joined along the left sixth of its bottom (down to y = 146 at the frame's edge).
        let (fw, fh) = (240, 160)
        var pixels = [UInt8](repeating: 0, count: fw * fh)
        for y in 0..<fh {
            for x in 0..<fw {
                let page = y >= 20 && y <= 139 && x <= 199 && Double(x) >= 12 - Double(y - 20) / 6
                let table = y > 139 && x < 40 && Double(y) <= 146 - Double(x) / 6
                if page || table { pixels[y * fw + x] = 255 }
            }
        }
        let paper = try Image(gray8: pixels, width: fw, height: fh).binarized(.otsu).inverted()
        let region = try #require(try PageFinder.largestComponent(paper))
        // The extreme points take the table's corner at (0, 146) for the page's.
        #expect(
            region.quadrilaterals.last?.corners.map { [$0.x, $0.y] } == [[12, 20], [199, 20], [199, 139], [0, 146]])
        // The sides fitted without the frame's edge (the left side's rows 88…139 lie on it) and
        // past the table meet within a pixel of the page's corners: they come first.
        let corners = try #require(region.quadrilaterals.first).corners.map { [$0.x.rounded(), $0.y.rounded()] }
        #expect(corners == [[12, 20], [199, 20], [199, 139], [-7, 139]])
        // The table's columns inside the bottom's middle 80 % (20…39) stand at most 3 px below its
        // line, within its tolerance (2 % of 160 px): every side is straight.
        #expect(region.straightness == 1)
    }

    @Test func aShadowedPageWithALitWedgeIsNotLightOnDark() throws {
        // Global Otsu makes the shadowed page and the table one dark block whose only light parts
        // are the lit wedge and the counters of its letters; the wedge's dark letters, as tall as
        // those counters and more, show the block is not light text.
        let photo = try gray(TestPaths.fixture("page-mostly-in-shadow.jpg"))
        #expect(try RegionPolarity.lightOnDarkRegions(photo).isEmpty)
        #expect(try PageFinder.find(photo) == nil)
    }

    @Test(arguments: [(100, 3), (640, 12), (4000, 80), (4032, 80), (6572, 132)])
    func theOpeningSquareIsAComposableTwoPercent(longSide: Int, brick: Int32) throws {
        // 2 % of the long side, rounded to a product of two of Leptonica's composite factors
        // (131 → 12 × 11), so that the composite opening is exactly the brick's.
        let page = try Image(gray8: [UInt8](repeating: 255, count: longSide * 2), width: longSide, height: 2)
        #expect(RegionPolarity.brick(page) == brick)
    }

    @Test func aWholeNegativePageIsOneRegion() throws {
        let negative = try gray(TestPaths.fixture("white-on-black.png"))
        let regions = try RegionPolarity.lightOnDarkRegions(negative)
        #expect(regions.count == 1)
        #expect(regions.first.map { $0.width * $0.height * 10 >= negative.width * negative.height * 9 } == true)
        let p = try Preprocessor().prepare(negative)
        #expect(p.inverted && p.invertedRegions == 0)
    }

    @Test func curledLinesAreStraightenedAndFlatOnesLeftAlone() throws {
        let curled = try Preprocessor().prepare(loader.load(TestPaths.fixture("curled-page.jpg")).image)
        #expect(curled.dewarped)
        #expect(curled.page != nil)
        let flat = try Preprocessor().prepare(loader.load(TestPaths.sample("kettle.png")).image)
        #expect(!flat.dewarped && flat.page == nil && !flat.backgroundNormalized && !flat.isTransformed)
    }

    @Test(arguments: [false, true])
    func aLargePageIsModelledAtHalfSizeFirstAndDewarpedAsAtFullSize(large: Bool) throws {
        // The pages as the preparation hands them to the dewarping (`dewarp` off: Tesseract's
        // own black-and-white filter leaves the grey page), alone and copies of each one above the
        // other, as many as take it past `halfSizeModelAbove`: there the half-size model decides
        // whether the full-size one is built. (The curled page enlarged 2–3.5× will not do: its
        // full-size model is not built at all.)
        var settings = PreprocessingOptions()
        settings.dewarp = false
        func stacked(_ path: String) throws -> Image {
            let page = try Preprocessor(options: settings).prepare(loader.load(path).image).image
            let rows = page.pixelValues().map { UInt8($0) }
            let copies = large ? Preprocessor.halfSizeModelAbove / page.height + 1 : 1
            return try Image(
                gray8: Array([[UInt8]](repeating: rows, count: copies).joined()), width: page.width,
                height: page.height * copies)
        }
        let curled = try stacked(TestPaths.fixture("curled-page.jpg"))
        let flat = try stacked(TestPaths.sample("kettle.png"))
        #expect((max(curled.width, curled.height) > Preprocessor.halfSizeModelAbove) == large)
        #expect((max(flat.width, flat.height) > Preprocessor.halfSizeModelAbove) == large)
        let (straightened, step) = try Preprocessor.dewarped(curled)
        #expect(step != nil && straightened.width == curled.width && straightened.height == curled.height)
        #expect(try Preprocessor.dewarped(flat).1 == nil)
    }

    @Test func plainReadingIsThePhotoAsItIs() throws {
        let photo = try loader.load(TestPaths.fixture("white-sign-on-blue.jpg")).image
        let plain = try Preprocessor().plain(photo)
        #expect(plain.image.depth == 32 && plain.image.width == photo.width && plain.scale == 1)
        #expect(!plain.isTransformed)
    }
}
