import Foundation
import Testing
import SnapTestSupport
@testable import SnapImaging

@Suite struct PreprocessorTests {
    let loader = ImageLoader()

    @Test(arguments: ["07-tiny-1x1/white_1x1.png", "07-tiny-1x1/black_1x1.png", "07-tiny-1x1/black_2x1.jpg"])
    func tinyImagesDoNotBreakThePipeline(name: String) throws {
        let l = try loader.load(TestPaths.bugcase(name))
        let p = try Preprocessor().prepare(l.image)
        #expect(p.image.width >= 1 && p.image.height >= 1)
        #expect(p.measuredTextHeight == nil)
        #expect(p.scale == 1)
    }

    @Test func whiteOnBlackIsInverted() throws {
        let l = try loader.load(TestPaths.bugcase("04-inverted-white-on-black/raven_white_on_black.png"))
        let p = try Preprocessor().prepare(l.image)
        #expect(p.inverted)
        #expect(try p.image.meanGray() > 200)   // now mostly white paper
    }

    @Test func darkOnLightIsNotInverted() throws {
        let p = try Preprocessor().prepare(loader.load(TestPaths.sample("kettle.png")).image)
        #expect(!p.inverted)
    }

    @Test func smallTextIsEnlargedToTheTargetHeight() throws {
        let l = try loader.load(TestPaths.bugcase("10-low-res-small-text/raven_8px.png"))
        let p = try Preprocessor().prepare(l.image)
        let measured = try #require(p.measuredTextHeight)
        #expect(measured < 10)
        #expect(p.scale == 4)   // capped enlargement
    }

    @Test func sampleTextIsLeftAtItsSize() throws {
        // DejaVu Serif 40 px: the median glyph (22 px) is within [0.7, 2.5] × 26 px.
        let p = try Preprocessor().prepare(loader.load(TestPaths.sample("kettle.png")).image)
        #expect(p.measuredTextHeight == 22)
        #expect(p.scale == 1)
        #expect(p.image.depth == 8)
        let otsu = try Preprocessor(options: PreprocessingOptions(binarization: .otsu)).prepare(loader.load(TestPaths.sample("kettle.png")).image)
        #expect(otsu.image.depth == 1)
    }

    @Test func uniformPageIsNotInverted() throws {
        let p = try Preprocessor().prepare(loader.load(TestPaths.bugcase("07-tiny-1x1/black_1x1.png")).image)
        #expect(!p.inverted)
    }

    @Test func longSideIsBounded() throws {
        let l = try loader.load(TestPaths.bugcase("08-huge-dimensions/raven_40000x3000.png"))
        let p = try Preprocessor(options: PreprocessingOptions(maxDimension: 4000)).prepare(l.image)
        #expect(max(p.image.width, p.image.height) <= 4000)
        #expect(p.image.width * 3000 / 40000 - p.image.height <= 1)   // aspect ratio kept
    }

    @Test(arguments: Binarization.allCases)
    func everyBinarizationGivesOneBitOrGrey(method: Binarization) throws {
        let p = try Preprocessor(options: PreprocessingOptions(binarization: method)).prepare(loader.load(TestPaths.sample("harbour-photo.jpg")).image)
        #expect(p.image.depth == (method == .tesseract ? 8 : 1))
    }
}
