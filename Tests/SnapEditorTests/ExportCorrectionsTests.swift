import SnapText
import Testing

@testable import SnapEditor

/// What Write Out's exports carry of the buffer: each recognized word as it reads now.
@Suite struct ExportCorrectionsTests {
    /// "Lenore, the kettle" as recognized: three words, each anchored.
    func recognized() -> EditorState {
        var state = EditorState(displayName: "kettle.png", saveName: "kettle.txt", recognizing: true)
        apply(
            .finished(
                text: "Lenore, the kettle\n", meanConfidence: 90,
                words: [
                    ProofWord(text: "Lenore,", range: 0..<7, confidence: 90),
                    ProofWord(text: "the", range: 8..<11, confidence: 90),
                    ProofWord(text: "kettle", range: 12..<18, confidence: 90),
                ]), to: &state)
        return state
    }

    @Test func untouchedWordsHaveNoCorrection() {
        let state = recognized()
        #expect(state.wordCorrections == [nil, nil, nil])
        #expect(state.unplacedWordCount == 0)
    }

    @Test func aReplacedWordADeletedWordAndATypedOne() throws {
        var state = recognized()
        try state.buffer.replace([8..<12], with: "")  // "the " removed
        try state.buffer.replaceAll("Lenore", with: "Hélène")
        try state.buffer.insert(" new", at: state.buffer.text.utf8.count - 1, marks: [])  // typed after "kettle"
        #expect(state.buffer.text == "Hélène, kettle new\n")
        #expect(state.wordCorrections == ["Hélène,", "", nil])
        #expect(state.unplacedWordCount == 1)
    }

    @Test func aFirstLetterDeletedAndTypedAgainIsPartOfTheWord() throws {
        // Delete, then N, at the start of "kettle": the mark itself moves past text typed at its
        // start, but the word reads "Nettle" in the exports.
        var state = recognized()
        try state.buffer.replace([12..<13], with: "")
        try state.buffer.insert("N", at: 12, marks: [])
        #expect(state.buffer.text == "Lenore, the Nettle\n")
        #expect(state.buffer.marks.map(\.range) == [0..<7, 8..<11, 13..<18])
        #expect(state.wordCorrections == [nil, nil, "Nettle"])
        #expect(state.unplacedWordCount == 0)
        // A new word typed before it, a space between, stays a word of its own (no box).
        try state.buffer.insert("old ", at: 12, marks: [])
        #expect(state.wordCorrections == [nil, nil, "Nettle"])
        #expect(state.unplacedWordCount == 1)
    }

    @Test func anExportLeavesTheTextUnsaved() {
        var state = recognized()
        state.isModified = true
        apply(.saved(path: "poem.pdf"), to: &state)
        #expect(state.isModified)
        #expect(state.saveName == "kettle.txt")
        #expect(state.status == StatusMessage("Wrote 1 line to poem.pdf"))
        apply(.saved(path: "poem.txt"), to: &state)
        #expect(!state.isModified)
        #expect(state.saveName == "poem.txt")
    }
}
