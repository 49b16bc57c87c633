import Foundation
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41, items 2, 3, 7 and 8: one recovery file per editor, a private state folder that a
/// planted link or another user cannot use, and the files a killed save leaves found again.
@Suite struct RecoveryJournalSafetyTests {
    let a = RecoveryJournal.Owner(pid: 101, started: 5)
    let b = RecoveryJournal.Owner(pid: 102, started: 6)

    func journal(_ tmp: TempFolder, _ owner: RecoveryJournal.Owner) -> RecoveryJournal {
        RecoveryJournal(folder: tmp.file("state/lovesnap"), owner: owner)
    }

    /// Sets `path`'s modification time `seconds` before now.
    func age(_ path: String, _ seconds: Int) {
        var times = [
            timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), timespec(tv_sec: time(nil) - seconds, tv_nsec: 0),
        ]
        utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    @Test func twoEditorsOnOneFileKeepTwoFilesAndASaveRemovesOnlyItsOwn() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let document = tmp.file("poem.txt")
        let (first, second) = (journal(tmp, a), journal(tmp, b))
        try first.write("A's text\n", forDocument: document)
        age(first.path(forDocument: document), 30)
        try second.write("B's text\n", forDocument: document)
        #expect(first.path(forDocument: document) != second.path(forDocument: document))
        #expect((first.path(forDocument: document) as NSString).lastPathComponent.hasSuffix(".101-5.recovery"))
        #expect(tmp.names(in: tmp.file("state/lovesnap")).count == 2)

        // A saves: B's file stays.
        first.remove(forDocument: document)
        #expect(first.entry(forDocument: document) == nil)
        #expect(second.entry(forDocument: document)?.text == "B's text\n")

        // A third editor sees both of the others, newest first, with their writers.
        try first.write("A again\n", forDocument: document)
        age(first.path(forDocument: document), 60)
        let third = journal(tmp, RecoveryJournal.Owner(pid: 103, started: 7))
        let entries = third.entries(forDocument: document)
        #expect(entries.map(\.text) == ["B's text\n", "A again\n"])
        #expect(entries.map(\.owner) == [b, a])
        #expect(entries.allSatisfy { !$0.isInUse })  // no process 101 or 102 started at 5 or 6

        // Recovering B's text makes the file the third editor's own.
        try third.adopt(entries[0].path, forDocument: document)
        #expect(third.entry(forDocument: document)?.text == "B's text\n")
        #expect(second.entry(forDocument: document) == nil)
        #expect(third.holds(entries[0].path))
        #expect(!third.holds(tmp.file("poem.txt")))
    }

    @Test func aRecoveryWriteCutShortByAKillLeavesNoTemporaryFileForever() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let document = tmp.file("poem.txt")
        let (first, second) = (journal(tmp, a), journal(tmp, b))
        try first.write("kept\n", forDocument: document)
        let folder = tmp.file("state/lovesnap")
        let own = (first.path(forDocument: document) as NSString).lastPathComponent
        let cut = "." + own + ".lovesnap-Ab12Cd"  // as AtomicFile.replace names its temporary file
        let fresh = "." + own + ".lovesnap-Zz99Yy"
        let other = "." + own.replacingOccurrences(of: "poem.txt.", with: "other.txt.") + ".lovesnap-Ab12Cd"
        for name in [cut, fresh, other] { try put("half", folder + "/" + name, mode: 0o600) }
        for name in [cut, other] { age(folder + "/" + name, 120) }
        // B opens the document: A's stale temporary file goes, the fresh one (a write going on)
        // and another document's stay, and so does A's recovery file.
        #expect(second.removeUnfinishedWrites(forDocument: document) == 1)
        #expect(tmp.names(in: folder) == [fresh, other, own].sorted())
        // An editor never removes its own (it may be writing it).
        age(folder + "/" + fresh, 120)
        #expect(first.removeUnfinishedWrites(forDocument: document) == 0)
        #expect(second.removeUnfinishedWrites(forDocument: document) == 1)

        // A long name keeps its recovery file's name under the 100 octets of the temporary name.
        let long = tmp.file(String(repeating: "é", count: 100) + ".txt")
        let name = (first.path(forDocument: long) as NSString).lastPathComponent
        #expect(name.utf8.count <= 100)
        #expect(name.hasPrefix(String(repeating: "é", count: 20) + "."))
        #expect(name.hasSuffix(".101-5.recovery"))
    }

    @Test func aFileOfTheOneFilePerDocumentNamingIsStillOffered() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let document = tmp.file("poem.txt")
        let journal = journal(tmp, a)
        try journal.write("x", forDocument: document)
        let own = journal.path(forDocument: document)
        let old = own.replacingOccurrences(of: ".101-5.recovery", with: ".recovery")
        #expect(rename(own, old) == 0)
        #expect(journal.entries(forDocument: document).map(\.path) == [old])
        #expect(journal.entries(forDocument: document).first?.owner == nil)
    }

    @Test func thisProcessIsRunningAndItsStartTimeIsRead() {
        let me = RecoveryJournal.Owner.current
        #expect(me.pid == getpid())
        #expect(me.started > 0)
        #expect(me.isRunning)
        #expect(!RecoveryJournal.Owner(pid: getpid(), started: me.started + 1).isRunning)
    }

    @Test func aLinkPlantedAtTheRecoveryFileIsReplacedNeverFollowed() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let document = tmp.file("poem.txt")
        let journal = journal(tmp, a)
        try journal.write("first\n", forDocument: document)
        let own = journal.path(forDocument: document)

        // A dangling link: its target is not created.
        #expect(unlink(own) == 0)
        #expect(symlink(tmp.file("made-by-link"), own) == 0)
        try journal.write("typed\n", forDocument: document)
        #expect(!FileManager.default.fileExists(atPath: tmp.file("made-by-link")))
        #expect(bytes(own) == Array("typed\n".utf8))
        #expect(mode(own) == 0o600)

        // A link to an existing file: that file keeps its bytes and mode.
        try put("precious\n", tmp.file("victim.txt"), mode: 0o644)
        #expect(unlink(own) == 0)
        #expect(symlink(tmp.file("victim.txt"), own) == 0)
        try journal.write("typed again\n", forDocument: document)
        #expect(bytes(tmp.file("victim.txt")) == Array("precious\n".utf8))
        #expect(mode(tmp.file("victim.txt")) == 0o644)

        // A link is never read back as a recovery file.
        let other = journal.path(forDocument: document).replacingOccurrences(of: ".101-5.", with: ".999-1.")
        #expect(symlink(tmp.file("victim.txt"), other) == 0)
        #expect(journal.entries(forDocument: document).isEmpty)
        #expect(unlink(own) == 0)
        #expect(symlink(tmp.file("victim.txt"), own) == 0)
        #expect(journal.entry(forDocument: document) == nil)
    }

    @Test func aStateFolderOthersCanWriteOrALinkedOneIsRefused() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let document = tmp.file("poem.txt")
        let journal = journal(tmp, a)
        try journal.write("typed\n", forDocument: document)
        #expect(mode(tmp.file("state/lovesnap")) == 0o700)

        #expect(chmod(tmp.file("state/lovesnap"), 0o777) == 0)
        #expect(
            throws: ShareError.writeFailed(
                path: tmp.file("state/lovesnap"), reason: "writable by others; recovery is off")
        ) {
            try journal.write("more\n", forDocument: document)
        }
        #expect(journal.entry(forDocument: document) == nil)  // nothing read from it either
        #expect(journal.entries(forDocument: document).isEmpty)
        #expect(bytes(journal.path(forDocument: document)) == Array("typed\n".utf8))
        #expect(chmod(tmp.file("state/lovesnap"), 0o700) == 0)

        // The folder itself a link: refused.
        try FileManager.default.createDirectory(atPath: tmp.file("elsewhere"), withIntermediateDirectories: false)
        #expect(symlink(tmp.file("elsewhere"), tmp.file("linked")) == 0)
        let linked = RecoveryJournal(folder: tmp.file("linked"), owner: a)
        #expect(
            throws: ShareError.writeFailed(
                path: tmp.file("linked"), reason: "a symbolic link, not a folder of its own; recovery is off")
        ) {
            try linked.write("typed\n", forDocument: document)
        }
        #expect(tmp.names(in: tmp.file("elsewhere")) == [])

        // Another user's folder (only root can make one here).
        if geteuid() == 0 {
            #expect(chown(tmp.file("state/lovesnap"), 65534, 65534) == 0)
            #expect(
                throws: ShareError.writeFailed(
                    path: tmp.file("state/lovesnap"), reason: "owned by another user; recovery is off")
            ) {
                try journal.write("more\n", forDocument: document)
            }
            #expect(journal.entries(forDocument: document).isEmpty)
        }
    }

    @Test func theFilesAKilledSaveLeftAreFoundOnceQuiet() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let document = tmp.file("poème.txt")
        try put("on disk\n", document)
        try put("half a sa", tmp.file(".poème.txt.lovesnap-Ab12Cd"))
        try put("the old text\n", tmp.file("poème.txt.lovesnap-backup-Zz9yX8"))
        try put("not ours\n", tmp.file(".poème.txt.lovesnap-toolong1"))  // not mkstemp's six letters
        try put("not ours\n", tmp.file(".other.txt.lovesnap-Ab12Cd"))
        #expect(symlink(tmp.file("poème.txt"), tmp.file(".poème.txt.lovesnap-Link00")) == 0)
        for name in tmp.names() { age(tmp.file(name), 120) }
        age(tmp.file(".poème.txt.lovesnap-Ab12Cd"), 90)
        try put("being written\n", tmp.file(".poème.txt.lovesnap-Now000"))  // a save in progress

        let found = SaveLeftovers.find(forDocument: document)
        #expect(
            found.map(\.path) == [tmp.file(".poème.txt.lovesnap-Ab12Cd"), tmp.file("poème.txt.lovesnap-backup-Zz9yX8")])
        #expect(found.map(\.kind) == [.unfinishedSave, .backupOfOldText])
        #expect(found.map(\.bytes) == [Array("half a sa".utf8), Array("the old text\n".utf8)])

        // Through a link to the document: the leftovers beside the real file.
        #expect(symlink(document, tmp.file("link.txt")) == 0)
        #expect(SaveLeftovers.find(forDocument: tmp.file("link.txt")).map(\.path) == found.map(\.path))

        SaveLeftovers.remove(found[0])
        #expect(SaveLeftovers.find(forDocument: document).map(\.path) == [tmp.file("poème.txt.lovesnap-backup-Zz9yX8")])
    }
}
