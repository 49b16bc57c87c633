import SnapExport
import SnapOCR
import SnapText

/// `lovesnap ocr --replace`: the readings of the photos as one text, each word anchored
/// (`TextMark`), edited by `TextBuffer.replaceAll` (the editor's replace-all), and what each word
/// reads afterwards.
enum HeadlessEdits {
    /// The edited text, the pages with their words' corrections, and how many matches each
    /// replacement replaced.
    struct Outcome {
        var text: String
        var pages: [ExportDocument.Page]
        var counts: [Int]
    }

    /// The photos' texts joined (an empty line between two photos), then `replacements` applied
    /// in order. A pattern that does not compile replaces nothing (the command line checks it first).
    static func apply(_ replacements: [Arguments.Replacement], to results: [RecognitionResult]) -> Outcome {
        var text = ""
        var marks: [TextMark] = []
        var owners: [(page: Int, word: Int)] = []
        for (p, result) in results.enumerated() {
            if p > 0 && !text.isEmpty && !result.text.isEmpty {
                if !text.hasSuffix("\n") { text += "\n" }
                text += "\n"
            }
            let base = text.utf8.count
            for (i, word) in result.words.enumerated() where !word.textRange.isEmpty {
                marks.append(
                    TextMark(
                        id: owners.count, range: (base + word.textRange.lowerBound)..<(base + word.textRange.upperBound)
                    ))
                owners.append((p, i))
            }
            text += result.text
        }
        var buffer = TextBuffer(text: text, marks: marks)
        let counts = replacements.map { r in
            (try? buffer.replaceAll(r.find, with: r.replacement, regularExpression: r.regularExpression)) ?? 0
        }
        let pages = results.enumerated().map { p, result in
            ExportDocument.Page(
                documents: result.documents, corrections: Array(repeating: nil, count: result.words.count))
        }
        var corrected = pages
        let byID = Dictionary(buffer.marks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, owner) in owners.enumerated() {
            let original = results[owner.page].words[owner.word].text
            let now = byID[id].map { buffer.text(inUTF8: $0.range) } ?? ""
            if now != original { corrected[owner.page].corrections[owner.word] = now }
        }
        return Outcome(text: buffer.text, pages: corrected, counts: counts)
    }
}
