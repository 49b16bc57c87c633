/// Regex matches of one line as UTF-8 ranges, kept only where they touch no letter or digit.
struct LineScanner {
    let line: String

    /// The UTF-8 offset of `index` in ``line``.
    func offset(_ index: String.Index) -> Int { line.utf8.distance(from: line.utf8.startIndex, to: index) }

    /// Whether the characters just before and after `range` are neither letters nor digits (nor
    /// one of `alsoExcluded`).
    func standsAlone(_ range: Range<String.Index>, alsoExcluded: Set<Character> = []) -> Bool {
        if range.lowerBound > line.startIndex {
            let before = line[line.index(before: range.lowerBound)]
            if before.isLetter || before.isNumber || alsoExcluded.contains(before) { return false }
        }
        if range.upperBound < line.endIndex {
            let after = line[range.upperBound]
            if after.isLetter || after.isNumber || alsoExcluded.contains(after) { return false }
        }
        return true
    }
}
