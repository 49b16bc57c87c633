import Foundation
import SnapImaging
import SnapTestSupport
import Testing

@testable import SnapOCR

/// `Recognizer.recognize`: its hand-off (the result while the run's engines still live) and the
/// passes it skips.
@Suite struct RecognizerTests {
    struct Refused: Error, Equatable {}

    /// A reading of `words` words at mean confidence `confidence`.
    func reading(words: Int, confidence: Int) -> RecognitionResult {
        let word = RecognizedWord(
            text: "fenêtre", boundingBox: BoundingBox(x: 0, y: 0, width: 70, height: 30),
            confidence: Double(confidence),
            line: 0)
        return RecognitionResult(
            text: "fenêtre\n", meanConfidence: confidence, words: Array(repeating: word, count: words),
            rotationDegrees: 0)
    }

    @Test func aReadingReplacesAnotherWithMoreEvidenceButNothingReplacesText() {
        let empty = reading(words: 0, confidence: 0)
        // More evidence of real words wins; a tie keeps the reading kept.
        #expect(
            Recognizer.replaces(
                reading(words: 9, confidence: 80), weighing: 5, reading(words: 9, confidence: 95), weighing: 4))
        #expect(
            !Recognizer.replaces(
                reading(words: 9, confidence: 80), weighing: 4, reading(words: 9, confidence: 95), weighing: 4))
        // Words the dictionaries do not know weigh against a clear reading, but an empty one never
        // replaces it (a French page read with English alone: 103 words at 91, weighing −8)...
        #expect(!Recognizer.replaces(empty, weighing: 0, reading(words: 103, confidence: 91), weighing: -8))
        // ...and a clear reading replaces an empty one at the same evidence (a sign in French).
        #expect(Recognizer.replaces(reading(words: 6, confidence: 95), weighing: 0, empty, weighing: 0))
        // Noise read as text reads poorly: nothing replaces it when it weighs less.
        #expect(Recognizer.replaces(empty, weighing: 0, reading(words: 30, confidence: 69), weighing: -12))
        #expect(!Recognizer.replaces(reading(words: 30, confidence: 69), weighing: -12, empty, weighing: 0))
    }

    @Test func theHandOffGetsTheResultThatIsReturned() throws {
        var handedOff: [RecognitionResult] = []
        let result = try Recognizer().recognize(
            path: TestPaths.sample("kettle.png"), handOff: { handedOff.append($0) })
        #expect(handedOff == [result])
        #expect(result.words.count == 25)
    }

    @Test func whatTheHandOffThrowsIsThrown() throws {
        #expect(throws: Refused()) {
            try Recognizer().recognize(path: TestPaths.sample("kettle.png"), handOff: { _ in throw Refused() })
        }
    }

    @Test func aSignThatReadsUprightAloneNeedsNoOrientationCheck() throws {
        // The whole photo reads as stone (mean confidence 33, under 70: poor), which would ask OSD;
        // the sign alone, the wall blanked out, reads upright at 93 first, and OSD is not asked.
        let r = try Recognizer().recognize(path: TestPaths.fixture("sign-on-stone-wall.jpg"))
        #expect(r.notes.contains(.uprightByBlocksAlone(meanConfidence: 93)))
        #expect(!r.notes.contains { if case .orientationDetected = $0 { true } else { false } })
        #expect(r.notes.contains(.keptBlocksAlone(1)))
        let expected = try String(contentsOfFile: TestPaths.fixture("sign-on-stone-wall.txt"), encoding: .utf8)
        #expect(r.text == expected)
    }

    @Test func aCropReadAtItsOwnSizeBesideReadsAsOnOneEngine() throws {
        // A 226×101 crop of 5 px glyphs, enlarged 4× (Tests/Fixtures/make_fixtures.py): with two
        // engines the second prepares and reads it at its own size while the first reads it
        // enlarged; on one engine the two readings come one after the other. The same result,
        // word for word and note for note; the enlarged reading (95 against 88) is kept.
        let path = TestPaths.fixture("small-text-10px.png")
        var one = RecognitionOptions()
        one.threads = 1
        let serial = try Recognizer(options: one).recognize(path: path)
        let beside = try Recognizer().recognize(path: path)
        let native = PreparationVariant(binarization: .tesseract, atNativeSize: true)
        let nativeReadings = beside.notes.compactMap { note -> [Int]? in
            if case .read(native, let confidence, let words, _) = note { [confidence, words] } else { nil }
        }
        #expect(nativeReadings == [[88, 24]])
        #expect(!beside.notes.contains(.kept(native)))
        #expect(beside.meanConfidence == 95)
        #expect(beside == serial)
    }

    @Test func aPhotoLargerThanACropAndNotGreyIsReadAsItIsFromTheStart() {
        // More than 500 000 pixels of its own (`cropPixels`), counting a JPEG's reduced decoding.
        #expect(Recognizer.readsAsItIsFromTheStart(width: 1000, height: 501, depth: 32, reduction: 1))
        #expect(!Recognizer.readsAsItIsFromTheStart(width: 1000, height: 500, depth: 32, reduction: 1))
        #expect(Recognizer.readsAsItIsFromTheStart(width: 500, height: 251, depth: 32, reduction: 2))
        #expect(Recognizer.readsAsItIsFromTheStart(width: 2550, height: 3300, depth: 1, reduction: 1))
        // Grey photos (cloned by `grayscale()`) are read as they are after their preparation.
        #expect(!Recognizer.readsAsItIsFromTheStart(width: 4032, height: 3024, depth: 8, reduction: 1))
    }

    @Test func aPhotoReadAsItIsFromTheStartAndLeftAsItIsReadsAsOnOneEngine() throws {
        // 1010×625 px in colour (CMYK, decoded to RGB): its reading as it is starts with its
        // preparation, which leaves it as it is (no page cut out, no rescale); that reading is
        // stopped, and the prepared reading is the one engine's, note for note.
        let path = TestPaths.fixture("cmyk-adobe.jpg")
        let photo = try ImageLoader().load(path).image
        #expect(photo.width == 1010 && photo.height == 625 && photo.depth == 32)
        #expect(
            Recognizer.readsAsItIsFromTheStart(
                width: photo.width, height: photo.height, depth: photo.depth, reduction: 1))
        var one = RecognitionOptions()
        one.threads = 1
        let serial = try Recognizer(options: one).recognize(path: path)
        let beside = try Recognizer().recognize(path: path)
        #expect(!beside.notes.contains(.keptPlainReading))
        #expect(beside.words.count == 42)
        #expect(beside == serial)
    }

    @Test(arguments: ["sign-on-stone-wall.jpg", "white-sign-on-blue.jpg"])
    func lightBlocksReadBesideReadAsOnOneEngine(name: String) throws {
        // Both photos are transformed (light evened out, deskewed) and read poorly: with two
        // engines the second reads the photo as it is and then the light-on-dark blocks alone,
        // beside the prepared reading; on one engine all three come one after the other. The
        // same result, word for word and note for note (the blocks alone kept on the wall).
        let path = TestPaths.fixture(name)
        var one = RecognitionOptions()
        one.threads = 1
        let serial = try Recognizer(options: one).recognize(path: path)
        let beside = try Recognizer().recognize(path: path)
        #expect(beside.notes.contains(.keptBlocksAlone(1)) == (name == "sign-on-stone-wall.jpg"))
        #expect(beside.notes.contains(.keptPlainReading) == (name == "white-sign-on-blue.jpg"))
        #expect(beside == serial)
    }

    @Test func withoutSpellingMarksTheWordsAreTheSameAndUnchecked() throws {
        let marked = try Recognizer().recognize(path: TestPaths.sample("kettle.png"))
        var options = RecognitionOptions()
        options.marksSpelling = false
        let unmarked = try Recognizer(options: options).recognize(path: TestPaths.sample("kettle.png"))
        #expect(unmarked.text == marked.text)
        #expect(unmarked.words.map(\.text) == marked.words.map(\.text))
        #expect(unmarked.words.allSatisfy { $0.isKnownWord == nil })
        // Every word of 2+ letters is checked ("I" is too short to be).
        #expect(marked.words.filter { $0.isKnownWord == nil }.map(\.text) == ["I"])
        #expect(marked.words.filter { $0.isKnownWord == true }.count == 24)
    }

    /// A page without a letter in either reading (a blank photo) is weighed without waiting for
    /// the dictionaries, 0 against 0, and the prepared reading stays, as a dictionary would have it.
    @Test func twoEmptyReadingsAreWeighedWithoutADictionary() throws {
        var options = RecognitionOptions()
        options.marksSpelling = false
        let r = try Recognizer(options: options).recognize(path: TestPaths.fixture("white-1x1.png"))
        #expect(r.text == "" && r.words.isEmpty)
        #expect(r.notes.contains(.compared(prepared: 0, plain: 0)))
        #expect(!r.notes.contains(.keptPlainReading))
    }

    @Test func withoutSpellingMarksReadingsAreStillWeighedByTheirWords() throws {
        // The prepared page reads nothing of the sign, the photo as it is reads it: the
        // dictionaries load when the two are weighed, and the same reading is kept.
        var options = RecognitionOptions()
        options.marksSpelling = false
        let r = try Recognizer(options: options).recognize(path: TestPaths.fixture("white-sign-on-blue.jpg"))
        #expect(r.notes.contains(.compared(prepared: 0, plain: 11)))
        #expect(r.notes.contains(.keptPlainReading))
        let expected = try String(contentsOfFile: TestPaths.fixture("white-sign-on-blue.txt"), encoding: .utf8)
        #expect(r.text == expected)
    }
}
