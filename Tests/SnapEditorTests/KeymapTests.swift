import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

private let keymap = Keymap.nano

/// Every list of the keymap as (name, keys of each binding, summary of each binding).
private var lists: [(name: String, keys: [[KeyEvent]], summaries: [String])] {
    [
        ("editing", keymap.editing.map(\.keys), keymap.editing.map(\.summary)),
        ("recognizing", keymap.recognizing.map(\.keys), keymap.recognizing.map(\.summary)),
        ("prompt", keymap.prompt.map(\.keys), keymap.prompt.map(\.summary)),
        ("question", keymap.question.map(\.keys), keymap.question.map(\.summary)),
        ("help", keymap.help.map(\.keys), keymap.help.map(\.summary)),
        ("menu", keymap.menu.map(\.keys), keymap.menu.map(\.summary)),
        ("running", keymap.running.map(\.keys), keymap.running.map(\.summary)),
        ("recovery", keymap.recovery.map(\.keys), keymap.recovery.map(\.summary)),
        ("photo", keymap.photo.map(\.keys), keymap.photo.map(\.summary)),
        ("framing", keymap.framing.map(\.keys), keymap.framing.map(\.summary)),
        ("dataMenu", keymap.dataMenu.map(\.keys), keymap.dataMenu.map(\.summary)),
    ]
}

// MARK: - The table itself

/// Every prompt kind: the prompt list binds a key once per kind (M-L is Latin-1 in Write Out and
/// the accurate level in Read again).
private let promptKinds: [PromptKind] = [
    .search, .replaceSearch, .replaceWith(search: "a"), .writeOut, .insertFile, .goToLine, .mailTo,
    .mailSubject(to: "a@b.c"), .executeCommand, .readAgain,
]

@Test func noKeyIsBoundTwiceInAPromptKind() {
    for kind in promptKinds {
        let keys = keymap.prompt.filter { $0.action.isAvailable(in: kind) }.flatMap(\.keys)
        #expect(Set(keys).count == keys.count, "\(kind): \(keys.map(\.helpName))")
    }
    #expect(keymap.promptAction(for: .meta("l"), in: .writeOut) == .toggleLatin1)
    #expect(keymap.promptAction(for: .meta("l"), in: .readAgain) == .toggleAccurate)
    #expect(keymap.promptAction(for: .meta("l"), in: .search) == nil)
}

@Test func noKeyIsBoundTwiceInAList() {
    for list in lists where list.name != "prompt" {
        let keys = list.keys.flatMap { $0 }
        #expect(Set(keys).count == keys.count, "\(list.name): \(keys.map(\.helpName))")
        #expect(list.keys.allSatisfy { !$0.isEmpty }, "\(list.name): a binding without keys")
    }
}

@Test func noActionIsBoundTwiceInAList() {
    #expect(Set(keymap.editing.map(\.action)).count == keymap.editing.count)
    #expect(Set(keymap.recognizing.map(\.action)).count == keymap.recognizing.count)
    #expect(Set(keymap.prompt.map(\.action)).count == keymap.prompt.count)
    #expect(Set(keymap.question.map(\.action)).count == keymap.question.count)
    #expect(Set(keymap.help.map(\.action)).count == keymap.help.count)
    #expect(Set(keymap.photo.map(\.action)).count == keymap.photo.count)
    #expect(Set(keymap.framing.map(\.action)).count == keymap.framing.count)
    #expect(Set(keymap.dataMenu.map(\.action)).count == keymap.dataMenu.count)
}

@Test func everyActionHasAKey() {
    let editingCommands = Set(keymap.editing.map(\.action)).union(keymap.recognizing.map(\.action))
        .union(keymap.running.map(\.action))
    #expect(editingCommands == Set(Command.allCases))
    #expect(Set(keymap.recovery.map(\.action)) == Set(RecoveryChoice.allCases))
    #expect(Set(keymap.prompt.map(\.action)) == Set(PromptAction.allCases))
    #expect(Set(keymap.question.map(\.action)) == Set(Answer.allCases))
    #expect(Set(keymap.help.map(\.action)) == Set(HelpAction.allCases))
    #expect(Set(keymap.menu.map(\.action)) == Set(MenuAction.allCases))
    #expect(Set(keymap.photo.map(\.action)) == Set(PhotoAction.allCases))
    #expect(Set(keymap.framing.map(\.action)) == Set(FramingAction.allCases))
    #expect(Set(keymap.dataMenu.map(\.action)) == Set(DataMenuAction.allCases))
}

@Test func keysTheTerminalNeverSendsAreNotBound() {
    // ^H, ^I and ^M arrive as Backspace, TAB and Enter.
    let all = lists.flatMap { $0.keys.flatMap { $0 } }
    for key in [KeyEvent.control("h"), .control("i"), .control("m")] {
        #expect(!all.contains(key), "\(key)")
    }
}

@Test(arguments: [
    (KeyEvent.control("o"), Command.writeOut), (.function(3), .writeOut), (.control("w"), .whereIs),
    (.control("\\"), .replace), (.meta("r"), .replace), (.function(14), .replace), (.meta("u"), .undo),
    (.meta("e"), .redo), (.meta("m"), .mail), (.control("x"), .exit), (.control("g"), .help), (.function(1), .help),
    (.control("k"), .cutLine), (.control("u"), .paste), (.control("c"), .location), (.meta("w"), .findNext),
    (.control("s"), .save), (.control("l"), .refresh), (.enter, .newline), (.control("j"), .justify),
    (.meta("j"), .justifyAll), (.control("z"), .suspendHint), (.tab, .tab),
    (.backspace, .deleteBackward), (.delete, .deleteForward), (.control("d"), .deleteForward),
    (.up, .moveUp), (.control("p"), .moveUp), (.control("y"), .pageUp), (.pageDown, .pageDown),
    (.meta("\\"), .firstLine), (.meta("/"), .lastLine), (.control("a"), .lineStart), (.end, .lineEnd),
])
func nanoKeysRunTheirCommands(key: KeyEvent, command: Command) {
    #expect(keymap.command(for: key) == command)
}

@Test func keysOfTheOtherModes() {
    #expect(keymap.recognizingCommand(for: .escape) == .cancelRecognition)
    #expect(keymap.recognizingCommand(for: .control("x")) == .exit)
    #expect(keymap.recognizingCommand(for: .control("o")) == nil)
    #expect(keymap.command(for: .escape) == nil)  // in the text, Esc is the Meta prefix
    #expect(keymap.promptAction(for: .control("c"), in: .search) == .cancel)
    #expect(keymap.promptAction(for: .escape, in: .search) == .cancel)
    #expect(keymap.promptAction(for: .enter, in: .search) == .accept)
    #expect(keymap.promptAction(for: .control("u"), in: .search) == .clear)
    #expect(keymap.promptAction(for: .control("k"), in: .writeOut) == .clear)
    #expect(keymap.promptAction(for: .meta("c"), in: .search) == .toggleCaseSensitivity)
    #expect(keymap.promptAction(for: .control("r"), in: .search) == .switchToReplace)
    #expect(keymap.answer(for: .character("y")) == .yes)
    #expect(keymap.answer(for: .character("N")) == .no)
    #expect(keymap.answer(for: .character("a")) == .all)
    #expect(keymap.answer(for: .escape) == .cancel)
    #expect(keymap.answer(for: .character("x")) == nil)
    #expect(keymap.helpAction(for: .control("x")) == .close)
    #expect(keymap.helpAction(for: .pageDown) == .pageDown)
    #expect(keymap.helpAction(for: .character("q")) == nil)
}

// MARK: - Generated help

@Test func everyBindingAppearsInTheHelpScreen() {
    let screen = keymap.helpScreen
    for list in lists {
        for (keys, summary) in zip(list.keys, list.summaries) {
            let line = keys.map(\.helpName).joined(separator: " ")
            #expect(
                screen.contains { $0.hasPrefix(line + " ") && $0.hasSuffix(summary) },
                "\(list.name): \(line) \(summary)")
        }
    }
    #expect(screen.first == "LoveInASnap: fix the poem read from the photo, then write it out or mail it.")
    // How much a crash can lose, said where the keys are (issue 41: kill -9 half a second after
    // typing loses those keys).
    #expect(
        screen[2]
            == "The text is copied to a recovery file once you stop typing for 1 s (every 4 s while you type on): "
            + "if lovesnap or the machine stops, reopen the same file or photo to recover it; keys typed after the "
            + "last copy are lost.")
    #expect(screen.contains("^G F1             show this help"))
    #expect(screen.contains("^\\ M-R F14        replace a text, asking at each match"))
    #expect(screen.contains("Y y               yes"))
    #expect(screen.contains("M-]               next uncertain word (wraps)"))
    #expect(screen.contains("Esc ^C            close the menu"))
    #expect(
        screen.contains(
            "M-P               show the photo, the words' boxes over it and the word under the cursor highlighted"))
    #expect(screen.contains("Sh-Right M-Right  make the region wider (Shift or M- with the arrows resize)"))
}

@Test func helpBarIsTheKeymapsLabelledBindings() {
    var state = EditorState(displayName: "p", saveName: "p.txt", text: "x")
    let editing = keymap.editing.compactMap { binding in
        binding.barLabel.map { HelpBarItem(key: binding.keys[0].helpName, label: $0) }
    }
    #expect(keymap.helpBar(for: state) == editing)
    #expect(
        keymap.helpBar(for: state).map(\.key)
            == [
                "^G", "^X", "^O", "M-M", "^W", "^\\", "^K", "^U", "M-U", "M-E", "^C", "M-W", "M-]", "M-[", "M-Y",
                "M-Space", "M-P", "M-F", "M-C", "M-O",
            ])
    _ = update(&state, .control("w"))
    #expect(
        keymap.helpBar(for: state) == [
            HelpBarItem(key: "^C", label: "Cancel"), HelpBarItem(key: "M-C", label: "Case Sens"),
            HelpBarItem(key: "M-A", label: "Accents"), HelpBarItem(key: "M-R", label: "Reg.exp."),
            HelpBarItem(key: "M-B", label: "Backwards"), HelpBarItem(key: "^R", label: "Replace"),
        ])
    _ = update(&state, .control("r"))
    #expect(keymap.helpBar(for: state).map(\.label) == ["Cancel", "Case Sens", "Accents", "Reg.exp."])
    state.mode = .prompt(Prompt(kind: .writeOut))
    #expect(keymap.helpBar(for: state).map(\.label) == ["Cancel", "DOS Format", "Mac Format", "Latin-1", "Browse"])
    state.mode = .confirmSave
    #expect(
        keymap.helpBar(for: state) == [
            HelpBarItem(key: " Y", label: "Yes"), HelpBarItem(key: " N", label: "No"),
            HelpBarItem(key: "^C", label: "Cancel"),
        ])
    state.mode = .confirmReplace(
        ReplaceSession(
            search: "x", replacement: "y", match: 0..<1, stopOffset: 0, wrapped: false,
            count: 0, originalCursor: 0))
    #expect(keymap.helpBar(for: state).map(\.key) == [" Y", " N", " A", "^C"])
    state.mode = .help
    #expect(keymap.helpBar(for: state).map(\.label) == ["Close", "Prev Page", "Next Page", "Prev Line", "Next Line"])
    let ocr = EditorState(displayName: "p.jpg", saveName: "p.txt", recognizing: true)
    #expect(
        keymap.helpBar(for: ocr) == [
            HelpBarItem(key: "Esc", label: "Cancel OCR"), HelpBarItem(key: "^X", label: "Exit"),
        ])
}

@Test func aChangedKeymapChangesTheHelpBarAndTheKeys() {
    var custom = Keymap.nano
    custom.editing[0].keys = [.function(1)]
    custom.editing[0].barLabel = "Aide"
    var state = EditorState(displayName: "p", saveName: "p.txt", text: "x")
    let frame = render(state, size: TerminalSize(rows: 24, columns: 80), keymap: custom)
    #expect(frame.text(ofRow: 22).hasPrefix("F1 Aide"))
    _ = update(&state, .control("g"), keymap: custom)
    #expect(state.mode == .editing)
    _ = update(&state, .function(1), keymap: custom)
    #expect(state.mode == .help)
}

@Test func keyListForHelpOption() {
    let lines = keymap.keyList(width: 80, indent: "  ")
    #expect(
        lines == [
            "  ^G Help  ^X Exit  ^O Write Out  M-M Mail  ^W Where Is  ^\\ Replace  ^K Cut",
            "  ^U Paste  M-U Undo  M-E Redo  ^C Location  M-W Next  M-] Next Doubt",
            "  M-[ Prev Doubt  M-Y Accept  M-Space Readings  M-P Photo  M-F Data",
            "  M-C Clipboard  M-O Read Again  Esc Cancel OCR",
        ])
    #expect(lines.allSatisfy { $0.count <= 80 })
}

@Test func keyNames() {
    #expect(KeyEvent.control("\\").helpName == "^\\")
    #expect(KeyEvent.control(" ").helpName == "^Space")
    #expect(KeyEvent.meta("u").helpName == "M-U")
    #expect(KeyEvent.character("y").helpName == "y")
    #expect(KeyEvent.pageDown.helpName == "PgDn")
    #expect(KeyEvent.modified(.right, .control).helpName == "^Right")
}

// MARK: - The help screen

@Test func helpScreenScrollsAndAnyOtherKeyClosesIt() {
    var state = EditorState(displayName: "p", saveName: "p.txt", text: "x")
    _ = update(&state, .control("g"))
    let size = TerminalSize(rows: 24, columns: 80)
    var frame = render(state, size: size)
    #expect(frame.text(ofRow: 1).hasPrefix("LoveInASnap: fix the poem"))
    #expect(frame.text(ofRow: 22).hasPrefix("^X Close"))
    _ = update(&state, .down)
    frame = render(state, size: size)
    #expect(frame.text(ofRow: 1).hasPrefix("^ means Ctrl"))
    for _ in 0..<20 { _ = update(&state, .pageDown) }
    frame = render(state, size: size)
    let screen = keymap.helpScreen(width: 80)
    #expect(frame.text(ofRow: 20).hasPrefix(screen[screen.count - 1]))  // the last page is full
    #expect(frame.text(ofRow: 1).hasPrefix(screen[screen.count - 20]))
    _ = update(&state, .control("y"))
    #expect(render(state, size: size).text(ofRow: 1).hasPrefix(screen[screen.count - 38]))
    _ = update(&state, .character("q"))
    #expect(state.mode == .editing)
    #expect(state.buffer.text == "x")  // the key closed help, nothing else
    _ = update(&state, .control("g"))
    #expect(render(state, size: size).text(ofRow: 1).hasPrefix("LoveInASnap"))  // from the top again
    _ = update(&state, .control("x"))
    #expect(state.mode == .editing)
    #expect(state.exitCode == nil)
}

@Test func helpLinesWrapUnderTheirDescription() {
    #expect(
        Keymap.wrap("^G F1   show this help screen now", width: 20) == [
            "^G F1   show this", "        help screen", "        now",
        ])
    #expect(Keymap.wrap("short", width: 20) == ["short"])
    #expect(Keymap.wrap("M-Space ^Space  other readings", width: 10) == ["M-Space", "^Space", "other", "readings"])
    #expect(Keymap.wrap("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
}

@Test func theHelpScreenFitsAndScrollsAt20x6() {
    var state = EditorState(
        displayName: "p", saveName: "p.txt", text: "x", screenSize: TerminalSize(rows: 6, columns: 20))
    _ = update(&state, .control("g"))
    let size = TerminalSize(rows: 6, columns: 20)
    let lines = keymap.helpScreen(width: 20)
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 20 })
    #expect(render(state, size: size).text(ofRow: 1) == "LoveInASnap: fix the")
    for _ in 0..<500 { _ = update(&state, .down) }
    let frame = render(state, size: size)
    #expect(frame.text(ofRow: 1).hasPrefix(lines[lines.count - 2]))
    #expect(frame.text(ofRow: 2).hasPrefix(lines[lines.count - 1]))
    #expect(frame.text(ofRow: 4).hasPrefix("^X Close"))
}

/// The file browser's pure parts: entries listed as nano lists them, the grid's moves, a folder
/// entered, a file taken answering the prompt it was opened from.
@Suite struct FileBrowserTests {
    let entries = FolderEntry.sorted([
        FolderEntry(name: "poem.txt", isFolder: false, size: 6), FolderEntry(name: "Sub", isFolder: true),
        FolderEntry(name: "..", isFolder: true), FolderEntry(name: "big.bin", isFolder: false, size: 3000),
        FolderEntry(name: "a.txt", isFolder: false, size: 3), FolderEntry(name: "huge", isFolder: false, size: 5 << 30),
    ])

    @Test func entriesAreSortedAndSizedAsNanoShowsThem() {
        #expect(entries.map(\.name) == ["..", "Sub", "a.txt", "big.bin", "huge", "poem.txt"])
        #expect(entries.map(\.info) == ["(parent dir)", "(dir)", "   3  B", "   2 KB", "   5 GB", "   6  B"])
        #expect(FolderEntry(name: "broken-link", isFolder: false, size: nil).info == "--")
        #expect(FileBrowser.cellWidth(entries, width: 80) == 20)
        #expect(FileBrowser.columns(entries, width: 80) == 4)
    }

    @Test func movesEnterAFolderAndAFileAnswersThePrompt() {
        var state = EditorState(displayName: "poem.txt", saveName: "poem.txt")
        let prompt = Prompt(kind: .insertFile, answer: "notes/")
        state.mode = .prompt(prompt)
        #expect(update(&state, .control("t")) == [.listFolder("notes/", fallback: ".")])
        apply(.folderListed(path: "/home/l/notes", entries: entries, workingFolder: "/home/l"), to: &state)
        guard case .browser(let opened) = state.mode else {
            Issue.record("no browser: \(state.mode)")
            return
        }
        #expect(opened.folder == "/home/l/notes" && opened.selected == 0 && opened.entries == entries)
        _ = update(&state, .down)  // 4 a row: "huge"
        _ = update(&state, .right)
        guard case .browser(let moved) = state.mode else { return }
        #expect(moved.selected == 5)
        // A file: the prompt answered with its path from the working folder, at once.
        #expect(update(&state, .enter) == [.insertFile(path: "notes/poem.txt")])
        #expect(state.mode == .editing)

        state.mode = .browser(opened)
        _ = update(&state, .right)
        #expect(update(&state, .enter) == [.listFolder("/home/l/notes/Sub")])
        apply(
            .folderListed(
                path: "/home/l/notes/Sub", entries: [FolderEntry(name: "..", isFolder: true)], workingFolder: "/home/l"),
            to: &state)
        #expect(update(&state, .enter) == [.listFolder("/home/l/notes/Sub/..")])
        // Back up: the folder left is highlighted.
        apply(.folderListed(path: "/home/l/notes", entries: entries, workingFolder: "/home/l"), to: &state)
        guard case .browser(let up) = state.mode else { return }
        #expect(up.selected == 1)
        // ^X: the prompt as it was.
        _ = update(&state, .control("x"))
        #expect(state.mode == .prompt(prompt))
    }
}
