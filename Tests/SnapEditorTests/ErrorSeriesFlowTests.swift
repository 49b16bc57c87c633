import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

/// An editor on `text` read as `words`, the recognition finished.
private func editor(_ text: String, _ words: [ProofWord]) -> Editor {
    let job = FakeRecognition([.finished(text: text, meanConfidence: 80, words: words)])
    let configuration = EditorConfiguration.photo(path: "/p/s.jpg", recognition: job, sharing: FakeSharing())
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.pollRecognition()
    return editor
}

/// A word at `start` (UTF-8 offset), uncertain unless `certain`; an uncertain word is one no
/// dictionary knows unless `known`.
private func word(
    _ text: String, at start: Int, certain: Bool = false, known: Bool = false, alternatives: [String] = []
) -> ProofWord {
    ProofWord(
        text: text, range: start..<(start + text.utf8.count), confidence: certain ? 95 : 70,
        alternatives: alternatives, isUnknownWord: !certain && !known, doubts: certain ? [] : ["low confidence"])
}

/// "tnue, tnue, tnue," read three times, all uncertain.
private func tnueEditor() -> Editor {
    editor("tnue, tnue, tnue,\n", (0..<3).map { word("tnue,", at: $0 * 6) })
}

/// "rnore rnuch barn rnany": "rn" read for "m" in three uncertain words; "barn" is certain.
private func rnEditor() -> Editor {
    editor(
        "rnore rnuch barn rnany\n",
        [
            word("rnore", at: 0, alternatives: ["more"]), word("rnuch", at: 6), word("barn", at: 12, certain: true),
            word("rnany", at: 17),
        ])
}

private func question(_ editor: Editor) -> String {
    render(editor.state, size: TerminalSize(rows: 24, columns: 80)).text(ofRow: 21)
}

private func pendingTexts(_ editor: Editor) -> [String]? {
    guard case .confirmSeries(let series) = editor.state.mode else { return nil }
    return series.pending.map(\.text)
}

/// "tnue," corrected to "tune," by hand: the first word's "n" deleted, an "n" typed after the "u".
private func typeTune(_ editor: Editor) {
    editor.press(.right, .delete, .right, .character("n"))
}

@Test func aTypedCorrectionOffersItsSeriesWhenTheCursorLeavesTheWord() {
    let editor = tnueEditor()
    typeTune(editor)
    #expect(editor.state.buffer.text == "tune, tnue, tnue,\n")
    #expect(editor.state.mode == .editing)
    editor.press(.end)
    #expect(pendingTexts(editor) == ["tnue,", "tnue,"])
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 6))
    #expect(question(editor).hasPrefix("Correct \"tnue,\" to \"tune,\" here too?"))
    editor.press(.character("n"), .character("n"))
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "tune, tnue, tnue,\n")
    #expect(editor.state.status == StatusMessage("Corrected 1 occurrence"))
    // Back into the word and out again, nothing new typed: not asked again.
    editor.press(.home, .right, .end)
    #expect(editor.state.mode == .editing)
    // A new correction of the same word ("tunes,") is asked about again.
    editor.press(.home, .right, .right, .right, .right, .character("s"), .end)
    #expect(editor.state.buffer.text == "tunes, tnue, tnue,\n")
    #expect(pendingTexts(editor) == ["tnue,", "tnue,"])
    editor.press(.character("a"))
    #expect(editor.state.buffer.text == "tunes, tunes, tunes,\n")
    #expect(editor.state.status == StatusMessage("Corrected 3 occurrences of \"tnue,\""))
}

@Test func aTypedCorrectionIsNotAskedAboutWhileTheCursorStaysInTheWord() {
    let editor = tnueEditor()
    typeTune(editor)
    // Moving inside the word, to its end (the cursor just after it is still in it), typing on.
    editor.press(.left, .left, .right, .right, .right, .right)
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 5))
    #expect(editor.state.mode == .editing)
    editor.press(.backspace, .character(","))
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "tune, tnue, tnue,\n")
    // A space typed after the word leaves it: then the question comes.
    editor.press(.character(" "))
    #expect(editor.state.buffer.text == "tune,  tnue, tnue,\n")
    #expect(pendingTexts(editor) == ["tnue,", "tnue,"])
}

@Test func anOpenPromptWinsOverTheSeriesQuestion() {
    let editor = tnueEditor()
    typeTune(editor)
    editor.press(.control("w"))
    guard case .prompt = editor.state.mode else {
        Issue.record("no search prompt")
        return
    }
    editor.press(.character("x"))
    #expect(editor.state.mode != .editing)
    #expect(pendingTexts(editor) == nil)
    editor.press(.control("c"))
    #expect(editor.state.mode == .editing)
    editor.press(.down)
    #expect(pendingTexts(editor) == ["tnue,", "tnue,"])
}

@Test func aWordChangedByReplaceIsNotOfferedWhenTheCursorLeavesIt() {
    let editor = tnueEditor()
    // The cursor is in the first "tnue,"; Replace changes it (and only it) to "tune,".
    editor.press([.control("\\")] + typing("tnue") + [.enter] + typing("tune") + [.enter])
    editor.press(.character("y"), .character("n"), .character("n"))
    #expect(editor.state.buffer.text == "tune, tnue, tnue,\n")
    #expect(editor.state.mode == .editing)
    editor.press(.home, .end)
    #expect(editor.state.mode == .editing)
}

@Test func aTypedCorrectionOfAWordReadOnceOffersNothing() {
    let editor = editor(
        "kettle hums\n", [word("kettle", at: 0), word("hums", at: 7, certain: true)])
    editor.press(.right, .right, .right, .character("x"), .end)
    #expect(editor.state.buffer.text == "ketxtle hums\n")
    #expect(editor.state.mode == .editing)
}

@Test func theConfusionIsOfferedInOtherUncertainWordsYesThenNo() {
    let editor = rnEditor()
    editor.press(.meta(" "), .enter)
    #expect(editor.state.buffer.text == "more rnuch barn rnany\n")
    // "barn" holds "rn" too, but is certain: not offered.
    #expect(pendingTexts(editor) == ["rnuch", "rnany"])
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 5))
    #expect(question(editor).hasPrefix("Correct \"rnuch\" to \"much\" here too?"))
    editor.press(.character("y"))
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 16))
    #expect(question(editor).hasPrefix("Correct \"rnany\" to \"many\" here too?"))
    editor.press(.character("n"))
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "more much barn rnany\n")
    #expect(editor.state.status == StatusMessage("Corrected 2 words (\"rn\" read for \"m\")"))
    #expect(editor.state.uncertainMarks.map { editor.state.buffer.text(inUTF8: $0.range) } == ["rnany"])
    // One undo step for the whole series, one for the first correction.
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "more rnuch barn rnany\n")
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "rnore rnuch barn rnany\n")
    #expect(
        editor.state.uncertainMarks.map { editor.state.buffer.text(inUTF8: $0.range) } == ["rnore", "rnuch", "rnany"])
}

@Test func theSameWordComesFirstThenTheConfusionEverywhereInAWord() {
    let editor = editor(
        "rnore cornrnon rnore rnirnic barn\n",
        [
            word("rnore", at: 0), word("cornrnon", at: 6), word("rnore", at: 15), word("rnirnic", at: 21),
            word("barn", at: 29, certain: true),
        ])
    // Corrected by hand: the "rn" deleted, an "m" typed (before the mark, which now holds "ore":
    // the correction is still "more"); then the cursor goes down, out of the word.
    editor.press(.delete, .delete, .character("m"), .down)
    #expect(editor.state.buffer.text == "more cornrnon rnore rnirnic barn\n")
    #expect(pendingTexts(editor) == ["rnore", "cornrnon", "rnirnic"])
    #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 14))
    #expect(question(editor).hasPrefix("Correct \"rnore\" to \"more\" here too?"))
    editor.press(.character("y"))
    #expect(question(editor).hasPrefix("Correct \"cornrnon\" to \"common\" here too?"))
    editor.press(.character("a"))
    #expect(editor.state.buffer.text == "more common more mimic barn\n")
    #expect(editor.state.status == StatusMessage("Corrected 4 words (\"rn\" read for \"m\")"))
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "more cornrnon rnore rnirnic barn\n")
}

@Test func aWordAcceptedAsItIsIsNotOfferedTheConfusion() {
    let editor = rnEditor()
    editor.press(.meta("]"), .meta("y"), .home, .meta(" "), .enter)
    #expect(editor.state.buffer.text == "more rnuch barn rnany\n")
    #expect(pendingTexts(editor) == ["rnany"])
}

@Test func theConfusionIsTheSmallestDifferingMiddleInOnePlace() {
    func pair(_ from: String, _ to: String) -> [String]? {
        confusion(from: from, to: to).map { [$0.from, $0.to] }
    }
    #expect(pair("rnore", "more") == ["rn", "m"])
    #expect(pair("cIear", "clear") == ["I", "l"])
    #expect(pair("tbe", "the") == ["b", "h"])
    #expect(pair("ete,", "été,") == nil)  // two places
    #expect(pair("tnue,", "tune,") == nil)  // "nu" and "un" share their letters: two places
    #expect(pair("cornrnon", "common") == nil)  // "rnrn" is longer than 3
    #expect(pair("bat", "bait") == nil)  // nothing on one side
    #expect(pair("same", "same") == nil)
    #expect(pair("fleur", "fIeur") == ["l", "I"])
}

@Test func aRealWordHoldingTheConfusionIsNotOffered() {
    // "corn" is uncertain (low confidence) but a word the dictionaries know: "rn" in it is no misreading.
    let editor = editor(
        "rnore corn rnuch\n",
        [word("rnore", at: 0, alternatives: ["more"]), word("corn", at: 6, known: true), word("rnuch", at: 11)])
    editor.press(.meta(" "), .enter)
    #expect(editor.state.buffer.text == "more corn rnuch\n")
    #expect(pendingTexts(editor) == ["rnuch"])
}

@Test func allTakesTheWordsOfTheCurrentKindOnly() {
    // A on a word read as the wrong reading takes the others read so; a word holding the
    // confusion is still asked about on its own ("A" never changes a word the user has not seen).
    let editor = editor(
        "rnore rnore cornrnon\n",
        [word("rnore", at: 0, alternatives: ["more"]), word("rnore", at: 6), word("cornrnon", at: 12)])
    editor.press(.meta(" "), .enter)
    #expect(pendingTexts(editor) == ["rnore", "cornrnon"])
    editor.press(.character("a"))
    #expect(pendingTexts(editor) == ["cornrnon"])
    #expect(question(editor).hasPrefix("Correct \"cornrnon\" to \"common\" here too?"))
    editor.press(.character("n"))
    #expect(editor.state.buffer.text == "more more cornrnon\n")
    #expect(editor.state.status == StatusMessage("Corrected 2 occurrences of \"rnore\""))
}

/// A confusion that makes non-words of the other words offers no series (issue 42: after "EN"
/// was corrected to "FN", "CUERVO" was offered "CUFRVO" and "FUZE" "FUZF"); the words read the
/// same way as the corrected one still are, and a word the confusion makes real ("rnuch" →
/// "much") still is.
@Test func aConfusionThatMakesNonWordsOffersNoSeries() {
    let names = editor(
        "EN CUERVO FUZE EN\n",
        [word("EN", at: 0, alternatives: ["FN"]), word("CUERVO", at: 3), word("FUZE", at: 10), word("EN", at: 15)])
    names.press(.meta(" "), .enter)
    #expect(names.state.buffer.text == "FN CUERVO FUZE EN\n")
    #expect(pendingTexts(names) == ["EN"])
    names.press(.character("n"))
    #expect(names.state.mode == .editing)
    #expect(names.state.buffer.text == "FN CUERVO FUZE EN\n")

    let rn = rnEditor()
    rn.press(.meta(" "), .enter)
    #expect(pendingTexts(rn) == ["rnuch", "rnany"])
}
