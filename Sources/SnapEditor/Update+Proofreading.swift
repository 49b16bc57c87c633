import SnapText

// Proofreading: the uncertain words OCR marked, reached with M-] / M-[, accepted with M-Y, and
// replaced from the menu of other readings (M-Space). The marks live in the buffer (they follow
// edits and undo); the words' readings live in `state.words`.

extension EditorState {
    /// The marks that still ask for attention (uncertain words not accepted or edited), in text order.
    var uncertainMarks: [TextMark] { buffer.marks.filter(\.isFlagged) }

    /// The mark of the word under the cursor (also just after it), if the text came from OCR.
    var markUnderCursor: TextMark? {
        guard !words.isEmpty else { return nil }
        return buffer.mark(at: buffer.offset(of: buffer.cursor))
    }

    /// The word of `mark`, as OCR read it.
    func word(of mark: TextMark) -> ProofWord? {
        words.indices.contains(mark.id) ? words[mark.id] : nil
    }

    /// What the status line says about the word under the cursor when there is no message:
    /// "conf 43, 2 alternatives, uncertain (not in the dictionary)"; nil when there is no OCR word
    /// there, or it was edited.
    var wordReport: String? {
        guard let mark = markUnderCursor, !mark.isEdited, let word = word(of: mark) else { return nil }
        let count = alternativeEntries(for: mark).filter { $0.source != "as it is" }.count
        var text = "conf \(Int(word.confidence.rounded())), \(plural(count, "alternative"))"
        if mark.isFlagged { text += ", uncertain (\(word.doubts.joined(separator: ", ")))" }
        return text
    }

    /// The readings the menu offers for `mark`'s word: the spelling its line's language needs with
    /// the accents it was read without (``ProofWord/withAccents``), the engine's, then the second
    /// recognizer's (``ProofWord/learnedReading``), then the other preparation's reading of its
    /// place, then the spelling dictionaries', then the word as OCR read it, and
    /// last the text as it is now (first instead, when the first would be a spelling guess over
    /// a likely name: ``isLikelyName(_:)``); each once.
    func alternativeEntries(for mark: TextMark) -> [AlternativesMenu.Entry] {
        guard let word = word(of: mark) else { return [] }
        let current = buffer.text(inUTF8: mark.range)
        var entries: [AlternativesMenu.Entry] = []
        func add(_ text: String, _ source: String) {
            guard text != current, !entries.contains(where: { $0.text == text }) else { return }
            entries.append(.init(text: text, source: source))
        }
        for accented in word.withAccents { add(accented, "accent") }
        for text in word.alternatives { add(text, "engine") }
        if let learned = word.learnedReading { add(learned, "second recognizer") }
        if let other = word.otherReading, !other.isEmpty { add(other, "other preparation") }
        for text in word.suggestions ?? [] { add(text, "spelling") }
        add(word.text, "as read")
        guard !entries.isEmpty else { return [] }
        // A word the engine read confidently that is capitalised or read so elsewhere too (a
        // name: KLABNIK, Lenore) is kept by Enter: a dictionary's guess never comes first there.
        if entries[0].source == "spelling", isLikelyName(word) {
            return [.init(text: current, source: "as it is")] + entries
        }
        return entries + [.init(text: current, source: "as it is")]
    }

    /// Whether `word` reads as a name rather than a misreading: the engine read it confidently,
    /// and it starts with a capital or is read the same way elsewhere in the text.
    func isLikelyName(_ word: ProofWord) -> Bool {
        guard word.isReadConfidently else { return false }
        return word.text.first?.isUppercase == true || words.lazy.filter { $0.text == word.text }.count >= 2
    }
}

/// M-] / M-[: the cursor goes to the start of the next (previous) uncertain word, wrapping.
func moveToUncertain(_ state: inout EditorState, forward: Bool) {
    let marks = state.uncertainMarks
    guard !marks.isEmpty else {
        state.status = StatusMessage("No uncertain words left")
        return
    }
    let cursor = state.buffer.offset(of: state.buffer.cursor)
    let target: TextMark
    var wrapped = false
    if forward {
        if let next = marks.first(where: { $0.range.lowerBound > cursor }) {
            target = next
        } else {
            target = marks[0]
            wrapped = true
        }
    } else {
        let current = state.buffer.mark(at: cursor)
        let before = marks.last { $0.range.lowerBound < cursor && $0.id != current?.id }
        if let before {
            target = before
        } else {
            target = marks[marks.count - 1]
            wrapped = true
        }
    }
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: target.range.lowerBound))
    if wrapped && marks.count > 1 { state.status = StatusMessage("Search Wrapped") }
}

/// M-Y: the uncertain word under the cursor is right as it is; its mark stops asking (one undo step).
func acceptWord(_ state: inout EditorState) {
    guard let mark = state.markUnderCursor, mark.isFlagged else {
        state.status = StatusMessage("No uncertain word under the cursor")
        return
    }
    state.buffer.changeMarks { marks in
        for i in marks.indices where marks[i].id == mark.id { marks[i].isFlagged = false }
    }
    let left = state.uncertainMarks.count
    state.status = StatusMessage(
        "Accepted \"\(state.buffer.text(inUTF8: mark.range))\"; "
            + (left == 0 ? "no uncertain words left" : "\(left) uncertain left"))
}

/// M-Space: opens the menu of other readings of the word under the cursor; for a word no
/// dictionary knows, first asks for spelling suggestions (an effect whose result opens the menu).
func openAlternatives(_ state: inout EditorState) -> [EditorEffect] {
    guard let mark = state.markUnderCursor else {
        state.status = StatusMessage(state.words.isEmpty ? "No OCR words in this text" : "No word under the cursor")
        return []
    }
    if let word = state.word(of: mark), word.isUnknownWord, word.suggestions == nil {
        return [.suggestSpellings(markID: mark.id, word: word.text)]
    }
    let entries = state.alternativeEntries(for: mark)
    guard !entries.isEmpty else {
        state.status = StatusMessage("No other readings of \"\(state.buffer.text(inUTF8: mark.range))\"")
        return []
    }
    state.mode = .alternatives(AlternativesMenu(markID: mark.id, entries: entries))
    return []
}

/// A key in the alternatives menu: arrows move, Enter replaces the word (one undo step), Esc closes.
@discardableResult
func updateAlternatives(_ state: inout EditorState, _ menu: AlternativesMenu, _ action: MenuAction?) -> [EditorEffect] {
    var menu = menu
    switch action {
    case .up?:
        menu.selected = (menu.selected + menu.entries.count - 1) % menu.entries.count
        state.mode = .alternatives(menu)
    case .down?:
        menu.selected = (menu.selected + 1) % menu.entries.count
        state.mode = .alternatives(menu)
    case .choose?:
        state.mode = .editing
        guard let mark = state.buffer.marks.first(where: { $0.id == menu.markID }) else { return [] }
        let entry = menu.entries[menu.selected]
        let current = state.buffer.text(inUTF8: mark.range)
        guard entry.text != current else { return [] }
        state.buffer.closeUndoGroup()
        try? state.buffer.replace([mark.range], with: entry.text)
        state.buffer.moveCursor(to: state.buffer.position(ofOffset: mark.range.lowerBound))
        state.status = StatusMessage("Replaced \"\(current)\" with \"\(entry.text)\"")
        return offerSeries(&state, corrected: mark.id, from: current, to: entry.text)
    case .cancel?:
        state.mode = .editing
    case nil:
        break
    }
    return []
}

// MARK: - Error series

/// After the word of mark `id` was corrected from `from` to `to` (from the menu, or by typing):
/// the other words still read as `from` (marks not edited since OCR), then the other uncertain
/// words that no spelling dictionary knows and that hold the same character confusion (see
/// ``confusion(from:to:)``; a real word such as "blush" is not offered "biush"), each only when
/// the confusion makes it a word the dictionaries know ("CUERVO" is not offered "CUFRVO" after
/// "EN" → "FN": a confusion that makes non-words is no misreading there), are asked about one by
/// one ("Correct "tnue," to "tune," here too?"). The word is not asked about again for this
/// correction. The dictionaries are asked through an effect (``EditorEffect/checkSeries(_:confused:)``).
@discardableResult
func offerSeries(_ state: inout EditorState, corrected id: Int, from: String, to: String) -> [EditorEffect] {
    state.proofreading.seriesOffered[id] = to
    let unedited = state.buffer.marks.filter { !$0.isEdited && $0.id != id }.sorted {
        $0.range.lowerBound < $1.range.lowerBound
    }
    var candidates: [SeriesCorrection.Candidate] = []
    var confused: [SeriesCorrection.Candidate] = []
    let confusion = confusion(from: from, to: to)
    for mark in unedited {
        let text = state.buffer.text(inUTF8: mark.range)
        if text == from {
            candidates.append(.init(markID: mark.id, text: text, replacement: to))
        } else if let confusion, mark.isFlagged, let word = state.word(of: mark), word.isUncertain,
            word.isUnknownWord, text.contains(confusion.from)
        {
            confused.append(
                .init(markID: mark.id, text: text, replacement: text.replacing(confusion.from, with: confusion.to)))
        }
    }
    let series = SeriesCorrection(from: from, to: to, pending: candidates)
    guard confused.isEmpty else { return [.checkSeries(series, confused: confused)] }
    startSeries(&state, series, adding: [])
    return []
}

/// Asks about `series`'s words, then `confused` (those the dictionaries know the replacement
/// of), one by one; nothing when there are none (the state is left as it is).
func startSeries(_ state: inout EditorState, _ series: SeriesCorrection, adding confused: [SeriesCorrection.Candidate])
{
    var series = series
    series.pending += confused
    guard !series.pending.isEmpty, state.mode == .editing else { return }
    state.mode = .confirmSeries(series)
    moveToSeriesWord(&state)
}

/// The character confusion a correction shows: `from` and `to` without their common beginning
/// and end ("rnore" → "more" gives "rn" → "m", "cIear" → "clear" gives "I" → "l"); nil when
/// either side is empty or longer than 3 characters, or when the words differ in more than one
/// place (the two middles share a character: "ete" → "été", "tnue" → "tune"). Characters are
/// Swift `Character`s (extended grapheme clusters, canonically equivalent ones equal).
func confusion(from: String, to: String) -> (from: String, to: String)? {
    let a = Array(from)
    let b = Array(to)
    var prefix = 0
    while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix && suffix < b.count - prefix
        && a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
    {
        suffix += 1
    }
    let wrong = a[prefix..<(a.count - suffix)]
    let right = b[prefix..<(b.count - suffix)]
    guard (1...3).contains(wrong.count), (1...3).contains(right.count),
        !wrong.contains(where: { right.contains($0) })
    else { return nil }
    return (String(wrong), String(right))
}

/// When the cursor has left the word it was in after the last key, and the user had corrected
/// that word by typing (`typed`: the key, handled in the text, changed it; its mark is edited, its
/// text no longer OCR's reading) and was not yet asked about this correction: offers the
/// correction's error series. Only in the text (an open prompt or question wins; the cursor is
/// looked at again when it closes), so never in the middle of a word being typed.
@discardableResult
func offerSeriesOnLeavingWord(_ state: inout EditorState, typed: Bool) -> [EditorEffect] {
    guard state.mode == .editing, !state.isRecognizing, !state.words.isEmpty else { return [] }
    let here = state.markUnderCursor
    if typed, let here, here.isEdited { state.proofreading.typedMarkID = here.id }
    defer { state.proofreading.cursorMarkID = state.markUnderCursor?.id }
    guard let left = state.proofreading.cursorMarkID, left != here?.id, left == state.proofreading.typedMarkID else {
        return []
    }
    state.proofreading.typedMarkID = nil
    guard let mark = state.buffer.marks.first(where: { $0.id == left }), mark.isEdited,
        let word = state.word(of: mark)
    else { return [] }
    let text = state.typedWord(around: mark)
    guard text != word.text, state.proofreading.seriesOffered[left] != text else { return [] }
    return offerSeries(&state, corrected: left, from: word.text, to: text)
}

extension EditorState {
    /// The word `mark`'s text is now part of: its text with the non-blank characters typed right
    /// against it on its line ("m" typed before "ore" after "rn" was deleted from "rnore" is not
    /// in the mark, which grows only at its end, but is in the word).
    func typedWord(around mark: TextMark) -> String {
        let lineStart = buffer.startOffset(ofLine: buffer.line(containing: mark.range.lowerBound))
        let lineEnd = buffer.endOffset(ofLine: buffer.line(containing: mark.range.upperBound))
        let before = buffer.text(inUTF8: lineStart..<mark.range.lowerBound)
        let after = buffer.text(inUTF8: mark.range.upperBound..<max(lineEnd, mark.range.upperBound))
        let head = String(before.reversed().prefix { !$0.isWhitespace }.reversed())
        let tail = String(after.prefix { !$0.isWhitespace })
        return head + buffer.text(inUTF8: mark.range) + tail
    }
}

private func moveToSeriesWord(_ state: inout EditorState) {
    guard case .confirmSeries(let series) = state.mode, let id = series.pending.first?.markID,
        let mark = state.buffer.marks.first(where: { $0.id == id })
    else { return }
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: mark.range.lowerBound))
}

/// The answer to "Correct this one too?": Y and N go on to the next word, A takes it and every
/// further one of its kind (read as the wrong reading, or holding the confusion: the other kind
/// is still asked about one by one), ^C stops; the words said yes to are then replaced together
/// (one undo step).
func updateSeries(_ state: inout EditorState, _ series: SeriesCorrection, _ answer: Answer?) {
    var series = series
    switch answer {
    case .yes?: series.accepted.append(series.pending.removeFirst())
    case .no?: series.pending.removeFirst()
    case .all?:
        // All of the current word's kind: the words read as the wrong reading, or the words
        // holding the confusion; a word of the other kind is still asked about one by one.
        let identical = series.pending[0].text == series.from
        let taken = series.pending.filter { ($0.text == series.from) == identical }
        series.accepted += taken
        series.pending.removeAll { ($0.text == series.from) == identical }
    case .cancel?: series.pending = []
    case .insert?, .below?, nil: return
    }
    if !series.pending.isEmpty {
        state.mode = .confirmSeries(series)
        moveToSeriesWord(&state)
        return
    }
    state.mode = .editing
    // Each word said yes to, if it still reads as it did when asked about.
    let changes = series.accepted.compactMap {
        candidate -> (range: Range<Int>, candidate: SeriesCorrection.Candidate)? in
        guard let mark = state.buffer.marks.first(where: { $0.id == candidate.markID }),
            state.buffer.text(inUTF8: mark.range) == candidate.text
        else { return nil }
        return (mark.range, candidate)
    }.sorted { $0.range.lowerBound < $1.range.lowerBound }
    guard !changes.isEmpty else {
        state.status = StatusMessage("Corrected 1 occurrence")
        return
    }
    state.buffer.closeUndoGroup()
    try? state.buffer.replace(changes.map(\.range), with: changes.map(\.candidate.replacement))
    for change in changes { state.proofreading.seriesOffered[change.candidate.markID] = change.candidate.replacement }
    let count = changes.count + 1
    if let confusion = confusion(from: series.from, to: series.to),
        changes.contains(where: { $0.candidate.text != series.from })
    {
        state.status = StatusMessage(
            "Corrected \(plural(count, "word")) (\"\(confusion.from)\" read for \"\(confusion.to)\")")
    } else {
        state.status = StatusMessage("Corrected \(plural(count, "occurrence")) of \"\(series.from)\"")
    }
}
