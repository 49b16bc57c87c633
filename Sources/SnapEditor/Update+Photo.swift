import SnapTerminal
import SnapText

// The photo view (M-P): the photo with the words' boxes, the word under the cursor highlighted,
// the text below it; the text's moving keys move the cursor, and so the highlight. Enter frames a
// region (or the mouse drags one), which is read on its own and inserted at the cursor.

/// Where the photo view puts the photo and the text, inside the editor's text rows.
struct PhotoLayout: Equatable {
    /// The rows of the photo area.
    var photoRows: Range<Int>
    /// The rows of the text below it.
    var textRows: Range<Int>

    /// The smallest terminal the photo view works in.
    static let minimumColumns = 20, minimumTextRows = 8

    /// The split of `textRows` at `columns`: a quarter of the rows (2 to 8) for the text, the
    /// rest for the photo; nil when the terminal is too small for the photo.
    init?(textRows: Range<Int>, columns: Int) {
        guard columns >= Self.minimumColumns, textRows.count >= Self.minimumTextRows else { return nil }
        let text = min(8, max(2, textRows.count / 4))
        photoRows = textRows.lowerBound..<(textRows.upperBound - text)
        self.textRows = (textRows.upperBound - text)..<textRows.upperBound
    }
}

extension EditorState {
    /// The photo view's layout at ``screenSize``, nil when the terminal is too small.
    var photoLayout: PhotoLayout? {
        PhotoLayout(textRows: layout.textRows, columns: screenSize.columns)
    }

    /// The photo of the word under the cursor, else the first.
    var currentPhoto: Int? {
        guard !photos.isEmpty else { return nil }
        if let mark = markUnderCursor, let word = word(of: mark), photos.indices.contains(word.photo) {
            return word.photo
        }
        return 0
    }

    /// What the photo view must show now: the photo, its area, every word's box (the current
    /// word's and the framed region last); nil when the view is not open or has no room.
    var photoRequest: PhotoRequest? {
        guard case .photo(let view) = mode, photos.indices.contains(view.photo), let layout = photoLayout else {
            return nil
        }
        let current = markUnderCursor?.id
        var marks: [PhotoMark] = []
        var highlighted: [PhotoMark] = []
        for mark in buffer.marks {
            guard let word = word(of: mark), word.photo == view.photo, word.box.width > 0, word.box.height > 0 else {
                continue
            }
            if mark.id == current {
                highlighted.append(PhotoMark(word.box, .current))
            } else {
                marks.append(PhotoMark(word.box, mark.isFlagged ? .uncertain : .word))
            }
        }
        if let region = view.region { highlighted.append(PhotoMark(region, .region)) }
        return PhotoRequest(
            photo: photos[view.photo], columns: screenSize.columns, rows: layout.photoRows.count,
            marks: marks + highlighted)
    }

    /// The status line of the photo view: the word under the cursor (text, confidence, box) or
    /// the region being framed.
    var photoReport: String {
        if case .photo(let view) = mode, let r = view.region {
            return "Region \(r.x),\(r.y),\(r.width),\(r.height) px: Enter reads it"
        }
        guard let mark = markUnderCursor, let word = word(of: mark) else {
            return "No recognized word under the cursor"
        }
        let b = word.box
        return "\"\(word.text)\" conf \(Int(word.confidence.rounded())) at \(b.x),\(b.y) \(b.width)×\(b.height) px"
            + (mark.isFlagged ? ", uncertain" : "")
    }
}

/// M-P: opens the photo view on the photo of the word under the cursor.
func openPhotoView(_ state: inout EditorState) -> [EditorEffect] {
    guard let photo = state.currentPhoto else {
        state.status = StatusMessage("No photo: this text was not read from one")
        return []
    }
    state.mode = .photo(PhotoView(photo: photo))
    return []
}

/// The text's commands that only move the cursor: they work in the photo view too.
private let movingCommands: Set<Command> = [
    .moveUp, .moveDown, .moveLeft, .moveRight, .previousWord, .nextWord, .lineStart, .lineEnd, .pageUp, .pageDown,
    .firstLine, .lastLine, .nextUncertain, .previousUncertain, .location, .refresh,
]

/// A key in the photo view.
func updatePhoto(_ state: inout EditorState, _ view: PhotoView, _ key: KeyEvent, keymap: Keymap) -> [EditorEffect] {
    state.status = nil
    if case .mouse(let mouse) = key { return updatePhotoMouse(&state, view, mouse) }
    if view.region != nil { return updateFraming(&state, view, keymap.framingAction(for: key)) }
    switch keymap.photoAction(for: key) {
    case .close?:
        state.mode = .editing
        return []
    case .frame?:
        var view = view
        view.region = startingRegion(state, view)
        state.mode = .photo(view)
        return []
    case nil:
        break
    }
    guard let command = keymap.command(for: key), movingCommands.contains(command) else {
        state.status = StatusMessage("Esc returns to the text to edit it")
        return []
    }
    var effects = perform(command, on: &state, afterCut: false)
    // The photo follows the word under the cursor (a text made of two photos).
    if let photo = state.currentPhoto, photo != view.photo, case .photo(var shown) = state.mode {
        shown.photo = photo
        state.mode = .photo(shown)
    }
    effects.removeAll { $0 != .redrawScreen }
    return effects
}

/// The region Enter starts from: the current word's whole line, with a margin; else the middle
/// of the photo.
private func startingRegion(_ state: EditorState, _ view: PhotoView) -> WordBox {
    let (width, height) = photoSize(state)
    if let mark = state.markUnderCursor, let word = state.word(of: mark), word.photo == view.photo {
        let line = state.words.filter { $0.photo == view.photo && $0.line == word.line && $0.box.width > 0 }
        let left = line.map(\.box.x).min() ?? word.box.x
        let top = line.map(\.box.y).min() ?? word.box.y
        let right = line.map { $0.box.x + $0.box.width }.max() ?? word.box.x + word.box.width
        let bottom = line.map { $0.box.y + $0.box.height }.max() ?? word.box.y + word.box.height
        let margin = max(2, (bottom - top) / 3)
        return clamp(
            WordBox(
                x: left - margin, y: top - margin, width: right - left + 2 * margin, height: bottom - top + 2 * margin),
            width: width, height: height)
    }
    return WordBox(x: width / 4, y: height * 2 / 5, width: max(1, width / 2), height: max(1, height / 5))
}

/// The upright photo's size as the last drawing knew it (a large guess before any).
private func photoSize(_ state: EditorState) -> (Int, Int) {
    guard let r = state.photoRendering else { return (1 << 20, 1 << 20) }
    return (r.photoWidth, r.photoHeight)
}

private func clamp(_ box: WordBox, width: Int, height: Int) -> WordBox {
    let x = min(max(0, box.x), max(0, width - 1))
    let y = min(max(0, box.y), max(0, height - 1))
    return WordBox(
        x: x, y: y, width: max(1, min(box.width - (x - box.x), width - x)),
        height: max(1, min(box.height - (y - box.y), height - y)))
}

/// A key while a region is framed: arrows move it by a cell, Shift/M-arrows resize it, Enter
/// reads it, Esc stops.
private func updateFraming(_ state: inout EditorState, _ view: PhotoView, _ action: FramingAction?) -> [EditorEffect] {
    guard var region = view.region else { return [] }
    var view = view
    let step =
        state.photoRendering.map { r -> (Int, Int) in
            let (x, y) = r.pixelsPerCell
            return (max(1, Int(x.rounded())), max(1, Int(y.rounded())))
        } ?? (8, 16)
    switch action {
    case .read? where state.isReadOnly:
        state.status = StatusMessage("Key is invalid in view mode")
        return []
    case .read?:
        state.mode = .editing
        return [.readRegion(photo: state.photos[view.photo], index: view.photo, region: region)]
    case .cancel?:
        view.region = nil
        state.mode = .photo(view)
        return []
    case .moveLeft?: region.x -= step.0
    case .moveRight?: region.x += step.0
    case .moveUp?: region.y -= step.1
    case .moveDown?: region.y += step.1
    case .wider?: region.width += step.0
    case .narrower?: region.width = max(step.0, region.width - step.0)
    case .taller?: region.height += step.1
    case .shorter?: region.height = max(step.1, region.height - step.1)
    case nil:
        state.status = StatusMessage("Arrows move the region, Shift/M-arrows resize it, Enter reads it, Esc stops")
        return []
    }
    let (width, height) = photoSize(state)
    region.x = min(max(0, region.x), max(0, width - region.width))
    region.y = min(max(0, region.y), max(0, height - region.height))
    view.region = clamp(region, width: width, height: height)
    state.mode = .photo(view)
    return []
}

/// The mouse in the photo view: a press on the photo starts a region, a drag stretches it, the
/// release leaves it framed (Enter reads it).
private func updatePhotoMouse(_ state: inout EditorState, _ view: PhotoView, _ mouse: MouseEvent) -> [EditorEffect] {
    guard mouse.button == 0, let rendering = state.photoRendering, let layout = state.photoLayout else { return [] }
    var view = view
    let row = mouse.row - layout.photoRows.lowerBound
    let inside =
        row >= rendering.row && row < rendering.row + rendering.picture.rows && mouse.column >= rendering.column
        && mouse.column < rendering.column + rendering.picture.columns
    let point = rendering.photoPoint(column: mouse.column, row: row)
    let (cw, ch) = rendering.pixelsPerCell
    switch mouse.action {
    case .press:
        guard inside else { return [] }
        view.dragStart = point
        view.region = WordBox(x: point.x, y: point.y, width: max(1, Int(cw)), height: max(1, Int(ch)))
    case .drag, .release:
        guard let start = view.dragStart else { return [] }
        let end = rendering.photoPoint(column: mouse.column + 1, row: row + 1)
        let box = WordBox(
            x: min(start.x, end.x), y: min(start.y, end.y), width: max(1, abs(end.x - start.x)),
            height: max(1, abs(end.y - start.y)))
        view.region = clamp(box, width: rendering.photoWidth, height: rendering.photoHeight)
        if mouse.action == .release { view.dragStart = nil }
    case .wheelUp, .wheelDown:
        return []
    }
    state.mode = .photo(view)
    return []
}

/// The drawing the photo view needs now, when it is not the one shown (nor one that failed).
func photoEffects(_ state: EditorState) -> [EditorEffect] {
    guard let request = state.photoRequest, request != state.photoRendering?.request,
        request != state.photoFailure?.request
    else { return [] }
    return [.renderPhoto(request)]
}
