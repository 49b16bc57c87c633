import SnapTerminal
import SnapText
import Testing

@testable import SnapEditor

private func photoEditor(_ job: FakeRecognition, sharing: FakeSharing = FakeSharing()) -> (Editor, FakeTerminal) {
    let terminal = FakeTerminal()
    let configuration = EditorConfiguration.photo(path: "/photos/raven.jpg", recognition: job, sharing: sharing)
    return (Editor(terminal: terminal, configuration: configuration), terminal)
}

@Test func progressShowsBarPercentAndPhotoName() {
    let job = FakeRecognition([.progress(percent: 40)])
    let (editor, terminal) = photoEditor(job)
    #expect(editor.pollRecognition())
    #expect(editor.state.recognition == .running(percent: 40))
    let frame = render(editor.state, size: terminal.size)
    let screen = frame.text
    #expect(screen.contains("Reading raven.jpg"))
    #expect(screen.contains("[################------------------------] 40%"))
    #expect(frame.cursor == nil)
    editor.press(.character("x"))  // typing waits for the text
    #expect(editor.state.buffer.text == "")
}

@Test func escapeCancelsTheOCR() {
    let job = FakeRecognition([.progress(percent: 10)])
    let (editor, _) = photoEditor(job)
    editor.pollRecognition()
    editor.press(.escape)
    #expect(job.cancelCount == 1)
    #expect(editor.state.recognition == .cancelled)
    #expect(editor.state.status == StatusMessage("OCR cancelled; M-O reads the photo again"))
    #expect(editor.state.buffer.text == "")
    job.pending = [.finished(text: "late", meanConfidence: 90)]
    editor.pollRecognition()
    #expect(editor.state.buffer.text == "")  // late results are dropped
    editor.press(typing("ok"))
    #expect(editor.state.buffer.text == "ok")
}

@Test func finishedTextIsLoadedUnmodifiedWithConfidence() {
    let job = FakeRecognition([
        .progress(percent: 50), .finished(text: "Once upon a midnight\ndreary\n", meanConfidence: 91),
    ])
    let (editor, terminal) = photoEditor(job)
    editor.pollRecognition()
    #expect(editor.state.buffer.text == "Once upon a midnight\ndreary\n")
    #expect(editor.state.isModified == false)
    #expect(editor.state.saveName == "/photos/raven.txt")
    #expect(editor.state.status == StatusMessage("Read 2 lines (conf 91)"))
    let title = render(editor.state, size: terminal.size).text(ofRow: 0)
    #expect(title.contains("raven.jpg"))
    #expect(title.hasSuffix("conf 91 "))
    editor.press(.character("O"))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 0).hasSuffix("Modified  conf 91 "))
}

@Test func notesFromTheRecognitionAreShownWithTheResult() {
    let job = FakeRecognition([
        .finished(
            text: "poem\n", meanConfidence: 93,
            notes: ["page turned 180° clockwise (orientation detected, confidence 9.9)"])
    ])
    let (editor, _) = photoEditor(job)
    editor.pollRecognition()
    #expect(
        editor.state.status
            == StatusMessage("Read 1 line (conf 93); page turned 180° clockwise (orientation detected, confidence 9.9)")
    )
}

@Test func failureLeavesAnUsableEmptyBuffer() {
    let job = FakeRecognition([.failed(message: "Cannot read raven.jpg: not an image")])
    let (editor, _) = photoEditor(job)
    editor.pollRecognition()
    #expect(editor.state.recognition == .failed(message: "Cannot read raven.jpg: not an image"))
    #expect(editor.state.status == StatusMessage("Cannot read raven.jpg: not an image", isError: true))
    editor.press(typing("hi"))
    #expect(editor.state.buffer.text == "hi")
}

@Test func exitDuringOCRCancelsIt() {
    let job = FakeRecognition()
    let (editor, _) = photoEditor(job)
    editor.press(.control("x"))
    #expect(editor.state.exitCode == 0)
    #expect(job.cancelCount == 1)
}

@Test func runLoopPollsDrawsAndExits() {
    let job = FakeRecognition([.finished(text: "poem\n", meanConfidence: 88)])
    let terminal = FakeTerminal(keys: typing("A"))
    let editor = Editor(
        terminal: terminal, configuration: .photo(path: "raven.jpg", recognition: job, sharing: FakeSharing()))
    #expect(editor.run() == 0)
    #expect(editor.state.buffer.text == "Apoem\n")
    #expect(terminal.frames.first?.text(ofRow: 0).contains("raven.jpg") == true)
    #expect(terminal.frames.contains { $0.text.contains("Save modified buffer?") })
}

@Test func saveNameForPhotos() {
    #expect(EditorConfiguration.textFileName(forPhoto: "raven.jpg") == "raven.txt")
    #expect(EditorConfiguration.textFileName(forPhoto: "/p/a.b.png") == "/p/a.b.txt")
    #expect(EditorConfiguration.textFileName(forPhoto: "scan") == "scan.txt")
    #expect(EditorConfiguration.textFileName(forPhoto: ".hidden") == ".hidden.txt")
    #expect(EditorConfiguration.textFileName(forPhoto: "dir.v2/photo") == "dir.v2/photo.txt")
    #expect(EditorConfiguration.textFileName(forPhoto: "/p/photo.txt") == "/p/photo.txt.txt")
    #expect(EditorConfiguration.fileName(of: "/p/Noël à Québec.jpg") == "Noël à Québec.jpg")
    let text = EditorConfiguration.textFile(path: "poem.txt", text: "x", sharing: FakeSharing())
    #expect(text.defaultSaveName == "poem.txt")
    #expect(text.savesToOwnFile)
}

@Test func exitAfterOCRAsksToSaveTheTextThatExistsNowhereElse() {
    let sharing = FakeSharing()
    let (editor, _) = photoEditor(FakeRecognition([.finished(text: "Lenore\n", meanConfidence: 90)]), sharing: sharing)
    editor.pollRecognition()
    #expect(editor.state.isModified == false)
    editor.press(.control("x"))
    #expect(editor.state.mode == .confirmSave)
    editor.press(.character("y"), .enter)
    #expect(sharing.saved.first?.path == "/photos/raven.txt")
    #expect(editor.state.displayName == "raven.txt")  // the title follows the file written, as nano's
    #expect(editor.state.exitCode == 0)
}

@Test func exitWithNoTextFoundDoesNotAsk() {
    let (editor, _) = photoEditor(FakeRecognition([.finished(text: "", meanConfidence: 0)]))
    editor.pollRecognition()
    editor.press(.control("x"))
    #expect(editor.state.exitCode == 0)
}
