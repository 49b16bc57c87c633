import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

/// OCR again (M-O), through the run loop's `handle` with fakes: every branch (a text still as read
/// is replaced, a changed one asked about, the new reading put below, dropped, cancelled, failed).
/// The real worker and terminal are in EndToEndTests (ReadAgainTmuxTests).
@Suite struct ReadAgainFlowTests {
    /// "Lenore, the kettie hums\n" read from /p/kettle.jpg, its words on export page 0 ("kettie"
    /// uncertain); M-O's reader records what it was asked and hands out `again`.
    final class Setup {
        private(set) var editor: Editor!
        let again = FakeRecognition([.progress(percent: 20)])
        let sharing = FakeSharing()
        var asked: [(PhotoSource, ReadingChoice)] = []
        var failure: FakeError?

        init(first: RecognitionEvent = Setup.firstReading, accurate: Bool = false) {
            var configuration = EditorConfiguration.photo(
                path: "/p/kettle.jpg", recognition: FakeRecognition([first]), sharing: sharing)
            configuration.readingChoice = ReadingChoice(languages: "eng+fra", accurate: accurate)
            let again = self.again
            configuration.photoRereader = { [unowned self] photo, choice in
                self.asked.append((photo, choice))
                if let failure = self.failure { throw failure }
                return again
            }
            editor = Editor(terminal: FakeTerminal(), configuration: configuration)
            editor.pollRecognition()
        }

        static let firstReading = RecognitionEvent.finished(
            text: "Lenore, the kettie hums\n", meanConfidence: 81,
            words: [
                ProofWord(text: "Lenore,", range: 0..<7, confidence: 93, page: 0),
                ProofWord(text: "kettie", range: 12..<18, confidence: 52, doubts: ["low confidence"], page: 0),
            ], rotationDegrees: 0)

        /// The new reading: four words on export page 1, the photo turned 90°.
        static let newReading = RecognitionEvent.finished(
            text: "Lenore, the kettle hums\n", meanConfidence: 95,
            words: [
                ProofWord(text: "Lenore,", range: 0..<7, confidence: 96, page: 1),
                ProofWord(text: "the", range: 8..<11, confidence: 97, page: 1),
                ProofWord(text: "kettle", range: 12..<18, confidence: 89, page: 1),
                ProofWord(text: "hums", range: 19..<23, confidence: 70, doubts: ["low confidence"], page: 1),
            ], rotationDegrees: 90)

        /// M-O, then Enter on the languages as offered; the new reading runs.
        func readAgain(_ keys: KeyEvent...) {
            editor.press(.meta("o"))
            editor.press(keys)
            editor.press(.enter)
            editor.pollRecognition()
        }

        func finish(_ event: RecognitionEvent = Setup.newReading) {
            again.pending = [event]
            editor.pollRecognition()
        }

        var state: EditorState { editor.state }
        var frame: Frame { render(editor.state, size: TerminalSize(rows: 24, columns: 80)) }
        var markedWords: [String] { state.buffer.marks.map { state.buffer.text(inUTF8: $0.range) } }
    }

    @Test func theLanguagesArePreFilledAndMetaLTogglesTheAccurateLevel() throws {
        let s = Setup()
        s.editor.press(.meta("o"))
        #expect(s.state.mode == .prompt(Prompt(kind: .readAgain, answer: "eng+fra")))
        #expect(s.frame.text(ofRow: 21).hasPrefix("Read the photo again, languages: eng+fra"))
        #expect(s.frame.text.contains("M-L Accurate"))
        s.editor.press(.meta("l"))
        #expect(s.frame.text(ofRow: 21).hasPrefix("Read the photo again [Accurate], languages: eng+fra"))
        s.editor.press(.control("u"))
        s.editor.press(typing("fra"))
        s.editor.press(.enter)
        try #require(s.asked.count == 1)
        #expect(s.asked[0].0 == PhotoSource(path: "/p/kettle.jpg", name: "kettle.jpg"))
        #expect(s.asked[0].1 == ReadingChoice(languages: "fra", accurate: true))
        #expect(s.state.rereading?.name == "kettle.jpg")
        s.editor.pollRecognition()
        #expect(s.state.recognition == .running(percent: 20))
        #expect(s.frame.text.contains("Reading kettle.jpg again (accurate, fra)"))
        #expect(s.frame.text.contains("Esc cancels"))
        // The choice is remembered for the next M-O, and the languages are on Up.
        s.finish()
        s.editor.press(.meta("o"))
        #expect(s.state.mode == .prompt(Prompt(kind: .readAgain, answer: "fra")))
        #expect(s.frame.text(ofRow: 21).hasPrefix("Read the photo again [Accurate], languages: fra"))
        s.editor.press(.control("u"), .up)
        guard case .prompt(let recalled) = s.state.mode else {
            Issue.record("no prompt: \(s.state.mode)")
            return
        }
        #expect(recalled.text == "fra")
        s.editor.press(.control("u"), .enter)
        #expect(s.state.status == StatusMessage("Cancelled"))
        #expect(s.asked.count == 1)
    }

    @Test func aTextStillAsReadIsReplacedAtOnceAndUndoBringsItBack() {
        let s = Setup()
        s.readAgain()
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n")  // the old text while it runs
        s.finish()
        #expect(s.state.buffer.text == "Lenore, the kettle hums\n")
        #expect(s.state.mode == .editing)
        #expect(
            s.state.status
                == StatusMessage(
                    "Read kettle.jpg again: 1 line (conf 95, fast); 1 uncertain; M-U undoes"))
        #expect(s.state.recognition == .finished(meanConfidence: 95))
        #expect(s.state.isModified == false)
        #expect(s.state.hasUnsavedText)
        #expect(s.markedWords == ["Lenore,", "the", "kettle", "hums"])
        #expect(s.state.buffer.marks.map(\.id) == [2, 3, 4, 5])
        #expect(s.state.uncertainMarks.map { s.state.buffer.text(inUTF8: $0.range) } == ["hums"])
        // The new reading's words are on the photo once more, with its turn.
        #expect(s.state.photos.map(\.rotationDegrees) == [0, 90])
        #expect(s.state.words[2...].map(\.photo) == [1, 1, 1, 1])
        #expect(s.state.buffer.offset(of: s.state.buffer.cursor) == 0)
        // The exports are the new reading's page only.
        #expect(s.state.exportPages == [ExportPage(page: 1, corrections: [nil, nil, nil, nil])])
        #expect(render(s.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 0).contains("conf 95"))

        s.editor.press(.meta("u"))
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n")
        #expect(s.markedWords == ["Lenore,", "kettie"])
        #expect(s.state.uncertainMarks.map { s.state.buffer.text(inUTF8: $0.range) } == ["kettie"])
        #expect(s.state.exportPages == [ExportPage(page: 0, corrections: [nil, nil])])
        s.editor.press(.meta("e"))
        #expect(s.state.buffer.text == "Lenore, the kettle hums\n")
        #expect(s.state.exportPages == [ExportPage(page: 1, corrections: [nil, nil, nil, nil])])
    }

    @Test func writeOutExportsTheNewReadingsPage() {
        let s = Setup()
        s.readAgain()
        s.finish()
        s.editor.press(.modified(.right, .control), .modified(.right, .control), .control("k"))  // cuts the line
        s.editor.press(.meta("u"))
        s.editor.press(.meta("]"), .control("d"), .control("d"), .control("d"), .control("d"))  // "hums" deleted
        s.editor.press(.control("o"), .control("u"))
        s.editor.press(typing("/poems/kettle.pdf"))
        s.editor.press(.enter)
        #expect(s.sharing.savedPages.last == [ExportPage(page: 1, corrections: [nil, nil, nil, ""])])
    }

    @Test func aChangedTextIsOnlyReplacedWhenTheUserSaysSo() {
        let s = Setup()
        s.editor.press(.meta("/"))
        s.editor.press(typing("x"))
        s.readAgain()
        s.finish()
        #expect(s.state.buffer.text == "Lenore, the kettie hums\nx")
        guard case .confirmReading(let reading) = s.state.mode else {
            Issue.record("no question: \(s.state.mode)")
            return
        }
        #expect(reading.text == "Lenore, the kettle hums\n")
        // The new reading is shown in place of the text while the question is open.
        let frame = s.frame
        #expect(frame.text(ofRow: 1).hasPrefix("Lenore, the kettle hums"))
        #expect(frame.text(ofRow: 2).trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(
            frame.text(ofRow: 21).hasPrefix("The text was changed; replace it with this new reading (1 line, conf 95)?")
        )
        #expect(frame.text(ofRow: 22).hasPrefix(" Y Yes"))
        #expect(frame.text(ofRow: 22).contains(" B Below"))
        #expect(!frame.text.contains(" A All") && !frame.text.contains(" I Insert"))
        s.editor.press(.character("a"), .character("i"))  // not offered here
        #expect(s.state.buffer.text == "Lenore, the kettie hums\nx")
        s.editor.press(.character("y"))
        #expect(s.state.mode == .editing)
        #expect(s.state.buffer.text == "Lenore, the kettle hums\n")
        #expect(s.state.isModified)
        #expect(s.markedWords == ["Lenore,", "the", "kettle", "hums"])
        s.editor.press(.meta("u"))
        #expect(s.state.buffer.text == "Lenore, the kettie hums\nx")
        #expect(s.markedWords == ["Lenore,", "kettie"])
    }

    /// Issue 43: an edit undone leaves the text as read: M-O replaces it without asking.
    @Test func aTextUndoneBackToTheReadingIsReplacedAtOnce() {
        let s = Setup()
        s.editor.press(.meta("/"))
        s.editor.press(typing("x"))
        s.editor.press(.meta("u"))
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n")
        s.readAgain()
        s.finish()
        #expect(s.state.mode == .editing)
        #expect(s.state.buffer.text == "Lenore, the kettle hums\n")
    }

    @Test func belowPutsTheNewReadingAfterAnEmptyLineAsOneUndoStep() {
        let s = Setup()
        s.editor.press(.meta("y"))  // nothing under the cursor to accept: the text is unchanged
        s.editor.press(.modified(.right, .control), .modified(.right, .control), .meta("y"))  // "kettie" accepted
        s.editor.press(.meta("/"), .backspace)  // the final newline deleted: the text changed
        s.readAgain()
        s.finish()
        s.editor.press(.character("B"))
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n\nLenore, the kettle hums\n")
        #expect(
            s.state.status == StatusMessage("Added the new reading below: 1 line (conf 95, fast); 1 uncertain"))
        #expect(s.markedWords == ["Lenore,", "kettie", "Lenore,", "the", "kettle", "hums"])
        #expect(s.state.buffer.marks.map(\.range.lowerBound) == [0, 12, 25, 33, 37, 44])
        #expect(s.state.buffer.cursor == TextPosition(line: 2, column: 0))
        #expect(s.state.isModified)
        // Both readings make pages, in the order of their text.
        #expect(
            s.state.exportPages == [
                ExportPage(page: 0, corrections: [nil, nil]), ExportPage(page: 1, corrections: [nil, nil, nil, nil]),
            ])
        s.editor.press(.meta("u"))
        #expect(s.state.buffer.text == "Lenore, the kettie hums")
        #expect(s.markedWords == ["Lenore,", "kettie"])
        // A text without a final newline gets an empty line before the new reading too.
        s.readAgain()
        s.finish()
        s.editor.press(.character("b"))
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n\nLenore, the kettle hums\n")
    }

    @Test func noAndCancelDropTheNewReading() {
        for key in [KeyEvent.character("n"), .control("c")] {
            let s = Setup()
            s.editor.press(typing("x"))
            s.readAgain()
            s.finish()
            s.editor.press(key)
            #expect(s.state.mode == .editing)
            #expect(s.state.buffer.text == "xLenore, the kettie hums\n")
            #expect(s.state.status == StatusMessage("New reading dropped; the text is as it was"))
            #expect(s.state.recognition == .finished(meanConfidence: 81))
            #expect(s.state.photos.count == 1)
            #expect(s.state.words.count == 2)
        }
    }

    @Test func escapeCancelsTheNewReadingAndKeepsTheText() {
        let s = Setup()
        s.readAgain()
        s.editor.press(.escape)
        #expect(s.again.cancelCount == 1)
        #expect(s.state.rereading == nil)
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n")
        #expect(s.state.status == StatusMessage("OCR cancelled; the text is as it was"))
        #expect(s.state.recognition == .finished(meanConfidence: 81))
        #expect(s.markedWords == ["Lenore,", "kettie"])
        s.finish()  // a late result is dropped
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n")
        s.again.pending = [.progress(percent: 30)]
        // ^X while it runs cancels it too, and does not leave.
        s.readAgain()
        s.editor.press(.control("x"))
        #expect(s.again.cancelCount == 2)
        #expect(s.state.exitCode == nil)
        #expect(s.state.status == StatusMessage("OCR cancelled; the text is as it was"))
    }

    @Test func aFailedNewReadingSaysWhyAndKeepsTheText() {
        let s = Setup()
        s.readAgain()
        s.finish(.failed(message: "Tesseract cannot load language 'xyz'"))
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n")
        #expect(s.state.status == StatusMessage("Tesseract cannot load language 'xyz'", isError: true))
        #expect(s.state.recognition == .finished(meanConfidence: 81))
        #expect(s.state.rereading == nil)
        // A reading that finds nothing changes nothing either.
        s.readAgain()
        s.finish(.finished(text: "", meanConfidence: 0))
        #expect(s.state.buffer.text == "Lenore, the kettie hums\n")
        #expect(s.state.status == StatusMessage("No text found in kettle.jpg this time; the text is as it was"))
        // A reader that cannot start says why.
        s.failure = FakeError(description: "invalid language 'x/y'")
        s.readAgain()
        #expect(s.state.status == StatusMessage("invalid language 'x/y'", isError: true))
        #expect(s.state.rereading == nil && !s.state.isRecognizing)
    }

    @Test func afterAFailedOrCancelledFirstReadingTheNewOneFillsTheText() {
        let failed = Setup(first: .failed(message: "OCR stopped: the engine crashed on kettle.jpg (signal SIGSEGV)"))
        #expect(failed.state.buffer.text == "")
        failed.readAgain()
        failed.finish()
        #expect(failed.state.buffer.text == "Lenore, the kettle hums\n")
        #expect(failed.state.status == StatusMessage("Read kettle.jpg again: 1 line (conf 95, fast); 1 uncertain"))
        #expect(failed.state.isModified == false)

        let cancelled = Setup(first: .progress(percent: 5))
        cancelled.editor.press(.escape)
        #expect(cancelled.state.status == StatusMessage("OCR cancelled; M-O reads the photo again"))
        cancelled.readAgain()
        cancelled.finish()
        #expect(cancelled.state.buffer.text == "Lenore, the kettle hums\n")
        #expect(cancelled.state.exportPages == [ExportPage(page: 1, corrections: [nil, nil, nil, nil])])
    }

    @Test func aTextFileHasNoPhotoToReadAgainAndViewModeRefusesIt() {
        let (editor, _, _) = makeEditor(text: "x\n")
        editor.press(.meta("o"))
        #expect(editor.state.mode == .editing)
        #expect(editor.state.status == StatusMessage("No photo to read again: this text was not read from one"))
        // A photo a text file got with ^R is part of the text, not what it was read from.
        var configuration = EditorConfiguration.textFile(path: "poem.txt", text: "x\n", sharing: FakeSharing())
        configuration.photoReader = { _ in
            FakeRecognition([
                .finished(text: "y\n", meanConfidence: 90, words: [ProofWord(text: "y", range: 0..<1, confidence: 90)])
            ])
        }
        var asked = 0
        configuration.photoRereader = { _, _ in
            asked += 1
            return FakeRecognition([])
        }
        let withPhoto = Editor(terminal: FakeTerminal(), configuration: configuration)
        withPhoto.press(.control("r"))
        withPhoto.press(typing("b.png"))
        withPhoto.press(.enter)
        withPhoto.pollRecognition()
        #expect(withPhoto.state.buffer.text == "y\nx\n")
        #expect(withPhoto.state.photos.map(\.name) == ["b.png"])
        withPhoto.press(.meta("o"))
        #expect(withPhoto.state.mode == .editing)
        #expect(withPhoto.state.status == StatusMessage("No photo to read again: this text was not read from one"))
        #expect(asked == 0)
        let s = Setup()
        s.editor.press(.meta("o"))
        s.editor.press(.control("c"))
        #expect(s.state.status == StatusMessage("Cancelled"))
        var state = s.state
        state.isReadOnly = true
        _ = update(&state, .meta("o"))
        #expect(state.status == StatusMessage("Key is invalid in view mode"))
        #expect(state.mode == .editing)
    }

    /// An editor on the photo `path` whose reading finished with `text` and `words`, and no reader
    /// of the photo again.
    private func photoEditor(_ path: String, text: String, meanConfidence: Int, words: [ProofWord]) -> Editor {
        var configuration = EditorConfiguration.photo(
            path: path,
            recognition: FakeRecognition([.finished(text: text, meanConfidence: meanConfidence, words: words)]),
            sharing: FakeSharing())
        configuration.photoRereader = nil
        let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
        editor.pollRecognition()
        return editor
    }

    /// Issue 42: the second recognizer's reading comes after the engine's choices, before the
    /// other preparation's and the dictionaries'.
    @Test func theSecondRecognizersReadingIsOfferedAfterTheEnginesChoices() {
        let editor = photoEditor(
            "/p/fermes.jpg", text: "les fermes\n", meanConfidence: 90,
            words: [
                ProofWord(text: "les", range: 0..<3, confidence: 96),
                ProofWord(
                    text: "fermes", range: 4..<10, confidence: 90.5, alternatives: ["fermés"],
                    doubts: ["second recognizer differs"], otherReading: "ferme", learnedReading: "femmes"),
            ])
        editor.press(.meta("]"), .meta(" "))
        guard case .alternatives(let menu) = editor.state.mode else {
            Issue.record("no menu")
            return
        }
        #expect(
            menu.entries == [
                .init(text: "fermés", source: "engine"), .init(text: "femmes", source: "second recognizer"),
                .init(text: "ferme", source: "other preparation"), .init(text: "fermes", source: "as it is"),
            ])
        let frame = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect((0..<24).contains { frame.text(ofRow: $0).contains("femmes  (second recognizer)") })
        editor.press(.down, .enter)
        #expect(editor.state.buffer.text == "les femmes\n")
    }

    /// A word's report too long for the status row is cut with "…", as the status messages are.
    @Test func aLongWordReportIsCutWithAnEllipsis() {
        let editor = photoEditor(
            "/p/comp.jpg", text: "comp\n", meanConfidence: 40,
            words: [
                ProofWord(
                    text: "comp", range: 0..<4, confidence: 0, doubts: ["low confidence", "second recognizer differs"],
                    learnedReading: "camp")
            ])
        editor.press(.meta("]"))
        #expect(
            editor.state.wordReport == "conf 0, 1 alternative, uncertain (low confidence, second recognizer differs)")
        let frame = render(editor.state, size: TerminalSize(rows: 24, columns: 40))
        #expect(frame.text(ofRow: 21) == "conf 0, 1 alternative, uncertain (low c…")
    }

    @Test func theOtherPreparationsReadingIsOfferedAfterTheEnginesChoices() {
        let editor = photoEditor(
            "/p/frost.jpg", text: "the frost; I\n", meanConfidence: 70,
            words: [
                ProofWord(
                    text: "frost;", range: 4..<10, confidence: 95, alternatives: ["frost,"], otherReading: "frost:"),
                ProofWord(text: "I", range: 11..<12, confidence: 52, doubts: ["low confidence"], otherReading: ""),
            ])
        editor.press(.modified(.right, .control), .meta(" "))
        guard case .alternatives(let menu) = editor.state.mode else {
            Issue.record("no menu")
            return
        }
        #expect(
            menu.entries == [
                .init(text: "frost,", source: "engine"), .init(text: "frost:", source: "other preparation"),
                .init(text: "frost;", source: "as it is"),
            ])
        let frame = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect(frame.text(ofRow: 3).contains("frost:  (other preparation)"))
        #expect(editor.state.wordReport == "conf 95, 2 alternatives")
        editor.press(.down, .enter)
        #expect(editor.state.buffer.text == "the frost: I\n")
        // "Read nothing there" is no reading to offer.
        editor.press(.meta("/"), .up, .end, .meta(" "))
        #expect(editor.state.status == StatusMessage("No other readings of \"I\""))
        // No reader of the photo again: M-O says so.
        editor.press(.meta("o"), .enter)
        #expect(editor.state.status == StatusMessage("The photo cannot be read again here", isError: true))
    }
}
