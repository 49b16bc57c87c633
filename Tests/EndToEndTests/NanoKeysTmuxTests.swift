import Foundation
import SnapTestSupport
import Testing

/// nano's keys in the real editor in tmux: go to line (^_), the mark (M-A) with Ctrl-Right, a
/// region cut (^K) and paste (^U), line numbers (M-#), word count (M-D), "Unbound key".
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct NanoKeysTmuxTests {
    // Screen rows at 80x24: 0 title, 1...20 text, 21 status/prompt, 22...23 help lines.
    static let statusRow = 21

    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    @Test func goToLineMarkCutPasteLineNumbersAndUnboundKeys() throws {
        let dir = try TmuxSession.temporaryDirectory("lsnap-keys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("raven.txt")
        try Data("Once upon a midnight dreary,\nwhile I pondered,\nweak and weary\n".utf8).write(to: file)
        let t = try TmuxSession([TestPaths.lovesnap, "edit", "raven.txt"], in: dir, label: "lsnap-keys")
        defer { t.kill() }
        try t.waitFor("[ Read 3 lines ]")

        // ^_ -3,7 ⏎: line 2 (-1 is the empty line after the final newline, as in nano), before "I".
        try t.press("C-_")
        try t.waitFor("Enter line number, column number: ")
        try t.type("-3,7")
        try t.press("Enter")
        try t.waitUntil("the prompt closed") { !$0[Self.statusRow].hasPrefix("Enter line") }
        // M-A, Ctrl-Right, ^K: "I " cut; End, ^U puts it at the end of the line.
        try t.press("M-a")
        try t.waitFor("[ Mark Set ]")
        try t.press("C-Right")
        try t.press("C-k")
        try t.waitFor("while pondered,")
        try t.press("End")
        try t.press("C-u")
        var screen = try t.waitFor("while pondered,I")
        #expect(screen[2] == "while pondered,I")

        try t.press("M-d")
        screen = try t.waitUntil("the word count") { status($0).hasPrefix("[ 10 words") }
        #expect(status(screen) == "[ 10 words,  3 lines,  62 characters ]")
        try t.press("M-#")
        screen = try t.waitFor("1 Once upon")
        #expect(
            Array(screen[1...4]) == ["1 Once upon a midnight dreary,", "2 while pondered,I", "3 weak and weary", "4"])
        try t.press("M-q")
        screen = try t.waitFor("Unbound key")
        #expect(status(screen) == "[ Unbound key: M-Q ]")

        try t.press("C-s")
        try t.waitFor("[ Wrote 3 lines ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(
            try Data(contentsOf: file) == Data("Once upon a midnight dreary,\nwhile pondered,I \nweak and weary\n".utf8)
        )
    }
}
