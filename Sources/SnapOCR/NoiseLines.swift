/// Lines Tesseract reads out of texture rather than print — coffee stains, wood grain, a stone
/// wall, the speckle of a dark table — and leaves out of the text.
///
/// Such a line is a run of short fragments ("ru 1 ee ner" mb LL He") the engine itself doubts: its
/// confidence, weighted by word length, is under `maximumConfidence` *and* its words average
/// under `minimumWordLength` characters. Printed lines the engine doubts (a machine-readable zone,
/// a blurred line of a receipt) have longer words and stay; so do confident short ones (a date,
/// a price). Measured with `scripts/ocr-benchmark.py` on the team's corpus of 35 real photos
/// (docs/measurements/README.md) and the stress set of `scripts/make-stress-set.py` (110 pages,
/// 10 conditions):
/// corpus mean CER 0.108 → 0.093 (one image worse, by 0.011), scene text 0.93 → 0.35, the other
/// conditions unchanged or better; confidence alone (any threshold from 20 to 60) made the corpus
/// worse, dropping the machine-readable zone of a passport specimen.
enum NoiseLines {
    /// Length-weighted mean word confidence (0–100) under which a line may be noise.
    static let maximumConfidence = 40.0
    /// Mean word length (characters) under which a doubted line is noise.
    static let minimumWordLength = 4.0

    /// Whether a line of these words (each its text and confidence 0–100) is noise.
    static func isNoise(_ words: [(text: String, confidence: Double)]) -> Bool {
        let characters = words.reduce(0) { $0 + $1.text.count }
        guard !words.isEmpty, characters > 0 else { return false }
        let confidence = words.reduce(0) { $0 + $1.confidence * Double($1.text.count) } / Double(characters)
        let meanLength = Double(characters) / Double(words.count)
        return confidence < maximumConfidence && meanLength < minimumWordLength
    }

    /// `words` without the lines that are noise, lines renumbered densely from 0 in the same
    /// order; and the lines left out, each its words joined by a space.
    static func removed(from words: [LaidOutWord]) -> (words: [LaidOutWord], leftOut: [String]) {
        let byLine = Dictionary(grouping: words, by: \.word.line)
        let noise = Set(byLine.filter { isNoise($0.value.map { ($0.word.text, $0.word.confidence) }) }.keys)
        guard !noise.isEmpty else { return (words, []) }
        let leftOut = noise.sorted().map { line in (byLine[line] ?? []).map(\.word.text).joined(separator: " ") }
        var kept = words.filter { !noise.contains($0.word.line) }
        var dense: [Int: Int] = [:]
        for i in kept.indices {
            let line = dense[kept[i].word.line] ?? dense.count
            dense[kept[i].word.line] = line
            kept[i].word.line = line
        }
        return (kept, leftOut)
    }
}
