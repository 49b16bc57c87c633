import Foundation
import SnapTestSupport
import Testing

@testable import SnapImaging

@Suite struct PreprocessorTests {
    let loader = ImageLoader()

    @Test(arguments: ["white-1x1.png", "black-1x1.png", "black-2x1.jpg"])
    func tinyImagesDoNotBreakThePipeline(name: String) throws {
        let l = try loader.load(TestPaths.fixture(name))
        let p = try Preprocessor().prepare(l.image)
        #expect(p.image.width >= 1 && p.image.height >= 1)
        #expect(p.measuredTextHeight == nil)
        #expect(p.scale == 1)
    }

    @Test func whiteOnBlackIsInverted() throws {
        let l = try loader.load(TestPaths.fixture("white-on-black.png"))
        let p = try Preprocessor().prepare(l.image)
        #expect(p.inverted)
        #expect(try p.image.meanGray() > 200)  // now mostly white paper
    }

    @Test func darkOnLightIsNotInverted() throws {
        let p = try Preprocessor().prepare(loader.load(TestPaths.sample("kettle.png")).image)
        #expect(!p.inverted)
    }

    @Test func smallTextIsEnlargedToTheTargetHeight() throws {
        let l = try loader.load(TestPaths.fixture("small-text-8px.png"))
        let p = try Preprocessor().prepare(l.image)
        // DejaVu Serif 8 px: a median glyph of 4 px, far below 26 px; enlarged 4×, the cap.
        #expect(p.measuredTextHeight == 4)
        #expect(p.scale == 4)
    }

    @Test func aTexturesFlecksAreNotMeasuredAsText() throws {
        // A white sign on a blue stone wall: the wall's flecks, 7 px, outnumber the sign's
        // letters, and none stands in rows; the photo is read at its own size (it was enlarged
        // 3.23× to make 7 px flecks 26 px letters).
        let p = try Preprocessor().prepare(loader.load(TestPaths.fixture("white-sign-on-blue.jpg")).image)
        #expect(p.measuredTextHeight == nil)
        #expect(p.scale == 1)
    }

    @Test func sampleTextIsLeftAtItsSize() throws {
        // DejaVu Serif 40 px: the median glyph (22 px) is within [0.7, 2.5] × 26 px.
        let p = try Preprocessor().prepare(loader.load(TestPaths.sample("kettle.png")).image)
        #expect(p.measuredTextHeight == 22)
        #expect(p.scale == 1)
        #expect(p.image.depth == 8)
        let otsu = try Preprocessor(options: PreprocessingOptions(binarization: .otsu)).prepare(
            loader.load(TestPaths.sample("kettle.png")).image)
        #expect(otsu.image.depth == 1)
    }

    @Test func uniformPageIsNotInverted() throws {
        let p = try Preprocessor().prepare(loader.load(TestPaths.fixture("black-1x1.png")).image)
        #expect(!p.inverted)
    }

    @Test func longSideIsBounded() throws {
        let l = try loader.load(TestPaths.fixture("huge-40000x3000.png"))
        let p = try Preprocessor(options: PreprocessingOptions(maxDimension: 4000)).prepare(l.image)
        #expect(max(p.image.width, p.image.height) <= 4000)
        #expect(p.image.width * 3000 / 40000 - p.image.height <= 1)  // aspect ratio kept
    }

    @Test(arguments: Binarization.allCases)
    func everyBinarizationGivesOneBitOrGrey(method: Binarization) throws {
        let p = try Preprocessor(options: PreprocessingOptions(binarization: method)).prepare(
            loader.load(TestPaths.sample("harbour-photo.jpg")).image)
        #expect(p.image.depth == (method == .tesseract ? 8 : 1))
    }
}
