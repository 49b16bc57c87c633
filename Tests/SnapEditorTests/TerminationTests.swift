import SnapTerminal
import Testing

@testable import SnapEditor

#if canImport(Glibc)
    import Glibc
#endif

// SIGTERM / SIGHUP while the editor runs: the text is rescued through DocumentSharing (the real
// file writing is tested in SnapShareTests/EmergencyFileTests, the whole program in
// EndToEndTests/EmergencySaveTests).

@Test func reportMessagesAndStatus() {
    #expect(
        TerminationReport(signal: SIGTERM, outcome: .saved(path: "/p/raven.txt.save")).message
            == "received SIGTERM; the text was saved to /p/raven.txt.save")
    #expect(TerminationReport(signal: SIGHUP, outcome: .nothingToSave).message == "received SIGHUP; nothing to save")
    #expect(
        TerminationReport(signal: SIGTERM, outcome: .failed(reason: "/ro/a.save: Permission denied")).message
            == "received SIGTERM; could not save the text: /ro/a.save: Permission denied")
    #expect(TerminationReport(signal: SIGTERM, outcome: .nothingToSave).exitCode == 143)
    #expect(TerminationReport(signal: SIGHUP, outcome: .nothingToSave).exitCode == 129)
    #expect(TerminationReport.signalName(SIGQUIT) == "SIGQUIT")
    #expect(TerminationReport.signalName(64) == "signal 64")
}

@Test func terminationSignalAsksForAnEmergencySaveOnlyWhenThereIsSomethingToSave() {
    var untouched = EditorState(displayName: "p", saveName: "/p/poem.txt", text: "poem")
    #expect(apply(terminationSignal: SIGHUP, to: &untouched) == [])
    #expect(untouched.exitCode == 129)
    #expect(untouched.termination == TerminationReport(signal: SIGHUP, outcome: .nothingToSave))

    var changed = EditorState(displayName: "p", saveName: "/p/poem.txt", text: "poem")
    _ = update(&changed, .character("!"))
    #expect(
        apply(terminationSignal: SIGTERM, to: &changed)
            == [.emergencySave(text: "!poem", saveName: "/p/poem.txt", signal: SIGTERM)])
    #expect(changed.exitCode == nil)  // not before the save is done
    apply(.emergencySaved(path: "/p/poem.txt.save", signal: SIGTERM), to: &changed)
    #expect(changed.exitCode == 143)
    #expect(changed.termination == TerminationReport(signal: SIGTERM, outcome: .saved(path: "/p/poem.txt.save")))
    apply(.emergencySaveFailed(reason: "/p/poem.txt.save: Read-only file system", signal: SIGHUP), to: &changed)
    #expect(changed.termination?.outcome == .failed(reason: "/p/poem.txt.save: Read-only file system"))
}

// MARK: - The run loop

private func editor(
    text: String, saveName: String = "/p/poem.txt", recognition: FakeRecognition? = nil,
    sharing: FakeSharing = FakeSharing(), keys: [KeyEvent], signal: Int32
) -> (Editor, FakeTerminal) {
    let terminal = FakeTerminal(keys: keys)
    terminal.signalAfterKeys = signal
    let configuration = EditorConfiguration(
        displayName: "poem.txt", defaultSaveName: saveName, savesToOwnFile: true,
        initialText: text, recognition: recognition, sharing: sharing)
    return (Editor(terminal: terminal, configuration: configuration), terminal)
}

@Test func sigtermSavesTheBufferAndReturns143() {
    let sharing = FakeSharing()
    let original = "Lenore, the kettle\nhums\n"
    let (editor, terminal) = editor(
        text: original, sharing: sharing,
        keys: [.character("X"), .character("é"), .right, .character("!")], signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(editor.termination == TerminationReport(signal: SIGTERM, outcome: .saved(path: "/p/poem.txt.save")))
    #expect(editor.termination?.message == "received SIGTERM; the text was saved to /p/poem.txt.save")
    #expect(sharing.rescued.map(\.text) == ["XéL!enore, the kettle\nhums\n"])
    #expect(sharing.rescued.map(\.saveName) == ["/p/poem.txt"])
    #expect(sharing.saved.isEmpty)  // the document itself is not written
    #expect(terminal.timeouts.allSatisfy { $0 >= 0 && $0 <= 100 })  // the flag is looked at often
}

@Test func anExistingSaveFileGetsTheNextNumber() {
    let sharing = FakeSharing()
    sharing.items["/p/poem.txt.save"] = .other
    let (editor, _) = editor(text: "poem", sharing: sharing, keys: [.character("!")], signal: SIGHUP)
    #expect(editor.run() == 129)
    #expect(editor.termination?.message == "received SIGHUP; the text was saved to /p/poem.txt.save.1")
}

@Test func sighupLeavesAnUntouchedFileAlone() {
    // As nano: closing a terminal on a file nobody changed leaves no NAME.save behind.
    let sharing = FakeSharing()
    let (editor, _) = editor(text: "poem", sharing: sharing, keys: [], signal: SIGHUP)
    #expect(editor.run() == 129)
    #expect(editor.termination?.outcome == .nothingToSave)
    #expect(sharing.rescued.isEmpty)
}

@Test func anOCRResultNeverWrittenIsSaved() {
    let sharing = FakeSharing()
    let recognition = FakeRecognition([.finished(text: "Lenore\n", meanConfidence: 90)])
    let (editor, _) = editor(
        text: "", saveName: "/p/raven.txt", recognition: recognition, sharing: sharing,
        keys: [], signal: SIGTERM)
    editor.pollRecognition()
    #expect(editor.run() == 143)
    #expect(sharing.rescued.map(\.text) == ["Lenore\n"])
    #expect(editor.termination?.outcome == .saved(path: "/p/raven.txt.save"))
}

@Test func untouchedEmptyBufferWritesNothing() {
    let sharing = FakeSharing()
    let recognition = FakeRecognition()
    let (editor, _) = editor(
        text: "", saveName: "/p/raven.txt", recognition: recognition, sharing: sharing,
        keys: [], signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(editor.termination?.message == "received SIGTERM; nothing to save")
    #expect(sharing.rescued.isEmpty)
    #expect(recognition.cancelCount == 1)  // the OCR job is stopped
}

@Test func bufferEmptiedByTheUserIsStillSaved() {
    let sharing = FakeSharing()
    let (editor, _) = editor(text: "ab", sharing: sharing, keys: [.delete, .delete], signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(editor.termination?.outcome == .saved(path: "/p/poem.txt.save"))
    #expect(sharing.rescued.map(\.text) == [""])
}

@Test func saveFailureIsReported() {
    let sharing = FakeSharing()
    sharing.emergencyError = FakeError(description: "/gone/poem.txt.save: No such file or directory")
    let (editor, _) = editor(
        text: "poem", saveName: "/gone/poem.txt", sharing: sharing, keys: [.character("!")],
        signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(
        editor.termination?.message
            == "received SIGTERM; could not save the text: /gone/poem.txt.save: No such file or directory")
}

@Test func signalPendingBeforeTheFirstKeyStopsAtOnce() {
    let sharing = FakeSharing()
    let terminal = FakeTerminal(keys: [.character("z")])
    terminal.pendingTerminationSignal = SIGTERM
    let recognition = FakeRecognition([.finished(text: "q", meanConfidence: 90)])
    let configuration = EditorConfiguration(
        displayName: "p", defaultSaveName: "/p/p.txt",
        recognition: recognition, sharing: sharing)
    let editor = Editor(terminal: terminal, configuration: configuration)
    editor.pollRecognition()
    #expect(editor.run() == 143)
    #expect(terminal.keys == [.character("z")])  // no key was read
    #expect(terminal.frames.isEmpty)  // nor anything drawn
    #expect(sharing.rescued.map(\.text) == ["q"])
}

@Test func normalExitHasNoReport() {
    let (editor, terminal) = editor(text: "poem", keys: [.control("x")], signal: SIGTERM)
    terminal.signalAfterKeys = nil
    #expect(editor.run() == 0)
    #expect(editor.termination == nil)
}
