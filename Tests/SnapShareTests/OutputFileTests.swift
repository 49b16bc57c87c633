import Foundation
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct OutputFileTests {
    let text = Array("Lenore, the kettle hums your tune,\n".utf8)

    @Test func aFileIsWrittenAtomically() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let path = tmp.file("poem.txt")
        try put("old\n", path)
        try OutputFile.write(text, to: path)
        #expect(bytes(path) == text)
        #expect(tmp.names() == ["poem.txt"])
    }

    @Test func aFolderIsRefusedByTheAtomicSave() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        #expect(throws: ShareError.writeFailed(path: tmp.path, reason: "Is a directory")) {
            try OutputFile.write(text, to: tmp.path)
        }
    }

    @Test func checkRefusesWhatAnyWriteWouldAndWritesNothing() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        try put("old\n", tmp.file("poem.txt"))
        try OutputFile.check(nil)
        try OutputFile.check(tmp.file("poem.txt"))
        try OutputFile.check(tmp.file("new.txt"))
        try OutputFile.check("/dev/null")
        #expect(throws: ShareError.writeFailed(path: tmp.path, reason: "Is a directory")) {
            try OutputFile.check(tmp.path)
        }
        #expect(throws: ShareError.writeFailed(path: tmp.file("new/"), reason: "Is a directory")) {
            try OutputFile.check(tmp.file("new/"))
        }
        #expect(throws: ShareError.writeFailed(path: "", reason: "No such file or directory")) {
            try OutputFile.check("")
        }
        #expect(throws: ShareError.writeFailed(path: tmp.file("gone/a.txt"), reason: "No such file or directory")) {
            try OutputFile.check(tmp.file("gone/a.txt"))
        }
        #expect(throws: ShareError.writeFailed(path: tmp.file("poem.txt/a.txt"), reason: "Not a directory")) {
            try OutputFile.check(tmp.file("poem.txt/a.txt"))
        }
        #expect(tmp.names() == ["poem.txt"])
        #expect(bytes(tmp.file("poem.txt")) == Array("old\n".utf8))
    }

    @Test func aFolderThatMakesNoFileIsNamedBeforeAnythingIsWritten() throws {
        // /proc makes no file, even for root, whom `access(2)` lets through: the folder is named,
        // not the file's own name as missing (it exists). Another user cannot open it to write.
        let reason =
            geteuid() == 0 ? "cannot create a file in /proc: No such file or directory" : "Permission denied"
        #expect(throws: ShareError.writeFailed(path: "/proc/version", reason: reason)) {
            try OutputFile.check("/proc/version")
        }
        #expect(throws: ShareError.writeFailed(path: "/proc/version", reason: reason)) {
            try OutputFile.write(Array("poem\n".utf8), to: "/proc/version")
        }
        if geteuid() == 0 {
            #expect(
                throws: ShareError.writeFailed(
                    path: "/proc/poem.txt", reason: "cannot create a file in /proc: No such file or directory")
            ) {
                try OutputFile.check("/proc/poem.txt")
            }
        }
    }

    @Test func aFullDeviceSaysSo() throws {
        let error = #expect(throws: FileError.self) { try OutputFile.write(text, to: "/dev/full") }
        #expect(error == .unwritable(path: "/dev/full", errno: ENOSPC))
        #expect(error?.description == "/dev/full: No space left on device")
    }

    @Test func devicesAreWrittenNotReplaced() throws {
        try OutputFile.write(text, to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aNamedPipeIsWrittenDirectly() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let fifo = tmp.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try OutputFile.write(text, to: fifo)
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(reader, &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(n, 0))) == text)
        #expect(tmp.names() == ["pipe"])
    }

    @Test func writeAllDeliversEveryByteOrTheErrno() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let many = [UInt8](repeating: 0x41, count: 20_000)
        #expect(OutputFile.writeAll(many, to: fds[1]) == nil)
        close(fds[1])
        let read = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
        #expect(Array(read) == many)
        // A descriptor no process can have open (the closed `fds[1]` may be another thread's
        // new descriptor by now: the test failed once so).
        #expect(OutputFile.writeAll(text, to: Int32.max) == EBADF)
        #expect(OutputFile.writeAll([], to: -1) == nil)
        #expect(FileError.standardOutput(errno: EBADF).description == "standard output: Bad file descriptor")
    }
}

@Suite struct PathNameTests {
    @Test(arguments: [
        ("~", "/home/ana"), ("~/poem.txt", "/home/ana/poem.txt"), ("~ana/poem.txt", "~ana/poem.txt"),
        ("poem~/x", "poem~/x"), ("/tmp/~/x", "/tmp/~/x"), ("", ""),
    ])
    func tildeIsTheHomeFolder(path: String, expanded: String) {
        #expect(PathName.expandingTilde(path, home: "/home/ana") == expanded)
    }

    @Test func withoutAHomeTheTildeStays() {
        #expect(PathName.expandingTilde("~/poem.txt", home: nil) == "~/poem.txt")
        #expect(PathName.expandingTilde("~/poem.txt", home: "") == "~/poem.txt")
    }

    @Test(arguments: [
        ("/photos/raven.jpg", "raven.jpg"), ("raven.jpg", "raven.jpg"), ("/photos/album/", "album"),
        ("/", "/"), ("po\u{1B}[31mme.png", "po\\u{1b}[31mme.png"), ("a\nb.png", "a\\u{a}b.png"),
        ("/p/Là-bas où.png", "Là-bas où.png"),
    ])
    func displayNameIsTheLastComponentWithControlsVisible(path: String, name: String) {
        #expect(PathName.displayName(of: path) == name)
    }

    @Test func sameFileMeansSameInode() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        try put("x", tmp.file("photo.png"))
        try put("x", tmp.file("other.png"))
        symlink("photo.png", tmp.file("link.png"))
        link(tmp.file("photo.png"), tmp.file("hard.png"))
        #expect(PathName.isSameFile(tmp.file("photo.png"), tmp.file("link.png")))
        #expect(PathName.isSameFile(tmp.file("hard.png"), tmp.file("photo.png")))
        #expect(PathName.isSameFile(tmp.path + "/./photo.png", tmp.file("photo.png")))
        #expect(!PathName.isSameFile(tmp.file("photo.png"), tmp.file("other.png")))
        #expect(!PathName.isSameFile(tmp.file("missing.png"), tmp.file("photo.png")))
        #expect(!PathName.isSameFile(tmp.file("missing.png"), tmp.file("missing.png")))
    }
}
