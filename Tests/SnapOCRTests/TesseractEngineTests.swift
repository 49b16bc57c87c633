import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

@Suite struct TesseractEngineTests {
    @Test func everyRowIsTakenForProportionalText() throws {
        // Tesseract's default is false: its fixed-pitch test of every row, skipped (see `init`).
        #expect(try TesseractEngine(options: EngineOptions(languages: ["eng"])).takesEveryRowAsProportional)
    }

    @Test func englishGoesLastSoFrenchKeepsItsAccents() {
        #expect(EngineOptions(languages: ["eng", "fra"]).engineOrder == ["fra", "eng"])
        #expect(EngineOptions(languages: ["fra", "eng"]).engineOrder == ["fra", "eng"])
        #expect(EngineOptions(languages: ["eng"]).engineOrder == ["eng"])
        #expect(EngineOptions(languages: ["eng", "deu", "fra"]).engineOrder == ["deu", "fra", "eng"])
    }

    @Test func languageSpecParsing() throws {
        #expect(try EngineOptions.parseLanguages("eng+fra") == ["eng", "fra"])
        #expect(throws: OCRError.invalidLanguage("eng+")) { try EngineOptions.parseLanguages("eng+") }
        #expect(throws: OCRError.invalidLanguage("../eng")) { try EngineOptions.parseLanguages("../eng") }
    }

    @Test func missingSecondLanguageIsNotSilentlyDropped() throws {
        // Tesseract's Init returns 0 for "eng+xyz" (and "xyz+eng") with only eng loaded.
        do {
            _ = try TesseractEngine(options: EngineOptions(languages: ["eng", "xyz"]))
            Issue.record("expected a missing-language error")
        } catch let OCRError.languagesNotLoaded(problems, tessdata) {
            #expect(tessdata == "/usr/share/tesseract-ocr/5/tessdata/")
            #expect(
                problems == [
                    LanguageProblem(
                        language: "xyz", path: "/usr/share/tesseract-ocr/5/tessdata/xyz.traineddata",
                        reason: .fileNotFound)
                ])
        }
    }

    @Test(arguments: [
        ("missing", nil as String?, LanguageProblem.Reason.fileNotFound),
        ("empty", "", .emptyFile),
        ("html", "<!DOCTYPE html><html><body>Not a model</body></html>", .htmlPage),
    ])
    func brokenFrenchModelsAreDiagnosed(label: String, content: String?, reason: LanguageProblem.Reason) throws {
        let dir = TestPaths.temporaryDirectory(label)
        try FileManager.default.copyItem(
            atPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata",
            toPath: dir.appendingPathComponent("eng.traineddata").path)
        if let content {
            try content.write(to: dir.appendingPathComponent("fra.traineddata"), atomically: true, encoding: .utf8)
        }
        #expect(
            throws: OCRError.languagesNotLoaded(
                problems: [LanguageProblem(language: "fra", path: dir.path + "/fra.traineddata", reason: reason)],
                tessdata: dir.path + "/")
        ) {
            _ = try TesseractEngine(options: EngineOptions(languages: ["eng", "fra"], tessdataPath: dir.path))
        }
    }

    @Test func wrongCaseFileNameIsPointedOut() throws {
        let dir = TestPaths.temporaryDirectory("case")
        try FileManager.default.copyItem(
            atPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata",
            toPath: dir.appendingPathComponent("eng.traineddata").path)
        try FileManager.default.copyItem(
            atPath: "/usr/share/tesseract-ocr/5/tessdata/fra.traineddata",
            toPath: dir.appendingPathComponent("Fra.traineddata").path)
        #expect(
            throws: OCRError.languagesNotLoaded(
                problems: [
                    LanguageProblem(
                        language: "fra", path: dir.path + "/fra.traineddata",
                        reason: .fileNotFoundButCaseDiffers(existing: "Fra.traineddata"))
                ], tessdata: dir.path + "/")
        ) {
            _ = try TesseractEngine(options: EngineOptions(languages: ["eng", "fra"], tessdataPath: dir.path))
        }
    }

    @Test func wordsCarryBoxesConfidenceAndLines() throws {
        let engine = try TesseractEngine()
        let page = try Preprocessor().prepare(ImageLoader().load(TestPaths.sample("kettle.png")).image)
        var reported: [Int] = []
        let r = try engine.recognize(page) {
            reported.append($0)
            return true
        }
        #expect(r.text == (try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)))
        #expect(r.words.count == 25)
        #expect(r.words.first?.text == "Lenore,")
        #expect(Set(r.words.map(\.line)) == [0, 1, 2, 3])
        #expect(r.words.allSatisfy { $0.confidence > 0 && $0.confidence <= 100 })
        // Boxes are in pixels of the photo: inside its 1100×439 frame, first word at the left margin.
        #expect(
            r.words.allSatisfy {
                $0.boundingBox.x >= 0 && $0.boundingBox.x + $0.boundingBox.width <= 1100
                    && $0.boundingBox.y >= 0 && $0.boundingBox.y + $0.boundingBox.height <= 439
            })
        let first = try #require(r.words.first?.boundingBox)
        #expect(abs(first.x - 100) <= 3)
        #expect(!reported.isEmpty && reported == reported.sorted())
        #expect(r.meanConfidence >= 80)
    }

    @Test func progressCallbackCancels() throws {
        let engine = try TesseractEngine()
        let page = try Preprocessor().prepare(ImageLoader().load(TestPaths.sample("harbour.png")).image)
        #expect(throws: OCRError.cancelled) { _ = try engine.recognize(page) { _ in false } }
    }
}
