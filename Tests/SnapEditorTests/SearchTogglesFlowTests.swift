import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

/// The search prompts' toggles: M-R regular expression, M-B backwards; canonical equivalence.
@Suite struct SearchTogglesFlowTests {
    func typed(_ text: String) -> [KeyEvent] { text.map { .character($0) } }

    @Test func regexReplaceWithGroups() {
        let (editor, terminal, _) = makeEditor(text: "Lenore Smith\nLenore Jones\n")
        editor.press(.control("\\"), .meta("r"))
        #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search (to replace) [Regexp]: "))
        editor.press(typed("(\\w+) (\\w+)") + [.enter] + typed("$2, \\1") + [.enter, .character("a")])
        #expect(editor.state.buffer.text == "Smith, Lenore\nJones, Lenore\n")
        #expect(editor.state.status == StatusMessage("Replaced 2 occurrences"))
        editor.press(.meta("u"))
        #expect(editor.state.buffer.text == "Lenore Smith\nLenore Jones\n")
    }

    @Test func withoutRegexTheGroupsArePlainText() {
        let (editor, _, _) = makeEditor(text: "a.b axb\n")
        editor.press([.control("\\")] + typed("a.b") + [.enter] + typed("$1") + [.enter, .character("a")])
        #expect(editor.state.buffer.text == "$1 axb\n")
    }

    @Test func aBadPatternIsAnErrorMessage() {
        let (editor, _, _) = makeEditor(text: "Lenore\n")
        editor.press([.control("w"), .meta("r")] + typed("a(b") + [.enter])
        #expect(editor.state.status == StatusMessage("Bad regex \"a(b\": expected ')'", isError: true))
        #expect(editor.state.mode == .editing)
    }

    @Test func aBadPatternToReplaceIsSaidBeforeTheReplacementIsAsked() {
        let (editor, _, _) = makeEditor(text: "Lenore\n")
        editor.press([.control("\\"), .meta("r")] + typed("(") + [.enter])
        #expect(editor.state.status == StatusMessage("Bad regex \"(\": expected ')'", isError: true))
        #expect(editor.state.mode == .editing)
        #expect(editor.state.buffer.text == "Lenore\n")
    }

    @Test func backwardsSearchGoesUpAndWraps() {
        let (editor, terminal, _) = makeEditor(text: "one\ntwo one\nthree\n")
        editor.press(.control("w"), .meta("b"))
        #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search [Backwards]: "))
        editor.press(typed("one") + [.enter])
        #expect(editor.state.buffer.cursor == TextPosition(line: 1, column: 4))
        #expect(editor.state.status == StatusMessage("Search Wrapped"))
        editor.press(.meta("w"))
        #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 0))
    }

    @Test func anNFDSearchFindsNFCText() {
        let (editor, _, _) = makeEditor(text: "la for\u{EA}t\n")
        editor.press([.control("w")] + typed("fore\u{302}t") + [.enter])
        #expect(editor.state.buffer.cursor == TextPosition(line: 0, column: 3))
        #expect(editor.state.status == nil)
    }

    @Test func accentInsensitiveSearchAndReplace() {
        let (editor, terminal, _) = makeEditor(text: "mon cœur, mon coeur\n")
        editor.press(.control("\\"), .meta("a"))
        #expect(
            render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix(
                "Search (to replace) [Accents Ignored]: "))
        editor.press(typed("coeur") + [.enter] + typed("âme") + [.enter, .character("a")])
        #expect(editor.state.buffer.text == "mon âme, mon âme\n")
        #expect(editor.state.status == StatusMessage("Replaced 2 occurrences"))
    }
}
