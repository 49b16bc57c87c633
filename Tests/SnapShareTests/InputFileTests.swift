import Foundation
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct InputFileTests {
    @Test func aUTF8NameIsUsedAsItIs() throws {
        let input = try InputFile(argument: "/photos/Là-bas.png", rawBytes: nil)
        #expect(input.path == "/photos/Là-bas.png")
        #expect(input.shownPath == "/photos/Là-bas.png")
        #expect(input.fileName == FileSystemName("/photos/Là-bas.png") && input.fileName.isUTF8)
        #expect(input.name == "Là-bas.png")
        #expect(input.userFacing("/photos/Là-bas.png: not an image") == "/photos/Là-bas.png: not an image")
    }

    @Test func aNameTypedInTheEditorIsTheFileOfItsBytes() throws {
        // A backslash is shown doubled: the file itself has one (opened by that name as it is).
        let literal = try InputFile(name: FileSystemName(shown: "/photos/a\\\\b.png"))
        #expect(literal.path == "/photos/a\\b.png")
        #expect(literal.shownPath == "/photos/a\\\\b.png")
        let missing = #expect(throws: FileError.self) {
            try InputFile(name: FileSystemName(shown: "/nonexistent/nope\\xE8.png"))
        }
        #expect(missing == .unreadable(path: "/nonexistent/nope\\xE8.png", errno: ENOENT))
    }

    @Test func aLatin1NameIsOpenedByItsBytes() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let raw = Array(tmp.path.utf8) + Array("/po".utf8) + [0xE8] + Array("me.png".utf8)
        let fd = (raw.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644)
        }
        #expect(fd >= 0)
        #expect(write(fd, "Lenore", 6) == 6)
        close(fd)
        let (arguments, undecodable) = CommandLineArguments.decode([raw])
        let argument = try #require(arguments.first)
        #expect(argument == tmp.path + "/po\u{FFFD}me.png")
        #expect(undecodable == [argument: raw])

        let input = try InputFile(argument: argument, rawBytes: undecodable[argument])
        #expect(input.shownPath == tmp.path + "/po\\xE8me.png")
        #expect(input.name == "po\\xE8me.png")
        #expect(input.fileName.bytes == raw && !input.fileName.isUTF8)
        #expect(input.path.hasPrefix("/proc/\(getpid())/fd/"))
        #expect(FileManager.default.contents(atPath: input.path) == Data("Lenore".utf8))
        #expect(
            input.userFacing("\(input.path): the PNG data is truncated")
                == tmp.path + "/po\\xE8me.png: the PNG data is truncated")
    }

    @Test func aMissingLatin1NameIsReportedAsTyped() throws {
        let raw = Array("/nonexistent/nope".utf8) + [0xE8] + Array(".png".utf8)
        let error = #expect(throws: FileError.self) {
            try InputFile(argument: String(decoding: raw, as: UTF8.self), rawBytes: raw)
        }
        #expect(error == .unreadable(path: "/nonexistent/nope\\xE8.png", errno: ENOENT))
        #expect(error?.description == "/nonexistent/nope\\xE8.png: No such file or directory")
    }

    @Test func onlyUndecodableArgumentsKeepTheirBytes() {
        let (arguments, undecodable) = CommandLineArguments.decode([
            Array("ocr".utf8), Array("-l".utf8), Array("fra".utf8),
            Array("forêt.png".utf8), [0x41, 0xFF],
        ])
        #expect(arguments == ["ocr", "-l", "fra", "forêt.png", "A\u{FFFD}"])
        #expect(undecodable == ["A\u{FFFD}": [0x41, 0xFF]])
    }
}

@Suite struct MailAddressTests {
    @Test(arguments: [
        ("ana@example.org", ["ana@example.org"]),
        (" ana@example.org ,  Ben <ben@example.org>,, ", ["ana@example.org", "Ben <ben@example.org>"]),
        ("", []), (" , ,", []),
    ])
    func recipientsAreSplitAtCommasAndTrimmed(field: String, recipients: [String]) {
        #expect(MailAddress.recipients(in: field) == recipients)
    }

    @Test func validMailboxesPass() throws {
        try MailAddress.validate("ana@example.org")
        try MailAddress.validate("\"Ana B.\" <ana@example.org>")
    }

    @Test(arguments: [
        ("ana@example.org\r\nBcc: eve@example.org", "contains a line break or control character"),
        ("  ", "empty"), ("ana", "expected name@domain"),
        (
            "anä@example.org",
            "the address part may hold only ASCII letters, digits and !#$%&'*+-/=?^_`{|}~."
        ),
    ])
    func invalidMailboxesSayWhy(mailbox: String, reason: String) {
        #expect(throws: ShareError.invalidAddress(address: mailbox, reason: reason)) {
            try MailAddress.validate(mailbox)
        }
    }
}
