import CLeptonica
import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// `TextDetector`: the vendored model through OpenCV's dnn on real pages.
@Suite struct TextDetectorTests {
    func detector(sourceLocation: SourceLocation = #_sourceLocation) throws -> TextDetector {
        TextDetector(
            modelPath: try #require(TextDetector.defaultModelPath(environment: [:]), sourceLocation: sourceLocation))
    }

    @Test func theModelIsFoundInTheSourceTreeAndNotWhenNamedEmpty() throws {
        let path = try #require(TextDetector.defaultModelPath(environment: [:]))
        #expect(path.hasSuffix("/Models/text-detection.onnx"))
        #expect(TextDetector.defaultModelPath(environment: [TextDetector.modelEnvironmentVariable: ""]) == nil)
        #expect(TextDetector.defaultModelPath(environment: [TextDetector.modelEnvironmentVariable: "/no/model"]) == nil)
    }

    @Test func eachLineOfAPoemIsARegionInReadingOrder() throws {
        let page = try ImageLoader().load(TestPaths.sample("kettle.png")).image
        let regions = try detector().detect(page)
        let lines = try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(regions.count == lines.count)
        let rows = ReadingOrder.rows(of: regions)
        #expect(rows.count == lines.count)
        // Top to bottom: each row's region lower on the page than the one before.
        let tops = rows.map { regions[$0.regions[0]].bounds.y }
        #expect(tops == tops.sorted())
        #expect(regions.allSatisfy { $0.score >= 0.5 && $0.score <= 1 })
    }

    /// The network's input is sized by the print: 960 px unless the print would stand higher
    /// than 12 px there, then what brings it to 12 px, never under 480 px.
    @Test func theNetworksInputIsSizedByThePrint() {
        func side(_ height: Double?, _ longer: Int) -> Int {
            TextDetector.side(printHeight: height, longerSide: longer, limit: 960, target: 12, least: 480)
        }
        #expect(side(nil, 1000) == 960)
        #expect(side(12, 960) == 960)
        #expect(side(10, 3000) == 960)
        #expect(side(20, 960) == 576)
        #expect(side(40, 1920) == 576)
        #expect(side(16, 741) == 556)
        #expect(side(60, 960) == 480)
        #expect(side(0, 960) == 960)
    }

    /// A line image is stretched over 0–255 and given to Tesseract dark on light: light print on
    /// a dark ground (most of the line) is inverted, dark print on a light ground is not.
    @Test func aLineIsReadDarkOnLight() throws {
        func line(ground: UInt32, print: UInt32) throws -> Image {
            let image = try Image.wrap(pixCreate(100, 40, 32), "pixCreate")
            for y in 0..<40 {
                for x in 0..<100 {
                    let v = (15..<25).contains(y) && (10..<90).contains(x) ? print : ground
                    pixSetPixel(image.pix, Int32(x), Int32(y), v << 24 | v << 16 | v << 8)
                }
            }
            return image
        }
        func levels(_ image: Image) -> [UInt32] {
            [(50, 2), (50, 20)].map { x, y in
                var v: l_uint32 = 0
                pixGetPixel(image.pix, Int32(x), Int32(y), &v)
                return v
            }
        }
        // [ground, print] after stretching (Leptonica's rank levels interpolate within the
        // histogram's bins: 2 and 253, not 0 and 255).
        #expect(levels(try TextDetector.stretched(try line(ground: 80, print: 230))) == [255, 2])
        #expect(levels(try TextDetector.stretched(try line(ground: 230, print: 80))) == [253, 0])
    }

    @Test func aModelOpenCVCannotReadIsAnError() throws {
        let page = try ImageLoader().load(TestPaths.sample("kettle.png")).image
        let bad = TestPaths.temporaryDirectory().appendingPathComponent("bad.onnx")
        try Data("not a model".utf8).write(to: bad)
        #expect(throws: OCRError.self) { try TextDetector(modelPath: bad.path).detect(page) }
    }

    @Test func theDetectedLinesOfAPoemReadAsItsText() throws {
        let photo = try ImageLoader().load(TestPaths.sample("kettle.png")).image
        let regions = try detector().detect(photo)
        let engine = try TesseractEngine()
        let r = try DetectedLinesReading.read(regions, of: photo, reduction: 1, engine: engine)
        #expect(r.text == (try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)))
        // Each word's box is in the photo's pixels.
        #expect(r.words.allSatisfy { $0.boundingBox.x >= 0 && $0.boundingBox.x + $0.boundingBox.width <= photo.width })
    }

    @Test func theDetectorProcessFindsWhatTheDetectorFindsHere() throws {
        // A phone photo (1200 px and more): scaled to 960 px in this process, detected in the other.
        let photo = try ImageLoader().load(TestPaths.sample("harbour-photo.jpg")).image
        let apart = try DetectorProcess.detect(photo, with: detector(), executable: TestPaths.lovesnap)
        let here = try DetectorProcess.detect(photo, with: detector(), executable: nil)
        #expect(apart.regions == here.regions && !apart.reduced && !here.reduced)
        // Sized by its print, the network's input is smaller, and the same lines are found.
        let sized = try DetectorProcess.detect(
            photo, with: detector(), executable: TestPaths.lovesnap, sizedByPrint: true)
        #expect(sized.reduced)
        #expect(ReadingOrder.rows(of: sized.regions).count == ReadingOrder.rows(of: apart.regions).count)
        let lines = try String(contentsOfFile: TestPaths.sample("harbour.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(ReadingOrder.rows(of: apart.regions).count == lines.count)
    }

    /// A poem's detected lines read by one engine, by two in this process, and by this one with
    /// the reader process's: the same words, boxes and confidences; and with a second engine
    /// that fails (a reader that cannot start), all read by the first.
    @Test func twoEnginesReadTheDetectedLinesAsOneDoes() throws {
        let path = TestPaths.sample("kettle.png")
        let photo = try ImageLoader().load(path).image
        let regions = try DetectorProcess.detect(photo, with: detector(), executable: nil).regions
        let engine = try TesseractEngine()
        let alone = try DetectedLinesReading.read(regions, of: photo, reduction: 1, engine: engine)
        #expect(alone.text == (try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)))
        let second = SecondEngine(options: EngineOptions())
        let request = ReaderRequest(
            engine: EngineOptions(), preprocessing: PreprocessingOptions(), memoryLimit: ImageLoader.defaultMemoryLimit)
        let reader = try ReaderProcess(executable: TestPaths.lovesnap, request: request, path: path)
        defer { reader.cancel() }
        let failing = try ReaderProcess(executable: "/bin/false", request: request, path: path)
        // The reader's engine loads while the lines are read here and in this process: it then
        // reads the last lines while this engine reads the first.
        var onReader: LinesOnReader?
        let starts: [(String, LinesReadBeside.Start)] = [
            ("this process", { LinesOnSecondEngine(second: second, rgb: $0, regions: $1, order: $2, reduction: 1) }),
            (
                "the reader",
                {
                    let lines = LinesOnReader(reader: reader, photo: $0, regions: $1, order: $2, reduction: 1)
                    onReader = lines
                    return lines
                }
            ),
            ("a failed reader", { LinesOnReader(reader: failing, photo: $0, regions: $1, order: $2, reduction: 1) }),
        ]
        for (name, start) in starts {
            let two = try DetectedLinesReading.read(regions, of: photo, reduction: 1, engine: engine, beside: start)
            #expect(two.words == alone.words, "\(name)")
            #expect(two.text == alone.text && two.meanConfidence == alone.meanConfidence, "\(name)")
        }
        #expect(try #require(onReader).line(0) != nil)
    }
}
