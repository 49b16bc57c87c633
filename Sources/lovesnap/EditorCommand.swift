import Foundation
import SnapEditor
import SnapOCR
import SnapShare
import SnapSpelling
import SnapTerminal
import SnapText

/// `lovesnap PHOTO` and `lovesnap edit FILE`: the full-screen editor.
enum EditorCommand {
    /// - Returns: the editor's exit status (0, or 129 / 143 after an emergency save).
    /// - Throws: `CommandFailure` when the editor cannot start.
    static func run(_ args: Arguments, input: InputFile, isText: Bool) throws(CommandFailure) -> Int32 {
        let path = input.path
        let environment = ProcessInfo.processInfo.environment
        let mail: MailCommand
        do { mail = try MailCommand.resolve(option: args.mailCommand, environment: environment) } catch {
            throw .usage(error)
        }
        let sharing = Sharing(mail: mail, home: environment["HOME"])
        let textPath = EditorConfiguration.textFileName(forPhoto: input.pathForDerivedNames)

        var configuration: EditorConfiguration
        if isText {
            let file: TextFile
            do { file = try TextFile.read(path) } catch { throw .unreadableTextFile(error, input: input) }
            var textConfiguration =
                input.path == input.shownPath
                ? EditorConfiguration.textFile(path: path, content: file.content, sharing: sharing)
                : EditorConfiguration(
                    displayName: input.name, defaultSaveName: textPath, recognition: nil, sharing: sharing)
            if input.path != input.shownPath { textConfiguration.initialContent = file.content }
            let read = file.lineCount == 1 ? "Read 1 line" : "Read \(file.lineCount) lines"
            textConfiguration.initialStatus =
                file.isNew ? "New File" : read + (file.format.readNotice.map { " (\($0))" } ?? "")
            textConfiguration.format = file.format
            configuration = textConfiguration
        } else {
            let task: WorkerRecognitionTask
            do {
                task = WorkerRecognitionTask(
                    client: try WorkerClient(
                        executable: Executable.path, workerArguments: ["__worker"], options: args.options,
                        path: path, displayName: input.name, timeout: args.timeout), input: input,
                    proofreading: Proofreading(uncertainBelow: args.uncertainBelow))
                task.languages = args.options.engine.languages
            } catch {
                throw .workerNotStarted(error)
            }
            configuration = EditorConfiguration(
                displayName: input.name, defaultSaveName: textPath,
                recognition: task, sharing: sharing)
        }

        // ^R on a photo: OCR in a worker of its own, the text inserted with its marks.
        configuration.photoReader = { typed in
            let photo = PathName.expandingTilde(typed, home: environment["HOME"])
            let task = WorkerRecognitionTask(
                client: try WorkerClient(
                    executable: Executable.path, workerArguments: ["__worker"], options: args.options, path: photo,
                    displayName: EditorConfiguration.fileName(of: photo), timeout: args.timeout),
                input: try InputFile(argument: photo, rawBytes: nil),
                proofreading: Proofreading(uncertainBelow: args.uncertainBelow))
            task.languages = args.options.engine.languages
            return task
        }

        let terminal: NcursesTerminal
        // SIGTERM/SIGHUP are held for the editor, which saves the text and returns 128 + signal.
        do { terminal = try NcursesTerminal(deferTermination: true) } catch {
            configuration.recognition?.cancel()
            throw .terminalUnavailable(error)
        }
        let editor = Editor(terminal: terminal, configuration: configuration)
        let status = editor.run()
        terminal.shutdown()
        if let failure = (configuration.recognition as? WorkerRecognitionTask)?.failure { Console.error(failure) }
        if let termination = editor.termination { Console.error(termination.message) }
        configuration.recognition?.cancel()
        return status
    }
}

/// The OCR worker seen through the editor's `RecognitionTask` protocol.
final class WorkerRecognitionTask: RecognitionTask {
    let client: WorkerClient
    let input: InputFile
    /// The OCR failure, if any: the status line may cut it at the screen's width, so it is also
    /// printed in full on stderr when the editor ends.
    private(set) var failure: String?
    /// Which words are marked uncertain.
    let proofreading: Proofreading
    init(client: WorkerClient, input: InputFile, proofreading: Proofreading) {
        self.client = client
        self.input = input
        self.proofreading = proofreading
    }

    /// The editor's records of `result`'s words, with their doubts.
    static func proofWords(_ result: RecognitionResult, _ proofreading: Proofreading) -> [ProofWord] {
        let doubts = proofreading.doubts(about: result.words)
        return result.words.indices.map { i in
            let w = result.words[i]
            let b = w.boundingBox
            return ProofWord(
                text: w.text, range: w.textRange, confidence: w.confidence,
                box: WordBox(x: b.x, y: b.y, width: b.width, height: b.height), line: w.line,
                alternatives: w.alternatives, isUnknownWord: w.isKnownWord == false,
                doubts: doubts[i].map(\.description))
        }
    }

    func poll() -> [RecognitionEvent] {
        client.poll().map { event in
            switch event {
            case .progress(let percent, _): return .progress(percent: percent)
            case .finished(let r):
                return .finished(
                    text: r.text, meanConfidence: r.meanConfidence,
                    notes: r.notes.filter { !$0.isDiagnostic }.map(\.description),
                    words: Self.proofWords(r, proofreading))
            case .failed(let reason):
                let message = input.userFacing(reason.description)
                if reason != .cancelled { failure = message }
                return .failed(message: message)
            }
        }
    }

    func cancel() { client.cancel() }

    /// The languages' Hunspell dictionaries, loaded the first time a suggestion is asked for.
    private lazy var spelling: SpellChecker? = try? SpellChecker(languages: languages)
    /// The OCR languages (`-l`).
    var languages: [String] = EngineOptions.defaultLanguages

    func suggestions(for word: String) -> [String] {
        spelling?.suggestions(for: word) ?? []
    }
}

/// Saving, mailing and the emergency save through SnapShare.
struct Sharing: DocumentSharing {
    let mail: MailCommand
    /// `$HOME`, for `~/` in the Write Out prompt.
    let home: String?

    func save(_ text: Rope, to path: String, format: TextFormat) throws {
        try AtomicFile.write(try format.encode(text), to: PathName.expandingTilde(path, home: home))
    }

    func read(_ path: String) throws -> String {
        let expanded = PathName.expandingTilde(path, home: home)
        let photo = ["png", "jpg", "jpeg", "tif", "tiff", "gif", "bmp", "webp", "pnm", "ppm", "pgm", "pbm"]
        if photo.contains((expanded as NSString).pathExtension.lowercased()) {
            throw Refusal(
                description: "\(path) is a photo, and this editor cannot read photos")
        }
        let file = try TextFile.read(expanded)
        if file.isNew { throw FileError.unreadable(path: path, errno: ENOENT) }
        return file.text
    }

    /// A file ^R does not insert, with the reason shown.
    struct Refusal: Error, CustomStringConvertible { let description: String }

    func existingItem(at path: String) -> ExistingItem {
        var isDirectory: ObjCBool = false
        let path = PathName.expandingTilde(path, home: home)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .nothing }
        return isDirectory.boolValue ? .folder : .other
    }

    func saveEmergencyCopy(_ text: Rope, forDocument saveName: String) throws -> String {
        try EmergencyFile.write(
            try TextFormat(addsFinalNewline: false).encode(text),
            saveName: PathName.expandingTilde(saveName, home: home), home: home)
    }

    func mail(_ text: String, to: String, subject: String) throws {
        try mail.send(MailMessage(to: MailAddress.recipients(in: to), subject: subject, body: text))
    }
}
