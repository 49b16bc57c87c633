import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

/// The file's format goes with every save, and Write Out's M-D / M-M change its line ends.
@Suite struct FileFormatFlowTests {
    func editor(format: TextFormat) -> (Editor, FakeTerminal, FakeSharing) {
        let terminal = FakeTerminal(rows: 24, columns: 80)
        let sharing = FakeSharing()
        var configuration = EditorConfiguration.textFile(path: "/poems/dos.txt", text: "a\nb\n", sharing: sharing)
        configuration.format = format
        return (Editor(terminal: terminal, configuration: configuration), terminal, sharing)
    }

    @Test func aDOSFileIsSavedAsDOS() {
        let (editor, _, sharing) = editor(format: TextFormat(lineEnding: .dos))
        editor.press(.character("!"), .control("s"))
        #expect(sharing.saved.map(\.text) == ["!a\nb\n"])
        #expect(sharing.savedFormats == [TextFormat(lineEnding: .dos)])
    }

    @Test func writeOutTogglesDOSAndMacLineEnds() {
        let (editor, terminal, sharing) = editor(format: TextFormat(lineEnding: .dos, encoding: .latin1))
        editor.press(.control("o"))
        #expect(
            render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("File Name to Write [DOS Format]: "))
        editor.press(.meta("d"))
        #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("File Name to Write: /poems/"))
        editor.press(.meta("m"))
        #expect(
            render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("File Name to Write [Mac Format]: "))
        editor.press(.enter)
        #expect(sharing.savedFormats == [TextFormat(lineEnding: .mac, encoding: .latin1)])
    }

    @Test func theFormatTogglesDoNothingInOtherPrompts() {
        let (editor, _, _) = editor(format: TextFormat())
        editor.press(.control("w"), .meta("d"), .meta("m"))
        #expect(editor.state.format == TextFormat())
    }
}
