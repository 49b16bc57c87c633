import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

/// "Lenore, the kettle hums\nyour tnue,\n": "kettle" uncertain (low confidence), "tnue," uncertain
/// (not in the dictionary) with the engine's "tune," and Hunspell's "tone,", "true,".
private func proofEditor() -> (Editor, FakeTerminal) {
    let text = "Lenore, the kettle hums\nyour tnue,\n"
    let words = [
        ProofWord(text: "Lenore,", range: 0..<7, confidence: 91),
        ProofWord(text: "the", range: 8..<11, confidence: 96),
        ProofWord(
            text: "kettle", range: 12..<18, confidence: 41, alternatives: ["kettie"], doubts: ["low confidence"]),
        ProofWord(text: "hums", range: 19..<23, confidence: 95),
        ProofWord(text: "your", range: 24..<28, confidence: 93),
        ProofWord(
            text: "tnue,", range: 29..<34, confidence: 84, alternatives: ["tune,"], suggestions: ["tone,", "tune,"],
            doubts: ["not in the dictionary"]),
    ]
    let job = FakeRecognition([.finished(text: text, meanConfidence: 88, words: words)])
    let terminal = FakeTerminal()
    let configuration = EditorConfiguration.photo(path: "/photos/kettle.jpg", recognition: job, sharing: FakeSharing())
    let editor = Editor(terminal: terminal, configuration: configuration)
    editor.pollRecognition()
    return (editor, terminal)
}

private func uncertainWords(_ state: EditorState) -> [String] {
    state.uncertainMarks.map { state.buffer.text(inUTF8: $0.range) }
}

@Test func uncertainWordsAreMarkedCountedAndAnnounced() {
    let (editor, terminal) = proofEditor()
    #expect(uncertainWords(editor.state) == ["kettle", "tnue,"])
    #expect(editor.state.status == StatusMessage("Read 2 lines (conf 88); 2 uncertain"))
    let frame = render(editor.state, size: terminal.size)
    // The text read exists nowhere on disk: "Modified", as nano's title marks a buffer from a pipe.
    #expect(frame.text(ofRow: 0).hasSuffix("2 uncertain  Modified  conf 88 "))
    // "kettle" on row 1, columns 12..<18: underlined and in the warning colour; its neighbours plain.
    #expect((12..<18).allSatisfy { frame[1, $0].style == [.underline, .warning] })
    #expect(frame[1, 11].style == .normal && frame[1, 18].style == .normal)
    #expect((5..<10).allSatisfy { frame[2, $0].style == [.underline, .warning] })
}

@Test func nextAndPreviousUncertainWrapAndSayWhenNoneAreLeft() {
    let (editor, terminal) = proofEditor()
    editor.press(.meta("]"))
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 12))
    // The status line tells the word under the cursor.
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).contains(
            "conf 41, 1 alternative, uncertain (low confidence)"))
    editor.press(.meta("]"))
    #expect(editor.state.buffer.cursor == TextPosition(line: 1, column: 5))
    editor.press(.meta("]"))
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 12))
    #expect(editor.state.status == StatusMessage("Search Wrapped"))
    editor.press(.meta("["))
    #expect(editor.state.buffer.cursor == TextPosition(line: 1, column: 5))
    editor.press(.meta("y"))
    #expect(editor.state.status == StatusMessage("Accepted \"tnue,\"; 1 uncertain left"))
    editor.press(.meta("["))
    editor.press(.meta("y"))
    #expect(uncertainWords(editor.state).isEmpty)
    #expect(editor.state.isModified == false)  // accepting changes no text
    editor.press(.meta("]"))
    #expect(editor.state.status == StatusMessage("No uncertain words left"))
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 0).hasSuffix("no uncertain words  Modified  conf 88 "))
    editor.press(.meta("u"))
    #expect(editor.state.status == StatusMessage("Undid acceptance"))
    #expect(uncertainWords(editor.state) == ["kettle"])
}

@Test func typingInsideAnUncertainWordClearsItsMark() {
    let (editor, _) = proofEditor()
    editor.press(.meta("]"), .right, .right)
    editor.press(.character("x"))
    #expect(editor.state.buffer.text.hasPrefix("Lenore, the kexttle"))
    #expect(uncertainWords(editor.state) == ["tnue,"])
    editor.press(.meta("u"))
    #expect(uncertainWords(editor.state) == ["kettle", "tnue,"])
}

@Test func theMenuOffersEngineThenSpellingThenAsReadAndReplacesInOneStep() {
    let (editor, terminal) = proofEditor()
    editor.press(.meta("]"), .meta("]"), .meta(" "))
    guard case .alternatives(let menu) = editor.state.mode else {
        Issue.record("no menu")
        return
    }
    #expect(menu.entries.map(\.text) == ["tune,", "tone,", "tnue,"])
    #expect(menu.entries.map(\.source) == ["engine", "spelling", "as it is"])
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 3).hasPrefix(String(repeating: " ", count: 5) + "> tune,  (engine)"))
    #expect(frame.text(ofRow: 4).hasPrefix(String(repeating: " ", count: 5) + "  tone,  (spelling)"))
    #expect(frame.text(ofRow: 21).hasPrefix("Replace \"tnue,\" with:"))
    editor.press(.down, .up, .enter)
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "Lenore, the kettle hums\nyour tune,\n")
    #expect(editor.state.status == StatusMessage("Replaced \"tnue,\" with \"tune,\""))
    #expect(uncertainWords(editor.state) == ["kettle"])
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "Lenore, the kettle hums\nyour tnue,\n")
    #expect(uncertainWords(editor.state) == ["kettle", "tnue,"])
}

@Test func theMenuClosesWithEscapeAndSaysWhenThereIsNothingToOffer() {
    let (editor, _) = proofEditor()
    editor.press(.control(" "))
    #expect(editor.state.status == StatusMessage("No other readings of \"Lenore,\""))
    editor.press(.meta("]"), .meta(" "))
    #expect(editor.state.mode != .editing)
    editor.press(.escape)
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "Lenore, the kettle hums\nyour tnue,\n")
}

/// "tnue, tnue, tnue," read three times: correcting the first offers the others one by one.
private func seriesEditor() -> Editor {
    let words = (0..<3).map { i in
        ProofWord(
            text: "tnue,", range: (i * 6)..<(i * 6 + 5), confidence: 80, alternatives: ["tune,"],
            doubts: ["low confidence"])
    }
    let job = FakeRecognition([.finished(text: "tnue, tnue, tnue,\n", meanConfidence: 80, words: words)])
    let configuration = EditorConfiguration.photo(path: "/p/t.jpg", recognition: job, sharing: FakeSharing())
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.pollRecognition()
    return editor
}

@Test func correctingAWordOffersTheSameCorrectionForItsSeries() {
    let editor = seriesEditor()
    editor.press(.meta(" "), .enter)
    #expect(editor.state.buffer.text == "tune, tnue, tnue,\n")
    guard case .confirmSeries(let series) = editor.state.mode else {
        Issue.record("no series question")
        return
    }
    #expect(series.pending.count == 2)
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 6))
    #expect(
        render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 21).hasPrefix(
            "Correct \"tnue,\" to \"tune,\" here too?"))
    editor.press(.character("n"))
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 12))
    editor.press(.character("y"))
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "tune, tnue, tune,\n")
    #expect(editor.state.status == StatusMessage("Corrected 2 occurrences of \"tnue,\""))
    // One undo step for the series, one for the first correction.
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "tune, tnue, tnue,\n")
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "tnue, tnue, tnue,\n")
    #expect(uncertainWords(editor.state) == ["tnue,", "tnue,", "tnue,"])
}

@Test func allCorrectsTheWholeSeriesAtOnce() {
    let editor = seriesEditor()
    editor.press(.meta(" "), .enter, .character("a"))
    #expect(editor.state.buffer.text == "tune, tune, tune,\n")
    #expect(editor.state.status == StatusMessage("Corrected 3 occurrences of \"tnue,\""))
    #expect(uncertainWords(editor.state).isEmpty)
}

@Test func spellingSuggestionsAreAskedForWhenTheMenuOpensOnce() {
    let words = [
        ProofWord(
            text: "bléme", range: 0..<6, confidence: 93, alternatives: ["blême"], isUnknownWord: true,
            doubts: ["not in the dictionary"])
    ]
    let job = FakeRecognition([.finished(text: "bléme\n", meanConfidence: 93, words: words)])
    job.spellings = ["bléme": ["blême", "blâme"]]
    let configuration = EditorConfiguration.photo(path: "/p/b.jpg", recognition: job, sharing: FakeSharing())
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.pollRecognition()
    editor.press(.meta(" "))
    guard case .alternatives(let menu) = editor.state.mode else {
        Issue.record("no menu")
        return
    }
    #expect(menu.entries.map(\.text) == ["blême", "blâme", "bléme"])
    #expect(menu.entries.map(\.source) == ["engine", "spelling", "as it is"])
    editor.press(.escape, .meta(" "))
    #expect(job.askedForSuggestions == ["bléme"])
}

/// A name the engine read confidently (capitalised, or read the same way twice) is not replaced
/// by a dictionary's guess at Enter: M-Space offers the text as it is first, the guesses after,
/// labelled (issue 42: KLABNIK preselected NIKLAUS). A lower-case word read doubtfully once keeps
/// the spelling guess first.
@Test func aConfidentlyReadNameIsKeptFirstInTheMenu() {
    let text = "KLABNIK wrote\nbrigth klabnik klabnik\n"
    let words = [
        ProofWord(
            text: "KLABNIK", range: 0..<7, confidence: 95, suggestions: ["NIKLAUS"], doubts: ["not in the dictionary"]),
        ProofWord(text: "wrote", range: 8..<13, confidence: 96),
        ProofWord(
            text: "brigth", range: 14..<20, confidence: 70, isUnknownWord: true, suggestions: ["bright"],
            doubts: ["low confidence", "not in the dictionary"]),
        ProofWord(
            text: "klabnik", range: 21..<28, confidence: 93, suggestions: ["Klabnik"], doubts: ["not in the dictionary"]
        ),
        ProofWord(
            text: "klabnik", range: 29..<36, confidence: 93, suggestions: ["Klabnik"], doubts: ["not in the dictionary"]
        ),
    ]
    let job = FakeRecognition([.finished(text: text, meanConfidence: 90, words: words)])
    let configuration = EditorConfiguration.photo(path: "/photos/cover.jpg", recognition: job, sharing: FakeSharing())
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.pollRecognition()
    func menu() -> [String] {
        guard case .alternatives(let menu) = editor.state.mode else { return [] }
        return menu.entries.map { "\($0.text) (\($0.source))" }
    }
    editor.press(.meta(" "))
    #expect(menu() == ["KLABNIK (as it is)", "NIKLAUS (spelling)"])
    editor.press(.enter)
    #expect(editor.state.buffer.text == text)
    editor.press(.meta("]"), .meta(" "))
    #expect(menu() == ["bright (spelling)", "brigth (as it is)"])
    editor.press(.escape, .meta("]"), .meta(" "))
    #expect(menu() == ["klabnik (as it is)", "Klabnik (spelling)"])
}
