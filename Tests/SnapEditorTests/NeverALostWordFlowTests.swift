import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

// The recovery journal, the recovery question, read-only mode, and a file changed on disk.

/// A clock the test moves.
final class TestClock {
    var now = 1000.0
}

/// An editor on `text` whose journal is on, with a clock the test moves.
private func journaling(
    text: String = "poem\n", recovery: RecoveryOffer? = nil, later: [RecoveryOffer] = [],
    held: (() throws -> RecognitionTask)? = nil,
    sharing: FakeSharing = FakeSharing()
) -> (Editor, FakeTerminal, FakeSharing, TestClock) {
    let terminal = FakeTerminal()
    let clock = TestClock()
    var configuration = EditorConfiguration(
        displayName: "poem.txt", defaultSaveName: "/poems/poem.txt", savesToOwnFile: true, initialText: text,
        recognition: nil, sharing: sharing)
    configuration.journals = true
    configuration.recoveries = (recovery.map { [$0] } ?? []) + later
    configuration.heldRecognition = held
    let editor = Editor(terminal: terminal, configuration: configuration, clock: { clock.now })
    return (editor, terminal, sharing, clock)
}

@Test func theJournalIsWrittenOnceTheTextRestsAndRemovedOnSave() {
    var state = EditorState(displayName: "poem.txt", saveName: "/poems/poem.txt", savesToOwnFile: true, text: "poem")
    state.journal = JournalState(isEnabled: true)
    #expect(apply(clock: 0, to: &state) == [])  // nothing changed
    _ = update(&state, .character("!"))
    #expect(apply(clock: 10, to: &state) == [])  // just changed
    #expect(apply(clock: 10.5, to: &state) == [])
    let write = EditorEffect.writeJournal(text: "!poem", document: "/poems/poem.txt", revision: state.buffer.revision)
    #expect(apply(clock: 11, to: &state) == [write])  // rested 1 s
    apply(.journalWritten(document: "/poems/poem.txt", revision: state.buffer.revision), to: &state)
    #expect(apply(clock: 12, to: &state) == [])  // up to date

    // Typing on and on: written at most 4 s after the first change not yet written.
    for (i, t) in stride(from: 20.0, through: 23.5, by: 0.5).enumerated() {
        _ = update(&state, .character(i % 2 == 0 ? "a" : "b"))
        #expect(apply(clock: t, to: &state) == [])
    }
    _ = update(&state, .character("c"))
    #expect(
        apply(clock: 24, to: &state) == [
            .writeJournal(text: "!ababababcpoem", document: "/poems/poem.txt", revision: state.buffer.revision)
        ])
    apply(.journalWritten(document: "/poems/poem.txt", revision: state.buffer.revision), to: &state)

    // Saved: the recovery file goes.
    apply(.saved(path: "/poems/poem.txt"), to: &state)
    #expect(apply(clock: 30, to: &state) == [.removeJournal(document: "/poems/poem.txt")])
    apply(.journalRemoved(document: "/poems/poem.txt"), to: &state)
    #expect(apply(clock: 31, to: &state) == [])
    #expect(finishingEffects(state) == [])
}

@Test func theJournalFollowsWriteOutUnderAnotherNameAndAFailureIsShownOnce() {
    var state = EditorState(displayName: "poem.txt", saveName: "/poems/poem.txt", text: "poem")
    state.journal = JournalState(isEnabled: true)
    _ = update(&state, .character("!"))
    _ = apply(clock: 0, to: &state)
    #expect(apply(clock: 2, to: &state).count == 1)
    apply(.journalWritten(document: "/poems/poem.txt", revision: state.buffer.revision), to: &state)
    state.saveName = "/poems/other.txt"  // as a failed Write Out under another name leaves it
    #expect(
        apply(clock: 3, to: &state) == [
            .removeJournal(document: "/poems/poem.txt"),
            .writeJournal(text: "!poem", document: "/poems/other.txt", revision: state.buffer.revision),
        ])
    apply(.journalFailed(message: "/s/x: Permission denied", revision: state.buffer.revision), to: &state)
    #expect(state.status == StatusMessage("Cannot write the recovery file: /s/x: Permission denied", isError: true))
    #expect(apply(clock: 9, to: &state) == [])  // not retried until the text changes
    _ = update(&state, .character("?"))
    _ = apply(clock: 10, to: &state)
    #expect(apply(clock: 11, to: &state).count == 1)
    // Failing again is not set as a message again (typing would bring it back after every
    // pause), but the status line says it whenever it has nothing else to say, until a write works.
    apply(.journalFailed(message: "/s/x: Permission denied", revision: state.buffer.revision), to: &state)
    #expect(state.status == nil)
    let size = TerminalSize(rows: 24, columns: 80)
    #expect(
        render(state, size: size).text(ofRow: 21).contains(
            "[ Cannot write the recovery file: /s/x: Permission denied ]"))
    apply(.journalWritten(document: "/poems/other.txt", revision: state.buffer.revision), to: &state)
    #expect(!render(state, size: size).text(ofRow: 21).contains("recovery file"))
}

/// The run loop draws a failed write of the recovery file at once, with no key pressed (it was
/// drawn only after a resize, and the next key cleared it): the text is not protected.
@Test func aRecoveryFileThatCannotBeWrittenIsSaidWithoutAKey() {
    let (editor, terminal, sharing) = journalingPoem()
    sharing.journalError = FakeError(description: "/state/poem.txt.journal: No space left on device")
    // A key, then turns without a key (nil), then a key that clears a message, then a turn.
    terminal.turns = [.character("x"), nil, nil, nil, .character("y"), nil]
    #expect(editor.run() == 0)
    // 80 columns: the message fills the row, without nano's brackets.
    let said = "Cannot write the recovery file: /state/poem.txt.journal: No space left on device"
    // Frames: at the start, after "x", after the turns without a key in which the write failed
    // (drawn with no key pressed), after "y" (which clears messages: still said), after the turn
    // that tried again, and ^X's question.
    #expect(terminal.frames.map { $0.text(ofRow: 21).contains(said) } == [false, false, true, true, true, false])
}

@Test func aCleanExitRemovesTheJournalASignalKeepsIt() {
    var state = EditorState(displayName: "p", saveName: "/p.txt", text: "x")
    state.journal = JournalState(isEnabled: true)
    _ = update(&state, .character("!"))
    apply(.journalWritten(document: "/p.txt", revision: state.buffer.revision), to: &state)
    #expect(finishingEffects(state) == [.removeJournal(document: "/p.txt")])
    state.termination = TerminationReport(signal: 15, outcome: .saved(path: "/p.txt.save"))
    #expect(finishingEffects(state) == [])
}

/// An editor of "/poems/poem.txt" ("poem\n") that journals, its clock half a second a turn.
private func journalingPoem() -> (Editor, FakeTerminal, FakeSharing) {
    let sharing = FakeSharing()
    let terminal = FakeTerminal()
    var configuration = EditorConfiguration.textFile(path: "/poems/poem.txt", text: "poem\n", sharing: sharing)
    configuration.journals = true
    var now = 0.0
    let editor = Editor(
        terminal: terminal, configuration: configuration,
        clock: {
            now += 0.5
            return now
        })
    return (editor, terminal, sharing)
}

@Test func theRunLoopWritesAndRemovesTheJournal() {
    // .resize keys are turns without a change.
    let (editor, terminal, sharing) = journalingPoem()
    terminal.keys = typing("Hé") + [.resize, .resize, .resize, .resize, .control("s")]
    #expect(editor.run() == 0)  // then the fake's ^X: a clean exit
    #expect(sharing.journalWrites.map(\.text) == ["Hépoem\n"])
    #expect(sharing.journalWrites.map(\.document) == ["/poems/poem.txt"])
    #expect(sharing.saved.map(\.text) == ["Hépoem\n"])
    #expect(sharing.journalRemovals == ["/poems/poem.txt"])
}

@Test func theRecoveryQuestionOffersRecoverDiscardOrReadOnly() {
    let offer = RecoveryOffer(
        text: "Hé!poem\n", written: "2026-12-01 19:04:05", size: 9, file: "/state/poem.txt.1.recovery")

    var (editor, terminal, sharing, _) = journaling(recovery: offer)
    #expect(editor.state.mode == .recoveryOffer(offer))
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 1).hasPrefix("Hé!poem"))  // the recovered text is shown
    #expect(frame.text(ofRow: 21).hasPrefix("Recovery file of \"poem.txt\" written 2026-12-01 19:04:05 (9 bytes): "))
    #expect(frame.text(ofRow: 22).hasPrefix(" R Recover"))
    #expect(frame.text(ofRow: 23).hasPrefix(" D Discard"))
    editor.press(.character("x"))  // not an answer
    #expect(editor.state.mode == .recoveryOffer(offer))
    editor.press(.character("r"))
    #expect(editor.state.mode == .editing)
    #expect(editor.state.buffer.text == "Hé!poem\n")
    #expect(editor.state.isModified)
    #expect(editor.state.status == StatusMessage("Recovered 1 line written 2026-12-01 19:04:05; save it to keep it"))
    // The offered file becomes this editor's recovery file.
    #expect(sharing.adoptedRecoveries.map(\.0) == ["/state/poem.txt.1.recovery"])
    #expect(sharing.adoptedRecoveries.map(\.1) == ["Hé!poem\n"])
    #expect(sharing.adoptedRecoveries.map(\.2) == ["/poems/poem.txt"])
    #expect(editor.state.journal.writtenDocument == "/poems/poem.txt")
    // ^X, No: the user chose not to keep it, so the recovery file goes.
    terminal.keys = [.control("x"), .character("n")]
    #expect(editor.run() == 0)
    #expect(sharing.journalRemovals == ["/poems/poem.txt"])

    (editor, terminal, sharing, _) = journaling(recovery: offer)
    editor.press(.character("d"))
    #expect(editor.state.buffer.text == "poem\n")
    #expect(!editor.state.isModified)
    #expect(sharing.discardedRecoveries == ["/state/poem.txt.1.recovery"])
    #expect(sharing.journalRemovals.isEmpty)
    #expect(editor.state.status == StatusMessage("Recovery file discarded"))

    (editor, terminal, sharing, _) = journaling(recovery: offer)
    editor.press(.character("o"))
    #expect(editor.state.isReadOnly)
    #expect(render(editor.state, size: terminal.size).text(ofRow: 0).hasSuffix("  View "))
    #expect(editor.state.buffer.text == "poem\n")
    editor.press(.character("!"), .control("k"), .meta("u"), .control("t"))
    #expect(editor.state.buffer.text == "poem\n")
    #expect(editor.state.status == StatusMessage("Key is invalid in view mode"))
    editor.press(.control("w"))  // searching is fine
    #expect(editor.state.mode == .prompt(Prompt(kind: .search)))
    terminal.keys = [.control("c"), .control("x")]
    #expect(editor.run() == 0)
    #expect(sharing.journalRemovals.isEmpty)
    #expect(sharing.journalWrites.isEmpty)

    (editor, terminal, sharing, _) = journaling(recovery: offer)
    editor.press(.control("x"))
    #expect(editor.state.exitCode == 0)
    #expect(sharing.journalRemovals.isEmpty)
}

@Test func everyTextLeftForTheFileIsOfferedNewestFirstAndOneStillWrittenIsKept() {
    var first = RecoveryOffer(
        text: "B typed\n", written: "2026-12-01 19:05:00", size: 8, file: "/state/poem.txt.2-9.recovery",
        kind: .recoveryFileInUse(pid: 4242))
    var second = RecoveryOffer(
        text: "half a sa", written: "2026-12-01 19:04:30", size: 9, file: "/poems/.poem.txt.lovesnap-Ab12Cd",
        kind: .unfinishedSave)
    var third = RecoveryOffer(
        text: "old text\n", written: "2026-12-01 19:04:00", size: 9, file: "/poems/poem.txt.lovesnap-backup-Zz9yX8",
        kind: .oldTextBackup)
    (first.ordinal, second.ordinal, third.ordinal) = (1, 2, 3)
    (first.count, second.count, third.count) = (3, 3, 3)
    var (editor, terminal, sharing, _) = journaling(recovery: first, later: [second, third])
    func question() -> String { render(editor.state, size: TerminalSize(rows: 24, columns: 160)).text(ofRow: 21) }
    // 80 columns: the short form.
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix(
            "Recovery file of running lovesnap 4242 written 2026-12-01 19:05:00 (8 bytes; 1 o"))  // cut at 80
    #expect(
        question().hasPrefix(
            #"Recovery file of "poem.txt" from lovesnap 4242, still running, written 2026-12-01 19:05:00 (8 bytes; 1 of 3): "#
        ))
    // Discarding a recovery file another editor still writes keeps it.
    editor.press(.character("d"))
    #expect(sharing.discardedRecoveries.isEmpty)
    #expect(editor.state.mode == .recoveryOffer(second))
    #expect(
        question().hasPrefix(
            #"Unfinished save of "poem.txt" (.poem.txt.lovesnap-Ab12Cd) written 2026-12-01 19:04:30 (9 bytes; 2 of 3): "#
        ))
    editor.press(.character("d"))
    #expect(sharing.discardedRecoveries == ["/poems/.poem.txt.lovesnap-Ab12Cd"])
    #expect(editor.state.mode == .recoveryOffer(third))
    #expect(
        question().hasPrefix(
            #"Old text of "poem.txt" from an unfinished save (poem.txt.lovesnap-backup-Zz9yX8) written "#))
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix(
            "Old text in poem.txt.lovesnap-backup-Zz9yX8 written 2026-12-01 19:04:00 (9 bytes"))  // cut at 80
    editor.press(.character("r"))
    #expect(editor.state.buffer.text == "old text\n")
    #expect(sharing.adoptedRecoveries.map(\.0) == ["/poems/poem.txt.lovesnap-backup-Zz9yX8"])
    #expect(editor.state.status == StatusMessage("Recovered 1 line written 2026-12-01 19:04:00; save it to keep it"))

    // Recovering the first keeps the others for next time.
    (editor, terminal, sharing, _) = journaling(recovery: first, later: [second, third])
    editor.press(.character("r"))
    #expect(editor.state.buffer.text == "B typed\n")
    #expect(sharing.discardedRecoveries.isEmpty)
    #expect(
        editor.state.status
            == StatusMessage(
                "Recovered 1 line written 2026-12-01 19:05:00; save it to keep it (2 other texts kept for next time)"))
}

@Test func recoveringIsOneUndoStepAndSaysWhenTheFileIsNewer() {
    var offer = RecoveryOffer(
        text: "recovered\n", written: "2026-12-01 19:04:05", size: 10, file: "/state/poem.txt.1-2.recovery")
    offer.fileIsNewer = true
    let (editor, terminal, sharing, _) = journaling(recovery: offer)
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix(
            "Recovery file written 2026-12-01 19:04:05 (10 bytes; the file is newer): "))
    editor.press(.character("r"))
    #expect(editor.state.buffer.text == "recovered\n")
    #expect(editor.state.buffer.cursorOffset == 0)
    #expect(
        editor.state.status
            == StatusMessage(
                "Recovered 1 line; the file on disk is newer: M-U gives it back",
                isError: true))
    #expect(sharing.adoptedRecoveries.map(\.0) == ["/state/poem.txt.1-2.recovery"])
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "poem\n")
    editor.press(.meta("e"))
    #expect(editor.state.buffer.text == "recovered\n")
}

@Test func recoveringARunningEditorsFileCopiesItAndLeavesItsFile() {
    let offer = RecoveryOffer(
        text: "A's text\n", written: "2026-12-01 19:04:05", size: 9, file: "/state/poem.txt.7-8.recovery",
        kind: .recoveryFileInUse(pid: 7))
    let (editor, terminal, sharing, _) = journaling(recovery: offer)
    #expect(
        render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix(
            "Recovery file of running lovesnap 7 written 2026-12-01 19:04:05 (9 bytes): "))
    editor.press(.character("r"))
    #expect(editor.state.buffer.text == "A's text\n")
    #expect(sharing.adoptedRecoveries.isEmpty)
    #expect(sharing.discardedRecoveries.isEmpty)
    #expect(sharing.journalWrites.map(\.text) == ["A's text\n"])
    #expect(editor.state.journal.writtenDocument == "/poems/poem.txt")
}

@Test func keysTypedBeforeTheRecoveryQuestionDoNotAnswerIt() {
    let offer = RecoveryOffer(
        text: "recovered\n", written: "2026-12-01 19:04:05", size: 10, file: "/state/poem.txt.1-2.recovery")
    let (editor, terminal, sharing, _) = journaling(recovery: offer)
    terminal.typeahead = [.character("d"), .character("e"), .character("a"), .character("r")]
    terminal.keys = [.control("x")]  // typed once the question is seen
    #expect(editor.run() == 0)
    #expect(terminal.typeaheadDiscards == 1)
    #expect(sharing.discardedRecoveries.isEmpty)
    #expect(sharing.journalRemovals.isEmpty)
    #expect(editor.state.buffer.text == "poem\n")
}

@Test func aPhotosOCRWaitsForTheRecoveryQuestion() {
    let offer = RecoveryOffer(text: "recovered\n", written: "2026-12-01 19:04:05", size: 10)
    var started = 0
    let recognition = FakeRecognition([.finished(text: "read again\n", meanConfidence: 90)])
    var (editor, _, _, _) = journaling(
        text: "", recovery: offer,
        held: {
            started += 1
            return recognition
        })
    #expect(!editor.state.isRecognizing)
    editor.press(.character("d"))
    #expect(started == 1)
    #expect(editor.state.isRecognizing)
    editor.pollRecognition()
    #expect(editor.state.buffer.text == "read again\n")

    (editor, _, _, _) = journaling(
        text: "", recovery: offer,
        held: {
            started += 1
            return recognition
        })
    editor.press(.character("r"))
    #expect(started == 1)  // the recovered text is taken: no OCR
    #expect(editor.state.buffer.text == "recovered\n")
}

@Test func writeOutAsksWhenTheFileChangedOnDisk() {
    let sharing = FakeSharing()
    let opened = DiskVersion(device: 1, inode: 7, size: 5, modified: 100)
    sharing.versions["/poems/poem.txt"] = opened
    let terminal = FakeTerminal()
    var configuration = EditorConfiguration.textFile(path: "/poems/poem.txt", text: "poem\n", sharing: sharing)
    configuration.diskState = .present(opened)
    let editor = Editor(terminal: terminal, configuration: configuration)

    // Unchanged on disk: saved without a question.
    editor.press(.character("1"), .control("s"))
    #expect(sharing.saved.map(\.text) == ["1poem\n"])
    #expect(editor.state.diskState == .present(sharing.versions["/poems/poem.txt"]!))

    // Another program writes it.
    sharing.versions["/poems/poem.txt"] = DiskVersion(device: 1, inode: 9, size: 40, modified: 200)
    editor.press(.character("2"), .control("s"))
    #expect(sharing.saved.count == 1)
    #expect(editor.state.mode == .confirmChangedOnDisk(path: "/poems/poem.txt"))
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 21).hasPrefix("File \"/poems/poem.txt\" has changed on disk; overwrite? "))
    editor.press(.character("n"))  // another name, as nano
    #expect(editor.state.mode == .prompt(Prompt(kind: .writeOut, answer: "/poems/poem.txt")))
    editor.press(.enter)
    #expect(editor.state.mode == .confirmChangedOnDisk(path: "/poems/poem.txt"))
    editor.press(.control("c"))
    #expect(editor.state.status == StatusMessage("Cancelled"))
    #expect(sharing.saved.count == 1)
    editor.press(.control("o"), .enter, .character("y"))
    #expect(sharing.saved.map(\.text) == ["1poem\n", "12poem\n"])
    #expect(!editor.state.isModified)

    // Gone from disk: simply written again.
    sharing.versions["/poems/poem.txt"] = nil
    editor.press(.character("3"), .control("s"))
    #expect(sharing.saved.count == 3)
}

@Test func aNewFileThatAppearsMeanwhileAsksToo() {
    let sharing = FakeSharing()
    var configuration = EditorConfiguration.textFile(path: "/poems/new.txt", text: "", sharing: sharing)
    configuration.diskState = .absent
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    sharing.versions["/poems/new.txt"] = DiskVersion(device: 1, inode: 3, size: 1, modified: 1)
    editor.press(.character("x"), .control("s"))
    #expect(editor.state.mode == .confirmChangedOnDisk(path: "/poems/new.txt"))
}

@Test func anOCRResultIsJournaledUntilTheTextFileIsWritten() {
    var state = EditorState(displayName: "raven.jpg", saveName: "/poems/raven.txt", recognizing: true)
    state.journal = JournalState(isEnabled: true)
    #expect(apply(clock: 0, to: &state) == [])  // nothing read yet
    apply(.finished(text: "Once upon\n", meanConfidence: 91), to: &state)
    #expect(!state.isModified && state.hasUnsavedText)
    let write = EditorEffect.writeJournal(
        text: "Once upon\n", document: "/poems/raven.txt", revision: state.buffer.revision)
    #expect(apply(clock: 1, to: &state) == [write])
    apply(.journalWritten(document: "/poems/raven.txt", revision: state.buffer.revision), to: &state)
    #expect(apply(clock: 2, to: &state) == [])

    // An export is a copy: the text is still unsaved, its recovery file stays.
    apply(.saved(path: "/poems/raven.hocr"), to: &state)
    #expect(state.hasUnsavedText)
    #expect(apply(clock: 3, to: &state) == [])
    #expect(state.journal.writtenDocument == "/poems/raven.txt")

    // The text file written: the recovery file goes.
    apply(.saved(path: "/poems/raven.txt"), to: &state)
    #expect(apply(clock: 4, to: &state) == [.removeJournal(document: "/poems/raven.txt")])
}

@Test func readOnlyModeRefusesReadingARegionOfThePhoto() {
    var state = EditorState(displayName: "raven.jpg", saveName: "/poems/raven.txt", text: "Once upon\n")
    state.photos = [PhotoSource(path: "/poems/raven.jpg", name: "raven.jpg")]
    state.isReadOnly = true
    let view = PhotoView(photo: 0, region: WordBox(x: 10, y: 20, width: 300, height: 40))
    state.mode = .photo(view)
    #expect(update(&state, .enter).filter { if case .readRegion = $0 { true } else { false } } == [])
    #expect(state.status == StatusMessage("Key is invalid in view mode"))
    #expect(state.mode == .photo(view))

    state.isReadOnly = false
    #expect(
        update(&state, .enter).contains(
            .readRegion(photo: state.photos[0], index: 0, region: WordBox(x: 10, y: 20, width: 300, height: 40))))
}

@Test func writeOutRefusesAnImageNameBeforeAskingAboutTheFileOnDisk() {
    let sharing = FakeSharing()
    let opened = DiskVersion(device: 1, inode: 7, size: 5, modified: 100)
    sharing.versions["/poems/poem.png"] = DiskVersion(device: 1, inode: 9, size: 40, modified: 200)
    sharing.refusals["/poems/poem.png"] = "/poems/poem.png is an image; write text or .hocr .tsv .xml .pdf"
    var configuration = EditorConfiguration.textFile(path: "/poems/poem.png", text: "poem\n", sharing: sharing)
    configuration.diskState = .present(opened)
    let editor = Editor(terminal: FakeTerminal(), configuration: configuration)
    editor.press(.character("1"), .control("s"))
    #expect(editor.state.mode == .editing)
    #expect(
        editor.state.status
            == StatusMessage("/poems/poem.png is an image; write text or .hocr .tsv .xml .pdf", isError: true))
    #expect(sharing.saved.isEmpty)
    #expect(editor.state.isModified)
}
