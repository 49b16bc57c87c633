import CChafa
import Foundation

/// Turns RGBA pixels into a ``Picture`` for the terminal with chafa (libchafa 1.12): Unicode
/// block, half-block and quadrant symbols in the terminal's palette, or a graphics protocol's
/// escape sequence (sixel, kitty, iTerm2) encoded by chafa, never by hand.
public struct PictureRenderer: Sendable {
    /// How pictures are drawn.
    public var graphics: GraphicsProtocol
    /// Colours the terminal shows: 256, 16 or 8 (palette indices), 0 for none (symbols in the
    /// terminal's own colours, as under `NO_COLOR`).
    public var colorCount: Int
    /// One cell's size in pixels, for the graphics protocols (the symbols do not need it).
    public var cellWidth: Int, cellHeight: Int
    /// The environment chafa detects the terminal from (`TERM`, `TERM_PROGRAM`, `KITTY_WINDOW_ID`,
    /// `TMUX`, …), kept to print a protocol's sequences as this terminal wants them.
    private let environment: [String: String]

    /// A renderer for the terminal `environment` describes.
    ///
    /// - Parameters:
    ///   - environment: the process environment; `LOVESNAP_GRAPHICS=symbols|sixel|kitty|iterm`
    ///     overrides what chafa's terminal database (`chafa_term_db_detect`) finds.
    ///   - colorCount: the terminal's colours as curses reports them (0 when colour is off).
    ///   - cellWidth, cellHeight: a cell in pixels when the terminal says (`TIOCGWINSZ`), else 10 × 20.
    public init(environment: [String: String], colorCount: Int, cellWidth: Int = 10, cellHeight: Int = 20) {
        self.environment = environment
        self.colorCount = colorCount
        self.cellWidth = max(1, cellWidth)
        self.cellHeight = max(1, cellHeight)
        if let forced = environment["LOVESNAP_GRAPHICS"].flatMap(GraphicsProtocol.init(rawValue:)) {
            graphics = forced
        } else {
            graphics = Self.detect(environment)
        }
    }

    /// The best protocol chafa's terminal database knows for `environment`: kitty, then sixel,
    /// then iTerm2, else symbols (also inside tmux and screen, which pass none of them on).
    public static func detect(_ environment: [String: String]) -> GraphicsProtocol {
        guard let info = withTermInfo(environment, { $0 }) else { return .symbols }
        defer { chafa_term_info_unref(info) }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1) != 0 { return .kitty }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS) != 0 { return .sixel }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE) != 0 { return .iterm }
        return .symbols
    }

    /// `rgba` (`width` × `height` pixels, 4 bytes each, row-major, not premultiplied) drawn in
    /// `columns` × `rows` cells, stretched to fill them (fit the aspect ratio before).
    /// Returns an empty picture for an empty size or a buffer of the wrong length.
    public func render(rgba: [UInt8], width: Int, height: Int, columns: Int, rows: Int) -> Picture {
        let empty = Picture(columns: 0, rows: 0, content: .symbols([]))
        guard columns > 0, rows > 0, width > 0, height > 0, rgba.count == width * height * 4,
            let config = chafa_canvas_config_new()
        else { return empty }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        switch graphics {
        case .symbols:
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
            let mode: ChafaCanvasMode
            switch colorCount {
            case 256...: mode = CHAFA_CANVAS_MODE_INDEXED_240
            case 16..<256: mode = CHAFA_CANVAS_MODE_INDEXED_16
            case 8..<16: mode = CHAFA_CANVAS_MODE_INDEXED_8
            default: mode = CHAFA_CANVAS_MODE_FGBG
            }
            chafa_canvas_config_set_canvas_mode(config, mode)
            if let map = chafa_symbol_map_new() {
                // Symbols every monospaced font has: space, blocks, halves, quadrants.
                let tags =
                    CHAFA_SYMBOL_TAG_SPACE.rawValue | CHAFA_SYMBOL_TAG_BLOCK.rawValue
                    | CHAFA_SYMBOL_TAG_HALF.rawValue | CHAFA_SYMBOL_TAG_QUAD.rawValue
                chafa_symbol_map_add_by_tags(map, ChafaSymbolTags(rawValue: tags))
                chafa_canvas_config_set_symbol_map(config, map)
                chafa_symbol_map_unref(map)
            }
        case .sixel, .kitty, .iterm:
            let pixelMode: ChafaPixelMode =
                graphics == .sixel
                ? CHAFA_PIXEL_MODE_SIXELS : graphics == .kitty ? CHAFA_PIXEL_MODE_KITTY : CHAFA_PIXEL_MODE_ITERM2
            chafa_canvas_config_set_pixel_mode(config, pixelMode)
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
            chafa_canvas_config_set_cell_geometry(config, Int32(cellWidth), Int32(cellHeight))
        }
        guard let canvas = chafa_canvas_new(config) else { return empty }
        defer { chafa_canvas_unref(canvas) }
        rgba.withUnsafeBufferPointer { buffer in
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, buffer.baseAddress, Int32(width), Int32(height),
                Int32(width * 4))
        }
        switch graphics {
        case .symbols:
            var cells: [Cell] = []
            cells.reserveCapacity(columns * rows)
            for y in 0..<rows {
                for x in 0..<columns {
                    let scalar = Unicode.Scalar(chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))) ?? " "
                    var colors: CellColors?
                    if colorCount >= 8 {
                        var fg: Int32 = 0
                        var bg: Int32 = 0
                        chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                        if (0...255).contains(fg), (0...255).contains(bg) {
                            colors = CellColors(foreground: UInt8(fg), background: UInt8(bg))
                        }
                    }
                    cells.append(Cell(content: String(scalar), colors: colors))
                }
            }
            return Picture(columns: columns, rows: rows, content: .symbols(cells))
        case .sixel, .kitty, .iterm:
            let bytes: [UInt8]? =
                Self.withTermInfo(environment) { info -> [UInt8]? in
                    defer { chafa_term_info_unref(info) }
                    // A protocol asked for (LOVESNAP_GRAPHICS) that the database does not know this
                    // terminal to have: its sequences from a terminal that has it.
                    if chafa_term_info_have_seq(info, graphics.beginSequence) == 0,
                        let source = Self.withTermInfo(graphics.typicalEnvironment, { $0 })
                    {
                        chafa_term_info_supplement(info, source)
                        chafa_term_info_unref(source)
                    }
                    guard let printed = chafa_canvas_print(canvas, info) else { return nil }
                    defer { cc_string_free(printed) }
                    var length = 0
                    guard let start = cc_string_bytes(printed, &length) else { return nil }
                    return start.withMemoryRebound(to: UInt8.self, capacity: length) {
                        Array(UnsafeBufferPointer(start: $0, count: length))
                    }
                } ?? nil
            guard let bytes else { return empty }
            return Picture(columns: columns, rows: rows, content: .graphic(bytes: bytes, graphics))
        }
    }

    /// Runs `body` with the terminal info chafa detects from `environment` (a new reference the
    /// body must release); nil when chafa has no database.
    private static func withTermInfo<T>(_ environment: [String: String], _ body: (OpaquePointer) -> T) -> T? {
        guard let db = chafa_term_db_get_default() else { return nil }
        var strings = environment.map { strdup("\($0.key)=\($0.value)") }
        strings.append(nil)
        defer { for s in strings { free(s) } }
        return strings.withUnsafeMutableBufferPointer { buffer -> T? in
            guard let info = chafa_term_db_detect(db, buffer.baseAddress) else { return nil }
            return body(info)
        }
    }
}

extension GraphicsProtocol {
    /// The sequence that begins a picture in this protocol (chafa's name for it).
    fileprivate var beginSequence: ChafaTermSeq {
        switch self {
        case .kitty: return CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1
        case .sixel: return CHAFA_TERM_SEQ_BEGIN_SIXELS
        case .iterm, .symbols: return CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE
        }
    }

    /// The environment of a terminal chafa's database knows to speak this protocol.
    fileprivate var typicalEnvironment: [String: String] {
        switch self {
        case .kitty: return ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]
        case .sixel: return ["TERM": "mlterm"]
        case .iterm, .symbols: return ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]
        }
    }
}
