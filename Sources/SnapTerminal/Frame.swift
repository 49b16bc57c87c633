/// A terminal size in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    /// Number of rows (lines), ≥ 0.
    public var rows: Int
    /// Number of columns, ≥ 0.
    public var columns: Int

    /// Creates a size; negative values become 0.
    public init(rows: Int, columns: Int) {
        self.rows = max(0, rows)
        self.columns = max(0, columns)
    }

    /// `COLUMNSxROWS`, as in `80x24`.
    public var description: String { "\(columns)x\(rows)" }
}

/// Text attributes of a cell.
public struct Style: OptionSet, Hashable, Sendable {
    /// The attribute bits.
    public let rawValue: UInt8
    /// Creates a style from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Plain text.
    public static let normal: Style = []
    /// Reverse video (title bar, key names, highlighted match).
    public static let reverse = Style(rawValue: 1 << 0)
    /// Bold.
    public static let bold = Style(rawValue: 1 << 1)
    /// Underlined.
    public static let underline = Style(rawValue: 1 << 2)
    /// In the terminal's warning colour (red), where it has colours and `NO_COLOR` is not set; an
    /// attribute with no effect elsewhere, so pair it with one that always shows (underline).
    public static let warning = Style(rawValue: 1 << 3)
}

/// Colours of a cell from the terminal's palette (xterm's 256: 16–231 the 6×6×6 cube, 232–255
/// the greys), as a picture's symbols use them.
public struct CellColors: Hashable, Sendable {
    /// The symbol's colour, palette index.
    public var foreground: UInt8
    /// The cell's background, palette index.
    public var background: UInt8
    /// Colours from their palette indices.
    public init(foreground: UInt8, background: UInt8) {
        self.foreground = foreground
        self.background = background
    }
}

/// One screen cell: a grapheme cluster and its style.
public struct Cell: Hashable, Sendable {
    /// What the cell shows: one grapheme cluster (a base character plus its combining marks), or
    /// "" for the right half of a wide character drawn in the cell to its left.
    public var content: String
    /// 1 for a normal cell, 2 for the left half of a wide character, 0 for its right half.
    public var width: Int
    /// Attributes.
    public var style: Style
    /// Palette colours (a picture's cells), or nil for the terminal's own.
    public var colors: CellColors?

    /// Creates a cell.
    public init(content: String, width: Int = 1, style: Style = .normal, colors: CellColors? = nil) {
        self.content = content
        self.width = width
        self.style = style
        self.colors = colors
    }

    /// A space in the given style.
    public static func blank(_ style: Style = .normal) -> Cell { Cell(content: " ", style: style) }
}

/// A whole screen image: a grid of styled grapheme cells and where the cursor goes.
///
/// Built by a pure render function and drawn at once by a ``Terminal``. It never holds anything
/// outside its size, and a wide character is never cut in half: one that does not fit is not put.
public struct Frame: Hashable, Sendable {
    /// The grid size.
    public let size: TerminalSize
    /// Cells in row-major order (`row * size.columns + column`).
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown (0-based), or nil to hide it.
    public var cursor: CursorPosition?
    /// Pictures drawn with a graphics protocol (sixel, kitty, iTerm2) over the cells, which stay
    /// blank under them; pictures of symbols are cells like any other.
    public private(set) var graphics: [PlacedGraphic] = []
    /// Whether the terminal should report the mouse while this frame is shown.
    public var wantsMouse = false

    /// A graphics-protocol picture at a cell.
    public struct PlacedGraphic: Hashable, Sendable {
        /// Top-left cell, 0-based.
        public var row: Int, column: Int
        /// The picture.
        public var picture: Picture
    }

    /// A cursor location in cells, 0-based.
    public struct CursorPosition: Hashable, Sendable {
        /// 0-based row.
        public var row: Int
        /// 0-based column.
        public var column: Int
        /// Creates a position.
        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// A frame of `size` filled with blanks, cursor hidden.
    public init(size: TerminalSize) {
        self.size = size
        self.cells = Array(repeating: .blank(), count: size.rows * size.columns)
    }

    /// The cell at `row`, `column` (both 0-based, inside the size).
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * size.columns + column]
    }

    /// Puts one grapheme cluster of `width` columns (1 or 2) at `row`, `column`.
    ///
    /// Returns false, changing nothing, when it does not fit (outside the grid, or a wide character
    /// in the last column). A wide character it overwrites in part is replaced by blanks.
    @discardableResult
    public mutating func put(_ content: String, width: Int = 1, row: Int, column: Int, style: Style = .normal) -> Bool {
        let width = min(max(width, 1), 2)
        guard row >= 0, row < size.rows, column >= 0, column + width <= size.columns else { return false }
        for c in column..<(column + width) { clearWide(row: row, column: c) }
        cells[row * size.columns + column] = Cell(content: content, width: width, style: style)
        if width == 2 { cells[row * size.columns + column + 1] = Cell(content: "", width: 0, style: style) }
        return true
    }

    /// Puts `picture` with its top-left cell at `row`, `column`: its symbols become cells (cut to
    /// the grid), a graphics-protocol picture is placed over blank cells, or left out when it does
    /// not fit whole.
    public mutating func place(_ picture: Picture, row: Int, column: Int) {
        switch picture.content {
        case .symbols(let symbols):
            for r in 0..<picture.rows {
                for c in 0..<picture.columns where r * picture.columns + c < symbols.count {
                    let y = row + r
                    let x = column + c
                    guard y >= 0, y < size.rows, x >= 0, x < size.columns else { continue }
                    clearWide(row: y, column: x)
                    cells[y * size.columns + x] = symbols[r * picture.columns + c]
                }
            }
        case .graphic:
            guard row >= 0, column >= 0, row + picture.rows <= size.rows, column + picture.columns <= size.columns
            else { return }
            for r in row..<(row + picture.rows) {
                for c in column..<(column + picture.columns) {
                    clearWide(row: r, column: c)
                    cells[r * size.columns + c] = .blank()
                }
            }
            graphics.append(PlacedGraphic(row: row, column: column, picture: picture))
        }
    }

    /// Sets the style of the cells of `row` in `columns`, keeping their content.
    public mutating func setStyle(_ style: Style, row: Int, columns: Range<Int>) {
        let lower = max(0, columns.lowerBound)
        let upper = min(size.columns, columns.upperBound)
        guard row >= 0, row < size.rows, lower < upper else { return }
        for c in lower..<upper {
            cells[row * size.columns + c].style = style
        }
    }

    /// The text of `row`, cell contents concatenated (wide right halves add nothing).
    public func text(ofRow row: Int) -> String {
        (0..<size.columns).map { self[row, $0].content }.joined()
    }

    /// All rows' text, joined with "\n" (for tests and debugging).
    public var text: String {
        (0..<size.rows).map(text(ofRow:)).joined(separator: "\n")
    }

    private mutating func clearWide(row: Int, column: Int) {
        let i = row * size.columns + column
        let cell = cells[i]
        if cell.width == 2, column + 1 < size.columns {
            cells[i + 1] = .blank(cells[i + 1].style)
        } else if cell.width == 0, column > 0 {
            cells[i - 1] = .blank(cells[i - 1].style)
        }
        cells[i] = .blank(cell.style)
    }
}
