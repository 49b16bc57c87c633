import Foundation
import SnapDetectors
import SnapOCR

/// `lovesnap ocr --json`: the one machine-readable document of a reading, schema version 1
/// (docs/json.md describes every field). One JSON object, keys sorted, and
/// a LF. Absent values are `null`, never left out, so that every key is always there.
///
/// Stable: a field is only ever added; renaming, removing or changing the meaning of one raises
/// ``version``. The fields of the first, unversioned output (`text`, `uncertainBelow`, `words`
/// with `text`, `confidence`, `range`, `box`, `line`, `alternatives`, `runnerUp`, `known`,
/// `doubts`, `uncertain`) are kept as they were (scripts/mark-quality.py reads them); the words'
/// `otherReading`, `language`, `withAccents`, `learnedReading`, `learnedConfidence` and
/// `learnedAgrees` came later (an added field keeps the version).
struct OCRReport: Encodable {
    /// The schema version.
    static let version = 1

    struct Word: Encodable {
        var text: String
        var confidence: Double
        var range: [Int]
        var box: [Int]
        var line: Int
        var alternatives: [String]
        var runnerUp: Double
        var known: Bool?
        var doubts: [String]
        var uncertain: Bool
        var otherReading: String?
        var language: String?
        var withAccents: [String]
        var learnedReading: String?
        var learnedConfidence: Double
        var learnedAgrees: Bool

        enum CodingKeys: String, CodingKey {
            case text, confidence, range, box, line, alternatives, runnerUp, known, doubts, uncertain, otherReading
            case language, withAccents, learnedReading, learnedConfidence, learnedAgrees
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            try c.encode(confidence, forKey: .confidence)
            try c.encode(range, forKey: .range)
            try c.encode(box, forKey: .box)
            try c.encode(line, forKey: .line)
            try c.encode(alternatives, forKey: .alternatives)
            try c.encode(runnerUp, forKey: .runnerUp)
            try c.encode(known, forKey: .known)
            try c.encode(doubts, forKey: .doubts)
            try c.encode(uncertain, forKey: .uncertain)
            try c.encode(otherReading, forKey: .otherReading)
            try c.encode(language, forKey: .language)
            try c.encode(withAccents, forKey: .withAccents)
            try c.encode(learnedReading, forKey: .learnedReading)
            try c.encode(learnedConfidence, forKey: .learnedConfidence)
            try c.encode(learnedAgrees, forKey: .learnedAgrees)
        }
    }

    struct Found: Encodable {
        var kind: String
        var text: String
        var value: String
        var range: [Int]
        var line: Int
        var issuer: String?
        var nearMiss: Bool
        var note: String?
        var suspects: [[Int]]

        enum CodingKeys: String, CodingKey { case kind, text, value, range, line, issuer, nearMiss, note, suspects }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(text, forKey: .text)
            try c.encode(value, forKey: .value)
            try c.encode(range, forKey: .range)
            try c.encode(line, forKey: .line)
            try c.encode(issuer, forKey: .issuer)
            try c.encode(nearMiss, forKey: .nearMiss)
            try c.encode(note, forKey: .note)
            try c.encode(suspects, forKey: .suspects)
        }
    }

    var version = OCRReport.version
    var photo: String
    var text: String
    var meanConfidence: Int
    var rotation: Int
    var region: [Int]?
    var notes: [String]
    var uncertainBelow: Double
    var words: [Word]
    var detections: [Found]

    enum CodingKeys: String, CodingKey {
        case version, photo, text, meanConfidence, rotation, region, notes, uncertainBelow, words, detections
    }

    /// The document of `result`, read from the photo shown as `photo`, its words marked by `rules`.
    init(_ result: RecognitionResult, photo: String, rules: Proofreading) {
        self.photo = photo
        text = result.text
        meanConfidence = result.meanConfidence
        rotation = result.rotationDegrees
        region = result.region.map { [$0.x, $0.y, $0.width, $0.height] }
        notes = result.notes.filter { !$0.isDiagnostic }.map(\.description)
        uncertainBelow = rules.uncertainBelow
        let others = Proofreading.otherSignals(result.words)
        let all = rules.doubts(about: result.words)
        words = result.words.indices.map { i in
            let w = result.words[i]
            let b = w.boundingBox
            return Word(
                text: w.text, confidence: w.confidence, range: [w.textRange.lowerBound, w.textRange.upperBound],
                box: [b.x, b.y, b.width, b.height], line: w.line, alternatives: w.alternatives,
                runnerUp: w.runnerUpConfidence, known: w.isKnownWord,
                doubts: others[i].map(\.rawValue), uncertain: !all[i].isEmpty, otherReading: w.otherReading,
                language: w.language, withAccents: w.withAccents, learnedReading: w.learnedReading,
                learnedConfidence: (w.learnedConfidence * 10).rounded() / 10, learnedAgrees: w.learnedAgrees)
        }
        detections = Detectors.detect(in: result.text).map { d in
            Found(
                kind: d.kind.rawValue, text: d.text, value: d.value, range: [d.range.lowerBound, d.range.upperBound],
                line: d.line, issuer: d.issuer, nearMiss: d.isNearMiss, note: d.note,
                suspects: d.suspects.map { [$0.lowerBound, $0.upperBound] })
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(photo, forKey: .photo)
        try c.encode(text, forKey: .text)
        try c.encode(meanConfidence, forKey: .meanConfidence)
        try c.encode(rotation, forKey: .rotation)
        try c.encode(region, forKey: .region)
        try c.encode(notes, forKey: .notes)
        try c.encode(uncertainBelow, forKey: .uncertainBelow)
        try c.encode(words, forKey: .words)
        try c.encode(detections, forKey: .detections)
    }

    /// The document as UTF-8 bytes with its final LF.
    func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [0x0A]
    }
}
