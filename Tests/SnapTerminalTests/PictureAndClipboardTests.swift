import Foundation
import SnapTerminal
import Testing

/// Pictures made by the real chafa, the OSC 52 clipboard sequence, and SGR mouse reports.
@Suite struct PictureRendererTests {
    /// `width` × `height` pixels, the top half `top` and the bottom half `bottom` (RGB).
    func halves(width: Int, height: Int, top: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)) -> [UInt8] {
        (0..<height).flatMap { y in
            (0..<width).flatMap { _ in
                let c = y < height / 2 ? top : bottom
                return [c.0, c.1, c.2, 255]
            }
        }
    }

    @Test func symbolsInThePalette() {
        let renderer = PictureRenderer(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"], colorCount: 256)
        #expect(renderer.graphics == .symbols)
        let picture = renderer.render(
            rgba: halves(width: 16, height: 16, top: (255, 0, 0), bottom: (0, 0, 255)), width: 16, height: 16,
            columns: 2, rows: 1)
        #expect(picture.columns == 2 && picture.rows == 1)
        guard case .symbols(let cells) = picture.content else {
            Issue.record("not symbols: \(picture.content)")
            return
        }
        // A red top half over a blue bottom half: the upper half block, red (196) on blue (21),
        // or the lower one, blue on red.
        for cell in cells {
            let pair = cell.colors.map { [$0.foreground, $0.background] }
            #expect(
                (cell.content == "▀" && pair == [196, 21]) || (cell.content == "▄" && pair == [21, 196]),
                "\(cell)")
        }
    }

    @Test func withoutColoursTheShapesRemain() {
        let renderer = PictureRenderer(environment: ["TERM": "xterm"], colorCount: 0)
        let picture = renderer.render(
            rgba: halves(width: 16, height: 16, top: (0, 0, 0), bottom: (255, 255, 255)), width: 16, height: 16,
            columns: 2, rows: 1)
        guard case .symbols(let cells) = picture.content else {
            Issue.record("not symbols")
            return
        }
        #expect(cells.allSatisfy { $0.colors == nil && ["▀", "▄"].contains($0.content) })
    }

    @Test(arguments: [
        (GraphicsProtocol.sixel, "\u{1B}P"), (.kitty, "\u{1B}_G"), (.iterm, "\u{1B}]1337;File="),
    ])
    func protocolsAreEncodedByChafa(_ graphics: GraphicsProtocol, _ introducer: String) {
        let renderer = PictureRenderer(
            environment: ["TERM": "xterm-256color", "LOVESNAP_GRAPHICS": graphics.rawValue], colorCount: 256)
        #expect(renderer.graphics == graphics)
        let picture = renderer.render(
            rgba: halves(width: 20, height: 40, top: (255, 0, 0), bottom: (0, 0, 255)), width: 20, height: 40,
            columns: 2, rows: 2)
        guard case .graphic(let bytes, let kind) = picture.content else {
            Issue.record("not a graphic")
            return
        }
        #expect(kind == graphics)
        #expect(String(decoding: bytes.prefix(introducer.utf8.count), as: UTF8.self) == introducer)
    }

    @Test func terminalsAreDetected() {
        #expect(PictureRenderer.detect(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]) == .kitty)
        #expect(PictureRenderer.detect(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(PictureRenderer.detect(["TERM": "linux"]) == .symbols)
    }

    @Test func aPictureBecomesCellsOfTheFrame() {
        let cells = [Cell(content: "▀", colors: CellColors(foreground: 196, background: 21)), Cell(content: "█")]
        var frame = Frame(size: TerminalSize(rows: 2, columns: 3))
        frame.place(Picture(columns: 2, rows: 1, content: .symbols(cells)), row: 1, column: 2)
        #expect(frame.text == "   \n  ▀")
        #expect(frame[1, 2].colors == CellColors(foreground: 196, background: 21))
        #expect(frame.graphics.isEmpty)
        frame.place(Picture(columns: 2, rows: 2, content: .graphic(bytes: [1], .sixel)), row: 0, column: 1)
        #expect(frame.graphics.map(\.column) == [1])
        #expect(frame.text == "   \n   ")
        frame.place(Picture(columns: 4, rows: 1, content: .graphic(bytes: [1], .sixel)), row: 0, column: 0)
        #expect(frame.graphics.count == 1)  // does not fit whole: left out
    }
}

@Suite struct ClipboardAndMouseTests {
    @Test func osc52() {
        #expect(
            String(decoding: Clipboard.sequence(for: "cœur", insideTmux: false), as: UTF8.self)
                == "\u{1B}]52;c;Y8WTdXI=\u{07}")
        #expect(
            String(decoding: Clipboard.sequence(for: "a", insideTmux: true), as: UTF8.self)
                == "\u{1B}]52;c;YQ==\u{07}\u{1B}Ptmux;\u{1B}\u{1B}]52;c;YQ==\u{07}\u{1B}\\")
    }

    @Test func sgrMouseReports() {
        var decoder = KeyDecoder()
        let events = decoder.feed(
            Array("\u{1B}[<0;12;5M\u{1B}[<32;14;6M\u{1B}[<0;14;6m\u{1B}[<64;1;1M\u{1B}[<6;3;4M".utf8))
        #expect(
            events == [
                .mouse(MouseEvent(.press, row: 4, column: 11)), .mouse(MouseEvent(.drag, row: 5, column: 13)),
                .mouse(MouseEvent(.release, row: 5, column: 13)), .mouse(MouseEvent(.wheelUp, row: 0, column: 0)),
                .mouse(MouseEvent(.press, button: 2, row: 3, column: 2, modifiers: .shift)),
            ])
    }
}
