import Foundation
import SnapTerminal
import SnapText

@testable import SnapEditor

/// A terminal that plays scripted keys and keeps the frames drawn.
final class FakeTerminal: Terminal {
    var size: TerminalSize
    var keys: [KeyEvent]
    private(set) var frames: [Frame] = []
    private var reads = 0

    init(rows: Int = 24, columns: Int = 80, keys: [KeyEvent] = []) {
        self.size = TerminalSize(rows: rows, columns: columns)
        self.keys = keys
    }

    /// A termination signal the run loop should see (set directly, or by `signalAfterKeys`).
    var pendingTerminationSignal: Int32?
    /// Raised (made pending) once the scripted keys are used up, instead of the ^X / "n" keys.
    var signalAfterKeys: Int32?
    /// The timeouts the run loop asked for.
    private(set) var timeouts: [Int] = []

    func draw(_ frame: Frame) { frames.append(frame) }
    /// Keys typed ahead: dropped by `discardTypeahead` (the scripted `keys` are typed after it).
    var typeahead: [KeyEvent] = []
    /// How many times the typeahead was discarded.
    private(set) var typeaheadDiscards = 0
    func discardTypeahead() {
        typeaheadDiscards += 1
        typeahead = []
    }
    /// What was sent to the clipboard (OSC 52), oldest first.
    private(set) var clipboard: [String] = []
    func copyToClipboard(_ text: String) { clipboard.append(text) }

    /// The scripted keys, then ^X / "n" forever (leave, not saving); stops a runaway loop.
    /// Turns of the run loop before `keys`: a key, or nil for a turn in which none came.
    var turns: [KeyEvent?] = []

    func readKey(timeout: Int) -> KeyEvent? {
        reads += 1
        timeouts.append(timeout)
        precondition(reads < 10_000, "run loop does not end")
        if !typeahead.isEmpty { return typeahead.removeFirst() }
        if !turns.isEmpty { return turns.removeFirst() }
        if !keys.isEmpty { return keys.removeFirst() }
        if let signalAfterKeys {
            pendingTerminationSignal = signalAfterKeys
            return nil
        }
        return reads % 2 == 0 ? .control("x") : .character("n")
    }
}

struct FakeError: Error, CustomStringConvertible {
    let description: String
}

/// A background job whose outcome the test decides: at once (`outcome` set when made), or later
/// (``finish(_:)``); a cancel ends it as cancelled.
final class FakeJob: BackgroundJob {
    var outcome: JobOutcome?
    private(set) var cancelCount = 0

    init(_ outcome: JobOutcome? = nil) { self.outcome = outcome }

    func poll() -> JobOutcome? { outcome }

    func cancel() {
        cancelCount += 1
        if outcome == nil { outcome = .cancelled(message: "'job' was stopped") }
    }

    func finish(_ outcome: JobOutcome) { self.outcome = outcome }
}

/// Files and mail without any: records what would be saved, mailed, run or rescued, knows which
/// paths "exist" (every path saved to, and those put in `items`), and fails when told to.
final class FakeSharing: DocumentSharing {
    var saved: [(text: String, path: String)] = []
    /// The format of each save, in order.
    var savedFormats: [TextFormat] = []
    var mailed: [(text: String, to: String, subject: String)] = []
    var rescued: [(text: String, saveName: String)] = []
    /// What exists, by path; a path saved to becomes `.other`.
    var items: [String: ExistingItem] = [:]
    /// The names Tab completes: for each folder ("" the working one), its entries.
    var folders: [String: [String]] = [:]

    func fileNames(completing prefix: String) -> [String] {
        let folder = prefix.lastIndex(of: "/").map { String(prefix[...$0]) } ?? ""
        return (folders[folder] ?? []).filter { $0.hasPrefix(prefix.dropFirst(folder.count)) }.sorted()
    }
    var saveError: FakeError?
    var mailError: FakeError?
    var emergencyError: FakeError?
    /// The version of each file, by path (a save makes a new one).
    var versions: [String: DiskVersion] = [:]
    private var nextInode: UInt64 = 100
    /// Jobs hold until finished by the test when set; else they end at once.
    var holdJobs = false
    /// The jobs started, in order.
    private(set) var jobs: [FakeJob] = []
    /// Commands started with ^T, and their input; `commandOutputs` says what each prints.
    var commands: [(commandLine: String, input: String)] = []
    var commandOutputs: [String: JobOutcome] = [:]
    /// Journal writes and removals, in order.
    var journalWrites: [(text: String, document: String)] = []
    var journalRemovals: [String] = []
    /// Offered files discarded, and those adopted as the recovery file (file, text, document).
    var discardedRecoveries: [String] = []
    var adoptedRecoveries: [(String, String, String)] = []
    var journalError: FakeError?

    func save(_ text: Rope, to path: String, format: TextFormat) throws -> DiskVersion? {
        if let saveError { throw saveError }
        _ = try format.encode(text)  // as the real one: a character the encoding cannot hold fails
        saved.append((String(text), path))
        savedFormats.append(format)
        items[path] = .other
        nextInode += 1
        let version = DiskVersion(device: 1, inode: nextInode, size: Int64(text.utf8Count), modified: 0)
        versions[path] = version
        return version
    }

    /// The export pages each save was given, in order.
    var savedPages: [[ExportPage]] = []

    func save(_ text: Rope, to path: String, format: TextFormat, pages: [ExportPage]) throws -> DiskVersion? {
        savedPages.append(pages)
        return try save(text, to: path, format: format)
    }

    func version(of path: String) -> DiskVersion? { versions[path] }

    func startMail(_ text: Rope, to: String, subject: String) -> BackgroundJob {
        mailed.append((String(text), to, subject))
        let job = FakeJob(holdJobs ? nil : mailError.map { .failed(message: $0.description) } ?? .finished(output: ""))
        jobs.append(job)
        return job
    }

    func startCommand(_ commandLine: String, input: Rope) -> BackgroundJob {
        commands.append((commandLine, String(input)))
        let job = FakeJob(holdJobs ? nil : commandOutputs[commandLine] ?? .finished(output: String(input)))
        jobs.append(job)
        return job
    }

    func writeJournal(_ text: Rope, forDocument document: String) throws {
        if let journalError { throw journalError }
        journalWrites.append((String(text), document))
    }

    func removeJournal(forDocument document: String) {
        journalRemovals.append(document)
    }

    func discardRecovery(file: String) {
        discardedRecoveries.append(file)
    }

    func adoptRecovery(file: String, text: Rope, forDocument document: String) throws -> Bool {
        if let journalError { throw journalError }
        adoptedRecoveries.append((file, String(text), document))
        return true
    }

    func existingItem(at path: String) -> ExistingItem {
        items[path] ?? .nothing
    }

    /// Write Out's refusals (the photo, an image name), by path.
    var refusals: [String: String] = [:]

    func refusal(toWrite path: String) -> String? { refusals[path] }

    /// Mail's refusals, by To field.
    var mailRefusals: [String: String] = [:]

    func refusal(toMail to: String) -> String? { mailRefusals[to] }

    /// Texts ^R may insert, by path; any other path fails as a missing file.
    var files: [String: String] = [:]

    func read(_ path: String) throws -> String {
        guard let text = files[path] else { throw FakeError(description: "\(path): No such file or directory") }
        return text
    }

    /// "Writes" `saveName.save` (or `.save.N` when taken, as the real one does).
    func saveEmergencyCopy(_ text: Rope, forDocument saveName: String) throws -> String {
        if let emergencyError { throw emergencyError }
        rescued.append((String(text), saveName))
        var path = saveName + ".save"
        var number = 0
        while items[path] != nil {
            number += 1
            path = saveName + ".save.\(number)"
        }
        items[path] = .other
        return path
    }
}

/// An OCR job that hands out queued events and counts cancels.
final class FakeRecognition: RecognitionTask {
    var pending: [RecognitionEvent]
    private(set) var cancelCount = 0

    init(_ events: [RecognitionEvent] = []) { pending = events }

    func poll() -> [RecognitionEvent] {
        defer { pending = [] }
        return pending
    }

    func cancel() { cancelCount += 1 }

    /// The spelling suggestions handed out, by word; the words asked about, in order.
    var spellings: [String: [String]] = [:]
    private(set) var askedForSuggestions: [String] = []

    func suggestions(for word: String) -> [String] {
        askedForSuggestions.append(word)
        return spellings[word] ?? []
    }

    /// The words the fake dictionary knows (punctuation around a token ignored).
    var knownWords: Set<String> = ["more", "much", "many", "common", "mimic", "corn", "barn", "tune", "the", "clear"]

    func isKnownWord(_ token: String) -> Bool? {
        let word = token.trimmingCharacters(in: .punctuationCharacters)
        return word.isEmpty ? nil : knownWords.contains(word.lowercased())
    }
}

/// Keys that type `text`, one character each.
func typing(_ text: String) -> [KeyEvent] { text.map { KeyEvent.character($0) } }

/// An editor on a fake 80x24 terminal with `text`.
func makeEditor(
    text: String = "", name: String = "poem.txt", savePath: String? = nil,
    recognition: FakeRecognition? = nil, sharing: FakeSharing = FakeSharing(),
    rows: Int = 24, columns: Int = 80
) -> (Editor, FakeTerminal, FakeSharing) {
    let terminal = FakeTerminal(rows: rows, columns: columns)
    let configuration = EditorConfiguration(
        displayName: name, defaultSaveName: savePath ?? "/poems/out.txt",
        initialText: text, recognition: recognition, sharing: sharing)
    return (Editor(terminal: terminal, configuration: configuration), terminal, sharing)
}

extension Editor {
    func press(_ keys: KeyEvent...) { for key in keys { handle(key) } }
    func press(_ keys: [KeyEvent]) { for key in keys { handle(key) } }
}

/// A photo renderer that records its requests and draws one "#" cell per photo cell, fitting the
/// photo as the real one does (a cell twice as high as wide).
final class FakePhotoRenderer: PhotoRenderer {
    var width = 600, height = 300
    private(set) var requests: [PhotoRequest] = []
    var error: FakeError?

    func render(_ request: PhotoRequest) throws -> PhotoRendering {
        requests.append(request)
        if let error { throw error }
        var columns = request.columns
        var rows = max(1, Int((Double(columns) * Double(height) / Double(width) / 2).rounded()))
        if rows > request.rows {
            rows = request.rows
            columns = max(1, Int((Double(rows) * 2 * Double(width) / Double(height)).rounded()))
        }
        let cells = Array(repeating: Cell(content: "#"), count: columns * rows)
        return PhotoRendering(
            request: request, picture: Picture(columns: columns, rows: rows, content: .symbols(cells)),
            column: (request.columns - columns) / 2, row: (request.rows - rows) / 2, photoWidth: width,
            photoHeight: height)
    }
}
