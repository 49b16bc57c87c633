// Grapheme work on lines, done only where it is needed: walks that start from a boundary whose
// column is known (the line start, the cursor, the character before it) and go forward a window
// of bytes at a time.

/// A character boundary of a line with its column (grapheme clusters from the line start) and
/// its screen column; a walk may start from it.
struct Anchor: Equatable, Sendable {
    var offset: Int
    var line: Int
    var column: Int
    var displayColumn: Int
}

/// The cursor as the buffer keeps it: its boundary, and the start of the character before it on
/// its line (nil at a line start), so that typing, deleting and moving by a character never walk
/// the line from its start.
struct Caret: Equatable, Sendable {
    var at = Anchor(offset: 0, line: 0, column: 0, displayColumn: 0)
    var previous: Anchor?
}

/// Where a forward walk stops.
enum WalkTarget {
    /// At the first boundary at or after this UTF-8 offset.
    case offset(Int)
    /// At this column (grapheme index), or the line's end.
    case column(Int)
    /// At the last boundary whose screen column is at most this one.
    case displayColumn(Int)
    /// At the line's end.
    case lineEnd
}

/// Grapheme breaks that hold whatever surrounds them (Unicode UAX #29): around a control
/// character (GB4, GB5; not inside CR LF, GB3) and between two ASCII characters (GB999: no
/// rule joins them). Windows of text are cut there, so that Swift's own grapheme breaking of each
/// window is the text's.
enum Breaks {
    @inline(__always) static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    /// Whether a grapheme break certainly lies between the bytes `previous` and `next`.
    @inline(__always) static func isCertain(_ previous: UInt8, _ next: UInt8) -> Bool {
        if previous == 0x0D && next == 0x0A { return false }
        if isControl(previous) || isControl(next) { return true }
        return previous < 0x80 && next < 0x80
    }
}

/// One character of a window: a single ASCII byte, or a cluster decoded from the bytes.
enum Segment {
    case byte(UInt8)
    case cluster(Character, length: Int)
}

/// The characters of a window of bytes that starts at a character boundary and ends at a certain
/// break: ASCII bytes one by one, and each other stretch up to the next certain break decoded
/// and broken into grapheme clusters by Swift.
struct Segmenter {
    private let bytes: [UInt8]
    private var index = 0
    private var stretch: String.Iterator?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> Segment? {
        if stretch != nil {
            if let c = stretch?.next() { return .cluster(c, length: c.utf8.count) }
            stretch = nil
        }
        guard index < bytes.count else { return nil }
        let b = bytes[index]
        let count = bytes.count
        if b < 0x80 {
            // An ASCII character is alone unless what follows joins it (CR LF, a mark, ZWJ).
            if index + 1 == count {
                index += 1
                return .byte(b)
            }
            let n = bytes[index + 1]
            if n < 0x80 ? !(b == 0x0D && n == 0x0A) : !Breaks.isControl(b) && !joins(at: index + 1) {
                index += 1
                return .byte(b)
            }
        } else if let (s, length) = scalar(at: index), ScalarTable.flags(s) & ScalarTable.known != 0,
            ScalarTable.flags(s) & ScalarTable.joinsFollowing == 0
        {
            // A scalar of the table that joins nothing after it, followed by ASCII or by a scalar
            // of the table that joins nothing before it, is a character of its own.
            let after = index + length
            if after == count || bytes[after] < 0x80 || !joins(at: after) {
                index = after
                return .cluster(Character(Unicode.Scalar(s)!), length: length)
            }
        }
        var end = index + 1
        while end < bytes.count && !Breaks.isCertain(bytes[end - 1], bytes[end]) { end += 1 }
        let string = bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[index..<end]), as: UTF8.self)
        }
        index = end
        stretch = string.makeIterator()
        if let c = stretch?.next() { return .cluster(c, length: c.utf8.count) }
        return next()
    }

    /// Skips up to `limit` printable ASCII characters that stand alone (each followed by ASCII),
    /// one screen column each; returns how many. Nothing is skipped inside a decoded stretch.
    mutating func skipPrintableASCII(limit: Int) -> Int {
        guard stretch == nil else { return 0 }
        let end = min(bytes.count - 1, index + limit)  // the last byte is kept: what follows it is unknown
        var i = index
        while i < end {
            let b = bytes[i]
            guard b >= 0x20 && b < 0x7F && bytes[i + 1] < 0x80 else { break }
            i += 1
        }
        defer { index = i }
        return i - index
    }

    /// The scalar starting at `i` (1 to 3 bytes; nil for 4 or for a continuation byte) and its length.
    @inline(__always) private func scalar(at i: Int) -> (UInt32, Int)? {
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 >= 0xC2 && b0 < 0xE0 && i + 1 < bytes.count {
            return ((b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2)
        }
        if b0 >= 0xE0 && b0 < 0xF0 && i + 2 < bytes.count {
            return ((b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        return nil
    }

    /// Whether the scalar at `i` may join the character before it: anything not known to the
    /// table, or a mark or ZWJ.
    @inline(__always) private func joins(at i: Int) -> Bool {
        guard let (s, _) = scalar(at: i) else { return true }
        let flags = ScalarTable.flags(s)
        return flags & ScalarTable.known == 0 || flags & ScalarTable.joinsPreceding != 0
    }

    /// The screen columns of a single-byte character at screen column `column`.
    @inline(__always) static func width(ofByte byte: UInt8, atColumn column: Int) -> Int {
        if byte == 0x09 { return DisplayWidth.tabSize - column % DisplayWidth.tabSize }
        return Breaks.isControl(byte) ? 2 : 1
    }
}

extension TextBuffer {
    /// Bytes a walk reads at a time.
    static let windowBytes = 4096

    func lineStartAnchor(_ line: Int) -> Anchor {
        Anchor(offset: startOffset(ofLine: line), line: line, column: 0, displayColumn: 0)
    }

    /// Walks line `from.at.line` forward from `from` (a boundary) to `target`, never past
    /// `lineEnd`; returns the boundary reached and the start of the character before it.
    func advance(_ from: Caret, lineEnd: Int, until target: WalkTarget) -> Caret {
        var at = from.at
        var previous = from.previous
        func done(_ width: Int?) -> Bool {
            switch target {
            case .offset(let x): return at.offset >= x
            case .column(let k): return at.column >= k
            case .displayColumn(let d): return width.map { at.displayColumn + $0 > d } ?? false
            case .lineEnd: return false
            }
        }
        while at.offset < lineEnd && !done(nil) {
            let windowEnd = content.certainBreak(atOrAfter: min(lineEnd, at.offset + Self.windowBytes), limit: lineEnd)
            var segments = Segmenter(content.bytes(in: at.offset..<windowEnd))
            while true {
                // Runs of plain ASCII go at once: a character and a column each.
                let room: Int
                switch target {
                case .offset(let x): room = x - at.offset
                case .column(let k): room = k - at.column
                case .displayColumn(let d): room = d - at.displayColumn
                case .lineEnd: room = Int.max / 2
                }
                if room > 1 {
                    let n = segments.skipPrintableASCII(limit: room - 1)
                    if n > 0 {
                        at.offset += n - 1
                        at.column += n - 1
                        at.displayColumn += n - 1
                        previous = at
                        at.offset += 1
                        at.column += 1
                        at.displayColumn += 1
                    }
                }
                guard let segment = segments.next() else { break }
                let length: Int
                let width: Int
                switch segment {
                case .byte(let b):
                    length = 1
                    width = Segmenter.width(ofByte: b, atColumn: at.displayColumn)
                case .cluster(let c, let n):
                    length = n
                    width = DisplayWidth.of(c, atColumn: at.displayColumn)
                }
                if done(width) { return Caret(at: at, previous: previous) }
                previous = at
                at.offset += length
                at.column += 1
                at.displayColumn += width
            }
        }
        return Caret(at: at, previous: previous)
    }

    /// A boundary before `offset` on its line (or the line start itself), with its columns: a walk
    /// to any offset at or after `offset` may start from it, even after an edit at `offset` (the
    /// text before an edit, and so its breaks and columns, stays as it was).
    func anchor(before offset: Int) -> Anchor {
        let line = content.line(containing: offset)
        let start = lineStartAnchor(line)
        guard offset > start.offset, caret.at.line == line else { return start }
        if caret.at.offset < offset { return caret.at }
        if caret.at.offset == offset { return caret.previous ?? start }
        return anchor(before: offset, knowing: caret.at, lineStart: start.offset)
    }

    /// A boundary before `offset` (or the line start) whose columns follow from `reference`'s, a
    /// boundary after it on the same line: a certain break a few bytes back, whose columns are
    /// those of `reference` minus what lies between. Screen columns after a TAB depend on where
    /// it starts, so when a TAB lies between, the walk starts just after an earlier TAB (a tab
    /// stop: later columns are then its own plus what follows it) or at the line start.
    func anchor(before offset: Int, knowing reference: Anchor, lineStart: Int) -> Anchor {
        var from = content.certainBreak(before: offset, lineStart: lineStart)
        if from > lineStart && content.contains(0x09, in: from..<reference.offset) {
            from = content.lastIndex(of: 0x09, in: lineStart..<from).map { $0 + 1 } ?? lineStart
        }
        if from == lineStart { return Anchor(offset: lineStart, line: reference.line, column: 0, displayColumn: 0) }
        let start = Caret(at: Anchor(offset: from, line: reference.line, column: 0, displayColumn: 0))
        let walked = advance(start, lineEnd: reference.offset, until: .lineEnd).at
        return Anchor(
            offset: from, line: reference.line, column: reference.column - walked.column,
            displayColumn: reference.displayColumn - walked.displayColumn)
    }

    /// The caret at UTF-8 `offset` (rounded up to a character boundary), walked from the nearest
    /// boundary known before it.
    func caret(atOffset offset: Int) -> Caret {
        let offset = min(max(0, offset), content.utf8Count)
        let start = anchor(before: offset)
        return advance(Caret(at: start), lineEnd: endOffset(ofLine: start.line), until: .offset(offset))
    }

    /// The caret at UTF-8 `offset` of a changed text, walked from `base` (a boundary known in the
    /// text before the change, before its first changed byte) when it lies on the same line before
    /// `offset`, else from the line start.
    func caret(atOffset offset: Int, from base: Anchor?) -> Caret {
        let offset = min(max(0, offset), content.utf8Count)
        let line = content.line(containing: offset)
        let start = base.flatMap { $0.line == line && $0.offset <= offset ? $0 : nil } ?? lineStartAnchor(line)
        return advance(Caret(at: start), lineEnd: endOffset(ofLine: line), until: .offset(offset))
    }

    /// The caret at `position` (clamped into the text).
    func caret(at position: TextPosition) -> Caret {
        let line = min(max(position.line, 0), lineCount - 1)
        let column = max(0, position.column)
        if line == caret.at.line && column == caret.at.column { return caret }
        let start = line == caret.at.line && column > caret.at.column ? caret : Caret(at: lineStartAnchor(line))
        return advance(start, lineEnd: endOffset(ofLine: line), until: .column(column))
    }

    // MARK: - Drawing a line

    /// The characters of line `index` the screen shows between screen columns `columns` (of the
    /// line, 0-based: those that end after its start and begin before its end), and whether the
    /// line goes on past `columns.upperBound`.
    ///
    /// Only those characters are walked: on the cursor's line from a boundary found a little
    /// before `columns.lowerBound` (near the cursor), elsewhere from the line start.
    public func glyphs(inLine index: Int, displayColumns columns: Range<Int>) -> (glyphs: [LineGlyph], continues: Bool)
    {
        let line = min(max(index, 0), lineCount - 1)
        let lineEnd = endOffset(ofLine: line)
        var start = lineStartAnchor(line)
        if line == caret.at.line && columns.lowerBound > 0 && caret.at.offset > start.offset {
            var distance = 4 * max(0, caret.at.displayColumn - columns.lowerBound) + 16
            while true {
                let back = anchor(
                    before: max(start.offset, caret.at.offset - distance) + 1, knowing: caret.at,
                    lineStart: start.offset)
                if back.displayColumn <= columns.lowerBound || back.offset == start.offset {
                    start = back
                    break
                }
                distance *= 4
            }
        }
        var result: [LineGlyph] = []
        var at = start
        while at.offset < lineEnd {
            let windowEnd = content.certainBreak(atOrAfter: min(lineEnd, at.offset + 512), limit: lineEnd)
            var segments = Segmenter(content.bytes(in: at.offset..<windowEnd))
            while let segment = segments.next() {
                let character: Character
                let length: Int
                let width: Int
                switch segment {
                case .byte(let b):
                    character = Character(Unicode.Scalar(b))
                    length = 1
                    width = Segmenter.width(ofByte: b, atColumn: at.displayColumn)
                case .cluster(let c, let n):
                    character = c
                    length = n
                    width = DisplayWidth.of(c, atColumn: at.displayColumn)
                }
                if at.displayColumn >= columns.upperBound { return (result, true) }
                if at.displayColumn + width > columns.lowerBound {
                    result.append(
                        LineGlyph(
                            character: character, offset: at.offset, length: length,
                            displayColumn: at.displayColumn, width: width))
                }
                at.offset += length
                at.column += 1
                at.displayColumn += width
            }
        }
        return (result, at.displayColumn > columns.upperBound)
    }

    /// The characters of line `line` from boundary `offset` on, with their offsets, a window at a
    /// time, until `body` returns false.
    func forEachCharacter(inLine line: Int, from offset: Int, _ body: (Character, Int) -> Bool) {
        let lineEnd = endOffset(ofLine: line)
        var at = offset
        while at < lineEnd {
            let windowEnd = content.certainBreak(atOrAfter: min(lineEnd, at + 512), limit: lineEnd)
            var segments = Segmenter(content.bytes(in: at..<windowEnd))
            while let segment = segments.next() {
                switch segment {
                case .byte(let b):
                    if !body(Character(Unicode.Scalar(b)), at) { return }
                    at += 1
                case .cluster(let c, let n):
                    if !body(c, at) { return }
                    at += n
                }
            }
        }
    }

    /// The characters of line `line` before boundary `offset`, last first, with their offsets,
    /// a window at a time, until `body` returns false.
    func forEachCharacterBackward(inLine line: Int, before offset: Int, _ body: (Character, Int) -> Bool) {
        let lineStart = startOffset(ofLine: line)
        var end = offset
        while end > lineStart {
            let from = content.certainBreak(before: max(lineStart, end - 256) + 1, lineStart: lineStart)
            var window: [(Character, Int)] = []
            var at = from
            var segments = Segmenter(content.bytes(in: from..<end))
            while let segment = segments.next() {
                switch segment {
                case .byte(let b):
                    window.append((Character(Unicode.Scalar(b)), at))
                    at += 1
                case .cluster(let c, let n):
                    window.append((c, at))
                    at += n
                }
            }
            for (c, o) in window.reversed() where !body(c, o) { return }
            end = from
        }
    }
}

extension TextBuffer {
    /// What M-D counts in the text of `range` (UTF-8 offsets, clamped), read a window at a time:
    /// words (runs of characters that are not white space, as `wc -w`), lines (as
    /// ``writtenLineCount`` counts them), characters (grapheme clusters of the range's text, a
    /// line break counting one), and how many of those characters are a CR LF.
    public func counts(inUTF8 range: Range<Int>) -> (words: Int, lines: Int, characters: Int, crlf: Int) {
        let range = Self.clamp(range, utf8Count)
        guard !range.isEmpty else { return (0, 0, 0, 0) }
        var words = 0
        var characters = 0
        var crlf = 0
        var inWord = false
        var at = range.lowerBound
        while at < range.upperBound {
            let windowEnd = content.certainBreak(
                atOrAfter: min(range.upperBound, at + Self.windowBytes * 16), limit: range.upperBound)
            var segments = Segmenter(content.bytes(in: at..<windowEnd))
            while let segment = segments.next() {
                let space: Bool
                switch segment {
                case .byte(let b): space = b == 0x20 || (b >= 0x09 && b <= 0x0D)
                case .cluster(let c, _):
                    space = c.isWhitespace
                    if c == "\r\n" { crlf += 1 }
                }
                if !space && !inWord { words += 1 }
                inWord = !space
                characters += 1
            }
            at = windowEnd
        }
        let newlines = content.line(containing: range.upperBound) - content.line(containing: range.lowerBound)
        let endsWithNewline = content.byte(at: range.upperBound - 1) == 0x0A
        return (words, newlines + (endsWithNewline ? 0 : 1), characters, crlf)
    }
}

/// A character of a line as the screen shows it (``TextBuffer/glyphs(inLine:displayColumns:)``).
public struct LineGlyph: Equatable, Sendable {
    /// The character (grapheme cluster).
    public var character: Character
    /// UTF-8 offset of its first byte in the text.
    public var offset: Int
    /// Its length in UTF-8 bytes.
    public var length: Int
    /// The screen column it starts at, from the line's start (0-based).
    public var displayColumn: Int
    /// The screen columns it takes there (``DisplayWidth/of(_:atColumn:)``).
    public var width: Int

    /// Creates a glyph.
    public init(character: Character, offset: Int, length: Int, displayColumn: Int, width: Int) {
        self.character = character
        self.offset = offset
        self.length = length
        self.displayColumn = displayColumn
        self.width = width
    }
}

extension Rope {
    /// The first offset at or after `offset` (up to `limit`, where a window may always end) with a
    /// certain grapheme break.
    func certainBreak(atOrAfter offset: Int, limit: Int) -> Int {
        guard offset > 0 else { return 0 }
        var from = offset
        var span = 64
        while from < limit {
            let to = min(limit, from + span)
            let bytes = bytes(in: (from - 1)..<(to + 1))
            // bytes[i] is the byte at from - 1 + i; a break at q needs the bytes at q - 1 and q.
            for q in from..<to where Breaks.isCertain(bytes[q - from], bytes[q - from + 1]) { return q }
            from = to
            span *= 4
        }
        return limit
    }

    /// The last offset before `offset` (down to `lineStart`, always a break) with a certain
    /// grapheme break.
    func certainBreak(before offset: Int, lineStart: Int) -> Int {
        var to = offset
        var span = 64
        while to > lineStart + 1 {
            let from = max(lineStart + 1, to - span)
            let bytes = bytes(in: (from - 1)..<to)
            for q in stride(from: to - 1, through: from, by: -1)
            where Breaks.isCertain(bytes[q - from], bytes[q - from + 1]) {
                return q
            }
            to = from
            span *= 4
        }
        return lineStart
    }
}
