import SnapTerminal

/// Key bindings as data: which ``Command`` a key runs in the editing window.
///
/// Printable characters and pastes are not in the table: they are always inserted.
public struct Keymap: Sendable {
    /// The table.
    public var bindings: [KeyEvent: Command]

    /// Creates a keymap from a table.
    public init(bindings: [KeyEvent: Command]) {
        self.bindings = bindings
    }

    /// The command bound to `key`, if any.
    public func command(for key: KeyEvent) -> Command? {
        bindings[key]
    }

    /// GNU nano's default keys, plus M-M for Mail and Esc for cancelling the OCR
    /// (^J, nano's Justify, breaks the line: a terminal sending LF for Enter still works).
    public static let nano = Keymap(bindings: [
        .control("g"): .help, .function(1): .help,
        .control("x"): .exit, .function(2): .exit,
        .control("o"): .writeOut, .function(3): .writeOut,
        .control("s"): .save,
        .control("w"): .whereIs, .function(6): .whereIs,
        .meta("w"): .findNext,
        .control("\\"): .replace, .meta("r"): .replace, .function(14): .replace,
        .meta("u"): .undo,
        .meta("e"): .redo,
        .meta("m"): .mail,
        .control("k"): .cutLine, .function(9): .cutLine,
        .control("u"): .paste, .function(10): .paste,
        .control("c"): .location, .function(11): .location,
        .control("l"): .refresh,
        .up: .moveUp, .control("p"): .moveUp,
        .down: .moveDown, .control("n"): .moveDown,
        .left: .moveLeft, .control("b"): .moveLeft,
        .right: .moveRight, .control("f"): .moveRight,
        .home: .lineStart, .control("a"): .lineStart,
        .end: .lineEnd, .control("e"): .lineEnd,
        .pageUp: .pageUp, .control("y"): .pageUp, .function(7): .pageUp,
        .pageDown: .pageDown, .control("v"): .pageDown, .function(8): .pageDown,
        .meta("\\"): .firstLine, .meta("/"): .lastLine,
        .enter: .newline, .control("m"): .newline, .control("j"): .newline,
        .tab: .tab, .control("i"): .tab,
        .backspace: .deleteBackward, .control("h"): .deleteBackward,
        .delete: .deleteForward, .control("d"): .deleteForward,
        .escape: .cancelRecognition,
    ])
}
