import Foundation
import SnapText
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct TextFileTests {
    @Test func readsUTF8ExactlyAndKeepsAByteOrderMark() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("poem.txt")
        try put("\u{FEFF}Là-bas où dort la forêt,\nun cœur naïf\n", path)
        let file = try TextFile.read(path)
        #expect(file == TextFile(text: "\u{FEFF}Là-bas où dort la forêt,\nun cœur naïf\n", isNew: false))
        #expect(Array(file.text.utf8.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(file.lineCount == 2)
    }

    @Test(arguments: [("", 0), ("Lenore", 1), ("Lenore\n", 1), ("a\nb", 2), ("a\n\n", 2), ("\n", 1), ("a\nb\nc\n", 3)])
    func countsLinesAsNanoDoes(text: String, lines: Int) {
        #expect(TextFile(text: text, isNew: false).lineCount == lines)
    }

    @Test func aNameNotYetTakenInAnExistingFolderIsANewEmptyFile() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        #expect(try TextFile.read(tmp.file("new.txt")) == TextFile(text: "", isNew: true))
    }

    @Test func aRelativeNewNameUsesTheCurrentFolder() throws {
        #expect(try TextFile.read("lovesnap-no-such-file-\(getpid()).txt") == TextFile(text: "", isNew: true))
    }

    @Test func aFileInAMissingFolderIsNotFound() throws {
        let path = "/nonexistent-folder/poem.txt"
        let error = #expect(throws: FileError.self) { try TextFile.read(path) }
        #expect(error == .unreadable(path: path, errno: ENOENT))
        #expect(error?.description == "/nonexistent-folder/poem.txt: No such file or directory")
    }

    /// A device is refused as nano refuses it: `/dev/zero` read 4 GB in 25 s and went on.
    @Test func aDeviceIsRefused() throws {
        for path in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            let error = #expect(throws: FileError.self) { try TextFile.read(path) }
            #expect(error == .deviceFile(path: path))
        }
        #expect(FileError.deviceFile(path: "/dev/zero").description == "/dev/zero is a device file, not a text file")
    }

    /// A pipe that gives more than the limit is refused; one within it is read whole.
    @Test func aPipeIsReadUpToItsLimit() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let fifo = tmp.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        func feed(_ bytes: Int) throws -> Process {
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = ["-c", "head -c \(bytes) /dev/zero | tr '\\0' a > '\(fifo)'"]
            try writer.run()
            return writer
        }
        let within = try feed(100_000)
        let read = try TextFile.read(name: FileSystemName(fifo), shownAs: fifo, pipeLimit: 200_000)
        within.waitUntilExit()
        #expect(read.text == String(repeating: "a", count: 100_000))
        let beyond = try feed(300_000)
        let error = #expect(throws: FileError.self) {
            try TextFile.read(name: FileSystemName(fifo), shownAs: fifo, pipeLimit: 200_000)
        }
        beyond.terminate()
        beyond.waitUntilExit()
        #expect(error == .textPipeTooLarge(path: fifo, limit: 200_000))
        #expect(
            FileError.textPipeTooLarge(path: "/dev/fd/63", limit: TextFile.pipeLimit).description
                == "/dev/fd/63: more than 512 MiB came through the pipe; lovesnap edits at most that")
    }

    @Test func aFolderIsRefused() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let error = #expect(throws: FileError.self) { try TextFile.read(tmp.path) }
        #expect(error == .unreadable(path: tmp.path, errno: EISDIR))
        #expect(error?.description == "\(tmp.path): Is a directory")
    }

    @Test func bytesThatAreNotUTF8AreReadAsLatin1() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("latin1.txt")
        try Data([0x70, 0x6F, 0xE8, 0x6D, 0x65, 0x0A]).write(to: URL(fileURLWithPath: path))
        let file = try TextFile.read(path)
        #expect(file == TextFile(text: "po\u{E8}me\n", isNew: false, format: TextFormat(encoding: .latin1)))
    }

    @Test func aDOSFileIsReadAsLines() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("dos.txt")
        try Data("a\r\nb\r\nc\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let file = try TextFile.read(path)
        #expect(file == TextFile(text: "a\nb\nc\n", isNew: false, format: TextFormat(lineEnding: .dos)))
        #expect(file.lineCount == 3)
    }

    @Test(
        .enabled(
            if: OrdinaryUser.available,
            "needs a non-root user, or root with CAP_SETUID to switch the file-system uid"))
    func anUnreadableFileSaysWhy() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("secret.txt")
        try put("Lenore\n", path, mode: 0o000)
        let error = try OrdinaryUser.perform { () -> FileError? in
            do {
                _ = try TextFile.read(path)
                return nil
            } catch let e as FileError { return e }
        }
        #expect(error == .unreadable(path: path, errno: EACCES))
        #expect(error?.description == "\(path): Permission denied")
    }
}
