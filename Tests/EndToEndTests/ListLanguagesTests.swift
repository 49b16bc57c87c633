import Foundation
import SnapTestSupport
import Testing

/// `lovesnap --list-langs` lists the traineddata as `tesseract --list-langs` does (issue 43), the
/// real tesseract beside it: the same lines, byte for byte.
@Suite struct ListLanguagesTests {
    @Test func theLanguagesAreListedAsTesseractListsThem() throws {
        let ours = try lovesnap(["--list-langs"])
        let theirs = try run("/usr/bin/env", ["tesseract", "--list-langs"])
        #expect(ours.status == 0 && theirs.status == 0)
        #expect(ours.stdout == theirs.stdout)
        #expect(ours.stdout.hasPrefix("List of available languages in "))

        // A folder of its own (--tessdata, tesseract's --tessdata-dir): eng and fra only.
        let folder = TestPaths.temporaryDirectory("lsnap-langs")
        let system = try #require(theirs.stdout.split(separator: "\"").dropFirst().first.map(String.init))
        for name in ["eng", "fra"] {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("\(name).traineddata").path,
                withDestinationPath: system + "\(name).traineddata")
        }
        let own = try lovesnap(["--list-langs", "--tessdata", folder.path])
        let ownTheirs = try run("/usr/bin/env", ["tesseract", "--list-langs", "--tessdata-dir", folder.path])
        #expect(own.stdout == ownTheirs.stdout)
        #expect(own.stdout.hasSuffix("(2):\neng\nfra\n"))

        // No such folder: said, exit 4 (a missing language or tessdata).
        let missing = try lovesnap(["--list-langs", "--tessdata", folder.path + "/none"])
        #expect(missing.status == 4)
        #expect(missing.stdout == "")
        #expect(missing.stderr.hasPrefix("lovesnap: "))
    }
}
