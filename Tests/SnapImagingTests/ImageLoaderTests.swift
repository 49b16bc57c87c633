import Foundation
import SnapTestSupport
import Testing

@testable import SnapImaging

@Suite struct ImageLoaderTests {
    let loader = ImageLoader()

    @Test func exifOrientation6IsTurnedUpright() throws {
        // The stored pixels are turned 90° counter-clockwise; the tag says "rotate 90° clockwise".
        let stored = try loader.load(TestPaths.sample("kettle-exif6.jpg"))
        let reference = try loader.load(TestPaths.sample("kettle-photo.jpg"))
        #expect(stored.exifOrientation == 6)
        #expect(stored.storedSize.width == 439 && stored.storedSize.height == 1100)
        #expect(stored.image.width == reference.image.width)
        #expect(stored.image.height == reference.image.height)
        #expect(reference.exifOrientation == nil)
    }

    /// exif-orientation-N.jpg: the same 660×256 page stored so that orientation N shows it upright
    /// (turned a quarter for 5–8, so stored 256×660).
    @Test(arguments: 1...8)
    func exifOrientationTagIsReadAndApplied(orientation: Int) throws {
        let l = try loader.load(TestPaths.fixture("exif-orientation-\(orientation).jpg"))
        #expect(l.exifOrientation == orientation)
        let turned = orientation >= 5
        #expect(l.storedSize.width == (turned ? 256 : 660) && l.storedSize.height == (turned ? 660 : 256))
        #expect(l.image.width == 660 && l.image.height == 256)
    }

    /// EXIF 2.32 tag 0x0112: where the stored 3×2 image's pixel (x, y) lands once displayed.
    @Test(arguments: [
        (1, 3, 2, [1, 2, 3, 4, 5, 6]),
        (2, 3, 2, [3, 2, 1, 6, 5, 4]),
        (3, 3, 2, [6, 5, 4, 3, 2, 1]),
        (4, 3, 2, [4, 5, 6, 1, 2, 3]),
        (5, 2, 3, [1, 4, 2, 5, 3, 6]),
        (6, 2, 3, [4, 1, 5, 2, 6, 3]),
        (7, 2, 3, [6, 3, 5, 2, 4, 1]),
        (8, 2, 3, [3, 6, 2, 5, 1, 4]),
    ])
    func everyExifOrientation(orientation: Int, width: Int, height: Int, expected: [Int]) throws {
        // Stored:  1 2 3
        //          4 5 6
        let stored = try Image(gray8: [1, 2, 3, 4, 5, 6], width: 3, height: 2)
        let upright = try stored.applyingEXIFOrientation(orientation)
        #expect(upright.width == width && upright.height == height)
        #expect(upright.pixelValues().map(Int.init) == expected)
    }

    /// RGBA and grey+alpha pages whose colour is black everywhere (the text only in alpha), and a
    /// palette whose black background entry is transparent (tRNS).
    @Test(arguments: ["text-only-in-alpha.png", "text-only-in-alpha-grey.png", "palette-transparent-background.png"])
    func alphaIsFlattenedOntoWhite(name: String) throws {
        let l = try loader.load(TestPaths.fixture(name))
        let mean = try l.image.grayscale().meanGray(sampling: 1)
        #expect(mean > 200, "text that exists only in the alpha channel must become dark on white, mean \(mean)")
        #expect(l.flattenedTransparency)
    }

    @Test func missingFile() throws {
        #expect(throws: ImagingError.fileNotFound(path: "/nonexistent/poem.png")) {
            try loader.load("/nonexistent/poem.png")
        }
    }

    @Test func directory() throws {
        let dir = TestPaths.temporaryDirectory()
        #expect(throws: ImagingError.isDirectory(path: dir.path)) { try loader.load(dir.path) }
    }

    @Test func emptyFileAndNotAnImage() throws {
        let dir = TestPaths.temporaryDirectory()
        let empty = dir.appendingPathComponent("empty.png").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: ImagingError.emptyFile(path: empty)) { try loader.load(empty) }
        let text = TestPaths.sample("kettle.txt")
        #expect(throws: ImagingError.notAnImage(path: text)) { try loader.load(text) }
    }

    @Test func truncatedPNGIsCorrupt() throws {
        let dir = TestPaths.temporaryDirectory()
        let full = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sample("kettle.png")))
        let cut = dir.appendingPathComponent("cut.png").path
        try full.prefix(full.count / 3).write(to: URL(fileURLWithPath: cut))
        #expect(throws: ImagingError.corrupt(path: cut, format: "PNG")) { try loader.load(cut) }
    }

    /// A TIFF cut short is said to be a truncated TIFF, not "not an image" (Leptonica names no
    /// format for it); its signature alone is enough.
    @Test func truncatedTIFFIsCorrupt() throws {
        let dir = TestPaths.temporaryDirectory()
        let full = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("kettle-cmyk.tif")))
        for count in [200, 8, 4] {
            let cut = dir.appendingPathComponent("cut-\(count).tif").path
            try full.prefix(count).write(to: URL(fileURLWithPath: cut))
            #expect(throws: ImagingError.corrupt(path: cut, format: "TIFF")) { try loader.load(cut) }
        }
        #expect(
            ImagingError.corrupt(path: "a.tif", format: "TIFF").description
                == "a.tif: the TIFF data is truncated or corrupt and could not be decoded")
    }

    @Test func decompressionBombIsRefusedFromItsHeader() throws {
        let dir = TestPaths.temporaryDirectory()
        let bomb = dir.appendingPathComponent("bomb.png").path
        let r = try run(
            "/usr/bin/env",
            ["python3", TestPaths.repoRoot.appendingPathComponent("scripts/make-png-bomb.py").path, bomb])
        #expect(r.status == 0)
        #expect(
            throws: ImagingError.tooLarge(
                path: bomb, width: 32000, height: 24000,
                decodedBytes: 768_000_000, limitBytes: 512 << 20)
        ) {
            try loader.load(bomb)
        }
        #expect(
            ImagingError.tooLarge(
                path: "b.png", width: 32000, height: 24000, decodedBytes: 768_000_000, limitBytes: 512 << 20
            ).description
                == "b.png: the image is 32000×24000 pixels and would take 732 MiB once decoded, above lovesnap's limit of 512 MiB; refused before decoding (scale it down first)"
        )
    }

    @Test func largeJPEGIsDecodedReduced() throws {
        let l = try ImageLoader(jpegReductionTarget: 1000).load(TestPaths.fixture("large-4032x3024.jpg"))
        #expect(l.decodeReduction == 4)
        #expect(l.image.width == 1008 && l.image.height == 756)
    }
}
