import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// `TextRecognizer`: the vendored PP-OCRv4 recognizer through OpenCV's dnn on real pages.
@Suite struct TextRecognizerTests {
    func recognizer(sourceLocation: SourceLocation = #_sourceLocation) throws -> TextRecognizer {
        try TextRecognizer(
            modelPath: try #require(TextRecognizer.defaultModelPath(environment: [:]), sourceLocation: sourceLocation))
    }

    @Test func theModelAndItsCharactersAreFoundInTheSourceTree() throws {
        let path = try #require(TextRecognizer.defaultModelPath(environment: [:]))
        #expect(path.hasSuffix("/Models/text-recognition.onnx"))
        #expect(TextRecognizer.defaultModelPath(environment: [TextRecognizer.modelEnvironmentVariable: ""]) == nil)
        let r = try recognizer()
        // The blank is class 0; the 142 characters of Latin writing the conversion kept, the space last.
        #expect(r.characters.count == 142)
        #expect(r.characters.last == " ")
        #expect(r.characters.contains("é") && r.characters.contains("A") && r.characters.contains("7"))
    }

    /// Tesseract's word boxes of the first line of a poem photo, read again by the network: each
    /// word as printed, several words on one of the network's inputs.
    @Test func itReadsAPoemsWordsInTesseractsBoxes() throws {
        let path = TestPaths.sample("kettle.png")
        let result = try Recognizer().recognize(path: path)
        let page = try ImageLoader().load(path).image
        let first = result.words.filter { $0.line == 0 }
        let read = try recognizer().read(page, boxes: first.map(\.boundingBox))
        #expect(read.map { $0?.text } == first.map(\.text))
        #expect(read.allSatisfy { ($0?.confidence ?? 0) > 90 })
        // A box outside the photo reads nothing; one thread reads what two do.
        let outside = BoundingBox(x: page.width + 5, y: 0, width: 40, height: 20)
        let alone = try recognizer().read(page, boxes: first.map(\.boundingBox) + [outside], threads: 1)
        #expect(alone.map { $0?.text } == first.map(\.text) + [nil])
    }

    @Test func aModelWithoutItsCharacterListIsRefused() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-recognizer").path
        let model = dir + "/other.onnx"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: model))
        let refusal = TextRecognizer.Failure(description: "no character list \(dir)/other.txt beside the model")
        #expect(throws: refusal) { try TextRecognizer(modelPath: model) }
        // A model OpenCV cannot read: its reason.
        try Data("a\n".utf8).write(to: URL(fileURLWithPath: dir + "/other.txt"))
        let page = try ImageLoader().load(TestPaths.sample("kettle.png")).image
        #expect(throws: TextRecognizer.Failure.self) {
            try TextRecognizer(modelPath: model).read(page, boxes: [BoundingBox(x: 0, y: 0, width: 50, height: 20)])
        }
    }
}
