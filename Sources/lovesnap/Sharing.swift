import Foundation
import SnapEditor
import SnapExport
import SnapOCR
import SnapShare
import SnapSpelling
import SnapTerminal
import SnapText

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
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A mail command found nowhere is said with the To field, not once the Subject is typed.
    func fileNames(completing prefix: String) -> [String] {
        let folder = folderPart(of: prefix)
        let start = String(prefix.dropFirst(folder.count))
        let path = folder.isEmpty ? "." : PathName.expandingTilde(folder, home: home)
        guard let entries = try? Self.entries(ofFolder: FileSystemName(shown: path)) else { return [] }
        // Hidden files only when asked for, as a shell completes.
        return entries.filter { $0.name.hasPrefix(start) && (start.hasPrefix(".") || !$0.name.hasPrefix(".")) }
            .sorted { $0.name < $1.name }.map { $0.isFolder ? $0.name + "/" : $0.name }
    }

    func listFolder(_ path: String) throws -> (path: String, entries: [FolderEntry], workingFolder: String) {
        let working = Self.workingFolder()
        let expanded = PathName.expandingTilde(path, home: home)
        let absolute = expanded.hasPrefix("/") ? expanded : working + "/" + expanded
        let folder = URL(fileURLWithPath: absolute).standardized.path
        let entries = try Self.entries(ofFolder: FileSystemName(shown: folder))
        return (folder, (folder == "/" ? [] : [FolderEntry(name: "..", isFolder: true)]) + entries, working)
    }

    /// The working folder as the editor shows names (`FileSystemName.shown`: not UTF-8 is `\xNN`).
    static func workingFolder() -> String {
        guard let cwd = getcwd(nil, 0) else { return FileManager.default.currentDirectoryPath }
        defer { free(cwd) }
        let bytes = UnsafeBufferPointer(start: cwd, count: strlen(cwd)).map { UInt8(bitPattern: $0) }
        return FileSystemName(bytes: bytes).shown
    }

    /// The entries of `folder` but "." and "..", each named as the editor shows names (a name
    /// that is not UTF-8 as `\xNN`, read back by `FileSystemName(shown:)`), a folder (or a link to
    /// one) as a folder, a file with its size (nil when it cannot be looked at: a broken link, a
    /// folder that cannot be searched). Read with `opendir`/`readdir`, the bytes as they are.
    /// - Throws: `FolderListingError` naming the folder and why (`strerror`).
    static func entries(ofFolder folder: FileSystemName) throws -> [FolderEntry] {
        func withPath<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
            (bytes + [0]).withUnsafeBufferPointer {
                body(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self))
            }
        }
        guard let stream = withPath(folder.bytes, { opendir($0) }) else {
            throw FolderListingError(description: "\(folder.shown): \(String(cString: strerror(errno)))")
        }
        defer { closedir(stream) }
        var out: [FolderEntry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            var info = stat()
            let separated = folder.bytes.last == 0x2F ? folder.bytes : folder.bytes + [0x2F]
            let found = withPath(separated + name) { stat($0, &info) == 0 }
            let isFolder = found && (info.st_mode & S_IFMT) == S_IFDIR
            out.append(
                FolderEntry(
                    name: FileSystemName(bytes: name).shown, isFolder: isFolder,
                    size: found ? (isFolder ? 0 : Int(info.st_size)) : nil))
        }
        return out
    }

    func mailCommandProblem() -> String? {
        do {
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
                // One status line of 80 columns: why, and what makes one.
                description:
                    "No .\(export.fileExtension) of text read by lines or a region: lovesnap --reading page makes one"
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

/// A folder the file browser cannot open: which, and why (`strerror`).
struct FolderListingError: Error, CustomStringConvertible {
    let description: String
}
