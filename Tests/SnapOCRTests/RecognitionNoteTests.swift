import Foundation
import SnapImaging
import Testing

@testable import SnapOCR

/// One note of every kind, the notes for the user first (the protocol tests send them all too).
let everyNote: [RecognitionNote] = [
    .frameRead(index: 1, of: 3, format: "GIF"), .exifOrientationApplied(6), .transparencyFlattened,
    .turnedByOrientationDetection(degrees: 180, confidence: 10.300000190734863), .inverted,
    .deskewed(degrees: -1.89), .rotated(degrees: 270), .orientationUnavailable(tessdata: "/opt/tessdata/"),
    .languagesLoaded(["fra", "eng"]), .jpegReduced(factor: 4),
    .prepared(
        PreparationVariant(PreprocessingOptions()),
        PageMeasurements(textHeight: 46.37, scale: 0.99, width: 4000, height: 3000, inverted: false, deskewDegrees: 0)),
    .prepared(
        PreparationVariant(binarization: .otsu, atNativeSize: true),
        PageMeasurements(textHeight: nil, scale: 1, width: 1, height: 1, inverted: true, deskewDegrees: 0.5)),
    .read(
        PreparationVariant(binarization: .sauvola, atNativeSize: false), meanConfidence: 94, words: 42, score: 166.149),
    .kept(PreparationVariant(binarization: .tesseract, atNativeSize: true)),
    .orientationDetected(degrees: 90, confidence: 14.4), .uprightByBlocksAlone(meanConfidence: 93),
    .compared(prepared: 0, plain: 11), .comparedBlocks(blocks: 32, kept: -17),
    .readByTwoEngines(from: 61, lines: 82), .readByTwoEngines(from: nil, lines: 82),
]

@Suite struct RecognitionNoteTests {
    @Test func eachNoteHasItsWording() {
        #expect(
            everyNote.map(\.description) == [
                "GIF with 3 frames: frame 1 read",
                "EXIF orientation 6 applied",
                "transparency flattened onto white",
                "page turned 180° clockwise (orientation detected, confidence 10.3)",
                "light text on a dark background: inverted",
                "deskewed by -1.9°",
                "page read turned 270° clockwise (found by Tesseract's layout analysis)",
                "orientation not checked: osd.traineddata could not be loaded from /opt/tessdata/",
                "languages loaded: fra+eng",
                "JPEG decoded at 1/4 size",
                "tesseract: text height 46.37 px, scale 0.99, 4000×3000 px, inverted false, deskew 0.00°",
                "otsu at native size: text height not measured, scale 1.00, 1×1 px, inverted true, deskew 0.50°",
                "sauvola: mean confidence 94, 42 words, score 166.1",
                "kept tesseract at native size",
                "orientation: 90° clockwise, confidence 14.4",
                "orientation not checked: the light-on-dark blocks alone read upright (mean confidence 93)",
                "word evidence: prepared 0, plain 11",
                "word evidence: light-on-dark blocks alone 32, reading kept so far -17",
                "read by two engines: lines 61–82 by the second",
                "read by one engine: the second engine's part would have read otherwise (82 lines)",
            ])
    }

    @Test func notesSurviveJSON() throws {
        let data = try JSONEncoder().encode(everyNote)
        #expect(try JSONDecoder().decode([RecognitionNote].self, from: data) == everyNote)
    }

    @Test func onlyWhatWasDoneToThePhotoIsForTheUser() {
        #expect(everyNote.filter { !$0.isDiagnostic } == Array(everyNote.prefix(8)))
    }

    @Test func variantsAreNamedByFilterAndSize() {
        var options = PreprocessingOptions()
        #expect(PreparationVariant(options).description == "tesseract")
        options.rescaleToTextHeight = false
        options.binarization = .otsu
        #expect(PreparationVariant(options) == PreparationVariant(binarization: .otsu, atNativeSize: true))
        #expect(PreparationVariant(options).description == "otsu at native size")
    }
}
