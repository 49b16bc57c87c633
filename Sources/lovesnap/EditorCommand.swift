import Foundation
import SnapEditor
import SnapOCR
import SnapShare
import SnapTerminal

/// `lovesnap PHOTO` and `lovesnap edit FILE`: the full-screen editor.
enum EditorCommand {
    static func run(_ args: Arguments, input: InputFile) -> Int32 {
        let path = input.path
        let mail: MailCommand
        do {
            mail = try MailCommand.resolve(option: args.mailCommand, environment: ProcessInfo.processInfo.environment)
        } catch {
            Console.error("\(error)")
            return ExitCode.usage.rawValue
        }
        let sharing = Sharing(mail: mail)

        let configuration: EditorConfiguration
        if args.mode == .editText {
            let text: String
            do { text = try TextFile.read(path) } catch {
                Console.error(input.userFacing("\(error)"))
                return ExitCode.badInput.rawValue
            }
            var textConfiguration = input.path == input.shownPath
                ? EditorConfiguration.textFile(path: path, text: text, sharing: sharing)
                : EditorConfiguration(displayName: input.name, defaultSaveName: input.textPath, initialText: text,
                                      recognition: nil, sharing: sharing)
            if !FileManager.default.fileExists(atPath: path) {
                textConfiguration.initialStatus = "New File"
            } else {
                let lines = text.isEmpty ? 0 : text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
                textConfiguration.initialStatus = lines == 1 ? "Read 1 line" : "Read \(lines) lines"
            }
            configuration = textConfiguration
        } else {
            let task: WorkerRecognitionTask
            do {
                task = WorkerRecognitionTask(client: try WorkerClient(
                    executable: Executable.path, workerArguments: ["__worker"], request: WorkerRequest(options: args.options),
                    path: path, displayName: input.name, timeout: args.timeout), input: input)
            } catch {
                Console.error("cannot start the OCR worker: \(error)")
                return ExitCode.failure.rawValue
            }
            configuration = EditorConfiguration(displayName: input.name, defaultSaveName: input.textPath,
                                                recognition: task, sharing: sharing)
        }

        let terminal: NcursesTerminal
        // SIGTERM/SIGHUP are held for the editor, which saves the text and returns 128 + signal.
        do { terminal = try NcursesTerminal(deferTermination: true) } catch {
            configuration.recognition?.cancel()
            Console.error("\(error)")
            return ExitCode.failure.rawValue
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
    init(client: WorkerClient, input: InputFile) { self.client = client; self.input = input }

    func poll() -> [RecognitionEvent] {
        client.poll().map { event in
            switch event {
            case .progress(let p, _): return .progress(percent: p)
            case .finished(let r):
                return .finished(text: r.text, meanConfidence: r.meanConfidence,
                                 notes: r.notes.filter { !$0.isDiagnostic }.map(\.description))
            case .failed(let kind, let message):
                if kind != .cancelled { failure = input.userFacing(message) }
                return .failed(message: input.userFacing(message))
            }
        }
    }

    func cancel() { client.cancel() }
}

/// Saving and mailing through SnapShare.
struct Sharing: DocumentSharing {
    let mail: MailCommand

    func save(_ text: String, to path: String) throws {
        try AtomicFile.write(Array(text.utf8), to: Sharing.expandingTilde(path))
    }

    /// `~/x` → `$HOME/x`, as nano's Write Out prompt does.
    static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    func mail(_ text: String, to: String, subject: String) throws {
        let recipients = to.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        try mail.send(MailMessage(to: recipients, subject: subject, body: text))
    }
}

/// Reading a text file for `lovesnap edit`.
enum TextFile {
    struct ReadError: Error, CustomStringConvertible { let description: String }

    /// The file's text; it must be UTF-8 (bytes kept as they are: no normalisation).
    static func read(_ path: String) throws -> String {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            // As nano: a name that does not exist yet opens an empty buffer, if its folder exists.
            let folder = (path as NSString).deletingLastPathComponent
            if FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isDir), isDir.boolValue {
                return ""
            }
            throw ReadError(description: "\(path): No such file or directory")
        }
        if isDir.boolValue { throw ReadError(description: "\(path): Is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "\(path): \(String(cString: strerror(EACCES)))")
        }
        // String(validating:) keeps a byte-order mark; Foundation's decoder would drop it.
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ReadError(description: "\(path): not UTF-8 text")
        }
        return text
    }
}
