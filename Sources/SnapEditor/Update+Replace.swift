import SnapText

// The replace loop: "Replace this instance?" at each match, from the cursor to the end, then from
// the top back to where it started (nano's order).

/// Finds the first match from the cursor and asks about it; "not found" when there is none.
func beginReplace(search: String, replacement: String, in state: inout EditorState) {
    let from = state.buffer.offset(of: state.buffer.cursor)
    guard let match = nextMatch(of: search, from: from, skippingCurrent: false, in: &state) else { return }
    let session = ReplaceSession(
        search: search, replacement: replacement, match: match.range, stopOffset: from,
        wrapped: match.wrapped, count: 0, originalCursor: from, caseSensitive: state.search.caseSensitive,
        accentSensitive: state.search.accentSensitive, regularExpression: state.search.regularExpression)
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: match.range.lowerBound))
    state.mode = .confirmReplace(session)
}

/// The answer to "Replace this instance?".
func updateReplace(_ state: inout EditorState, _ session: ReplaceSession, _ answer: Answer?) {
    var session = session
    let rx = session.regularExpression
    let identical =
        !rx && session.caseSensitive && session.accentSensitive
        && session.search.utf8.elementsEqual(session.replacement.utf8)
    let cs = session.caseSensitive
    switch answer {
    case .yes?:
        let match = session.match
        var next = match.upperBound
        if !identical {
            let texts = replacements(for: [match], session, state.buffer)
            try? state.buffer.replace([match], with: texts)
            session.count += 1
            shift(&session, for: [match]) { texts[$0].utf8.count }
            next = match.lowerBound + texts[0].utf8.count
        }
        advance(&state, &session, from: next)
    case .no?:
        advance(&state, &session, from: session.match.lowerBound + 1)
    case .all?:
        var ranges: [Range<Int>] = []
        if session.wrapped {
            ranges =
                (try? state.buffer.matches(
                    of: session.search, startingIn: session.match.lowerBound..<session.stopOffset,
                    caseSensitive: cs, accentSensitive: session.accentSensitive, regularExpression: rx)) ?? []
        } else {
            let end = state.buffer.utf8Count
            let before =
                (try? state.buffer.matches(
                    of: session.search, startingIn: 0..<session.stopOffset,
                    endingBy: session.match.lowerBound, caseSensitive: cs, accentSensitive: session.accentSensitive,
                    regularExpression: rx)) ?? []
            let after =
                (try? state.buffer.matches(
                    of: session.search, startingIn: session.match.lowerBound..<end,
                    caseSensitive: cs, accentSensitive: session.accentSensitive, regularExpression: rx)) ?? []
            ranges = before + after
        }
        if !identical && !ranges.isEmpty {
            if rx {
                let texts = replacements(for: ranges, session, state.buffer)
                try? state.buffer.replace(ranges, with: texts)
                shift(&session, for: ranges) { texts[$0].utf8.count }
            } else {
                let length = session.replacement.utf8.count
                try? state.buffer.replace(ranges, with: session.replacement)
                shift(&session, for: ranges) { _ in length }
            }
            session.count += ranges.count
        }
        finishReplace(&state, session)
    case .cancel?:
        finishReplace(&state, session)
    case .insert?, .below?, nil:
        break
    }
}

/// The text each of `ranges` becomes: the replacement, with a regular expression's groups put in.
private func replacements(for ranges: [Range<Int>], _ session: ReplaceSession, _ buffer: TextBuffer) -> [String] {
    (try? buffer.replacements(
        for: ranges, of: session.search, template: session.replacement, caseSensitive: session.caseSensitive,
        regularExpression: session.regularExpression))
        ?? Array(repeating: session.replacement, count: ranges.count)
}

/// Keeps the loop's stop point and the original cursor on the same text after `ranges` were
/// replaced by texts of `length(i)` bytes (a match's length may differ from the search text's: NFD found by NFC,
/// another case, a regular expression).
private func shift(_ session: inout ReplaceSession, for ranges: [Range<Int>], length: (Int) -> Int) {
    for (i, range) in ranges.enumerated() {
        let delta = length(i) - range.count
        if range.upperBound <= session.stopOffset { session.stopOffset += delta }
        if range.upperBound <= session.originalCursor { session.originalCursor += delta }
    }
}

/// Finds the next match from `offset`: to the end, then from the top up to the starting point.
private func advance(_ state: inout EditorState, _ session: inout ReplaceSession, from offset: Int) {
    let end = state.buffer.utf8Count
    var next: Range<Int>?
    if !session.wrapped {
        next = try? state.buffer.firstMatch(
            of: session.search, startingIn: offset..<end,
            caseSensitive: session.caseSensitive, accentSensitive: session.accentSensitive,
            regularExpression: session.regularExpression)
        if next == nil {
            session.wrapped = true
            next = try? state.buffer.firstMatch(
                of: session.search, startingIn: 0..<session.stopOffset,
                caseSensitive: session.caseSensitive, accentSensitive: session.accentSensitive,
                regularExpression: session.regularExpression)
        }
    } else {
        next = try? state.buffer.firstMatch(
            of: session.search, startingIn: offset..<session.stopOffset,
            caseSensitive: session.caseSensitive, accentSensitive: session.accentSensitive,
            regularExpression: session.regularExpression)
    }
    guard let match = next else {
        finishReplace(&state, session)
        return
    }
    session.match = match
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: match.lowerBound))
    state.mode = .confirmReplace(session)
}

private func finishReplace(_ state: inout EditorState, _ session: ReplaceSession) {
    state.mode = .editing
    state.buffer.moveCursor(to: state.buffer.position(ofOffset: session.originalCursor))
    state.status = StatusMessage("Replaced \(plural(session.count, "occurrence"))")
}
