import Foundation

/// Text collapsed the way scripts/ocr-benchmark.py scores it: NFC, every run of whitespace
/// (newlines included) turned into one space, trimmed.
public func normalizedWhitespace(_ s: String) -> String {
    s.precomposedStringWithCanonicalMapping
        .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

/// Character error rate: Levenshtein distance over Unicode scalars / length of the truth, after
/// `normalizedWhitespace` on both sides.
public func characterErrorRate(_ ocr: String, truth: String) -> Double {
    let a = Array(normalizedWhitespace(ocr).unicodeScalars)
    let b = Array(normalizedWhitespace(truth).unicodeScalars)
    if b.isEmpty { return a.isEmpty ? 0 : 1 }
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...max(1, a.count) where !a.isEmpty {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return Double(a.isEmpty ? b.count : prev[b.count]) / Double(b.count)
}
