/// An image made for the terminal, `columns` × `rows` cells: Unicode symbols with palette
/// colours (any terminal), or the bytes of a graphics protocol (sixel, kitty, iTerm2).
///
/// Made by ``PictureRenderer`` (chafa); placed in a ``Frame`` with ``Frame/place(_:row:column:)``.
public struct Picture: Hashable, Sendable {
    /// What the picture is made of.
    public enum Content: Hashable, Sendable {
        /// Cells in row-major order, each a block, half-block or quadrant symbol with its colours.
        case symbols([Cell])
        /// A graphics protocol's escape sequence, drawn from the picture's top-left cell.
        case graphic(bytes: [UInt8], GraphicsProtocol)
    }

    /// Size in cells.
    public var columns: Int, rows: Int
    /// Symbols or protocol bytes.
    public var content: Content

    /// A picture from its parts.
    public init(columns: Int, rows: Int, content: Content) {
        self.columns = columns
        self.rows = rows
        self.content = content
    }
}

/// How a terminal can show pictures, best first.
public enum GraphicsProtocol: String, CaseIterable, Hashable, Sendable {
    /// kitty's graphics protocol (kitty, WezTerm, Konsole, ghostty).
    case kitty
    /// DEC sixel graphics (xterm -ti vt340, foot, mlterm, WezTerm, contour).
    case sixel
    /// iTerm2's inline images (iTerm2, WezTerm, mintty).
    case iterm
    /// Unicode block, half-block and quadrant symbols in colours: every terminal.
    case symbols
}
