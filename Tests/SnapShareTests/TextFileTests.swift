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
