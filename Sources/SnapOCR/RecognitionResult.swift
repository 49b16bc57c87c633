import Foundation
import SnapExport

/// A rectangle in pixels of the upright photo (after EXIF orientation), origin top-left.
public struct BoundingBox: Codable, Equatable, Sendable {
    /// Left edge and top edge, in pixels from the photo's top-left corner.
    public var x: Int, y: Int
    /// Size in pixels.
    public var width: Int, height: Int
    /// A box from its left, top, width and height in pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The box with each of its four numbers multiplied by `factor`, rounded to whole pixels.
    func scaled(by factor: Double) -> BoundingBox {
        func times(_ v: Int) -> Int { Int((Double(v) * factor).rounded()) }
        return BoundingBox(x: times(x), y: times(y), width: times(width), height: times(height))
    }
}

/// One recognized word.
public struct RecognizedWord: Codable, Equatable, Sendable {
    /// The word's text (UTF-8, NFC).
    public var text: String
    /// Where it is, in pixels of the upright photo.
    public var boundingBox: BoundingBox
    /// Tesseract's confidence, 0–100.
    public var confidence: Double
    /// Index (from 0) of the text line it belongs to, in reading order.
    public var line: Int
    /// Where the word is in the result's `text`: a range of UTF-8 byte offsets (empty at 0 when the
    /// word could not be placed, which verse layout never causes).
    public var textRange: Range<Int> = 0..<0
    /// Other readings of the word the engine weighed, best first, each differing from `text` in one
    /// character: from Tesseract's choice iterator (`TessResultIteratorGetChoiceIterator`,
    /// `TessChoiceIteratorGetUTF8Text`, `TessChoiceIteratorConfidence`, with `lstm_choice_mode` 2).
    public var alternatives: [String] = []
    /// The confidence (0–100) of the strongest character choice the engine did not take, 0 when
    /// it had none: high means the engine hesitated between two readings.
    public var runnerUpConfidence: Double = 0
    /// Whether a spelling dictionary of the document's languages accepts the word (punctuation
    /// around it ignored); nil when it was not checked (no dictionary, or no letters).
    public var isKnownWord: Bool?
    /// How the other preparation read the same place, when the page was read twice (the prepared
    /// page and the photo as the `tesseract` command line reads it, `Recognizer.recognize`) and
    /// its reading differs: its words there (matched by their boxes, `OtherReading`) joined by a
    /// space, "" when it read nothing there; nil when it reads the same, when its words there do
    /// not line up with this one, or when the page was read once.
    public var otherReading: String?
    /// The language whose model read it, a Tesseract code (`fra`, `eng`;
    /// `TessResultIteratorWordRecognitionLanguage`); nil when not known. With `eng+fra` it says
    /// which model's reading won, not the language of the text: half the words of a French line
    /// come back `eng`. The line's language is the dictionaries' (`Accents.lineLanguages`).
    public var language: String?
    /// The word with the accents its line's language needs, when that language's dictionary knows
    /// it only so (`hate` → `hâte`; `pres` → `prés`, `près`; a lone `A` starting a French
    /// sentence → `À`; `Accents.respelled`), each spelling the dictionary knows, at most 3; empty
    /// otherwise or when it was not checked.
    public var withAccents: [String] = []
    /// How the learned recognizer (`TextRecognizer`, a network that shares nothing with
    /// Tesseract's) read the word's box, when it was asked (`Proofreading.asksLearnedReading`):
    /// its text, "" when it read nothing there; nil when it was not asked or could not run.
    public var learnedReading: String?
    /// The learned recognizer's confidence (0–100) in `learnedReading`: the mean probability of
    /// its characters; 0 when it read nothing or was not asked.
    public var learnedConfidence: Double = 0
    /// Whether a spelling dictionary knows `learnedReading` when it differs from the word (as
    /// `isKnownWord` for the word); nil when not checked or it has no letters.
    public var learnedIsKnownWord: Bool?

    /// Whether the learned recognizer read the word the same way (`LearnedReading.agrees`).
    public var learnedAgrees: Bool {
        learnedReading.map { LearnedReading.agrees(text, $0) } ?? false
    }

    /// The learned recognizer's reading when it is another word worth offering: not the same
    /// (`learnedAgrees`), with a letter or digit, as many words as the word (its cut took in a
    /// neighbour: `gulls are` for `gulls`), not only punctuation at the edges more or less
    /// (`LearnedReading.differsOnlyAtTheEdges`), and a word a dictionary knows when the word is
    /// one (`enploi` for `emploi`: the learned recognizer confuses m and n in typewriting); nil
    /// otherwise.
    public var learnedAlternative: String? {
        guard let learned = learnedReading, !learnedAgrees, learned.contains(where: { $0.isLetter || $0.isNumber }),
            learned.split(separator: " ").count == text.split(separator: " ").count,
            !LearnedReading.differsOnlyAtTheEdges(text, learned),
            isKnownWord != true || learnedIsKnownWord != false
        else { return nil }
        return learned
    }
}

/// The outcome of OCR on one photo.
public struct RecognitionResult: Codable, Equatable, Sendable {
    /// The text, UTF-8, NFC, LF line ends; empty when no text was found.
    public var text: String
    /// Tesseract's mean word confidence, 0–100 (`TessBaseAPIMeanTextConf`).
    public var meanConfidence: Int
    /// Every word with its box, confidence and line.
    public var words: [RecognizedWord]
    /// Rotation that makes the page upright, degrees clockwise (0, 90, 180, 270): EXIF, OSD and
    /// Tesseract's layout analysis together. Word boxes are in the upright page's pixels.
    public var rotationDegrees: Int
    /// What the run did to the photo (for the user) and how it ran (diagnostics), in the order
    /// each kind happened; see `RecognitionNote.isDiagnostic`.
    public var notes: [RecognitionNote]
    /// The part of the upright photo that was read (`RecognitionOptions.region`), in its
    /// pixels; nil when the whole photo was read.
    public var region: BoundingBox?
    /// The lines left out as noise (`NoiseLines`), one per line: still evidence of what the
    /// preparation made of the page when readings are compared; not sent between processes.
    var leftOutText = ""
    /// Tesseract's documents of the page as rendered (prepared-page pixels); not sent between processes.
    var rendered: RenderedPage?
    /// The boxes of `words` as Tesseract gave them (prepared-page pixels), to find them in `rendered`.
    var renderedWordBoxes: [PageBox] = []
    /// Per word of `renderedWordBoxes`: its text where the reading corrected what the renderers
    /// write (`WordCorrections`), else nil.
    var renderedWordCorrections: [String?] = []
    /// Tesseract's documents of the page in the photo's pixels, their words those of `words`,
    /// when the request asked for export formats.
    public var documents: PageDocuments?

    enum CodingKeys: String, CodingKey {
        case text, meanConfidence, words, rotationDegrees, notes, region, documents
    }

    /// A result from its parts (see each property for units).
    public init(
        text: String, meanConfidence: Int, words: [RecognizedWord], rotationDegrees: Int,
        notes: [RecognitionNote] = []
    ) {
        self.text = text
        self.meanConfidence = meanConfidence
        self.words = words
        self.rotationDegrees = rotationDegrees
        self.notes = notes
    }
}
