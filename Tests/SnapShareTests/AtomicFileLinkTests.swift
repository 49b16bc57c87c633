import Foundation
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

/// Saving a file with several hard links, and `--backup`'s NAME~.
@Suite struct AtomicFileLinkTests {
    let old = "the rare and radiant maiden\nLà-bas où dort la forêt,\n"
    let new = Array("un cœur naïf rêve encore,\nX\n".utf8)

    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    func links(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_nlink) : 0
    }

    @Test func everyHardLinkSeesTheNewText() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        try FileManager.default.createDirectory(atPath: tmp.file("other"), withIntermediateDirectories: false)
        let path = tmp.file("poem.txt")
        try put(old, path, mode: 0o640)
        #expect(link(path, tmp.file("other/same-poem.txt")) == 0)
        let before = inode(path)

        try AtomicFile.write(new, to: path)
        #expect(bytes(path) == new)
        #expect(bytes(tmp.file("other/same-poem.txt")) == new)
        #expect(inode(path) == before)
        #expect(links(path) == 2)
        #expect(mode(path) == 0o640)
        // The temporary backup copy is gone; nothing else is left.
        #expect(tmp.names() == ["other", "poem.txt"])
        #expect(tmp.names(in: tmp.file("other")) == ["same-poem.txt"])

        // Shorter, then longer again: no stale bytes.
        try AtomicFile.write(Array("short\n".utf8), to: tmp.file("other/same-poem.txt"))
        #expect(bytes(path) == Array("short\n".utf8))
        try AtomicFile.write(new, to: path)
        #expect(bytes(tmp.file("other/same-poem.txt")) == new)
    }

    @Test func backupKeepsTheOldFileAsNameTilde() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("poem.txt")
        try put(old, path, mode: 0o604)
        let before = inode(path)
        try AtomicFile.write(new, to: path, backup: true)
        #expect(bytes(path) == new)
        #expect(bytes(path + "~") == Array(old.utf8))
        #expect(inode(path + "~") == before)  // the old file itself
        #expect(mode(path + "~") == 0o604)
        #expect(tmp.names() == ["poem.txt", "poem.txt~"])

        // The next save replaces NAME~ with the file as it was just before.
        try AtomicFile.write(Array("third\n".utf8), to: path, backup: true)
        #expect(bytes(path + "~") == new)
        #expect(bytes(path) == Array("third\n".utf8))
        #expect(tmp.names() == ["poem.txt", "poem.txt~"])

        // A new file has nothing to back up.
        try AtomicFile.write(new, to: tmp.file("fresh.txt"), backup: true)
        #expect(tmp.names() == ["fresh.txt", "poem.txt", "poem.txt~"])
    }

    @Test func backupOfAHardLinkedFileIsACopy() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("poem.txt")
        try put(old, path, mode: 0o640)
        #expect(link(path, tmp.file("twin.txt")) == 0)
        try AtomicFile.write(new, to: path, backup: true)
        #expect(bytes(path) == new)
        #expect(bytes(tmp.file("twin.txt")) == new)
        #expect(bytes(path + "~") == Array(old.utf8))
        #expect(mode(path + "~") == 0o640)
        #expect(inode(path + "~") != inode(path))
        #expect(links(path) == 2)
        #expect(tmp.names() == ["poem.txt", "poem.txt~", "twin.txt"])
    }

    @Test func backupThroughASymlinkSitsBesideTheRealFile() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        try FileManager.default.createDirectory(atPath: tmp.file("real"), withIntermediateDirectories: false)
        try put(old, tmp.file("real/poem.txt"))
        symlink("real/poem.txt", tmp.file("link.txt"))
        try AtomicFile.write(new, to: tmp.file("link.txt"), backup: true)
        #expect(bytes(tmp.file("real/poem.txt~")) == Array(old.utf8))
        #expect(tmp.names() == ["link.txt", "real"])
    }

    @Test func forcedModeForNewAndExistingFiles() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("journal")
        try AtomicFile.write(new, to: path, mode: 0o600)
        #expect(mode(path) == 0o600)
        chmod(path, 0o644)
        try AtomicFile.write(new, to: path, mode: 0o600)
        #expect(mode(path) == 0o600)
    }
}

/// The recovery files of the editor's journal.
@Suite struct RecoveryJournalTests {
    @Test func folderFollowsXDG() {
        #expect(RecoveryJournal.defaultFolder(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/lovesnap")
        #expect(
            RecoveryJournal.defaultFolder(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"])
                == "/h/.local/state/lovesnap")
        #expect(RecoveryJournal.defaultFolder(environment: ["HOME": "/h/"]) == "/h/.local/state/lovesnap")
        #expect(RecoveryJournal.defaultFolder(environment: [:]) == nil)
    }

    @Test func writesPrivatelyReadsBackAndRemoves() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let journal = RecoveryJournal(folder: tmp.file("state/lovesnap"))
        let document = tmp.file("poem.txt")
        #expect(journal.entry(forDocument: document) == nil)
        let text = "Hé! Lenore,\n.\nFrom here\n"
        let written = Date()
        try journal.write(text, forDocument: document)
        let entry = try #require(journal.entry(forDocument: document))
        #expect(entry.bytes == Array(text.utf8))
        #expect(entry.text == text)
        #expect(abs(entry.modified.timeIntervalSince(written)) < 60)
        #expect(mode(entry.path) == 0o600)
        #expect(mode(tmp.file("state")) == 0o700)
        #expect(mode(tmp.file("state/lovesnap")) == 0o700)
        #expect(tmp.names(in: tmp.file("state/lovesnap")) == [(entry.path as NSString).lastPathComponent])
        #expect((entry.path as NSString).lastPathComponent.hasPrefix("poem.txt."))
        #expect(entry.path.hasSuffix(".recovery"))
        journal.remove(forDocument: document)
        #expect(journal.entry(forDocument: document) == nil)
        #expect(tmp.names(in: tmp.file("state/lovesnap")) == [])
    }

    @Test func theSameDocumentByAnyNameIsOneFileAndOtherFoldersAreOthers() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        try FileManager.default.createDirectory(atPath: tmp.file("a"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: tmp.file("b"), withIntermediateDirectories: false)
        symlink(tmp.file("a"), tmp.file("link-to-a"))
        let journal = RecoveryJournal(folder: tmp.file("state"))
        #expect(
            journal.path(forDocument: tmp.file("a/poem.txt"))
                == journal.path(forDocument: tmp.file("link-to-a/poem.txt")))
        #expect(journal.path(forDocument: tmp.file("a/poem.txt")) != journal.path(forDocument: tmp.file("b/poem.txt")))
        let here = FileManager.default.currentDirectoryPath
        #expect(journal.path(forDocument: "poem.txt") == journal.path(forDocument: here + "/poem.txt"))
    }
}
