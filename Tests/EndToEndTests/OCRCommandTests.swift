import Foundation
import SnapTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `lovesnap ocr` as a script uses it: the real binary, the real Tesseract and language data,
/// the sample poems and the fixtures made from them (Tests/Fixtures).
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

    @Test func aMissingLaterPhotoIsNamedBeforeAnyIsRead() throws {
        // A new user's run of two photos, the second mistyped: refused at once, the first photo
        // not read first (no notes of it: it is a photo taken on a table).
        let photo = TestPaths.fixture("page-on-dark-table.jpg")
        let r = try lovesnap(["ocr", photo, "/nonexistent/poem.jpg"])
        #expect(r.status == 3)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: /nonexistent/poem.jpg: No such file or directory\n")
    }

    @Test func verboseStagesNameTheirPhoto() throws {
        // With several photos, each stage line says whose it is, as the notes do.
        let kettle = TestPaths.sample("kettle.png")
        let fenetre = TestPaths.sample("fenetre.png")
        let r = try lovesnap(["ocr", "-v", kettle, fenetre])
        #expect(r.status == 0)
        let stages = r.stderr.split(separator: "\n").map(String.init).filter { $0.contains(" s  ") }
        let names = stages.map { $0.replacing(#/ +\d+\.\d{3} s  /#, with: " ") }
        #expect(
            names == [
                "lovesnap: kettle.png: loading", "lovesnap: kettle.png: preparing", "lovesnap: kettle.png: recognizing",
                "lovesnap: kettle.png: done", "lovesnap: fenetre.png: loading", "lovesnap: fenetre.png: preparing",
                "lovesnap: fenetre.png: recognizing", "lovesnap: fenetre.png: done",
            ], "\(r.stderr)")
    }

    @Test func fileThatIsNotAnImage() throws {
        let path = TestPaths.sample("kettle.txt")
        let r = try lovesnap(["ocr", path])
        #expect(r.status == 3)
        #expect(
            r.stderr
                == "lovesnap: \(path): not an image in a format lovesnap reads (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM)\n"
        )
    }

    /// The current folder given as the photo (`.`, `./`, `.//`): said, exit 3 (it crashed in
    /// Foundation's path splitting, SIGILL).
    @Test func theCurrentFolderIsNotAnImage() throws {
        for path in [".", "./", ".//"] {
            let r = try lovesnap(["ocr", path])
            #expect(r.status == 3)
            #expect(r.stderr == "lovesnap: \(path): Is a directory, not an image\n")
        }
    }

    @Test func missingLanguageIsNamedWithTheFolderSearched() throws {
        let r = try lovesnap(["ocr", "-l", "eng+xyz", TestPaths.sample("kettle.png")])
        #expect(r.status == 4)
        #expect(r.stdout == "")
        #expect(
            r.stderr.hasPrefix(
                "lovesnap: Tesseract could not load language 'xyz': file not found (/usr/share/tesseract-ocr/5/tessdata/xyz.traineddata). Searched the tessdata folder /usr/share/tesseract-ocr/5/tessdata/."
            ),
            "\(r.stderr)")
    }

    /// A tessdata folder with a good eng and a French model that is missing, an HTML page, empty,
    /// or there under another case: lovesnap names the language, the file, why, and stops.
    @Test(arguments: [
        ("missing", "file not found"), ("html", "not a traineddata file (it is an HTML page)"),
        ("empty", "file is empty (0 bytes)"),
        ("wrong-case", "file not found (there is Fra.traineddata: names are case-sensitive)"),
    ])
    func brokenFrenchModelIsReportedNotSilentlyDropped(variant: String, reason: String) throws {
        let dir = TestPaths.temporaryDirectory("tessdata-\(variant)")
        let installed = "/usr/share/tesseract-ocr/5/tessdata/"
        try FileManager.default.copyItem(
            atPath: installed + "eng.traineddata", toPath: dir.appendingPathComponent("eng.traineddata").path)
        let fra = dir.appendingPathComponent("fra.traineddata")
        switch variant {
        case "html":
            try Data(
                "<!DOCTYPE html>\n<html><head><title>fra.traineddata</title></head><body>Not a model</body></html>\n"
                    .utf8
            ).write(to: fra)
        case "empty": try Data().write(to: fra)
        case "wrong-case":
            try FileManager.default.copyItem(
                atPath: installed + "fra.traineddata", toPath: dir.appendingPathComponent("Fra.traineddata").path)
        default: break
        }
        let r = try lovesnap(["ocr", "--tessdata", dir.path, TestPaths.sample("fenetre.png")])
        #expect(r.status == 4)
        #expect(r.stdout == "")
        #expect(
            r.stderr
                == "lovesnap: Tesseract could not load language 'fra': \(reason) (\(dir.path)/fra.traineddata). Searched the tessdata folder \(dir.path)/. Install the language with `apt-get install tesseract-ocr-fra` or give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files.\n"
        )
    }

    @Test func missingTessdataFolder() throws {
        let r = try lovesnap(["ocr", "--tessdata", "/nonexistent/tessdata", TestPaths.sample("kettle.png")])
        #expect(r.status == 4)
        #expect(
            r.stderr
                == "lovesnap: the tessdata folder /nonexistent/tessdata does not exist; give --tessdata or TESSDATA_PREFIX the folder that holds the .traineddata files\n"
        )
    }

    @Test(arguments: ["white-1x1.png", "black-1x1.png", "black-2x1.jpg"])
    func imageWithoutTextSaysSo(name: String) throws {
        let r = try lovesnap(["ocr", TestPaths.fixture(name)])
        #expect(r.status == 0)
        #expect(r.stdout == "")
        #expect(r.stderr == "lovesnap: no text found in \(name)\n")
    }

    @Test func helpVersionAndUsageErrors() throws {
        let help = try lovesnap(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("lovesnap — turn a photo of a poem into text"))
        var environment = ProcessInfo.processInfo.environment
        environment["LOVESNAP_NO_TUNING"] = nil
        let version = try lovesnap(["--version"], environment: environment)
        #expect(version.status == 0)
        // The libraries it reads with, as `tesseract --version` lists them, and the workarounds
        // its OCR processes apply to them (LibraryTuning: Debian 12's versions, all verified).
        #expect(
            version.stdout
                == "lovesnap 0.1.0\n tesseract 5.3.0\n leptonica-1.82.0\n library tuning in the OCR processes: "
                + "line-images, unichar-ambigs, serial-openmp, brick-morphology\n")
        environment["LOVESNAP_NO_TUNING"] = "serial-openmp,brick-morphology"
        #expect(
            try lovesnap(["--version"], environment: environment).stdout.hasSuffix(
                " library tuning in the OCR processes: line-images, unichar-ambigs; off by LOVESNAP_NO_TUNING: "
                    + "serial-openmp, brick-morphology\n"))
        // Blanks around a name are ignored; a name that names nothing is said, not ignored.
        environment["LOVESNAP_NO_TUNING"] = " line-images , bogus"
        #expect(
            try lovesnap(["--version"], environment: environment).stdout.hasSuffix(
                " library tuning in the OCR processes: unichar-ambigs, serial-openmp, brick-morphology; "
                    + "off by LOVESNAP_NO_TUNING: line-images\n LOVESNAP_NO_TUNING: 'bogus' names no workaround "
                    + "(known: line-images, unichar-ambigs, serial-openmp, brick-morphology; 1 turns all off)\n"))
        let slip = try lovesnap(["ocr", TestPaths.sample("kettle.png")], environment: environment)
        #expect(slip.status == 0)
        #expect(slip.stderr.hasPrefix("lovesnap: LOVESNAP_NO_TUNING: 'bogus' names no workaround (known: "))
        environment["LOVESNAP_NO_TUNING"] = "1"
        #expect(
            try lovesnap(["--version"], environment: environment).stdout.hasSuffix(
                " library tuning in the OCR processes: none; off by LOVESNAP_NO_TUNING: "
                    + "line-images, unichar-ambigs, serial-openmp, brick-morphology\n"))
        let bad = try lovesnap(["ocr", "--psm", "99", TestPaths.sample("kettle.png")])
        #expect(bad.status == 2)
        #expect(bad.stderr == "lovesnap: option --psm needs a whole number in 1…13, not '99'\n")
        let unknown = try lovesnap(["ocr", "--frobnicate", TestPaths.sample("kettle.png")])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr
                == "lovesnap: unknown option '--frobnicate' (see lovesnap --help; put -- before a file name that starts with '-')\n"
        )
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

/// Awkward file names for one photo: NFC and NFD accents, a byte that is not UTF-8 (Latin-1 è),
/// a leading dash, and shell syntax.
@Suite struct FileNameTests {
    /// The names, as bytes: NFC "poème d'été – Lenore.png", NFD "poème.png" (e + U+0300), "po\xE8me.png",
    /// "-l fra.png", "$(touch PWNED) `id`;.png".
    static let names: [[UInt8]] = [
        Array("po\u{E8}me d'\u{E9}t\u{E9} \u{2013} Lenore.png".utf8),
        Array("poe\u{300}me.png".utf8),
        Array("po".utf8) + [0xE8] + Array("me.png".utf8),
        Array("-l fra.png".utf8),
        Array("$(touch PWNED) `id`;.png".utf8),
    ]

    /// Copies `source` into `folder` under the file name `name` (bytes, opened as they are).
    func copy(_ source: String, into folder: URL, as name: [UInt8]) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) {
                open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            }
        }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw POSIXError(.EIO) }
    }

    @Test func everyAwkwardNameOpensAndNothingIsRunThroughAShell() throws {
        let dir = TestPaths.temporaryDirectory("names")
        for name in Self.names { try copy(TestPaths.sample("kettle.png"), into: dir, as: name) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == 5)
        // The shell here only hands the raw bytes of each name to lovesnap, quoted.
        let r = try run(
            "/bin/sh",
            [
                "-c", "cd \"$1\" && for f in *; do \"$2\" ocr -- \"$f\"; echo \"rc=$?\"; done",
                "sh", dir.path, TestPaths.lovesnap,
            ])
        let kettle = try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
        #expect(r.stdout == String(repeating: kettle + "rc=0\n", count: 5))
        #expect(r.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("PWNED").path))
    }

    @Test func aTextOptionThatIsNotUTF8IsRefused() throws {
        // `--replace Lenore=Ren\xE9e` (Latin-1), alone and inline, and `--subject x\xE9`: a
        // usage error before any OCR, where the replacement used to hold U+FFFD.
        for option in [
            "--replace \"$(printf 'Lenore=Ren\\351e')\"", "\"--replace=$(printf 'Lenore=Ren\\351e')\"",
            "--mail l@example.org --subject \"$(printf 'x\\351')\"",
        ] {
            let r = try run(
                "/bin/sh",
                ["-c", "\"$1\" ocr \(option) \"$2\"", "sh", TestPaths.lovesnap, TestPaths.sample("kettle.png")])
            let name = option.contains("subject") ? "--subject" : "--replace"
            #expect(r.status == 2, "\(option)")
            #expect(r.stdout == "")
            #expect(r.stderr == "lovesnap: option \(name) needs UTF-8 text; its value has bytes that are not UTF-8\n")
        }
    }

    @Test func anOutputNameThatIsNotUTF8IsWrittenUnderItsBytes() throws {
        // `-o out\xFF.txt`, and `-o base\xFF` with two formats: the files bear those very bytes.
        let dir = TestPaths.temporaryDirectory("raw-output")
        try copy(TestPaths.sample("kettle.png"), into: dir, as: Array("kettle.png".utf8))
        let r = try run(
            "/bin/sh",
            [
                "-c",
                "cd \"$1\" && \"$2\" ocr -o \"$(printf 'out\\377.txt')\" kettle.png"
                    + " && \"$2\" ocr --format txt,tsv -o \"$(printf 'base\\377')\" kettle.png",
                "sh", dir.path, TestPaths.lovesnap,
            ])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let out = Array("out".utf8) + [0xFF] + Array(".txt".utf8)
        let base = Array("base".utf8) + [0xFF]
        #expect(
            TestPaths.entryNames(in: dir.path)
                == [base + Array(".tsv".utf8), base + Array(".txt".utf8), Array("kettle.png".utf8), out])
        let kettle = try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
        let written = (Array(dir.path.utf8) + [UInt8(ascii: "/")] + out).map { CChar(bitPattern: $0) } + [0]
        let fd = open(written, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(0, n)), as: UTF8.self) == kettle)
    }

    @Test func undecodableNameIsShownEscapedInMessages() throws {
        let r = try run("/bin/sh", ["-c", "\"$1\" ocr \"$(printf 'nope\\350.png')\"", "sh", TestPaths.lovesnap])
        #expect(r.status == 3)
        #expect(r.stderr == "lovesnap: nope\\xE8.png: No such file or directory\n")
    }
}

/// The kinds of image file a photo can be: depth, palette, alpha, colour space, frames,
/// orientation, polarity, size.
@Suite struct ImageKindTests {
    let kettle = try! String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)

    @Test(arguments: [
        ("three-frames.gif", "lovesnap: three-frames.gif: GIF with 3 frames: frame 1 read\n"),
        ("two-pages-g4.tif", "lovesnap: two-pages-g4.tif: TIFF with 2 frames: frame 1 read\n"),
        ("grey16.png", ""), ("palette.png", ""), ("kettle.pgm", ""), ("kettle.bmp", ""),
        ("kettle.webp", ""), ("kettle-cmyk.tif", ""), ("kettle-progressive.jpg", ""),
    ])
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

    /// Black everywhere with the text only in the alpha channel (RGBA, grey+alpha), and a palette
    /// whose black background entry is transparent.
    @Test(arguments: [
        ("text-only-in-alpha.png", "kettle"), ("text-only-in-alpha-grey.png", "kettle"),
        ("palette-transparent-background.png", "fenetre"),
    ])
    func transparencyIsFlattenedOntoWhite(name: String, poem: String) throws {
        let r = try lovesnap(["ocr", TestPaths.fixture(name)])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: TestPaths.sample("\(poem).txt"), encoding: .utf8)))
        #expect(r.stderr == "lovesnap: \(name): transparency flattened onto white\n")
    }

    /// The same page stored so that EXIF orientation 1–8 shows it upright (2, 4, 5, 7 mirrored).
    @Test(arguments: 1...8)
    func everyExifOrientationReadsExactly(orientation: Int) throws {
        let name = "exif-orientation-\(orientation).jpg"
        let r = try lovesnap(["ocr", TestPaths.fixture(name)])
        #expect(r.status == 0)
        #expect(r.stdout == kettle)
        #expect(r.stderr == (orientation == 1 ? "" : "lovesnap: \(name): EXIF orientation \(orientation) applied\n"))
    }

    /// Light text on black, a CMYK JPEG (Adobe, inverted), a 4032×3024 JPEG, a 40000×3000 page,
    /// and small print at 8 and 10 px.
    @Test(
        arguments: [
            ("white-on-black.png", "riviere", "light text on a dark background: inverted"),
            ("cmyk-adobe.jpg", "harbour", nil), ("large-4032x3024.jpg", "kettle", nil),
            ("huge-40000x3000.png", "kettle", nil), ("small-text-8px.png", "kettle", nil),
            ("small-text-10px.png", "kettle", nil),
        ] as [(String, String, String?)])
    func awkwardPageReadsExactly(name: String, poem: String, notice: String?) throws {
        let r = try lovesnap(["ocr", TestPaths.fixture(name)])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: TestPaths.sample("\(poem).txt"), encoding: .utf8)))
        #expect(r.stderr == (notice.map { "lovesnap: \(name): \($0)\n" } ?? ""))
    }

    /// French accents with the default languages eng+fra (English goes to Tesseract last).
    @Test(arguments: ["fenetre", "riviere"])
    func frenchAccentsWithTheDefaultLanguages(poem: String) throws {
        let truth = try String(contentsOfFile: TestPaths.sample("\(poem).txt"), encoding: .utf8)
        let r = try lovesnap(["ocr", TestPaths.sample("\(poem).png")])
        #expect(bytes(r.stdout) == bytes(truth))
    }

    @Test func decompressionBombIsRefusedWithItsSize() throws {
        let dir = TestPaths.temporaryDirectory("bomb")
        let bomb = dir.appendingPathComponent("bomb.png").path
        #expect(
            try run(
                "/usr/bin/env",
                ["python3", TestPaths.repoRoot.appendingPathComponent("scripts/make-png-bomb.py").path, bomb]
            ).status == 0)
        let r = try lovesnap(["ocr", bomb])
        #expect(r.status == 3)
        #expect(
            r.stderr
                == "lovesnap: \(bomb): the image is 32000×24000 pixels and would take 732 MiB once decoded, above lovesnap's limit of 512 MiB; refused before decoding (scale it down first)\n"
        )
    }
}

/// The same text under C and comma-decimal locales (the editor must set the locale).
@Suite struct LocaleTests {
    @Test func sameTextUnderEveryLocale() throws {
        let locales = TestPaths.temporaryDirectory("locales")
        for l in ["fr_FR", "de_DE"] {
            let r = try run(
                "/usr/bin/localedef", ["-i", l, "-f", "UTF-8", locales.appendingPathComponent("\(l).UTF-8").path])
            #expect(r.status == 0 || r.status == 1, "localedef \(l): \(r.stderr)")  // 1 = warnings only
        }
        for (image, truth) in [
            (
                TestPaths.fixture("numbers-decimal-comma-and-point.png"),
                TestPaths.fixture("numbers-decimal-comma-and-point.txt")
            ),
            (TestPaths.sample("fenetre.png"), TestPaths.sample("fenetre.txt")),
        ] {
            let expected = try String(contentsOfFile: truth, encoding: .utf8)
            for locale in ["C", "C.UTF-8", "fr_FR.UTF-8", "de_DE.UTF-8"] {
                var env = ProcessInfo.processInfo.environment
                env["LOCPATH"] = locales.path
                env["LC_ALL"] = locale
                let r = try lovesnap(["ocr", image], environment: env)
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

    /// A copy of kettle.png named `name` in a folder of its own, and its bytes.
    func kettleCopy(named name: String, in folder: String) throws -> (path: String, bytes: Data) {
        let path = TestPaths.temporaryDirectory(folder).appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: kettlePNG, toPath: path)
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func anEmptyFileNameIsAUsageError() throws {
        // `lovesnap ocr ''` said "lovesnap: : No such file or directory" (an unset variable quoted).
        for (args, noun) in [
            (["ocr", ""], "photo"), (["ocr", kettlePNG, ""], "photo"), ([""], "photo"), (["edit", ""], "file"),
        ] {
            let r = try lovesnap(args)
            #expect(r.status == 2 && r.stdout == "")
            #expect(r.stderr.hasPrefix("lovesnap: an empty file name ('') names no \(noun)\n"))
        }
    }

    @Test func outputOntoThePhotoItselfIsRefused() throws {
        let (photo, before) = try kettleCopy(named: "same.png", in: "same")
        let r = try lovesnap(["ocr", "-o", photo, photo])
        #expect(r.status == 2)
        #expect(r.stderr == "lovesnap: -o \(photo) is the photo itself; lovesnap will not overwrite it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before)
    }

    @Test func outputOntoAnotherImageIsRefused() throws {
        // A new user's slip: `-o linn.png kettle-photo.jpg` put the text in place of another photo.
        let (other, before) = try kettleCopy(named: "other.PNG", in: "other-image")
        let r = try lovesnap(["ocr", "-o", other, kettlePNG])
        #expect(r.status == 2 && r.stdout == "")
        #expect(r.stderr == "lovesnap: -o \(other) is named as an image; write text or .hocr .tsv .xml .pdf\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        // A new name of an image too, and with --json; a document named after an image is not one.
        let new = (other as NSString).deletingLastPathComponent + "/new.jpg"
        let json = try lovesnap(["ocr", "--json", "-o", new, kettlePNG])
        #expect(json.status == 2 && !FileManager.default.fileExists(atPath: new))
        let hocr = try lovesnap(["ocr", "--format", "hocr", "-o", new, kettlePNG])
        #expect(hocr.status == 0 && FileManager.default.fileExists(atPath: new + ".hocr"))
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

    @Test(arguments: [
        (["--psm", "0"], "lovesnap: option --psm needs a whole number in 1…13, not '0'\n"),
        (["-l", "osd"], "lovesnap: 'osd' is orientation data, not a language (lovesnap uses it by itself)\n"),
        (["-o", ""], "lovesnap: option -o needs a non-empty value\n"),
        (["--tessdata", ""], "lovesnap: option --tessdata needs a non-empty value\n"),
    ])
    func valuesThatCannotWork(arguments: [String], message: String) throws {
        let r = try lovesnap(["ocr"] + arguments + [kettlePNG])
        #expect(r.status == 2)
        #expect(r.stderr == message)
    }
}

/// `lovesnap edit` on files as nano opens them.
@Suite struct EditTextFileTests {
    /// Exit 1, not 3: 3 is for an unusable photo, and a text file is not a photo.
    @Test func fileInAMissingFolderIsAnError() throws {
        let r = try lovesnap(["edit", "/nonexistent-folder/poem.txt"])
        #expect(r.status == 1)
        #expect(r.stderr == "lovesnap: /nonexistent-folder/poem.txt: No such file or directory\n")
    }

    /// A device is refused at once, before the terminal is needed (it read `/dev/zero` without end).
    @Test func aDeviceIsNotATextFile() throws {
        let r = try lovesnap(["edit", "/dev/zero"])
        #expect(r.status == 1)
        #expect(r.stderr == "lovesnap: /dev/zero is a device file, not a text file\n")
    }
}
