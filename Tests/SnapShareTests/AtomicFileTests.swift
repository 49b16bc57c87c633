import Foundation
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct AtomicFileTests {
    let old = "the rare and radiant maiden\nLà-bas où dort la forêt,\n"
    let new = Array("un cœur naïf rêve encore,\nX\n".utf8)

    @Test func createsANewFileWithUmaskedMode() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("poem.txt")
        try AtomicFile.write(new, to: path)
        #expect(bytes(path) == new)
        let mask = umask(0o022)
        umask(mask)
        #expect(mode(path) == 0o666 & ~mask)
        #expect(tmp.names() == ["poem.txt"])
    }

    @Test func replacesAndKeepsPermissionBits() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("poem.txt")
        try put(old, path, mode: 0o640)
        try AtomicFile.write(new, to: path)
        #expect(bytes(path) == new)
        #expect(mode(path) == 0o640)
        #expect(tmp.names() == ["poem.txt"])
        try AtomicFile.write([], to: path)
        #expect(bytes(path) == [])
    }

    @Test func writesThroughASymlink() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        try FileManager.default.createDirectory(atPath: tmp.file("real"), withIntermediateDirectories: false)
        try put(old, tmp.file("real/poem.txt"))
        symlink("real/poem.txt", tmp.file("link.txt"))  // relative link
        symlink(tmp.file("link.txt"), tmp.file("link2.txt"))  // absolute link to a link
        try AtomicFile.write(new, to: tmp.file("link2.txt"))
        #expect(bytes(tmp.file("real/poem.txt")) == new)
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: tmp.file("link.txt"))
        #expect(destination == "real/poem.txt")
        #expect(tmp.names() == ["link.txt", "link2.txt", "real"])
        #expect(tmp.names(in: tmp.file("real")) == ["poem.txt"])
    }

    @Test func danglingSymlinkCreatesItsTarget() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        symlink("made.txt", tmp.file("link.txt"))
        try AtomicFile.write(new, to: tmp.file("link.txt"))
        #expect(bytes(tmp.file("made.txt")) == new)
        #expect(tmp.names() == ["link.txt", "made.txt"])
    }

    @Test func symlinkLoopIsReported() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        symlink("b", tmp.file("a"))
        symlink("a", tmp.file("b"))
        #expect(throws: ShareError.writeFailed(path: tmp.file("a"), reason: "Too many levels of symbolic links")) {
            try AtomicFile.write(new, to: tmp.file("a"))
        }
    }

    @Test func targetIsADirectory() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("is-a-dir/poem.txt")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: ShareError.writeFailed(path: path, reason: "Is a directory")) {
            try AtomicFile.write(new, to: path)
        }
        #expect(tmp.names(in: tmp.file("is-a-dir")) == ["poem.txt"])
        #expect(tmp.names(in: path) == [])
        #expect(throws: ShareError.writeFailed(path: tmp.file("new/"), reason: "Is a directory")) {
            try AtomicFile.write(new, to: tmp.file("new/"))
        }
    }

    @Test func missingFolder() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("no-such-dir/poem.txt")
        #expect(throws: ShareError.writeFailed(path: path, reason: "No such file or directory")) {
            try AtomicFile.write(new, to: path)
        }
        #expect(tmp.names() == [])
    }

    @Test func errorDescriptionNamesTheFileAsGiven() {
        #expect(
            ShareError.writeFailed(path: "poem.txt", reason: "Permission denied").description
                == "poem.txt: Permission denied")
    }

    // A read-only file, and a writable file in a read-only folder, with permissions that apply: as
    // root the check runs with the file-system identity of "nobody" (setfsuid on one thread); the
    // files are owned by that user.

    /// Builds ro-file/poem.txt (0444 in a writable folder) and ro-dir/poem.txt (0644 in a 0555
    /// folder) under `tmp`, owned by the ordinary user.
    private func readOnlyFixtures(_ tmp: TempFolder) throws -> (roFile: String, roDir: String) {
        let fm = FileManager.default
        try fm.createDirectory(atPath: tmp.file("ro-file"), withIntermediateDirectories: false)
        try fm.createDirectory(atPath: tmp.file("ro-dir"), withIntermediateDirectories: false)
        try put(old, tmp.file("ro-file/poem.txt"), mode: 0o444)
        try put(old, tmp.file("ro-dir/poem.txt"), mode: 0o644)
        let (uid, gid) = OrdinaryUser.owner
        for p in ["ro-file", "ro-file/poem.txt", "ro-dir", "ro-dir/poem.txt"] {
            chown(tmp.file(p), uid, gid)
        }
        chmod(tmp.file("ro-file"), 0o755)
        chmod(tmp.file("ro-dir"), 0o555)
        return (tmp.file("ro-file/poem.txt"), tmp.file("ro-dir/poem.txt"))
    }

    @Test(
        .enabled(
            if: OrdinaryUser.available,
            "needs a non-root user, or root with CAP_SETUID to switch the file-system uid"))
    func readOnlyFileIsRefusedAndUnchanged() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let (roFile, _) = try readOnlyFixtures(tmp)
        let error = try OrdinaryUser.perform { () -> ShareError? in
            do {
                try AtomicFile.write(self.new, to: roFile)
                return nil
            } catch let e as ShareError { return e }
        }
        #expect(error == .writeFailed(path: roFile, reason: "Permission denied"))
        #expect(bytes(roFile) == Array(old.utf8))
        #expect(mode(roFile) == 0o444)
        #expect(tmp.names(in: tmp.file("ro-file")) == ["poem.txt"])
    }

    @Test(
        .enabled(
            if: OrdinaryUser.available,
            "needs a non-root user, or root with CAP_SETUID to switch the file-system uid"),
        arguments: [6, 10_000])
    func writableFileInReadOnlyFolderIsRewrittenInPlace(length: Int) throws {
        // Shorter and longer than the old text: cut at the end vs. grown in place.
        let text = String(repeating: "Lenore ", count: length / 7 + 1).prefix(length) + "\n"
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let (_, roDir) = try readOnlyFixtures(tmp)
        try OrdinaryUser.perform { try AtomicFile.write(Array(text.utf8), to: roDir) }
        #expect(bytes(roDir) == Array(text.utf8))
        #expect(mode(roDir) == 0o644)
        #expect(tmp.names(in: tmp.file("ro-dir")) == ["poem.txt"])
    }

    @Test(
        .enabled(
            if: OrdinaryUser.available,
            "needs a non-root user, or root with CAP_SETUID to switch the file-system uid"))
    func readOnlyFileInReadOnlyFolderAndNewFileThereAreRefused() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let (_, roDir) = try readOnlyFixtures(tmp)
        chmod(roDir, 0o444)
        let fresh = tmp.file("ro-dir/new.txt")
        let errors = try OrdinaryUser.perform { () -> [ShareError?] in
            [roDir, fresh].map { path in
                do {
                    try AtomicFile.write(self.new, to: path)
                    return nil
                } catch { return error as? ShareError }
            }
        }
        #expect(
            errors == [
                .writeFailed(path: roDir, reason: "Permission denied"),
                // The folder is named: the file itself is not there to be refused.
                .writeFailed(path: fresh, reason: "cannot create a file in \(tmp.file("ro-dir")): Permission denied"),
            ])
        #expect(bytes(roDir) == Array(old.utf8))
        #expect(tmp.names(in: tmp.file("ro-dir")) == ["poem.txt"])
    }
}
