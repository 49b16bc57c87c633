import SnapDetectors
import SnapText

// The data found in the text (M-F): card numbers, expiry dates, e-mail and web addresses, phone
// numbers, dates; listed with their kind, value and line, to jump to or copy (OSC 52).

/// The open list of data found in the text (M-F).
public struct DataMenu: Equatable, Sendable {
    /// The items, in text order (ranges of the text as it was when the list opened).
    public var items: [Detection]
    /// The highlighted item's index.
    public var selected = 0

    /// A list of `items`, the first highlighted.
    public init(items: [Detection], selected: Int = 0) {
        self.items = items
        self.selected = selected
    }

    /// One item as the list shows it: "card number  4111 1111 1111 1111  Visa  line 3".
    static func line(_ item: Detection) -> String {
        var parts = [item.kind.label, item.text]
        if item.value != item.text && item.kind != .cardNumber { parts.append("→ " + item.value) }
        if let issuer = item.issuer { parts.append(issuer) }
        if item.isNearMiss { parts.append("CHECK") }
        parts.append("line \(item.line)")
        return parts.joined(separator: "  ")
    }
}

/// M-F: lists the data of the text, the first at or after the cursor highlighted.
func openDataMenu(_ state: inout EditorState) {
    let items = Detectors.detect(in: state.buffer.text)
    guard !items.isEmpty else {
        state.status = StatusMessage("No card numbers, dates, addresses or phone numbers in the text")
        return
    }
    let cursor = state.buffer.offset(of: state.buffer.cursor)
    let first = items.firstIndex { $0.range.upperBound > cursor } ?? 0
    state.mode = .data(DataMenu(items: items, selected: first))
}

/// A key in the list of data: arrows move, Enter jumps, M-C copies, Esc closes.
func updateDataMenu(_ state: inout EditorState, _ menu: DataMenu, _ action: DataMenuAction?) -> [EditorEffect] {
    var menu = menu
    let item = menu.items[menu.selected]
    switch action {
    case .up?:
        menu.selected = (menu.selected + menu.items.count - 1) % menu.items.count
    case .down?:
        menu.selected = (menu.selected + 1) % menu.items.count
    case .jump?:
        state.mode = .editing
        state.buffer.moveCursor(to: state.buffer.position(ofOffset: min(item.range.lowerBound, state.buffer.utf8Count)))
        state.status = StatusMessage(item.note ?? "\(item.kind.label): \(item.value)")
        return []
    case .copy?:
        state.mode = .editing
        state.status = StatusMessage("Copied the \(item.kind.label) \(item.value) to the clipboard (OSC 52)")
        return [.copyToClipboard(item.value)]
    case .close?:
        state.mode = .editing
        return []
    case nil:
        return []
    }
    state.mode = .data(menu)
    return []
}

/// M-C: the marked region, else the cursor's line, to the system clipboard (OSC 52).
func copyToClipboard(_ state: inout EditorState) -> [EditorEffect] {
    let range = state.markedRegion ?? lineRange(of: state.buffer)
    let text = state.buffer.text(inUTF8: range)
    state.markAnchor = nil
    let lines = TextBuffer(text: text).writtenLineCount
    state.status = StatusMessage(
        "Copied \(plural(max(1, lines), "line")) (\(plural(text.count, "character"))) to the clipboard (OSC 52)")
    return [.copyToClipboard(text)]
}
