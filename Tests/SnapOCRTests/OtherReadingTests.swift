import Foundation
import SnapTestSupport
import Testing

@testable import SnapOCR

private func word(_ text: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int = 30) -> RecognizedWord {
    RecognizedWord(
        text: text, boundingBox: BoundingBox(x: x, y: y, width: width, height: height), confidence: 90, line: 0)
}

/// The other preparation's reading of each word's place (`OtherReading`): matched by boxes, and
/// with the real pipeline on a fixture whose two readings differ.
@Suite struct OtherReadingTests {
    @Test func wordsAreMatchedByTheirPlace() {
        let kept = [
            word("Lenore,", 100, 50, 140), word("the", 260, 50, 60), word("kettie", 340, 50, 120),
            word("hums", 480, 50, 90), word("tothe", 100, 120, 110), word("sea", 230, 120, 60),
            word("glass", 310, 120, 100),
        ]
        let other = [
            // Shifted a little: the same place.
            word("Lenore,", 104, 52, 138), word("the", 262, 48, 60),
            // Another reading of the same place.
            word("kettle", 338, 51, 124),
            // Two words where the kept reading has one.
            word("to", 100, 121, 40), word("the", 150, 121, 60),
            // Nothing at "hums" and "sea"; a word far from any kept word is nobody's.
            word("noise", 900, 400, 80),
            // A word whose centre is inside "glass" but that is far wider: it does not line up.
            word("glass-and-more", 310, 118, 190),
        ]
        let attached = OtherReading.attaching(other, to: kept)
        #expect(attached.map(\.otherReading) == [nil, nil, "kettle", "", "to the", "", nil])
        // Everything else is the kept reading's.
        #expect(attached.map(\.text) == kept.map(\.text))
        #expect(attached.map(\.boundingBox) == kept.map(\.boundingBox))
    }

    @Test func overlapIsIntersectionOverUnion() {
        let box = BoundingBox(x: 0, y: 0, width: 10, height: 10)
        #expect(OtherReading.overlap(box, BoundingBox(x: 5, y: 0, width: 10, height: 10)) == 50.0 / 150)
        #expect(OtherReading.overlap(box, BoundingBox(x: 10, y: 0, width: 10, height: 10)) == 0)
        #expect(OtherReading.overlap(box, box) == 1)
        #expect(
            OtherReading.union(box, BoundingBox(x: 20, y: -5, width: 10, height: 10))
                == BoundingBox(x: 0, y: -5, width: 30, height: 15))
    }

    /// `dim-warm-light.jpg` (Tests/Fixtures/make_fixtures.py: the kettle poem in dim, warm,
    /// uneven light): the prepared page (light evened out) is kept, and the photo as it is reads
    /// "I" as "!" and "frost;" as "frost:". `accurate` always reads the photo as it is; `fast`
    /// only when the prepared reading is doubtful, and this one is clear (94).
    @Test func thePipelineKeepsTheOtherPreparationsDifferingWords() throws {
        var options = RecognitionOptions()
        options.level = .accurate
        let result = try Recognizer(options: options).recognize(path: TestPaths.fixture("dim-warm-light.jpg"))
        let differing = result.words.filter { $0.otherReading != nil }.map { "\($0.text) → \($0.otherReading!)" }
        #expect(differing == ["I → !", "frost; → frost:"])
        #expect(!result.notes.contains(.keptPlainReading))
        // Read clear, `fast` stops the reading of the photo as it is: no word has another reading.
        let fast = try Recognizer().recognize(path: TestPaths.fixture("dim-warm-light.jpg"))
        #expect(fast.meanConfidence == 94)
        #expect(fast.words.allSatisfy { $0.otherReading == nil })
        #expect(!fast.notes.contains { if case .compared = $0 { true } else { false } })
    }
}
