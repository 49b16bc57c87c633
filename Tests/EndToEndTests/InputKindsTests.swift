import Foundation
import SnapTestSupport
import Testing

/// Photos that are not regular files: read once by lovesnap itself, or refused at once.
@Suite struct InputKindsTests {
    static let kettle = try! String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)

    /// `script` run by /bin/sh with `$LOVESNAP` the built binary and `$PHOTO` a JPEG sample.
    func shell(_ script: String) throws -> RunResult {
        var env = ProcessInfo.processInfo.environment
        env["LOVESNAP"] = TestPaths.lovesnap
        env["PHOTO"] = TestPaths.sample("kettle-exif6.jpg")
        return try run("/bin/sh", ["-c", script], environment: env)
    }

    @Test(arguments: [
        "cat \"$PHOTO\" | \"$LOVESNAP\" ocr -",
        "\"$LOVESNAP\" ocr - < \"$PHOTO\"",
        "cat \"$PHOTO\" | \"$LOVESNAP\" ocr /dev/stdin",
        "\"$LOVESNAP\" ocr /dev/stdin < \"$PHOTO\"",
    ])
    func standardInputIsReadOnce(script: String) throws {
        let r = try shell(script)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.kettle)
    }

    @Test func aFIFOIsReadByTheParentNotLeftToTheWorker() throws {
        let dir = TestPaths.temporaryDirectory("lovesnap-fifo")
        let fifo = dir.appendingPathComponent("poem.jpg").path
        let r = try shell(
            "mkfifo '\(fifo)' && (sleep 1; cat \"$PHOTO\" > '\(fifo)') & \"$LOVESNAP\" ocr --timeout 60 '\(fifo)'")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.kettle)
        #expect(r.stderr.hasPrefix("lovesnap: poem.jpg: EXIF orientation 6 applied\n"))
    }

    @Test func aPipeThatIsNotAnImageSaysSoByItsName() throws {
        let r = try shell("echo 'not a photo' | \"$LOVESNAP\" ocr -")
        #expect(r.status == 3)
        #expect(
            r.stderr
                == "lovesnap: standard input: not an image in a format lovesnap reads (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM)\n"
        )
    }

    @Test(arguments: ["/dev/zero", "/dev/null"])
    func aDeviceIsRefusedAtOnce(device: String) throws {
        let r = try lovesnap(["ocr", device])
        #expect(r.status == 3)
        #expect(r.stderr == "lovesnap: \(device): not a regular file (a device); give a photo file or a pipe\n")
    }

    @Test func replacementsHeadless() throws {
        let photo = TestPaths.sample("kettle.png")
        let ok = try lovesnap(["ocr", "--replace", "Lenore=Hélène", "--replace", "tune=song", photo])
        #expect(ok.status == 0)
        #expect(ok.stdout == Self.kettle.replacing("Lenore", with: "Hélène").replacing("tune", with: "song"))
        let regex = try lovesnap(["ocr", "--replace-regex", #"(\w+)ed\b=\1s"#, photo])
        #expect(
            regex.stdout
                == Self.kettle.replacing("wrote", with: "wrote").replacing("misted", with: "mists")
                .replacing("watched", with: "watchs"))
        let none = try lovesnap(["ocr", "--replace", "Annabel=Lee", photo])
        #expect(none.status == 0)
        #expect(none.stdout == Self.kettle)
        #expect(none.stderr == "lovesnap: --replace Annabel: no match\n")
        let bad = try lovesnap(["ocr", "--replace-regex", "([=x", photo])
        #expect(bad.status == 2)
        #expect(bad.stdout == "")
        #expect(bad.stderr.hasPrefix("lovesnap: --replace-regex: Bad regex \"([\": "))
        let noEquals = try lovesnap(["ocr", "--replace", "Lenore", photo])
        #expect(noEquals.status == 2)
        #expect(
            noEquals.stderr == "lovesnap: option --replace needs FIND=REPLACEMENT with a non-empty FIND, not 'Lenore'\n"
        )
        let inEditor = try lovesnap(["--replace", "a=b", photo])
        #expect(inEditor.status == 2)
    }
}
