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
        func prompt() -> String { render(editor.state, size: terminal.size).text(ofRow: 21) }
        editor.press(.control("o"))
        #expect(prompt().hasPrefix("File Name to Write [DOS Format] [Latin-1]: /poems/"))
        editor.press(.meta("d"))
        #expect(prompt().hasPrefix("File Name to Write [Latin-1]: /poems/"))
        editor.press(.meta("m"))
        #expect(prompt().hasPrefix("File Name to Write [Mac Format] [Latin-1]: /poems/"))
        editor.press(.enter)
        #expect(sharing.savedFormats == [TextFormat(lineEnding: .mac, encoding: .latin1)])
    }

    /// A file read as Latin-1 is written back as Latin-1 unless M-L in Write Out chooses UTF-8
    /// (and M-L again, Latin-1); the choice stays for the next writes, as nano's format toggles do.
    @Test func writeOutChoosesUTF8ForALatin1File() {
        let (editor, terminal, sharing) = editor(format: TextFormat(encoding: .latin1))
        func prompt() -> String { render(editor.state, size: terminal.size).text(ofRow: 21) }
        editor.press(.control("o"))
        #expect(prompt().hasPrefix("File Name to Write [Latin-1]: /poems/dos.txt"))
        #expect(render(editor.state, size: terminal.size).text(ofRow: 23).contains("M-L Latin-1"))
        editor.press(.meta("l"))
        #expect(prompt().hasPrefix("File Name to Write: /poems/dos.txt"))
        editor.press(.enter)
        #expect(sharing.savedFormats == [TextFormat(encoding: .utf8)])
        #expect(editor.state.status == StatusMessage("Wrote 2 lines"))
        editor.press(.control("o"))
        #expect(prompt().hasPrefix("File Name to Write: /poems/dos.txt"))
        editor.press(.meta("l"), .enter)
        #expect(sharing.savedFormats == [TextFormat(encoding: .utf8), TextFormat(encoding: .latin1)])
    }

    /// Latin-1 chosen for a text it cannot hold: the write fails, says which character and line,
    /// and how to write UTF-8 instead.
    @Test func latin1ChosenForACharacterItCannotHoldSaysSo() {
        let terminal = FakeTerminal(rows: 24, columns: 80)
        let sharing = FakeSharing()
        let configuration = EditorConfiguration.textFile(path: "/poems/c.txt", text: "cœur\n", sharing: sharing)
        let editor = Editor(terminal: terminal, configuration: configuration)
        editor.press(.control("o"), .meta("l"), .enter)
        #expect(sharing.saved.isEmpty)
        #expect(
            editor.state.status
                == StatusMessage("\"œ\" (line 1) cannot be written in Latin-1 (M-L in Write Out: UTF-8)", isError: true)
        )
    }

    @Test func theFormatTogglesDoNothingInOtherPrompts() {
        let (editor, _, _) = editor(format: TextFormat())
        editor.press(.control("w"), .meta("d"), .meta("m"), .meta("l"))
        #expect(editor.state.format == TextFormat())
    }
}
