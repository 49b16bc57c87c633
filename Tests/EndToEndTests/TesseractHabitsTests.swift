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

/// `-c NAME=VALUE` sets a Tesseract variable as the CLI's does (issue 43): a character whitelist
/// reads digits only, as `tesseract -c tessedit_char_whitelist=…` does; a name Tesseract refuses
/// is a usage error before any OCR.
@Suite struct TesseractVariableTests {
    /// `--psm 6` (one block) on a receipt reads at least what `tesseract --psm 6` reads (issue
    /// 43: it printed "no text found"): here the whole receipt, where the CLI stops after its
    /// fourth line.
    @Test func aReceiptAtPSM6ReadsAtLeastWhatTheCLIReads() throws {
        let receipt = TestPaths.fixture("faded-receipt.jpg")
        let ours = try lovesnap(["ocr", "--psm", "6", receipt])
        let theirs = try run("/usr/bin/env", ["tesseract", receipt, "-", "--psm", "6", "-l", "eng+fra"])
        #expect(ours.status == 0 && theirs.status == 0)
        #expect(ours.stdout == (try String(contentsOfFile: TestPaths.fixture("faded-receipt.txt"), encoding: .utf8)))
        let ourLines = Set(ours.stdout.split(separator: "\n"))
        let missing = theirs.stdout.split(separator: "\n").filter { !$0.isEmpty && !ourLines.contains($0) }
        #expect(missing.isEmpty, "lines the CLI read that lovesnap did not: \(missing)")
    }

    @Test func aWhitelistReadsOnlyItsCharacters() throws {
        let page = TestPaths.fixture("numbers-decimal-comma-and-point.png")
        let plain = try lovesnap(["ocr", page])
        #expect(
            plain.stdout == "Lenore, 3,14 tasses de café,\n2.718 bateaux au bord de l'eau,\net 0,5 lune pour deux.\n")
        let digits = try lovesnap(["ocr", "-c", "tessedit_char_whitelist=0123456789", page])
        #expect(digits.status == 0)
        // The line read best is kept; the two others, digits read out of words at low
        // confidence, are left out as fragments (as any line of short doubted fragments is).
        #expect(digits.stdout == "2718\n")
        #expect(digits.stderr.contains("2 lines of short fragments read with low confidence left out"))
        let theirs = try run(
            "/usr/bin/env", ["tesseract", page, "-", "-l", "eng+fra", "-c", "tessedit_char_whitelist=0123456789"])
        #expect(theirs.stdout.contains("2718"))

        let unknown = try lovesnap(["ocr", "-c", "no_such_variable=1", page])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr
                == "lovesnap: -c no_such_variable: Tesseract has no such variable, or sets it only when it starts\n")
        let malformed = try lovesnap(["ocr", "-c", "tessedit_char_whitelist", page])
        #expect(malformed.status == 2)
        #expect(
            malformed.stderr
                == "lovesnap: option -c needs NAME=VALUE (a Tesseract variable), not 'tessedit_char_whitelist'\n")
    }
}

/// `--dpi N` gives the photo a resolution, as `tesseract --dpi` does (issue 43): a PNG that gives
/// none gets its PDF page at that size, the page `tesseract --dpi` makes of it, the text layer
/// still on the words; out of Tesseract's credible range it is a usage error.
@Suite struct ResolutionOptionTests {
    @Test func theDPIGivenSizesThePDFPageAsTesseractsDoes() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-dpi")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = TestPaths.sample("kettle.png")  // 1100 × 439 px, no resolution in the file
        let ours = dir.appendingPathComponent("ours").path
        let theirs = dir.appendingPathComponent("theirs").path
        let r = try lovesnap(["ocr", "--dpi", "150", "--format", "pdf", "-o", ours, photo])
        #expect(r.status == 0)
        let t = try run("/usr/bin/env", ["tesseract", "--dpi", "150", photo, theirs, "-l", "eng+fra", "pdf"])
        #expect(t.status == 0)
        func pageSize(_ base: String) throws -> String? {
            try run("/usr/bin/pdfinfo", [base + ".pdf"]).stdout.split(separator: "\n")
                .first { $0.hasPrefix("Page size:") }.map(String.init)
        }
        // 1100 px × 72 / 150 = 528 pt.
        #expect(try pageSize(ours) == "Page size:       528 x 210.72 pts")
        #expect(try pageSize(ours) == (try pageSize(theirs)))
        let text = try run("/usr/bin/pdftotext", ["-raw", ours + ".pdf", "-"]).stdout
        #expect(text == (try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)) + "\u{0C}")
        // Without it, the page is the photo at 300 DPI, as before (the file gives none).
        let plain = dir.appendingPathComponent("plain").path
        _ = try lovesnap(["ocr", "--format", "pdf", "-o", plain, photo])
        #expect(try pageSize(plain) == "Page size:       264 x 105.36 pts")
    }

    @Test func aResolutionOutsideTesseractsRangeIsAUsageError() throws {
        for value in ["20", "5000", "high"] {
            let r = try lovesnap(["ocr", "--dpi", value, TestPaths.sample("kettle.png")])
            #expect(r.status == 2 && r.stdout == "")
            #expect(r.stderr.hasPrefix("lovesnap: option --dpi needs a whole number in 70…2400, not '\(value)'\n"))
        }
    }
}
