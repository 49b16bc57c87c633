import SnapTestSupport
import Testing

@testable import SnapOCR

/// `Recognizer.recognize`'s hand-off: the result while the run's engines still live.
@Suite struct RecognizerTests {
    struct Refused: Error, Equatable {}

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
}
