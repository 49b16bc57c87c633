import Foundation
import Testing
import SnapTestSupport

/// `lovesnap ocr` as a script uses it: the real binary, the real Tesseract and language data,
/// the sample poems and bug-case images.
@Suite struct OCRCommandTests {
    static let poems = ["kettle", "harbour", "fenetre", "riviere"]

    func truth(_ poem: String) throws -> String {
        try String(contentsOfFile: TestPaths.sample("\(poem).txt"), encoding: .utf8)
    }

    @Test(arguments: poems)
    func cleanSampleReadsExactly(poem: String) throws {
        let r = try lovesnap(["ocr", TestPaths.sample("\(poem).png")])
        #expect(r.status == 0)
        #expect(normalizedWhitespace(r.stdout) == normalizedWhitespace(try truth(poem)))
    }

    @Test(arguments: poems)
    func photoLikeSampleIsWithinTwoPercentCER(poem: String) throws {
        let r = try lovesnap(["ocr", TestPaths.sample("\(poem)-photo.jpg")])
        #expect(r.status == 0)
        let cer = characterErrorRate(r.stdout, truth: try truth(poem))
        #expect(cer <= 0.02, "CER \(cer) for \(poem)-photo.jpg:\n\(r.stdout)")
    }

    @Test func verseLayoutKeepsLinesAndTheStanzaGap() throws {
        let r = try lovesnap(["ocr", TestPaths.sample("harbour.png")])
        #expect(r.stdout == (try truth("harbour")))
    }

    @Test func exifRotatedAndTransparentSamplesReadExactly() throws {
        let exif = try lovesnap(["ocr", TestPaths.sample("kettle-exif6.jpg")])
        #expect(exif.stdout == (try truth("kettle")))
        #expect(exif.stderr.contains("kettle-exif6.jpg: EXIF orientation 6 applied"))
        let transparent = try lovesnap(["ocr", TestPaths.sample("fenetre-transparent.png")])
        #expect(transparent.stdout == (try truth("fenetre")))
    }

    @Test func outputFileIsWritten() throws {
        let dir = TestPaths.temporaryDirectory()
        let out = dir.appendingPathComponent("kettle.txt").path
        let r = try lovesnap(["ocr", "-o", out, TestPaths.sample("kettle.png")])
        #expect(r.status == 0)
        #expect(r.stdout == "")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == (try truth("kettle")))
    }

    @Test func missingFile() throws {
        let r = try lovesnap(["ocr", "/nonexistent/poem.jpg"])
        #expect(r.status == 3)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: /nonexistent/poem.jpg: No such file or directory\n")
    }

    @Test func fileThatIsNotAnImage() throws {
        let path = TestPaths.sample("kettle.txt")
        let r = try lovesnap(["ocr", path])
        #expect(r.status == 3)
        #expect(r.stderr == "lovesnap: \(path): not an image in a format lovesnap reads (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM)\n")
    }

    @Test func missingLanguageIsNamedWithTheFolderSearched() throws {
        let r = try lovesnap(["ocr", "-l", "eng+xyz", TestPaths.sample("kettle.png")])
        #expect(r.status == 4)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("lovesnap: Tesseract could not load language 'xyz': file not found (/usr/share/tesseract-ocr/5/tessdata/xyz.traineddata). Searched the tessdata folder /usr/share/tesseract-ocr/5/tessdata/."),
                "\(r.stderr)")
    }

    @Test func brokenFrenchModelIsReportedNotSilentlyDropped() throws {
        // Bug case 13: a tessdata folder with a good eng and an HTML page posing as fra.
        let dir = TestPaths.temporaryDirectory()
        try FileManager.default.copyItem(atPath: "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata",
                                         toPath: dir.appendingPathComponent("eng.traineddata").path)
        try FileManager.default.copyItem(atPath: TestPaths.bugcase("13-missing-or-bad-traineddata/fra.traineddata.html-not-model"),
                                         toPath: dir.appendingPathComponent("fra.traineddata").path)
        let r = try lovesnap(["ocr", "--tessdata", dir.path, TestPaths.bugcase("13-missing-or-bad-traineddata/fr_two_lines.png")])
        #expect(r.status == 4)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("language 'fra': not a traineddata file (it is an HTML page) (\(dir.path)/fra.traineddata)"), "\(r.stderr)")
    }

    @Test func missingTessdataFolder() throws {
        let r = try lovesnap(["ocr", "--tessdata", "/nonexistent/tessdata", TestPaths.sample("kettle.png")])
        #expect(r.status == 4)
        #expect(r.stderr == "lovesnap: the tessdata folder /nonexistent/tessdata does not exist; give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files\n")
    }

    @Test(arguments: ["white_1x1.png", "black_1x1.png", "black_2x1.jpg"])
    func imageWithoutTextSaysSo(name: String) throws {
        let r = try lovesnap(["ocr", TestPaths.bugcase("07-tiny-1x1/\(name)")])
        #expect(r.status == 0)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: no text found in \(name)\n")
    }

    @Test func helpVersionAndUsageErrors() throws {
        let help = try lovesnap(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("lovesnap — turn a photo of a poem into text"))
        let version = try lovesnap(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "lovesnap 0.1.0\n")
        let bad = try lovesnap(["ocr", "--psm", "99", TestPaths.sample("kettle.png")])
        #expect(bad.status == 2)
        #expect(bad.stderr == "lovesnap: option --psm needs a whole number in 1…13, not '99'\n")
        let unknown = try lovesnap(["ocr", "--frobnicate", TestPaths.sample("kettle.png")])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "lovesnap: unknown option '--frobnicate' (see lovesnap --help; put -- before a file name that starts with '-')\n")
    }

    @Test func fileNameThatLooksLikeAnOptionFollowsDoubleDash() throws {
        let dir = TestPaths.temporaryDirectory()
        let odd = dir.appendingPathComponent("-l fra.png")
        try FileManager.default.copyItem(atPath: TestPaths.sample("kettle.png"), toPath: odd.path)
        let r = try run(TestPaths.lovesnap, ["ocr", "--", "-l fra.png"], currentDirectory: dir)
        #expect(r.status == 0)
        #expect(r.stdout == (try truth("kettle")))
    }
}

/// Bug case 12: five awkward names for one image, one of them not UTF-8 (a Latin-1 byte).
@Suite struct FileNameTests {
    @Test func everyAwkwardNameOpensAndNothingIsRunThroughAShell() throws {
        let dir = TestPaths.temporaryDirectory("names")
        let setup = try run("/bin/sh", [TestPaths.bugcase("12-non-ascii-filename/setup.sh"), dir.path])
        #expect(setup.status == 0)
        // The shell here only hands the raw bytes of each name to lovesnap, quoted.
        let r = try run("/bin/sh", ["-c", "cd \"$1\" && for f in *; do \"$2\" ocr -- \"$f\"; echo \"rc=$?\"; done",
                                    "sh", dir.path, TestPaths.lovesnap])
        #expect(r.stdout == String(repeating: "Lenore\nrc=0\n", count: 5))
        #expect(r.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("PWNED").path))
    }

    @Test func undecodableNameIsShownEscapedInMessages() throws {
        let r = try run("/bin/sh", ["-c", "\"$1\" ocr \"$(printf 'nope\\350.png')\"", "sh", TestPaths.lovesnap])
        #expect(r.status == 3)
        #expect(r.stderr == "lovesnap: nope\\xE8.png: No such file or directory\n")
    }
}

/// The kinds of image file behind bug cases 01–08: depth, palette, alpha, colour space, frames.
@Suite struct ImageKindTests {
    let kettle = try! String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)

    @Test(arguments: [("three-frames.gif", "lovesnap: three-frames.gif: GIF with 3 frames: frame 1 read\n"),
                      ("two-pages-g4.tif", "lovesnap: two-pages-g4.tif: TIFF with 2 frames: frame 1 read\n"),
                      ("grey16.png", ""), ("palette.png", ""), ("kettle.pgm", ""), ("kettle.bmp", ""),
                      ("kettle.webp", ""), ("kettle-cmyk.tif", ""), ("kettle-progressive.jpg", "")])
    func fixtureReadsAsItsFirstFrame(name: String, notice: String) throws {
        let r = try lovesnap(["ocr", TestPaths.fixture(name)])
        #expect(r.status == 0)
        #expect(r.stdout == kettle)
        #expect(r.stderr == notice)
    }

    @Test func truncatedJPEGIsCorruptNotACrash() throws {
        let dir = TestPaths.temporaryDirectory("cut")
        let full = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("kettle-progressive.jpg")))
        let cut = dir.appendingPathComponent("cut.jpg").path
        try full.prefix(600).write(to: URL(fileURLWithPath: cut))
        let r = try lovesnap(["ocr", cut])
        #expect(r.status == 3)
        #expect(r.stderr == "lovesnap: \(cut): the JPEG data is truncated or corrupt and could not be decoded\n")
    }

    @Test(arguments: ["01-rgba-transparent-bg/lenore_rgba_black_transparent.png", "01-rgba-transparent-bg/lenore_gray_alpha_LA.png"])
    func textOnlyInTheAlphaChannel(name: String) throws {
        let r = try lovesnap(["ocr", TestPaths.bugcase(name)])
        #expect(r.stdout == "Lenore\n")
    }

    @Test(arguments: ["03-exif-orientation-6/raven_exif_orientation6.jpg", "04-inverted-white-on-black/raven_white_on_black.png",
                      "06-cmyk-jpeg/raven_cmyk.jpg", "08-huge-dimensions/raven_4032x3024.jpg",
                      "08-huge-dimensions/raven_40000x3000.png", "10-low-res-small-text/raven_8px.png",
                      "10-low-res-small-text/raven_10px.png"])
    func ravenBugCasesReadExactly(name: String) throws {
        let r = try lovesnap(["ocr", TestPaths.bugcase(name)])
        #expect(r.status == 0)
        #expect(r.stdout == "the rare and radiant maiden\nwhom the angels name Lenore\n")
    }

    @Test func frenchAccentsWithTheDefaultLanguages() throws {
        let r = try lovesnap(["ocr", TestPaths.bugcase("11-eng-fra-accents/fr_accents.png")])
        #expect(r.stdout == "Là-bas où dort la forêt,\nun cœur naïf rêve encore,\nNoël viendra, ça ira,\nprès du château, en été.\n")
    }

    @Test func decompressionBombIsRefusedWithItsSize() throws {
        let dir = TestPaths.temporaryDirectory("bomb")
        let bomb = dir.appendingPathComponent("bomb.png").path
        #expect(try run("/usr/bin/env", ["python3", TestPaths.repoRoot.appendingPathComponent("scripts/make-png-bomb.py").path, bomb]).status == 0)
        let r = try lovesnap(["ocr", bomb])
        #expect(r.status == 3)
        #expect(r.stderr == "lovesnap: \(bomb): the image is 32000×24000 pixels and would take 732 MiB once decoded, above lovesnap's limit of 512 MiB; refused before decoding (scale it down first)\n")
    }
}

/// Bug case 14: the same text under C and comma-decimal locales (the editor must set the locale).
@Suite struct LocaleTests {
    @Test func sameTextUnderEveryLocale() throws {
        let locales = TestPaths.temporaryDirectory("locales")
        for l in ["fr_FR", "de_DE"] {
            let r = try run("/usr/bin/localedef", ["-i", l, "-f", "UTF-8", locales.appendingPathComponent("\(l).UTF-8").path])
            #expect(r.status == 0 || r.status == 1, "localedef \(l): \(r.stderr)")   // 1 = warnings only
        }
        for image in ["14-non-c-locale/numbers_fr.png", "11-eng-fra-accents/fr_accents.png"] {
            let expected = try String(contentsOfFile: TestPaths.bugcase(image.components(separatedBy: "/")[0] + "/expected_text.txt"), encoding: .utf8)
            for locale in ["C", "C.UTF-8", "fr_FR.UTF-8", "de_DE.UTF-8"] {
                var env = ProcessInfo.processInfo.environment
                env["LOCPATH"] = locales.path
                env["LC_ALL"] = locale
                let r = try lovesnap(["ocr", TestPaths.bugcase(image)], environment: env)
                #expect(r.stdout == expected, "\(image) under \(locale)")
                #expect(r.stderr == "", "\(image) under \(locale)")
            }
        }
    }
}

/// Output and argument edge cases a new user ran into.
@Suite struct OutputAndArgumentTests {
    let kettlePNG = TestPaths.sample("kettle.png")
    let kettle = try! String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)

    @Test func outputOntoThePhotoItselfIsRefused() throws {
        let dir = TestPaths.temporaryDirectory("same")
        let photo = dir.appendingPathComponent("same.png").path
        try FileManager.default.copyItem(atPath: kettlePNG, toPath: photo)
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        let r = try lovesnap(["ocr", "-o", photo, photo])
        #expect(r.status == 2)
        #expect(r.stderr == "lovesnap: -o \(photo) is the photo itself; lovesnap will not overwrite it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before)
    }

    @Test func fullOrClosedStandardOutput() throws {
        let full = try run("/bin/sh", ["-c", "\"$1\" ocr \"$2\" > /dev/full", "sh", TestPaths.lovesnap, kettlePNG])
        #expect(full.status == 6)
        #expect(full.stderr == "lovesnap: standard output: No space left on device\n")
        let closed = try run("/bin/sh", ["-c", "\"$1\" ocr \"$2\" >&-", "sh", TestPaths.lovesnap, kettlePNG])
        #expect(closed.status == 6)
        #expect(closed.stderr == "lovesnap: standard output is closed; give -o FILE\n")
    }

    @Test func outputToDevicesAndPipes() throws {
        let null = try lovesnap(["ocr", "-o", "/dev/null", kettlePNG])
        #expect(null.status == 0 && null.stderr == "")
        let stdout = try lovesnap(["ocr", "-o", "/dev/stdout", kettlePNG])
        #expect(stdout.stdout == kettle)
    }

    @Test func optionsBeforeTheSubcommand() throws {
        let r = try lovesnap(["-l", "eng+fra", "ocr", kettlePNG])
        #expect(r.status == 0)
        #expect(r.stdout == kettle)
    }

    @Test(arguments: [(["--psm", "0"], "lovesnap: option --psm needs a whole number in 1…13, not '0'\n"),
                      (["-l", "osd"], "lovesnap: 'osd' is orientation data, not a language (lovesnap uses it by itself)\n"),
                      (["-o", ""], "lovesnap: option -o needs a non-empty value\n"),
                      (["--tessdata", ""], "lovesnap: option --tessdata needs a non-empty value\n")])
    func valuesThatCannotWork(arguments: [String], message: String) throws {
        let r = try lovesnap(["ocr"] + arguments + [kettlePNG])
        #expect(r.status == 2)
        #expect(r.stderr == message)
    }
}

/// `lovesnap edit` on files as nano opens them.
@Suite struct EditTextFileTests {
    @Test func fileInAMissingFolderIsAnError() throws {
        let r = try lovesnap(["edit", "/nonexistent-folder/poem.txt"])
        #expect(r.status == 3)
        #expect(r.stderr == "lovesnap: /nonexistent-folder/poem.txt: No such file or directory\n")
    }
}
