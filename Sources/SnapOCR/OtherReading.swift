/// The other preparation's reading of each word's place: when a page is read twice (the prepared
/// page and the photo as the `tesseract` command line reads it, see `Recognizer.recognize`), the
/// reading that is not kept still tells, word by word, where the two disagree.
///
/// Pure: both readings' boxes are in pixels of the same upright photo. A word of the other reading
/// belongs to the kept word whose box holds its centre (a box whose centre lies outside another
/// cannot overlap it by more than half, so this loses no match an overlap rule would make); the
/// words that belong to one kept word, joined by a space in their reading order, are its other
/// reading when the box around them overlaps the kept word's with an intersection over union
/// (IoU) of at least ``minimumOverlap`` (so two words read as one, or one read as two, still line
/// up, but a long word does not stand for a short one).
enum OtherReading {
    /// The IoU (0–1) at which two boxes are taken for the same place.
    static let minimumOverlap = 0.5

    /// `kept` with each word's ``RecognizedWord/otherReading`` set from `other`, the other
    /// preparation's words: their text at its place when it differs, "" when `other` has no word
    /// there, nil when it reads the same or its words there do not line up.
    static func attaching(_ other: [RecognizedWord], to kept: [RecognizedWord]) -> [RecognizedWord] {
        var groups = [[Int]](repeating: [], count: kept.count)
        for (o, word) in other.enumerated() {
            let box = word.boundingBox
            guard box.width > 0, box.height > 0 else { continue }
            let cx = Double(box.x) + Double(box.width) / 2
            let cy = Double(box.y) + Double(box.height) / 2
            let holder = kept.indices.first { i in
                let k = kept[i].boundingBox
                return cx >= Double(k.x) && cx < Double(k.x + k.width) && cy >= Double(k.y)
                    && cy < Double(k.y + k.height)
            }
            if let holder { groups[holder].append(o) }
        }
        var out = kept
        for i in out.indices {
            let group = groups[i]
            guard let first = group.first else {
                out[i].otherReading = ""
                continue
            }
            let around = group.dropFirst().reduce(other[first].boundingBox) { union($0, other[$1].boundingBox) }
            guard overlap(around, kept[i].boundingBox) >= minimumOverlap else { continue }
            let text = group.map { other[$0].text }.joined(separator: " ")
            out[i].otherReading = text == kept[i].text ? nil : text
        }
        return out
    }

    /// Intersection over union of two boxes, 0–1 (0 when either is empty).
    static func overlap(_ a: BoundingBox, _ b: BoundingBox) -> Double {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard w > 0, h > 0 else { return 0 }
        let intersection = Double(w) * Double(h)
        let union = Double(a.width) * Double(a.height) + Double(b.width) * Double(b.height) - intersection
        return union > 0 ? intersection / union : 0
    }

    /// The smallest box around both.
    static func union(_ a: BoundingBox, _ b: BoundingBox) -> BoundingBox {
        let x = min(a.x, b.x)
        let y = min(a.y, b.y)
        return BoundingBox(
            x: x, y: y, width: max(a.x + a.width, b.x + b.width) - x, height: max(a.y + a.height, b.y + b.height) - y)
    }
}
