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
