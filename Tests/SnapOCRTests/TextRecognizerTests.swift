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

    /// Why there is no model, as `-v` says it: switched off, a file that cannot be read, none found.
    @Test func whyThereIsNoModel() {
        let v = TextRecognizer.modelEnvironmentVariable
        #expect(TextRecognizer.missing(environment: [v: ""]) == "switched off: LOVESNAP_TEXT_RECOGNIZER is empty")
        #expect(
            TextRecognizer.missing(environment: [v: "/no/model.onnx"])
                == "LOVESNAP_TEXT_RECOGNIZER names /no/model.onnx, which cannot be read")
        #expect(
            TextRecognizer.missing(environment: [:])
                == "no model: no text-recognition.onnx in ../share/lovesnap beside the executable or in the "
                + "source tree's Models/")
    }

    /// A character list that is not the model's own (a line short) is refused, not read as garbage.
    @Test func aCharacterListOfAnotherLengthIsRefused() throws {
        let model = try #require(TextRecognizer.defaultModelPath(environment: [:]))
        let dir = TestPaths.temporaryDirectory("lsnap-characters").path
        try FileManager.default.createSymbolicLink(atPath: dir + "/short.onnx", withDestinationPath: model)
        let list = try String(contentsOfFile: (model as NSString).deletingPathExtension + ".txt", encoding: .utf8)
        try Data(list.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: dir + "/short.txt"))
        let page = try ImageLoader().load(TestPaths.sample("kettle.png")).image
        #expect(
            throws: TextRecognizer.Failure(
                description: "the model reads 142 characters, and its character list has 141")
        ) {
            try TextRecognizer(modelPath: dir + "/short.onnx").read(
                page, boxes: [BoundingBox(x: 10, y: 10, width: 80, height: 30)])
        }
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
