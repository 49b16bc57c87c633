import Foundation
import SnapEditor
import SnapExport
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
        let journal = RecoveryJournal.defaultFolder(environment: environment).map { RecoveryJournal(folder: $0) }
        let pages = ReadPages()
        // The text file opened, or the one named after the photo, by the bytes of its name, as
        // the editor shows names (`FileSystemName.shown`: one that is not UTF-8 with `\xNN`), and
        // reads back what is typed (`Sharing.fileName`).
        let textPath =
            (isText
            ? input.fileName : input.fileName.mappingAsLatin1(EditorConfiguration.textFileName(forPhoto:))).shown
        let sharing = Sharing(
            mailing: try Mailing(args, environment: environment), home: environment["HOME"], journal: journal,
            backup: args.backup, pages: pages)
        // Every photo's documents come with its reading, so that Write Out can export them.
        var options = args.options
        options.exports = ExportFormat.rendered
        options.exportsIfPossible = true

        /// An OCR of `photo` with `options` in a worker of its own (every reading the editor starts:
        /// the photo's, a region's, M-O's, ^R's); its documents go to `pages` when given.
        func workerTask(_ options: RecognitionOptions, photo: InputFile, pages: ReadPages?) throws
            -> WorkerRecognitionTask
        {
            let task = WorkerRecognitionTask(
                client: try WorkerClient(
                    executable: Executable.path, workerArguments: ["__worker"], options: options, path: photo.path,
                    displayName: photo.name, timeout: args.timeout),
                input: photo, proofreading: Proofreading(uncertainBelow: args.uncertainBelow), pages: pages)
            task.languages = options.engine.languages
            return task
        }

        /// The photo's OCR in a worker (kept, to report its failure at the end).
        final class Started { var task: WorkerRecognitionTask? }
        let started = Started()
        func startRecognition() throws -> RecognitionTask {
            let task = try workerTask(options, photo: input, pages: pages)
            started.task = task
            return task
        }

        var configuration: EditorConfiguration
        var fileContent: Rope?
        if isText {
            let file: TextFile
            do { file = try TextFile.read(name: input.fileName) } catch {
                throw .unreadableTextFile(error, input: input)
            }
            var textConfiguration = EditorConfiguration.textFile(
                path: textPath, content: file.content, sharing: sharing)
            let read = file.lineCount == 1 ? "Read 1 line" : "Read \(file.lineCount) lines"
            textConfiguration.initialStatus =
                file.isNew ? "New File" : read + (file.format.readNotice.map { " (\($0))" } ?? "")
            textConfiguration.format = file.format
            if textConfiguration.savesToOwnFile {
                textConfiguration.diskState =
                    file.isNew ? .absent : sharing.version(of: textPath).map(DiskState.present)
            }
            fileContent = file.content
            configuration = textConfiguration
        } else {
            configuration = EditorConfiguration(
                displayName: input.name, defaultSaveName: textPath, recognition: nil, sharing: sharing)
            configuration.photo = PhotoSource(path: path, name: input.name)
            // Write Out refuses the photo, also while its reading waits for the recovery question.
            pages.photos.append(path)
        }

        // Texts of earlier runs that ended without saving: ask before anything else.
        configuration.journals = journal != nil
        let document = PathName.expandingTilde(configuration.defaultSaveName, home: environment["HOME"])
        journal?.removeUnfinishedWrites(forDocument: document)
        configuration.recoveries = Self.recoveryOffers(for: document, journal: journal, fileContent: fileContent)
        if !isText {
            if configuration.recoveries.isEmpty {
                do { configuration.recognition = try startRecognition() } catch { throw .workerNotStarted(error) }
            } else {
                configuration.heldRecognition = startRecognition
            }
        }

        // The photo view's regions: OCR of a part of the photo in a worker of its own.
        configuration.regionReader = { photo, box in
            var options = args.options
            options.region = PhotoRegion(
                pixels: BoundingBox(x: box.x, y: box.y, width: box.width, height: box.height),
                quarterTurnsClockwise: PhotoPreview.extraQuarterTurns(photo))
            // A region is part of a page already read: it makes no page of the exports (its words
            // there are typed words without a box).
            return try workerTask(options, photo: try InputFile(argument: photo.path, rawBytes: nil), pages: nil)
        }

        // M-O: the photo read again with the languages and level chosen, its documents a new page
        // (which replaces the old one in the exports when its text replaces the old text).
        configuration.readingChoice = ReadingChoice(
            languages: args.options.engine.languages.joined(separator: "+"), accurate: args.options.level == .accurate)
        configuration.photoRereader = { photo, choice in
            var again = options
            again.engine.languages = try EngineOptions.parseLanguages(choice.languages)
            again.level = choice.accurate ? .accurate : .fast
            let task = try workerTask(
                again, photo: photo.path == path ? input : try InputFile(argument: photo.path, rawBytes: nil),
                pages: pages)
            started.task = task
            return task
        }

        // ^R on a photo: OCR in a worker of its own, the text inserted with its marks.
        configuration.photoReader = { typed in
            // The photo by the bytes of its name, as the editor shows names (`Sharing.fileName`).
            let photo = try InputFile(name: sharing.fileName(typed))
            let task = try workerTask(options, photo: photo, pages: pages)
            pages.photos.append(photo.path)
            return task
        }

        let terminal: NcursesTerminal
        // SIGTERM/SIGHUP are held for the editor, which saves the text and returns 128 + signal.
        do { terminal = try NcursesTerminal(deferTermination: true) } catch {
            configuration.recognition?.cancel()
            throw .terminalUnavailable(error)
        }
        let cell = terminal.cellPixelSize ?? (10, 20)
        configuration.photoRenderer = PhotoPreview(
            pictures: PictureRenderer(
                environment: environment, colorCount: terminal.colorCount, cellWidth: cell.width,
                cellHeight: cell.height),
            memoryLimit: args.options.memoryLimit)
        let editor = Editor(terminal: terminal, configuration: configuration)
        let status = editor.run()
        terminal.shutdown()
        if let failure = started.task?.failure { Console.error(failure) }
        if let termination = editor.termination { Console.error(termination.message) }
        switch editor.stoppedJob {
        case .mail(let to)?: Console.error("the mail to \(to) was stopped; it may not have been sent")
        case .command(let commandLine, _)?: Console.error("'\(commandLine)' was stopped")
        case nil: break
        }
        started.task?.cancel()
        return status
    }

    /// The texts earlier runs left for `document`, newest first: the recovery files of other
    /// editors (`RecoveryJournal.entries`) and the files a killed save left beside it
    /// (`SaveLeftovers`). One that holds what the file on disk holds is removed instead (saved
    /// after all), unless another running editor writes it. Each says whether the document was
    /// changed on disk after it was written.
    static func recoveryOffers(for document: String, journal: RecoveryJournal?, fileContent: Rope?) -> [RecoveryOffer] {
        var info = stat()
        let onDiskInfo: stat? = stat(document, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? info : nil
        // A photo's text file is not read to open the photo: read here when a size matches.
        var diskBytes: [UInt8]? = fileContent?.utf8Bytes
        func onDisk(_ bytes: [UInt8]) -> Bool {
            guard let onDiskInfo, Int(onDiskInfo.st_size) == bytes.count else { return false }
            if diskBytes == nil { diskBytes = FileManager.default.contents(atPath: document).map { Array($0) } }
            return diskBytes == bytes
        }
        func newer(than written: Date) -> Bool {
            guard let onDiskInfo else { return false }
            let modified = Double(onDiskInfo.st_mtim.tv_sec) + Double(onDiskInfo.st_mtim.tv_nsec) / 1e9
            return modified > written.timeIntervalSince1970
        }
        var offers: [(modified: Date, offer: RecoveryOffer)] = []
        for entry in journal?.entries(forDocument: document) ?? [] {
            let running = entry.isInUse ? entry.owner?.pid : nil
            if onDisk(entry.bytes) {
                if running == nil { journal?.remove(entry) }
                continue
            }
            var offer = RecoveryOffer(
                text: entry.text, written: timestamp(entry.modified), size: entry.bytes.count, file: entry.path,
                kind: running.map { .recoveryFileInUse(pid: $0) } ?? .recoveryFile)
            offer.fileIsNewer = newer(than: entry.modified)
            offers.append((entry.modified, offer))
        }
        for leftover in SaveLeftovers.find(forDocument: document) {
            if onDisk(leftover.bytes) {
                SaveLeftovers.remove(leftover)
                continue
            }
            var offer = RecoveryOffer(
                text: String(decoding: leftover.bytes, as: UTF8.self), written: timestamp(leftover.modified),
                size: leftover.bytes.count, file: leftover.path,
                kind: leftover.kind == .unfinishedSave ? .unfinishedSave : .oldTextBackup)
            // A hard-linked file's backup is always older than the file rewritten after it.
            offer.fileIsNewer = leftover.kind == .unfinishedSave && newer(than: leftover.modified)
            offers.append((leftover.modified, offer))
        }
        let sorted = offers.sorted { $0.modified > $1.modified }.map(\.offer)
        return sorted.enumerated().map { index, offer in
            var offer = offer
            offer.ordinal = index + 1
            offer.count = sorted.count
            return offer
        }
    }

    /// A recovery file's time as the question shows it: "2026-12-01 19:04:05", local time.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}

/// The OCR worker seen through the editor's `RecognitionTask` protocol.
final class WorkerRecognitionTask: RecognitionTask {
    let client: WorkerClient
    let input: InputFile
    /// Where the reading's documents go when it finishes; nil when they make no page of the
    /// exports (a region is part of a page already read).
    let pages: ReadPages?
    /// The OCR failure, if any: the status line may cut it at the screen's width, so it is also
    /// printed in full on stderr when the editor ends.
    private(set) var failure: String?
    /// Which words are marked uncertain.
    let proofreading: Proofreading
    init(client: WorkerClient, input: InputFile, proofreading: Proofreading, pages: ReadPages?) {
        self.pages = pages
        self.client = client
        self.input = input
        self.proofreading = proofreading
    }

    /// The editor's records of `result`'s words, with their doubts, on export page `page`.
    static func proofWords(_ result: RecognitionResult, _ proofreading: Proofreading, page: Int?) -> [ProofWord] {
        let doubts = proofreading.doubts(about: result.words)
        return result.words.indices.map { i in
            let w = result.words[i]
            let b = w.boundingBox
            return ProofWord(
                text: w.text, range: w.textRange, confidence: w.confidence,
                box: WordBox(x: b.x, y: b.y, width: b.width, height: b.height), line: w.line,
                alternatives: w.alternatives, isUnknownWord: w.isKnownWord == false,
                doubts: doubts[i].map(\.description), otherReading: w.otherReading, page: page)
        }
    }

    func poll() -> [RecognitionEvent] {
        client.poll().map { event in
            switch event {
            case .progress(let percent, _): return .progress(percent: percent)
            case .finished(let r):
                var page: Int?
                if let pages, !r.text.isEmpty {
                    page = pages.documents.count
                    pages.documents.append(r.documents)
                }
                return .finished(
                    text: r.text, meanConfidence: r.meanConfidence,
                    notes: r.notes.filter { !$0.isDiagnostic }.map(\.description),
                    words: Self.proofWords(r, proofreading, page: page), rotationDegrees: r.rotationDegrees)
            case .failed(let reason):
                let message =
                    Self.asText(reason, path: input.path, shown: input.shownPath)
                    ?? input.userFacing(reason.description)
                if reason != .cancelled { failure = message }
                return .failed(message: message)
            }
        }
    }

    func cancel() { client.cancel() }

    /// What to say instead of `reason` when the "photo" is a text file (UTF-8 without NUL in its
    /// first 4 KiB) or is missing under a name that is not an image's: a nano user's
    /// `lovesnap notes.txt` meant to edit it, and `lovesnap edit` does (short enough for an
    /// 80-column status line). Nil otherwise, and for what is not a file named as typed (standard
    /// input, a pipe read into a file of its own: `path` is then not `shown`).
    static func asText(_ reason: WorkerFailure, path: String, shown: String) -> String? {
        guard path == shown else { return nil }
        let name = PathName.displayName(of: shown)
        let command = "lovesnap edit \(ShellWords.quoted(shown))"
        switch reason {
        case .unusablePhoto(.fileNotFound) where !ImageName.names(path):
            return "\(name): no such file; to start a text file: \(command)"
        case .unusablePhoto(.notAnImage):
            guard let file = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? file.close() }
            guard let head = try? file.read(upToCount: 4096), !head.isEmpty, !head.contains(0) else { return nil }
            // The last character may be cut at 4096 bytes.
            let isUTF8 = (0...min(3, head.count - 1)).contains { cut in
                String(validating: head.dropLast(cut), as: UTF8.self) != nil
            }
            return isUTF8 ? "\(name) is a text file, not a photo; to edit it: \(command)" : nil
        default:
            return nil
        }
    }

    /// The languages' Hunspell dictionaries, loaded the first time a suggestion is asked for.
    private lazy var spelling: SpellChecker? = try? SpellChecker(languages: languages)
    /// The OCR languages (`-l`).
    var languages: [String] = EngineOptions.defaultLanguages

    func suggestions(for word: String) -> [String] {
        spelling?.suggestions(for: word) ?? []
    }
}

/// The photos the editor read and their documents, in the order they were read (the main photo,
/// each one ^R inserted, each new reading of M-O): the pages Write Out's exports are made of.
final class ReadPages {
    /// Each reading's documents (nil: read without them), indexed by its words' `ProofWord.page`.
    var documents: [PageDocuments?] = []
    /// Every photo opened or inserted, as the worker was given it (Write Out refuses them).
    var photos: [String] = []
}

/// Saving (text and exports), mailing, ^T commands, the recovery journal and the emergency save
/// through SnapShare.
struct Sharing: DocumentSharing {
    let mailing: Mailing
    /// `$HOME`, for `~/` in the Write Out prompt.
    let home: String?
    /// Where recovery files go (nil: no journal).
    let journal: RecoveryJournal?
    /// `--backup`: keep NAME~.
    let backup: Bool
    /// The photos read, for exports.
    var pages = ReadPages()
    /// The file `path`, as the editor shows it or as it is typed there, stands for, `~/` expanded:
    /// `\xNN` is the byte NN, `\\` a backslash (`FileSystemName(shown:)`), as the editor shows
    /// a name that is not UTF-8.
    func fileName(_ path: String) -> FileSystemName {
        FileSystemName(shown: PathName.expandingTilde(path, home: home))
    }

    func refusal(toWrite path: String) -> String? {
        let expanded = PathName.expandingTilde(path, home: home)
        let name = fileName(path)
        if pages.photos.contains(where: { PathName.isSameFile(name, FileSystemName($0)) }) {
            return "\(path) is the photo being edited; lovesnap will not overwrite it"
        }
        if ImageName.names(expanded) {
            return "\(path) is an image; write text or .hocr .tsv .xml .pdf"
        }
        // What the write (`AtomicFile`) would refuse whatever the text, before "OVERWRITE?" is
        // asked, not after: a device (it writes regular files only), a folder that makes no file.
        do { try AtomicFile.check(name, shownAs: path) } catch { return "\(error)" }
        return nil
    }

    func refusal(toMail to: String) -> String? {
        do {
            _ = try mailing.message("", to: to, subject: "")
            // A mail command found nowhere is said now too, not once the Subject is typed.
            try mailing.command.checkRunnable()
            return nil
        } catch {
            return "\(error)"
        }
    }

    func save(_ text: Rope, to path: String, format: TextFormat) throws -> DiskVersion? {
        try AtomicFile.write(try format.encode(text), to: fileName(path), backup: backup)
        return version(of: path)
    }

    func save(_ text: Rope, to path: String, format: TextFormat, pages wanted: [ExportPage]) throws -> DiskVersion? {
        guard let export = ExportFormat(fileName: path), export != .txt else {
            return try save(text, to: path, format: format)
        }
        let read = wanted.map { pages.documents.indices.contains($0.page) ? pages.documents[$0.page] : nil }
        guard !read.isEmpty, !read.contains(where: { $0 == nil }) else {
            throw Refusal(
                description:
                    "\(path): no .\(export.fileExtension) document of this reading (a region, or a photo read along "
                    + "its detected lines: lovesnap --reading page PHOTO reads one with documents); write .txt for the text"
            )
        }
        let exported = zip(read, wanted).map { documents, page in
            ExportDocument.Page(documents: documents, corrections: page.corrections)
        }
        try AtomicFile.write(
            try ExportDocument.bytes(export, pages: exported, text: String(text)),
            to: fileName(path),
            backup: backup)
        return version(of: path)
    }

    func version(of path: String) -> DiskVersion? {
        PathName.version(of: fileName(path)).map {
            DiskVersion(device: $0.device, inode: $0.inode, size: $0.size, modified: $0.modified, changed: $0.changed)
        }
    }

    func read(_ path: String) throws -> String {
        let expanded = PathName.expandingTilde(path, home: home)
        if ImageName.names(expanded) {
            throw Refusal(
                description: "\(path) is a photo, and this editor cannot read photos")
        }
        let file = try TextFile.read(name: fileName(path))
        if file.isNew { throw FileError.unreadable(path: path, errno: ENOENT) }
        return file.text
    }

    /// A file ^R does not insert, with the reason shown.
    struct Refusal: Error, CustomStringConvertible { let description: String }

    func existingItem(at path: String) -> ExistingItem {
        switch PathName.kind(of: fileName(path)) {
        case nil: return .nothing
        case .folder?: return .folder
        case .other?, .special?: return .other
        }
    }

    func saveEmergencyCopy(_ text: Rope, forDocument saveName: String) throws -> String {
        try EmergencyFile.write(
            try TextFormat(addsFinalNewline: false).encode(text), saveName: fileName(saveName),
            home: home.map { FileSystemName($0) }
        ).shown
    }

    func startMail(_ text: Rope, to: String, subject: String) -> BackgroundJob {
        let message: MailMessage
        do { message = try mailing.message(String(text), to: to, subject: subject) } catch {
            return CallJob(ended: .failed(message: "\(error)"))
        }
        let mailing = self.mailing
        return CallJob(
            BackgroundCall { cancellation in
                try mailing.send(message, cancellation: cancellation)
                return ""
            })
    }

    func startCommand(_ commandLine: String, input: Rope) -> BackgroundJob {
        CallJob(
            BackgroundCall { cancellation in
                let output = try ExternalCommand.run(commandLine, input: input.utf8Bytes, cancellation: cancellation)
                return String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            })
    }

    func writeJournal(_ text: Rope, forDocument document: String) throws {
        try journal?.write(text.utf8Bytes, forDocument: PathName.expandingTilde(document, home: home))
    }

    func removeJournal(forDocument document: String) {
        journal?.remove(forDocument: PathName.expandingTilde(document, home: home))
    }

    func discardRecovery(file: String) {
        if let journal, journal.holds(file) {
            unlink(file)
        } else {
            SaveLeftovers.remove(path: file)
        }
    }

    func adoptRecovery(file: String, text: Rope, forDocument document: String) throws -> Bool {
        guard let journal else { return false }
        let document = PathName.expandingTilde(document, home: home)
        if journal.holds(file) {
            try journal.adopt(file, forDocument: document)
        } else {
            // A file a save left: the recovery file holds its text first, then it goes.
            try journal.write(text.utf8Bytes, forDocument: document)
            SaveLeftovers.remove(path: file)
        }
        return true
    }
}
