import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

/// The photo view, regions, the data found and the clipboard, through the run loop's `handle`
/// with fakes (the real terminal, chafa and Tesseract are in EndToEndTests).
@Suite struct PhotoFlowTests {
    /// "Lenore, the kettle\nhums your tune\n" read from /p/kettle.jpg (600 × 300 px): five words,
    /// "kettle" uncertain, on two OCR lines.
    func editor(renderer: FakePhotoRenderer = FakePhotoRenderer(), rows: Int = 24, columns: Int = 80)
        -> (Editor, FakeTerminal, FakePhotoRenderer, [(PhotoSource, WordBox)], FakeRecognition)
    {
        let words = [
            ProofWord(
                text: "Lenore,", range: 0..<7, confidence: 93, box: WordBox(x: 100, y: 50, width: 140, height: 40)),
            ProofWord(text: "the", range: 8..<11, confidence: 95, box: WordBox(x: 260, y: 50, width: 60, height: 40)),
            ProofWord(
                text: "kettle", range: 12..<18, confidence: 61, box: WordBox(x: 340, y: 50, width: 120, height: 40),
                doubts: ["low confidence"]),
            ProofWord(
                text: "hums", range: 19..<23, confidence: 94, box: WordBox(x: 100, y: 120, width: 90, height: 40),
                line: 1),
            ProofWord(
                text: "your", range: 24..<28, confidence: 96, box: WordBox(x: 210, y: 120, width: 80, height: 40),
                line: 1),
        ]
        let recognition = FakeRecognition([
            .finished(
                text: "Lenore, the kettle\nhums your tune\n", meanConfidence: 90, words: words, rotationDegrees: 90)
        ])
        var configuration = EditorConfiguration.photo(
            path: "/p/kettle.jpg", recognition: recognition, sharing: FakeSharing())
        configuration.photoRenderer = renderer
        let region = FakeRecognition([.progress(percent: 10)])
        nonisolated(unsafe) var asked: [(PhotoSource, WordBox)] = []
        configuration.regionReader = { photo, box in
            asked.append((photo, box))
            return region
        }
        let terminal = FakeTerminal(rows: rows, columns: columns)
        let editor = Editor(terminal: terminal, configuration: configuration)
        editor.pollRecognition()
        return (editor, terminal, renderer, asked, region)
    }

    @Test func thePhotoViewDrawsEveryBoxAndHighlightsTheWordUnderTheCursor() throws {
        let (editor, _, renderer, _, _) = editor()
        #expect(editor.state.photos == [PhotoSource(path: "/p/kettle.jpg", name: "kettle.jpg", rotationDegrees: 90)])
        editor.press(.meta("p"))
        let request = try #require(renderer.requests.last)
        #expect(request.photo.path == "/p/kettle.jpg" && request.photo.rotationDegrees == 90)
        // 24 rows: title, 19 text rows (15 for the photo, 4 for the text), status, two help lines.
        #expect(request.columns == 80 && request.rows == 15)
        #expect(request.marks.map(\.kind) == [.word, .uncertain, .word, .word, .current])
        #expect(request.marks.last?.box == WordBox(x: 100, y: 50, width: 140, height: 40))
        let frame = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect(frame.wantsMouse)
        // The picture: 80 × 20 cells would keep the aspect, 15 rows fit: 60 × 15 cells, centred.
        #expect(
            frame.text(ofRow: 1)
                == String(repeating: " ", count: 10) + String(repeating: "#", count: 60)
                + String(repeating: " ", count: 10))
        #expect(frame.text(ofRow: 15).contains("###"))
        #expect(frame.text(ofRow: 16).hasPrefix("Lenore, the kettle"))
        #expect(frame.text(ofRow: 21).contains("\"Lenore,\" conf 93 at 100,50 140×40 px"))
        #expect(frame.text(ofRow: 22).hasPrefix("Esc Text"))

        // The text's moving keys move the highlight: Ctrl-Right twice is "kettle".
        editor.press(.modified(.right, .control), .modified(.right, .control))
        #expect(renderer.requests.last?.marks.map(\.kind) == [.word, .word, .word, .word, .current])
        #expect(renderer.requests.last?.marks.last?.box == WordBox(x: 340, y: 50, width: 120, height: 40))
        #expect(
            render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 21)
                .contains("\"kettle\" conf 61 at 340,50 120×40 px, uncertain"))
        // Typing does not edit here.
        editor.press(.character("x"))
        #expect(editor.state.buffer.text == "Lenore, the kettle\nhums your tune\n")
        #expect(editor.state.status == StatusMessage("Esc returns to the text to edit it"))
        editor.press(.escape)
        #expect(editor.state.mode == .editing)
        #expect(render(editor.state, size: TerminalSize(rows: 24, columns: 80)).wantsMouse == false)
    }

    @Test func aResizeDrawsAgainAndATinyTerminalSaysSo() {
        let (editor, terminal, renderer, _, _) = editor()
        editor.press(.meta("p"))
        let drawn = renderer.requests.count
        terminal.size = TerminalSize(rows: 10, columns: 40)
        editor.press(.resize)
        #expect(renderer.requests.count == drawn)  // no room: nothing to draw
        let tiny = render(editor.state, size: terminal.size)
        #expect(tiny.text.contains("The terminal is too small for the photo"))
        terminal.size = TerminalSize(rows: 30, columns: 100)
        editor.press(.resize)
        #expect(renderer.requests.count == drawn + 1)
        #expect(renderer.requests.last?.columns == 100)
        #expect(renderer.requests.last?.rows == 20)
    }

    @Test func aFramedRegionIsReadAndInsertedAtTheCursorAsOneUndoStep() throws {
        let (editor, _, _, _, region) = editor()
        editor.press(.meta("p"), .down)  // the cursor on "hums"
        editor.press(.enter)
        guard case .photo(let view) = editor.state.mode else {
            Issue.record("not in the photo view")
            return
        }
        // The line of "hums your": 100…290 × 120…160, a third of its height around it.
        #expect(view.region == WordBox(x: 87, y: 107, width: 216, height: 66))
        // A cell is 10 px across (600 px in 60 columns) and 20 px down (300 px in 15 rows).
        editor.press(.right, .modified(.down, .shift), .modified(.left, .alt))
        guard case .photo(let moved) = editor.state.mode else { return }
        #expect(moved.region == WordBox(x: 97, y: 107, width: 206, height: 86))
        editor.press(.enter)
        #expect(editor.state.insertion?.name == "region 97,107,206,86 of kettle.jpg")
        #expect(editor.state.mode == .editing)
        region.pending = [
            .finished(
                text: "hums your\n", meanConfidence: 88,
                words: [
                    ProofWord(
                        text: "hums", range: 0..<4, confidence: 90, box: WordBox(x: 100, y: 120, width: 90, height: 40)),
                    ProofWord(text: "your", range: 5..<9, confidence: 70, doubts: ["low confidence"]),
                ])
        ]
        editor.pollRecognition()
        #expect(editor.state.buffer.text == "Lenore, the kettle\nhums your\nhums your tune\n")
        #expect(
            editor.state.status
                == StatusMessage("Inserted 1 line from region 97,107,206,86 of kettle.jpg (conf 88); 1 uncertain"))
        #expect(editor.state.words.count == 7)
        #expect(editor.state.words[5].photo == 0)
        editor.press(.meta("u"))
        #expect(editor.state.buffer.text == "Lenore, the kettle\nhums your tune\n")
    }

    @Test func aRegionReplacesTheMarkedTextInOneUndoStep() {
        let (editor, _, _, _, region) = editor()
        editor.press(.meta("a"), .modified(.right, .control), .modified(.right, .control))  // "Lenore, the " marked
        editor.press(.meta("p"), .enter, .enter)
        region.pending = [.finished(text: "Lenore, my\n", meanConfidence: 90, words: [])]
        editor.pollRecognition()
        #expect(editor.state.buffer.text == "Lenore, mykettle\nhums your tune\n")
        #expect(editor.state.markAnchor == nil)
        editor.press(.meta("u"))
        #expect(editor.state.buffer.text == "Lenore, the kettle\nhums your tune\n")
    }

    @Test func theMouseFramesARegion() throws {
        let (editor, _, _, _, _) = editor()
        editor.press(.meta("p"))
        // The picture starts at column 10 of row 1; a cell is 10 × 20 px. The release's cell is
        // in the region.
        editor.press(.mouse(MouseEvent(.press, row: 3, column: 18)))
        editor.press(.mouse(MouseEvent(.drag, row: 5, column: 30)))
        editor.press(.mouse(MouseEvent(.release, row: 6, column: 40)))
        guard case .photo(let view) = editor.state.mode else { return }
        #expect(view.region == WordBox(x: 80, y: 40, width: 230, height: 80))
        #expect(
            render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 21)
                .contains("Region 80,40,230,80 px: Enter reads it"))
        editor.press(.escape)
        guard case .photo(let after) = editor.state.mode else { return }
        #expect(after.region == nil)
    }

    @Test func aPhotoThatCannotBeDrawnSaysWhy() {
        let renderer = FakePhotoRenderer()
        renderer.error = FakeError(description: "/p/kettle.jpg: No such file or directory")
        let (editor, _, _, _, _) = editor(renderer: renderer)
        editor.press(.meta("p"))
        let frame = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect(frame.text.contains("/p/kettle.jpg: No such file or directory"))
        editor.press(.down)
        #expect(renderer.requests.count == 2)  // a new request (the highlight moved) is tried again
    }

    @Test func aTextFileHasNoPhoto() {
        let (editor, _, _) = makeEditor(text: "Lenore\n")
        editor.press(.meta("p"))
        #expect(editor.state.mode == .editing)
        #expect(editor.state.status == StatusMessage("No photo: this text was not read from one"))
    }
}

@Suite struct DataAndClipboardFlowTests {
    static let text = "Lenore, 4111 1111 1111 1111\nexp 09/27, tel 06 12 34 56 78\nraven@nevermore.org\n"

    @Test func detectedItemsAreUnderlinedAndNearMissesWarned() {
        let (editor, _, _) = makeEditor(text: "card 4111 1111 1111 1112 ok\n")
        let frame = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect(frame[1, 4].style == .normal, "\((0..<28).map { frame[1, $0].style.rawValue })")
        #expect(
            (5..<24).allSatisfy { frame[1, $0].style == [.underline, .warning] },
            "\((0..<28).map { frame[1, $0].style.rawValue })")
        #expect(frame[1, 24].style == .normal)
        let (valid, _, _) = makeEditor(text: Self.text)
        let shown = render(valid.state, size: TerminalSize(rows: 24, columns: 80))
        #expect((8..<27).allSatisfy { shown[1, $0].style == .underline })
        #expect(shown[1, 7].style == .normal)
        #expect((4..<9).allSatisfy { shown[2, $0].style == .underline })
    }

    /// The data of the lines on the screen is kept by their text: after a key, the state holds
    /// it for those lines only, and a typed digit that makes a line a date underlines it at once
    /// (the edited line is looked at again, the others are not).
    @Test func theScreensLineDataIsKeptAndFollowsTyping() {
        let (editor, _, _) = makeEditor(
            text: "exp 09/2\nraven@nevermore.org\n" + String(repeating: "line\n", count: 100))
        editor.press(.end)
        #expect(editor.state.lineData.keptLines == ["exp 09/2", "raven@nevermore.org", "line"])
        #expect(editor.state.lineData.detections(inLine: "raven@nevermore.org").map(\.kind) == [.email])
        let before = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect(before[1, 4].style == .normal)
        editor.press(.character("7"))
        #expect(editor.state.lineData.keptLines == ["exp 09/27", "raven@nevermore.org", "line"])
        let after = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect((4..<9).allSatisfy { after[1, $0].style == .underline })
        #expect((0..<19).allSatisfy { after[2, $0].style == .underline })
        var fresh = editor.state
        fresh.lineData = LineData()  // nothing kept: the frame is the same, only slower to make
        #expect(render(fresh, size: TerminalSize(rows: 24, columns: 80)) == after)
    }

    @Test func theListShowsJumpsAndCopies() {
        let (editor, terminal, _) = makeEditor(text: Self.text)
        editor.press(.meta("f"))
        guard case .data(let menu) = editor.state.mode else {
            Issue.record("no list")
            return
        }
        #expect(menu.items.map(\.kind) == [.cardNumber, .expiryDate, .phone, .email])
        let frame = render(editor.state, size: TerminalSize(rows: 24, columns: 80))
        #expect(frame.text(ofRow: 1) == "> card number  4111 1111 1111 1111  Visa  line 1".padding(80))
        #expect(frame.text(ofRow: 3).hasPrefix("  phone  06 12 34 56 78  → +33612345678  line 2"))
        #expect(frame.text(ofRow: 21).contains("card number 4111111111111111 (Visa)"))
        editor.press(.down, .down)
        editor.press(.enter)
        #expect(editor.state.mode == .editing)
        #expect(editor.state.buffer.cursor == TextPosition(line: 1, column: 15))
        #expect(editor.state.status == StatusMessage("phone: +33612345678"))
        editor.press(.meta("f"), .up, .meta("c"))
        #expect(terminal.clipboard == ["09/27"])
        #expect(editor.state.status == StatusMessage("Copied the expiry date 09/27 to the clipboard (OSC 52)"))
    }

    @Test func aTextWithoutDataSaysSo() {
        let (editor, _, _) = makeEditor(text: "Lenore, the kettle hums\n")
        editor.press(.meta("f"))
        #expect(editor.state.mode == .editing)
        #expect(editor.state.status == StatusMessage("No card numbers, dates, addresses or phone numbers in the text"))
    }

    @Test func metaCCopiesTheRegionElseTheLine() {
        let (editor, terminal, _) = makeEditor(text: "Lenore, the kettle\nhums your tune\n")
        editor.press(.meta("c"))
        #expect(terminal.clipboard == ["Lenore, the kettle\n"])
        #expect(editor.state.status == StatusMessage("Copied 1 line (19 characters) to the clipboard (OSC 52)"))
        editor.press(.meta("a"), .right, .right, .right, .right, .right, .right, .meta("c"))
        #expect(terminal.clipboard.last == "Lenore")
        #expect(editor.state.markAnchor == nil)
        #expect(editor.state.buffer.text == "Lenore, the kettle\nhums your tune\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
