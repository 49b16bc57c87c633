/// One key press (or terminal event), decoded once at the terminal edge (``KeyDecoder``).
///
/// Control and meta keys carry a lowercase letter (or the punctuation of `^\`, `^]`, `^^`, `^_`):
/// `^W` is `.control("w")`, `Alt+U` or `Esc U` is `.meta("u")`. TAB, Enter, Backspace and Esc have
/// cases of their own and are never reported as `.control` (a terminal sends ^I, ^M and ^H as
/// those bytes, so `.control("i")`, `.control("m")` and `.control("h")` never occur).
public indirect enum KeyEvent: Hashable, Sendable {
    /// A printable character (a whole grapheme cluster: combining marks typed after it are merged).
    case character(Character)
    /// Ctrl plus a key: `"a"`…`"z"`, `"\\"`, `"]"`, `"^"`, `"_"`, `" "` (Ctrl-Space).
    case control(Character)
    /// Alt (Meta) plus a key, or Esc followed at once by it; letters are lowercase.
    case meta(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward).
    case delete
    /// Backspace (also DEL 0x7F and ^H).
    case backspace
    /// Enter / Return.
    case enter
    /// TAB.
    case tab
    /// Shift-TAB.
    case backTab
    /// A lone Esc.
    case escape
    /// Function key F1…F63.
    case function(Int)
    /// Text pasted by the terminal's bracketed paste (line ends converted to `"\n"`).
    case paste(String)
    /// The terminal changed size; read the new one from ``Terminal/size``.
    case resize
    /// A cursor or editing key (arrows, Home/End, PgUp/PgDn, Insert/Delete, Shift-TAB) pressed with
    /// Shift, Alt or Ctrl, as xterm reports them (`ESC [ 1 ; 5 C` is Ctrl+Right). Function keys
    /// with modifiers are numbered on instead, as ncurses does (Shift+F2 is F14).
    case modified(KeyEvent, KeyModifiers)
    /// A mouse button or wheel, as the terminal reports it in SGR mode (xterm's `?1006`, with
    /// button-event tracking `?1002`) while mouse reporting is on (``Terminal/setMouseReporting(_:)``).
    case mouse(MouseEvent)

    /// The ``meta(_:)`` event for `character`: letters are lowercased (`Esc U` is `M-U`, as in nano).
    public static func meta(for character: Character) -> KeyEvent {
        let lower = String(character).lowercased()
        return .meta(lower.count == 1 ? Character(lower) : character)
    }

    /// The `KeyEvent` for a control byte 0x00–0x1F or 0x7F, as raw mode delivers it.
    public static func fromControlByte(_ byte: UInt32) -> KeyEvent? {
        switch byte {
        case 0x09: return .tab
        case 0x0D: return .enter
        case 0x08, 0x7F: return .backspace
        case 0x1B: return .escape
        case 0x00: return .control(" ")
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(UInt8(byte + 0x60))))
        case 0x1C: return .control("\\")
        case 0x1D: return .control("]")
        case 0x1E: return .control("^")
        case 0x1F: return .control("_")
        default: return nil
        }
    }
}

/// Modifier keys held with a cursor or editing key (xterm's modifier parameter minus one).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// The modifier bits: 1 Shift, 2 Alt, 4 Ctrl, 8 Meta.
    public let rawValue: UInt8
    /// Creates modifiers from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Alt.
    public static let alt = KeyModifiers(rawValue: 2)
    /// Ctrl.
    public static let control = KeyModifiers(rawValue: 4)
    /// Meta (a key of its own on some keyboards).
    public static let meta = KeyModifiers(rawValue: 8)
}

/// A mouse report: what happened, where (0-based cell), and the modifiers held.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Action: Hashable, Sendable {
        /// A button went down.
        case press
        /// The mouse moved with a button down.
        case drag
        /// A button went up.
        case release
        /// The wheel turned away from the user.
        case wheelUp
        /// The wheel turned towards the user.
        case wheelDown
    }

    /// What the mouse did.
    public var action: Action
    /// The button: 0 left, 1 middle, 2 right (0 for the wheel).
    public var button: Int
    /// The cell, 0-based.
    public var row: Int, column: Int
    /// Shift, Alt (Meta) and Ctrl as the terminal reports them.
    public var modifiers: KeyModifiers

    /// A report from its parts.
    public init(_ action: Action, button: Int = 0, row: Int, column: Int, modifiers: KeyModifiers = []) {
        self.action = action
        self.button = button
        self.row = row
        self.column = column
        self.modifiers = modifiers
    }
}
