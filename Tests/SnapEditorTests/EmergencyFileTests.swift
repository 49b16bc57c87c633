import Foundation
import Testing
@testable import SnapEditor
import SnapTerminal
#if canImport(Glibc)
import Glibc
#endif

/// A new empty folder (real path) for one test.
private func folder(_ label: String = "dir") -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lsnap-emergency-\(label)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

private func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

private func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

// MARK: - Naming

@Test func candidateNamesFollowNano() {
    #expect(EmergencySave.candidate("raven.txt", number: 0) == "raven.txt.save")
    #expect(EmergencySave.candidate("raven.txt", number: 1) == "raven.txt.save.1")
    #expect(EmergencySave.candidate("/p/poem.txt", number: 2) == "/p/poem.txt.save.2")
    #expect(EmergencySave.candidate("/p/poem.txt", number: 12) == "/p/poem.txt.save.12")
}

@Test func locationsAreOwnFolderThenHomeThenTmp() {
    #expect(EmergencySave.locations(forSaveName: "/photos/raven.txt", home: "/home/ann")
            == ["/photos/raven.txt", "/home/ann/raven.txt", "/tmp/raven.txt"])
    #expect(EmergencySave.locations(forSaveName: "raven.txt", home: "/home/ann/")
            == ["raven.txt", "/home/ann/raven.txt", "/tmp/raven.txt"])
    #expect(EmergencySave.locations(forSaveName: "/p/poem.txt", home: nil)
            == ["/p/poem.txt", "/tmp/poem.txt"])
    #expect(EmergencySave.locations(forSaveName: "/p/poem.txt", home: "", temporaryFolder: "/var/tmp")
            == ["/p/poem.txt", "/var/tmp/poem.txt"])
    #expect(EmergencySave.locations(forSaveName: "/tmp/poem.txt", home: "/tmp")
            == ["/tmp/poem.txt"])
    #expect(EmergencySave.locations(forSaveName: "", home: "/home/ann")
            == ["lovesnap", "/home/ann/lovesnap", "/tmp/lovesnap"])
}

@Test func photoNameGivesTxtSave() {
    // The editor's save name for a photo is its .txt name; the emergency file adds .save.
    let saveName = EditorConfiguration.textFileName(forPhoto: "/p/raven.jpg")
    #expect(EmergencySave.candidate(saveName, number: 0) == "/p/raven.txt.save")
}

// MARK: - Writing

@Test func writesNameSaveThenNumberedOnes() throws {
    let dir = folder()
    let name = dir + "/poem.txt"
    let text: [UInt8] = Array("Lenore é\r\nline 2\n".utf8)
    #expect(EmergencySave.write(text, saveName: name, home: nil) == .saved(path: dir + "/poem.txt.save"))
    #expect(EmergencySave.write([0x41], saveName: name, home: nil) == .saved(path: dir + "/poem.txt.save.1"))
    #expect(EmergencySave.write([0x42], saveName: name, home: nil) == .saved(path: dir + "/poem.txt.save.2"))
    #expect(contents(dir + "/poem.txt.save") == text)           // earlier files untouched
    #expect(contents(dir + "/poem.txt.save.1") == [0x41])
    #expect(contents(dir + "/poem.txt.save.2") == [0x42])
    #expect(names(in: dir) == ["poem.txt.save", "poem.txt.save.1", "poem.txt.save.2"])
    let mode = try FileManager.default.attributesOfItem(atPath: dir + "/poem.txt.save")[.posixPermissions] as? Int
    #expect(mode == 0o600)
}

@Test func fillsTheFirstFreeNumber() throws {
    let dir = folder()
    try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/raven.txt.save"))
    try Data("old1".utf8).write(to: URL(fileURLWithPath: dir + "/raven.txt.save.1"))
    #expect(EmergencySave.write(Array("new".utf8), saveName: dir + "/raven.txt", home: nil)
            == .saved(path: dir + "/raven.txt.save.2"))
    #expect(contents(dir + "/raven.txt.save") == Array("old".utf8))
    #expect(contents(dir + "/raven.txt.save.1") == Array("old1".utf8))
}

@Test func emptyTextMakesAnEmptyFile() {
    let dir = folder()
    #expect(EmergencySave.write([], saveName: dir + "/a.txt", home: nil) == .saved(path: dir + "/a.txt.save"))
    #expect(contents(dir + "/a.txt.save") == [])
}

@Test func doesNotFollowALinkInTheWay() throws {
    let dir = folder()
    let target = dir + "/victim"
    try FileManager.default.createSymbolicLink(atPath: dir + "/a.txt.save", withDestinationPath: target)
    #expect(EmergencySave.write([0x43], saveName: dir + "/a.txt", home: nil) == .saved(path: dir + "/a.txt.save.1"))
    #expect(!FileManager.default.fileExists(atPath: target))
}

@Test func missingFolderFallsBackToHome() {
    let home = folder("home"), tmp = folder("tmp")
    let outcome = EmergencySave.write([0x44], saveName: "/nonexistent-lovesnap-\(UUID().uuidString)/raven.txt",
                                      home: home, temporaryFolder: tmp)
    #expect(outcome == .saved(path: home + "/raven.txt.save"))
    #expect(contents(home + "/raven.txt.save") == [0x44])
    #expect(names(in: tmp).isEmpty)
}

@Test func unusableHomeFallsBackToTmp() {
    let tmp = folder("tmp")
    let gone = "/nonexistent-lovesnap-\(UUID().uuidString)"
    #expect(EmergencySave.write([0x45], saveName: gone + "/raven.txt", home: gone + "/home", temporaryFolder: tmp)
            == .saved(path: tmp + "/raven.txt.save"))
    #expect(EmergencySave.write([0x46], saveName: gone + "/raven.txt", home: nil, temporaryFolder: tmp)
            == .saved(path: tmp + "/raven.txt.save.1"))
}

@Test func nowhereToWriteReportsTheOwnFolder() {
    let gone = "/nonexistent-lovesnap-\(UUID().uuidString)"
    #expect(EmergencySave.write([0x47], saveName: gone + "/raven.txt", home: gone, temporaryFolder: gone + "/t")
            == .failed(reason: gone + "/raven.txt.save: No such file or directory"))
}

@Test(.enabled(if: geteuid() != 0, "skipped as root: root ignores a read-only folder's permissions"))
func readOnlyFolderFallsBackToHome() throws {
    let dir = folder("ro"), home = folder("home")
    chmod(dir, 0o555)
    defer { chmod(dir, 0o755) }
    #expect(EmergencySave.write([0x48], saveName: dir + "/poem.txt", home: home)
            == .saved(path: home + "/poem.txt.save"))
    #expect(names(in: dir).isEmpty)
}

@Test func fileInsteadOfFolderFallsBack() throws {
    // A path whose "folder" is a regular file: ENOTDIR, whoever runs the test.
    let dir = folder(), home = folder("home")
    try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/plain"))
    #expect(EmergencySave.write([0x49], saveName: dir + "/plain/poem.txt", home: home)
            == .saved(path: home + "/poem.txt.save"))
}

// MARK: - Messages

@Test func reportMessagesAndStatus() {
    #expect(TerminationReport(signal: SIGTERM, outcome: .saved(path: "/p/raven.txt.save")).message
            == "received SIGTERM; the text was saved to /p/raven.txt.save")
    #expect(TerminationReport(signal: SIGHUP, outcome: .nothingToSave).message == "received SIGHUP; nothing to save")
    #expect(TerminationReport(signal: SIGTERM, outcome: .failed(reason: "/ro/a.save: Permission denied")).message
            == "received SIGTERM; could not save the text: /ro/a.save: Permission denied")
    #expect(TerminationReport(signal: SIGTERM, outcome: .nothingToSave).exitCode == 143)
    #expect(TerminationReport(signal: SIGHUP, outcome: .nothingToSave).exitCode == 129)
}

// MARK: - The run loop

private func editor(text: String, saveName: String, recognition: FakeRecognition? = nil, home: String? = nil,
                    keys: [KeyEvent], signal: Int32) -> (Editor, FakeTerminal) {
    let terminal = FakeTerminal(keys: keys)
    terminal.signalAfterKeys = signal
    var configuration = EditorConfiguration(displayName: "poem.txt", defaultSaveName: saveName, savesToOwnFile: true,
                                            initialText: text, recognition: recognition, sharing: FakeSharing())
    configuration.homeFolder = home
    configuration.temporaryFolder = "/nonexistent-lovesnap-tmp"
    return (Editor(terminal: terminal, configuration: configuration), terminal)
}

@Test func sigtermSavesTheBufferAndReturns143() {
    let dir = folder()
    let original = "Lenore, the kettle\nhums\n"
    let (editor, terminal) = editor(text: original, saveName: dir + "/poem.txt",
                                    keys: [.character("X"), .character("é"), .right, .character("!")], signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(editor.termination == TerminationReport(signal: SIGTERM, outcome: .saved(path: dir + "/poem.txt.save")))
    #expect(editor.termination?.message == "received SIGTERM; the text was saved to \(dir)/poem.txt.save")
    #expect(contents(dir + "/poem.txt.save") == Array("XéL!enore, the kettle\nhums\n".utf8))
    #expect(!FileManager.default.fileExists(atPath: dir + "/poem.txt"))   // the document itself is not written
    #expect(terminal.timeouts.allSatisfy { $0 >= 0 && $0 <= 100 })       // the flag is looked at often
}

@Test func sighupLeavesAnUntouchedFileAlone() {
    // As nano: closing a terminal on a file nobody changed leaves no NAME.save behind.
    let dir = folder()
    let (editor, _) = editor(text: "poem", saveName: dir + "/poem.txt", keys: [], signal: SIGHUP)
    #expect(editor.run() == 129)
    #expect(editor.termination?.outcome == .nothingToSave)
    #expect(names(in: dir).isEmpty)
}

@Test func anOCRResultNeverWrittenIsSaved() {
    let dir = folder()
    let recognition = FakeRecognition([.finished(text: "Lenore\n", meanConfidence: 90)])
    let (editor, _) = editor(text: "", saveName: dir + "/raven.txt", recognition: recognition, keys: [], signal: SIGTERM)
    editor.pollRecognition()
    #expect(editor.run() == 143)
    #expect(contents(dir + "/raven.txt.save") == Array("Lenore\n".utf8))
}

@Test func untouchedEmptyBufferWritesNothing() {
    let dir = folder()
    let recognition = FakeRecognition()
    let (editor, _) = editor(text: "", saveName: dir + "/raven.txt", recognition: recognition, keys: [], signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(editor.termination?.message == "received SIGTERM; nothing to save")
    #expect(names(in: dir).isEmpty)
    #expect(recognition.cancelCount == 1)                                 // the OCR job is stopped
}

@Test func bufferEmptiedByTheUserIsStillSaved() {
    let dir = folder()
    let (editor, _) = editor(text: "ab", saveName: dir + "/poem.txt",
                             keys: [.delete, .delete], signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(editor.termination?.outcome == .saved(path: dir + "/poem.txt.save"))
    #expect(contents(dir + "/poem.txt.save") == [])
}

@Test func saveFailureIsReported() {
    let gone = "/nonexistent-lovesnap-\(UUID().uuidString)"
    let (editor, _) = editor(text: "poem", saveName: gone + "/poem.txt", home: gone, keys: [.character("!")], signal: SIGTERM)
    #expect(editor.run() == 143)
    #expect(editor.termination?.message
            == "received SIGTERM; could not save the text: \(gone)/poem.txt.save: No such file or directory")
}

@Test func signalPendingBeforeTheFirstKeyStopsAtOnce() {
    let dir = folder()
    let terminal = FakeTerminal(keys: [.character("z")])
    terminal.pendingTerminationSignal = SIGTERM
    let recognition = FakeRecognition([.finished(text: "q", meanConfidence: 90)])
    var configuration = EditorConfiguration(displayName: "p", defaultSaveName: dir + "/p.txt",
                                            recognition: recognition, sharing: FakeSharing())
    configuration.homeFolder = nil
    let editor = Editor(terminal: terminal, configuration: configuration)
    editor.pollRecognition()
    #expect(editor.run() == 143)
    #expect(terminal.keys == [.character("z")])                          // no key was read
    #expect(contents(dir + "/p.txt.save") == Array("q".utf8))
}

@Test func normalExitHasNoReport() {
    let (editor, terminal) = editor(text: "poem", saveName: folder() + "/poem.txt", keys: [.control("x")], signal: SIGTERM)
    terminal.signalAfterKeys = nil
    #expect(editor.run() == 0)
    #expect(editor.termination == nil)
}
