import Foundation
import SnapImaging
import Testing

@testable import SnapOCR

#if canImport(Glibc)
    import Glibc
#endif

let sampleResult = RecognitionResult(
    text: "Lenore, the kettle hums your tune,\n", meanConfidence: 93,
    words: [
        RecognizedWord(
            text: "Lenore,", boundingBox: BoundingBox(x: 100, y: 80, width: 131, height: 30), confidence: 96.5, line: 0),
        {
            var w = RecognizedWord(
                text: "kettie", boundingBox: BoundingBox(x: 300, y: 80, width: 90, height: 30), confidence: 61, line: 0)
            w.otherReading = "kettle"  // the other preparation's reading of its place (version 6)
            return w
        }(),
    ],
    rotationDegrees: 90, notes: everyNote)

let everyFailure: [WorkerFailure] = [
    .unusablePhoto(.notAnImage(path: "/photos/kettle.txt")),
    .unusablePhoto(.unreadable(path: "/photos/secret.png", errno: EACCES)),
    .unusablePhoto(
        .tooLarge(path: "/b.png", width: 32000, height: 24000, decodedBytes: 768_000_000, limitBytes: 512 << 20)),
    .engineUnavailable(
        .languagesNotLoaded(
            problems: [LanguageProblem(language: "xyz", path: "/t/xyz.traineddata", reason: .fileNotFound)],
            tessdata: "/t/")),
    .engineUnavailable(.tessdataMissing(path: "/nonexistent")),
    .recognitionFailed(photo: "linn.png"), .unexpected(photo: "linn.png", reason: "out of memory"), .badRequest,
    .cancelled,
    .timedOut(photo: "linn.png", seconds: 0.5), .crashed(photo: "linn.png", signal: SIGSEGV, lastError: nil),
    .exited(photo: "linn.png", status: 3, lastError: "fatal: no memory"),
]

@Suite struct WorkerProtocolTests {
    @Test func progressIsOneSortedJSONLine() throws {
        let line = try WorkerMessage.progress(percent: 42, stage: .recognizing).encodedLine()
        #expect(
            String(decoding: line, as: UTF8.self)
                == "{\"event\":\"progress\",\"percent\":42,\"stage\":\"recognizing\",\"v\":6}\n")
    }

    @Test func failureLineCarriesTheTypedFailure() throws {
        let line = try WorkerMessage.failure(.unusablePhoto(.notAnImage(path: "/p/photo.png"))).encodedLine()
        #expect(
            String(decoding: line, as: UTF8.self)
                == "{\"event\":\"failure\",\"failure\":{\"unusablePhoto\":{\"_0\":{\"notAnImage\":{\"path\":\"/p/photo.png\"}}}},\"v\":6}\n"
        )
    }

    @Test func everyMessageSurvivesTheWire() throws {
        let messages: [WorkerMessage] =
            RecognitionStage.allCases.map { .progress(percent: 7, stage: $0) }
            + [
                .result(sampleResult),
                .result(RecognitionResult(text: "", meanConfidence: 0, words: [], rotationDegrees: 0)),
            ]
            + everyFailure.map { .failure($0) }
        for message in messages {
            let line = try message.encodedLine()
            #expect(line.last == 0x0A)
            #expect(line.dropLast().contains(0x0A) == false)
            #expect(try WorkerMessage.decode(line: line.dropLast()) == message)
        }
    }

    @Test func anotherVersionIsRefused() throws {
        // Version 1 carried the same events as a struct of optionals and string kinds.
        let line = Data("{\"event\":\"progress\",\"percent\":42,\"stage\":\"recognizing\",\"v\":1}".utf8)
        #expect(throws: WorkerProtocolError.unsupportedVersion(1)) { try WorkerMessage.decode(line: line) }
    }

    @Test(arguments: [
        "", "Tesseract warning: nothing", "{\"v\":3}",
        "{\"v\":3,\"event\":\"progress\",\"percent\":5,\"stage\":\"dreaming\"}",
        "{\"v\":3,\"event\":\"error\",\"kind\":\"internal\",\"message\":\"old\"}",
    ])
    func linesThatAreNotMessagesAreRefused(line: String) {
        #expect(throws: (any Error).self) { try WorkerMessage.decode(line: Data(line.utf8)) }
    }

    @Test func requestRoundTripAndVersion() throws {
        var options = RecognitionOptions()
        options.engine.languages = ["fra"]
        options.level = .accurate
        options.preprocessing.binarization = .sauvola
        let request = WorkerRequest(options: options, displayName: "po\\xE8me.png")
        #expect(request.v == WorkerProtocol.version)
        #expect(try WorkerRequest.decode(json: request.json()) == request)
        var future = request
        future.v = WorkerProtocol.version + 1
        #expect(throws: WorkerProtocolError.unsupportedVersion(WorkerProtocol.version + 1)) {
            try WorkerRequest.decode(json: future.json())
        }
        #expect(throws: DecodingError.self) { try WorkerRequest.decode(json: "{}") }
    }

    @Test func failureMessagesAreTheOnesUsersSee() {
        #expect(
            everyFailure.map(\.description) == [
                "/photos/kettle.txt: not an image in a format lovesnap reads (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM)",
                "/photos/secret.png: Permission denied",
                "/b.png: the image is 32000×24000 pixels and would take 732 MiB once decoded, above lovesnap's limit of 512 MiB; refused before decoding (scale it down first)",
                "Tesseract could not load language 'xyz': file not found (/t/xyz.traineddata). Searched the tessdata folder /t/. Install the language with `apt-get install tesseract-ocr-xyz` or give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files.",
                "the tessdata folder /nonexistent does not exist; give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files",
                "linn.png: Tesseract failed to recognize the page",
                "linn.png: out of memory",
                "worker: bad request",
                "OCR cancelled",
                "OCR stopped: the engine did not finish linn.png within 0.5 s (see --timeout)",
                "OCR stopped: the engine crashed on linn.png (signal SIGSEGV)",
                "OCR stopped: the engine exited with status 3 on linn.png: fatal: no memory",
            ])
        #expect(
            WorkerFailure.crashed(photo: "a.png", signal: SIGKILL, lastError: "Killed").description
                == "OCR stopped: the engine crashed on a.png (signal SIGKILL): Killed")
        #expect(
            WorkerFailure.crashed(photo: "a.png", signal: 64, lastError: nil).description
                == "OCR stopped: the engine crashed on a.png (signal 64)")
    }

    @Test func recognizerErrorsBecomeFailures() {
        struct Odd: Error, CustomStringConvertible { var description: String { "odd" } }
        #expect(
            WorkerFailure(ImagingError.fileNotFound(path: "/x.png"), photo: "x.png")
                == .unusablePhoto(.fileNotFound(path: "/x.png")))
        #expect(WorkerFailure(OCRError.cancelled, photo: "x.png") == .cancelled)
        #expect(WorkerFailure(OCRError.recognitionFailed, photo: "x.png") == .recognitionFailed(photo: "x.png"))
        #expect(
            WorkerFailure(OCRError.tessdataMissing(path: "/t"), photo: "x.png")
                == .engineUnavailable(.tessdataMissing(path: "/t")))
        #expect(WorkerFailure(Odd(), photo: "x.png") == .unexpected(photo: "x.png", reason: "odd"))
    }
}
