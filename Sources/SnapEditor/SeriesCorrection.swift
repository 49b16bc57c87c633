import SnapTerminal
import SnapText

/// A correction offered for an error series: the other words OCR read as the word the user just
/// corrected, asked about one by one, then replaced together in one undo step.
public struct SeriesCorrection: Equatable, Sendable {
    /// One word asked about: its mark and the text that would replace it.
    public struct Candidate: Equatable, Sendable {
        /// The word's mark (``SnapText/TextMark/id``).
        public var markID: Int
        /// The word's text now (as OCR read it: the mark is not edited).
        public var text: String
        /// What would replace it: the correction itself for a word read as the wrong reading,
        /// the word with the character confusion corrected for another uncertain word.
        public var replacement: String

        /// A candidate from its parts.
        public init(markID: Int, text: String, replacement: String) {
            self.markID = markID
            self.text = text
            self.replacement = replacement
        }
    }

    /// The wrong reading.
    public var from: String
    /// The correction.
    public var to: String
    /// The words still to ask about, the current one first: those read as `from`, then the other
    /// uncertain words holding the same character confusion.
    public var pending: [Candidate]
    /// The words the user said yes to.
    public var accepted: [Candidate] = []
}
