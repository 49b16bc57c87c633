import Foundation
import SnapTestSupport
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

/// File names by their bytes (`FileSystemName`): shown with `\xNN` for what is not UTF-8, and
/// written, read and looked up under those very bytes.
@Suite struct FileSystemNameTests {
    /// "ex\xFD.txt": a Latin-1 ý, not UTF-8.
    let latin1 = FileSystemName(bytes: Array("ex".utf8) + [0xFD] + Array(".txt".utf8))

    /// The bytes of `name` in `tmp`, for the C library.
    func inside(_ tmp: TempFolder, _ name: FileSystemName) -> FileSystemName {
        FileSystemName(tmp.path + "/").appending(bytes: name.bytes)
    }

    /// The names in `tmp` as bytes, sorted.
    func entries(_ tmp: TempFolder) -> [[UInt8]] { TestPaths.entryNames(in: tmp.path) }

    /// The bytes of the file `name`, or nil.
    func contents(_ name: FileSystemName) -> [UInt8]? {
        let fd = open(name.cString, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { out += chunk.prefix(n) }
        return out
    }

    @Test func namesAreShownByTheirLastComponentButADescriptorWhole() {
        #expect(PathName.displayName(of: "/tmp/photos/poème.jpg") == "poème.jpg")
        #expect(PathName.displayName(of: "photos/") == "photos")
        #expect(PathName.displayName(of: "/") == "/")
        #expect(PathName.displayName(of: "/tmp/63") == "63")
        // A shell's process substitution, `lovesnap ocr <(cat photo.jpg)`: not "63".
        #expect(PathName.displayName(of: "/dev/fd/63") == "/dev/fd/63")
        #expect(PathName.displayName(of: "/proc/self/fd/3") == "/proc/self/fd/3")
        #expect(PathName.displayName(of: "/proc/4242/fd/7") == "/proc/4242/fd/7")
        #expect(PathName.displayName(of: "/tmp/a\u{1b}b") == "a\\u{1b}b")
        // The current folder and others given with trailing slashes (Foundation trapped on ".").
        #expect(["."].map(PathName.displayName(of:)) == ["."])
        #expect(
            ["./", ".//", "..", "a//", "//", "", "/tmp//x/"].map(PathName.displayName(of:)) == [
                ".", ".", "..", "a", "/", "", "x",
            ])
    }

    @Test func aNameIsShownAsUTF8WithEveryOtherByteAsHex() {
        #expect(latin1.shown == "ex\\xFD.txt" && !latin1.isUTF8)
        #expect(FileSystemName("Là-bas.png").shown == "Là-bas.png" && FileSystemName("Là-bas.png").isUTF8)
        // UTF-8 é kept, a lone Latin-1 byte and a sequence cut short escaped.
        #expect(FileSystemName(bytes: [0xC3, 0xA9, 0xFF, 0x41, 0xC3]).shown == "é\\xFFA\\xC3")
    }

    @Test func aShownNameIsReadBackToItsBytes() {
        // Every name has its own shown form: a literal backslash is doubled, so the ASCII name
        // "ex\xFD.txt" and the Latin-1 one are told apart.
        let ascii = FileSystemName("ex\\xFD.txt")
        #expect(ascii.shown == "ex\\\\xFD.txt")
        for name in [latin1, ascii, FileSystemName("a\\b\\\\c"), FileSystemName(bytes: [0x5C, 0xFD, 0x5C])] {
            #expect(FileSystemName(shown: name.shown) == name)
        }
        // Control characters by their octets: they cannot act on the terminal a message goes to.
        let control = FileSystemName("po\u{1B}[31m\nme\u{9B}.png")
        #expect(control.shown == "po\\x1B[31m\\x0Ame\\xC2\\x9B.png")
        #expect(FileSystemName(shown: control.shown) == control)
        // Typed: \xNN in either case is a byte, any other backslash itself.
        #expect(FileSystemName(shown: "ex\\xfd.txt") == latin1)
        #expect(FileSystemName(shown: "a\\b\\xZZ") == FileSystemName("a\\b\\xZZ"))
    }

    @Test func aNameIsChangedByteForByteAsLatin1() {
        let photo = FileSystemName(bytes: Array("/p/bad".utf8) + [0xFF] + Array("name.JPG".utf8))
        let text = photo.mappingAsLatin1 { $0.dropLast(4) + ".txt" }
        #expect(text.bytes == Array("/p/bad".utf8) + [0xFF] + Array("name.txt".utf8))
        // UTF-8 in, UTF-8 out: its bytes each taken as a character and put back.
        #expect(FileSystemName("forêt.png").mappingAsLatin1 { $0 + "~" } == FileSystemName("forêt.png~"))
    }

    /// A same-size change whose modification time was put back is another version: its status
    /// change time tells (it went unnoticed, and a save overwrote the other change).
    @Test func aChangeWithItsModificationTimePutBackIsAnotherVersion() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let file = FileSystemName(tmp.file("poem.txt"))
        try AtomicFile.write(Array("Lenore\n".utf8), to: file)
        let before = try #require(PathName.version(of: file))
        usleep(50_000)  // the kernel's clock for file times ticks every few milliseconds
        let fd = open(file.cString, O_WRONLY)
        #expect(fd >= 0)
        #expect(write(fd, "Ligeia\n", 7) == 7)
        close(fd)
        var times = [
            timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
            timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
        ]
        #expect(utimensat(AT_FDCWD, file.cString, &times, 0) == 0)
        let after = try #require(PathName.version(of: file))
        #expect(after.size == before.size && after.modified == before.modified && after.inode == before.inode)
        #expect(after != before)
    }

    @Test func aFileIsWrittenReadAndBackedUpUnderItsBytes() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let file = inside(tmp, latin1)
        #expect(try TextFile.read(name: file).isNew)
        try AtomicFile.write(Array("Lenore\n".utf8), to: file)
        #expect(entries(tmp) == [latin1.bytes])
        #expect(try TextFile.read(name: file) == TextFile(text: "Lenore\n", isNew: false))
        #expect(PathName.version(of: file)?.size == 7)
        #expect(PathName.kind(of: file) == .other)
        try AtomicFile.write(Array("Ligeia\n".utf8), to: file, backup: true)
        #expect(entries(tmp) == [latin1.bytes, latin1.appending("~").bytes])
        #expect(contents(file) == Array("Ligeia\n".utf8))
        #expect(contents(file.appending("~")) == Array("Lenore\n".utf8))
    }

    @Test func aLinkToANameThatIsNotUTF8IsWrittenThrough() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let target = inside(tmp, latin1)
        try AtomicFile.write(Array("old\n".utf8), to: target)
        #expect(symlink(latin1.cString, tmp.file("link.txt")) == 0)
        try AtomicFile.write(Array("new\n".utf8), to: tmp.file("link.txt"))
        #expect(contents(target) == Array("new\n".utf8))
        #expect(entries(tmp) == [latin1.bytes, Array("link.txt".utf8)].sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func anEmergencyCopyIsWrittenBesideTheFileUnderItsBytes() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let saved = try EmergencyFile.write(Array("Lenore".utf8), saveName: inside(tmp, latin1), home: nil)
        #expect(saved == inside(tmp, latin1.appending(".save")))
        #expect(entries(tmp) == [latin1.appending(".save").bytes])
        #expect(contents(saved) == Array("Lenore".utf8))
    }

    @Test func aRefusalNamesTheFileAsShown() throws {
        let missing = FileSystemName("/nonexistent/").appending(bytes: latin1.bytes)
        let error = #expect(throws: ShareError.self) { try AtomicFile.write([], to: missing) }
        #expect(error == .writeFailed(path: "/nonexistent/ex\\xFD.txt", reason: "No such file or directory"))
        #expect(throws: ShareError.self) { try OutputFile.check(name: missing) }
    }
}
