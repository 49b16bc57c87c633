import Foundation
import SnapEditor
import SnapExport
import SnapImaging
import SnapOCR
import SnapShare

/// What the command line asked for.
struct Arguments {
    /// The command, with the file it works on.
    enum Command: Equatable {
        /// `lovesnap PHOTO`: OCR, then the editor.
        case editPhoto(String)
        /// `lovesnap ocr PHOTO…`: the text (or the `formats`) on stdout, or in `output` (`-o`);
        /// several photos make one document, pages in order.
        case ocr([String], output: String?)
        /// `lovesnap edit FILE`: the editor on a text file.
        case editText(String)
        case help
        /// `lovesnap --help-keys`: every editor key binding (the ^G screen).
        case helpKeys
        case version
        /// `lovesnap --list-langs [--tessdata DIR]`: the traineddata there, as `tesseract --list-langs`.
        case listLanguages
    }

    var command: Command = .help
    var options = RecognitionOptions()
    var mailCommand: String?
    /// The headless mail (`lovesnap ocr PHOTO --mail TO`): the To field, its Subject (nil: the
    /// poem's first line).
    var mailTo: String?
    var subject: String?
    /// The sender (`--from`; else `$EMAIL`, else user@host).
    var from: String?
    /// Seconds the mail command may take (`--mail-timeout`).
    var mailTimeout = MailCommand.defaultTimeout
    /// Keep the old file as NAME~ when saving over it (`--backup`).
    var backup = false
    var verbose = false
    /// Words read with a confidence (0–100) below this are marked uncertain (`--uncertain-below`).
    var uncertainBelow = Proofreading.defaultThreshold
    /// `lovesnap ocr --json`: the words and their marks as JSON instead of the text.
    var json = false
    var timeout: TimeInterval = WorkerClient.defaultTimeout
    /// `lovesnap ocr --format`: the formats to write, in the order asked (nil: plain text).
    var formats: [ExportFormat]?
    /// `lovesnap ocr --replace` / `--replace-regex`, in the order given.
    var replacements: [Replacement] = []

    /// One headless replace-all (`--replace FIND=REPLACEMENT`, literal, or `--replace-regex`).
    struct Replacement: Equatable {
        var find: String
        var replacement: String
        var regularExpression: Bool
    }

    /// Why the command line cannot work; `description` is the message.
    struct UsageError: Error, CustomStringConvertible { let description: String }

    /// Parses argv (without the program name). Options may come before or after the file;
    /// `--` ends the options, so a file named `-l fra.png` is read as a file.
    /// `undecodable` holds the arguments that were not UTF-8 as argv decoded them (invalid bytes
    /// as U+FFFD: `CommandLineArguments.current()`): a file name may be any bytes, but the text of
    /// `--replace`, `--replace-regex`, `--mail`, `--subject`, `--from` and `--mail-command` must be
    /// UTF-8, or the text would silently hold U+FFFD where the bytes were.
    /// - Throws: `UsageError` naming the option or argument at fault; `OCRError.invalidLanguage`
    ///   for a `-l` that cannot name a language.
    static func parse(_ argv: [String], undecodable: Set<String> = []) throws -> Arguments {
        enum Mode: Equatable {
            case editPhoto, ocr, editText, help, helpKeys, version, listLanguages
        }
        var a = Arguments()
        var mode = Mode.editPhoto
        var output: String?
        var rest = argv[...]
        if let first = rest.first {
            switch first {
            case "ocr":
                mode = .ocr
                rest = rest.dropFirst()
            case "edit":
                mode = .editText
                rest = rest.dropFirst()
            default: break
            }
        }
        var positional: [String] = []
        var optionsEnded = false
        // The option values that came from an argument that was not UTF-8.
        var notUTF8 = undecodable
        func value(_ name: String) throws -> String {
            guard let v = rest.first else { throw UsageError(description: "option \(name) needs a value") }
            rest = rest.dropFirst()
            return v
        }
        /// The value of an option that is text (not a file name): UTF-8.
        func text(_ name: String) throws -> String {
            let v = try value(name)
            guard !notUTF8.contains(v) else {
                throw UsageError(description: "option \(name) needs UTF-8 text; its value has bytes that are not UTF-8")
            }
            return v
        }
        /// A non-empty value; a name of the file system (`-o`, `--tessdata`) may be any bytes.
        func nonEmpty(_ name: String, isText: Bool = false) throws -> String {
            let v = try isText ? text(name) : value(name)
            guard !v.isEmpty else { throw UsageError(description: "option \(name) needs a non-empty value") }
            return v
        }
        func int(_ name: String, _ range: ClosedRange<Int>) throws -> Int {
            let v = try value(name)
            guard let n = Int(v), range.contains(n) else {
                throw UsageError(
                    description:
                        "option \(name) needs a whole number in \(range.lowerBound)…\(range.upperBound), not '\(v)'")
            }
            return n
        }
        while let arg = rest.first {
            rest = rest.dropFirst()
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                positional.append(arg)
                continue
            }
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if let inline {
                if undecodable.contains(arg) { notUTF8.insert(inline) }
                rest = [inline] + rest
            }
            switch name {
            case "--": optionsEnded = true
            case "-h", "--help": mode = .help
            case "--help-keys": mode = .helpKeys
            case "-V", "--version": mode = .version
            case "--list-langs": mode = .listLanguages
            case "-l", "--languages", "--lang":
                a.options.engine.languages = try EngineOptions.parseLanguages(value(name))
            case "--psm":
                // PSM 0 only detects orientation and script: it never yields text.
                a.options.engine.pageSegmentationMode = try int(name, 1...13)
            case "--tessdata": a.options.engine.tessdataPath = try nonEmpty(name)
            case "-c":
                // Tesseract's own `-c NAME=VALUE` (e.g. tessedit_char_whitelist), repeatable.
                let v = try text(name)
                guard let equals = v.firstIndex(of: "="), equals != v.startIndex else {
                    throw UsageError(description: "option -c needs NAME=VALUE (a Tesseract variable), not '\(v)'")
                }
                a.options.engine.variables = (a.options.engine.variables ?? []) + [v]
            case "-o", "--output": output = try nonEmpty(name)
            case "--dpi":
                a.options.resolution = try int(name, TesseractEngine.credibleResolutions)
            case "--max-dimension": a.options.preprocessing.maxDimension = try int(name, 100...32000)
            case "--binarization":
                let v = try value(name)
                guard let b = Binarization(rawValue: v) else {
                    throw UsageError(description: "option --binarization takes tesseract, otsu or sauvola, not '\(v)'")
                }
                a.options.preprocessing.binarization = b
            case "--text-height":
                let v = try value(name)
                guard let t = Double(v), t >= 8, t <= 200 else {
                    throw UsageError(description: "option --text-height needs a number of pixels in 8…200, not '\(v)'")
                }
                a.options.preprocessing.targetTextHeight = t
            case "--level":
                let v = try value(name)
                guard let l = RecognitionLevel(rawValue: v) else {
                    throw UsageError(description: "option --level takes fast or accurate, not '\(v)'")
                }
                a.options.level = l
            case "--no-osd": a.options.detectOrientation = false
            case "--reading":
                let v = try value(name)
                guard let mode = ReadingMode(rawValue: v) else {
                    throw UsageError(description: "option --reading takes auto, page or lines, not '\(v)'")
                }
                a.options.reading = mode
            case "--threads": a.options.threads = try int(name, 1...2)
            case "-v", "--verbose": a.verbose = true
            case "--uncertain-below":
                let v = try value(name)
                guard let n = Double(v), n >= 0, n <= 101 else {
                    throw UsageError(description: "option --uncertain-below needs a number in 0…101, not '\(v)'")
                }
                a.uncertainBelow = n
            case "--json": a.json = true
            case "--format", "-f":
                let v = try value(name)
                for part in v.split(separator: ",", omittingEmptySubsequences: false) {
                    let word = part.trimmingCharacters(in: .whitespaces).lowercased()
                    guard let format = ExportFormat(rawValue: word == "xml" ? "alto" : word) else {
                        throw UsageError(
                            description:
                                "option --format takes txt, hocr, tsv, alto or pdf (comma-separated), not '\(part)'")
                    }
                    if !(a.formats ?? []).contains(format) { a.formats = (a.formats ?? []) + [format] }
                }
            case "--replace", "--replace-regex":
                let v = try text(name)
                guard let eq = v.firstIndex(of: "="), eq != v.startIndex else {
                    throw UsageError(
                        description: "option \(name) needs FIND=REPLACEMENT with a non-empty FIND, not '\(v)'")
                }
                a.replacements.append(
                    Replacement(
                        find: String(v[..<eq]), replacement: String(v[v.index(after: eq)...]),
                        regularExpression: name == "--replace-regex"))
            case "--region":
                do { a.options.region = try PhotoRegion.parse(value(name)) } catch let problem as PhotoRegion.Problem {
                    throw UsageError(description: problem.description)
                }
            case "--mail-command": a.mailCommand = try text(name)
            case "--mail": a.mailTo = try nonEmpty(name, isText: true)
            case "--subject": a.subject = try text(name)
            case "--from": a.from = try nonEmpty(name, isText: true)
            case "--backup", "-B": a.backup = true
            case "--mail-timeout":
                let v = try value(name)
                guard let t = Double(v), t > 0, t.isFinite else {
                    throw UsageError(description: "option --mail-timeout needs a number of seconds > 0, not '\(v)'")
                }
                a.mailTimeout = t
            case "--timeout":
                let v = try value(name)
                guard let t = Double(v), t > 0, t.isFinite else {
                    throw UsageError(description: "option --timeout needs a number of seconds > 0, not '\(v)'")
                }
                a.timeout = t
            default:
                throw UsageError(
                    description:
                        "unknown option '\(arg)' (see lovesnap --help; put -- before a file name that starts with '-')")
            }
        }
        // The commands that read no photo end the parsing.
        let standalone: [(Mode, Command)] = [
            (.help, .help), (.version, .version), (.listLanguages, .listLanguages), (.helpKeys, .helpKeys),
        ]
        if let command = standalone.first(where: { $0.0 == mode })?.1 {
            a.command = command
            return a
        }
        // `lovesnap -l fra ocr PHOTO`: options before the subcommand.
        if mode == .editPhoto, positional.count == 2, let sub = ["ocr": Mode.ocr, "edit": Mode.editText][positional[0]]
        {
            mode = sub
            positional.removeFirst()
        }
        if positional.count > 1 && mode != .ocr {
            throw UsageError(
                description: "expected one file, got \(positional.count): \(positional.joined(separator: ", "))")
        }
        guard let input = positional.first else {
            throw UsageError(
                description: mode == .editText
                    ? "edit: which text file?" : "which photo? (lovesnap PHOTO, or lovesnap --help)")
        }
        // An empty argument (`lovesnap ocr ''`, an unset shell variable quoted) names no file.
        if positional.contains("") {
            throw UsageError(description: "an empty file name ('') names no \(mode == .editText ? "file" : "photo")")
        }
        if a.json && mode != .ocr { throw UsageError(description: "--json is for `lovesnap ocr`") }
        if (a.formats != nil || !a.replacements.isEmpty) && mode != .ocr {
            throw UsageError(
                description:
                    "--format and --replace are for `lovesnap ocr`; in the editor, ^O picks the format by extension")
        }
        if a.json && (a.formats != nil || !a.replacements.isEmpty) {
            throw UsageError(description: "--json cannot be combined with --format or --replace")
        }
        if let formats = a.formats, formats.count > 1 {
            if output == nil || output == "-" {
                throw UsageError(description: "several formats need -o BASE (written as BASE.hocr, BASE.pdf, …)")
            }
        }
        if positional.filter({ $0 == "-" }).count > 1 {
            throw UsageError(description: "standard input (-) can be read only once")
        }
        if a.options.region != nil && mode != .ocr {
            throw UsageError(
                description: "--region is for `lovesnap ocr`; in the editor, M-P shows the photo to frame a region on")
        }
        if output != nil && mode != .ocr {
            throw UsageError(description: "-o/--output is for `lovesnap ocr`; in the editor, ^O writes the text out")
        }
        if a.mailTo != nil && mode != .ocr {
            throw UsageError(description: "--mail is for `lovesnap ocr`; in the editor, M-M mails the text")
        }
        if a.subject != nil && a.mailTo == nil {
            throw UsageError(description: "--subject goes with --mail (lovesnap ocr PHOTO --mail TO --subject S)")
        }
        if a.mailTo != nil && a.json {
            throw UsageError(description: "--json and --mail cannot be combined: the mail carries the text")
        }
        if a.mailTo != nil && a.formats != nil && (output == nil || output == "-") {
            throw UsageError(
                description: "--format with --mail needs -o BASE: the mail carries the text, the documents go to files")
        }
        switch mode {
        case .editPhoto: a.command = .editPhoto(input)
        case .ocr: a.command = .ocr(positional, output: output)
        case .editText: a.command = .editText(input)
        case .help, .helpKeys, .version, .listLanguages: break
        }
        return a
    }

    static let version = "lovesnap 0.1.0"

    /// `--version`: lovesnap's version, the libraries it reads with (as `tesseract --version`
    /// lists them), and the library workarounds its OCR processes apply (`LibraryTuning`).
    static func versionText() -> String {
        let libraries = TesseractEngine.libraryVersions
        let workarounds = LibraryTuning.workarounds
        let on = workarounds.filter { $0.offBecause == nil }.map(\.name)
        var tuning = "library tuning in the OCR processes: " + (on.isEmpty ? "none" : on.joined(separator: ", "))
        var reasons: [String] = []
        for w in workarounds { if let reason = w.offBecause, !reasons.contains(reason) { reasons.append(reason) } }
        for reason in reasons {
            tuning +=
                "; \(reason): " + workarounds.filter { $0.offBecause == reason }.map(\.name).joined(separator: ", ")
        }
        return
            ([version, " tesseract \(libraries.tesseract)", " \(libraries.leptonica)", " " + tuning]
            + (LibraryTuning.unknownNamesWarning.map { [" " + $0] } ?? []))
            .joined(separator: "\n")
    }

    static let help = """
        lovesnap — turn a photo of a poem into text you can edit, save and mail.

        Usage:
          lovesnap [OPTIONS] PHOTO        OCR the photo and open the text in the editor
          lovesnap ocr [OPTIONS] PHOTO…   OCR the photos (- for stdin) into one text or document
          lovesnap edit FILE              open a text file in the editor (UTF-8, else Latin-1)
          lovesnap --list-langs [--tessdata DIR]   the languages there (as tesseract --list-langs)
          lovesnap --help | --help-keys | --version

        OCR options:
          -l, --languages LANGS   Tesseract languages joined by '+' (default: eng+fra)
              --psm N             page segmentation mode 1–13 (default: 3, automatic)
          -c NAME=VALUE           set a Tesseract variable, as tesseract -c does (repeatable; e.g.
                                  tessedit_char_whitelist=0123456789)
              --tessdata DIR      folder of the .traineddata files (default: $TESSDATA_PREFIX,
                                  else Tesseract's own)
              --dpi N             the photo's resolution, for photos that give none or a wrong
                                  one (70–2400; as tesseract --dpi): Tesseract reads the photo
                                  as it is with it, and it sizes the PDF's page
              --max-dimension PX  bound on the long side after scaling, in pixels (default: 4000)
              --text-height PX    median glyph height the page is rescaled to when its own is
                                  far from it, in pixels (default: 26)
              --level L           fast (one pass) or accurate (several preparations, the
                                  most confidently read one kept) (default: fast)
              --binarization M    black-and-white filter: tesseract (Tesseract's own, on the
                                  prepared grey page), otsu or sauvola (Leptonica, after
                                  background normalization) (default: tesseract)
              --no-osd            do not detect pages turned by 90/180/270° (EXIF still applies)
              --reading M         how the text is found: auto (Tesseract's layout and the
                                  trained text detector, the better reading kept), page
                                  (Tesseract's layout only) or lines (the detected lines
                                  always) (default: auto)
              --threads N         engines reading at once: 2 shares long pages and detected
                                  lines between two (same text, sooner), 1 reads on one core
                                  (default: 2)
              --timeout SECONDS   stop an OCR run that takes longer (default: 300)
          -o, --output FILE       (ocr) write the text to FILE instead of stdout; with --format,
                                  FILE.EXT for each format (as given when it already ends in
                                  .EXT); "-" is stdout (one format)
          -f, --format LIST       (ocr) txt, hocr, tsv, alto (.xml) or pdf, comma-separated or
                                  repeated: Tesseract's own renderers, in the photo's pixels
              --replace FIND=REPL (ocr) replace every FIND by REPL (literal; repeatable, in order)
              --replace-regex RE=REPL  (ocr) the same with a regular expression (\\1 or $1: groups)
          -v, --verbose           (ocr) print each stage with its elapsed time on stderr
              --json              (ocr) print one JSON document per photo, one per line (JSON Lines):
                                  the text, every word with its box, confidence and marks,
                                  rotation, notes, detected data (see docs/json.md)
              --region X,Y,W,H    (ocr) read only this rectangle of the upright photo, in pixels
                                  (120,300,800,90) or percent (10%,20%,50%,15%)
              --uncertain-below N mark words read with a confidence under N (0–101) as
                                  uncertain (default: \(Int(Proofreading.defaultThreshold))), unless the second
                                  recognizer reads them the same way
              --mail TO           (ocr) mail the text to TO (RFC 5322 addresses, commas between
                                  them: '"Lenore, my love" <l@example.org>') instead of printing it
              --subject S         (ocr, with --mail) the Subject (default: the poem's first line)
        Mail and saving options (the editor's M-M and ^O, and ocr --mail / -o):
              --from F            the sender (default: $EMAIL, else user@host)
              --mail-command CMD  mail transport, run without a shell
                                  (default: $LOVESNAP_MAIL_COMMAND, else "sendmail -t -i")
              --mail-timeout S    stop a mail command that takes longer (default: 60 seconds)
          -B, --backup            keep the old file as NAME~ when writing over it
          --                      end of options: the next argument is a file even if it starts with '-'

        Photos: PNG, JPEG, TIFF, GIF, BMP, WebP, PNM; EXIF orientation is applied; a photo that
        would take more than 512 MiB once decoded is refused. The text is UTF-8 (NFC).

        Editor keys (GNU nano's; ^G in the editor and lovesnap --help-keys list them all):
        \(Keymap.nano.keyList(width: 92, indent: "  ").joined(separator: "\n"))

        Exit codes: 0 ok (also when no text was found: a notice goes to stderr), 1 other failure,
          2 bad command line (also a --region outside the photo, a bad address or a line break
          in --subject/--from), 3 unusable photo, 4 missing language or tessdata, 5 OCR engine
          crashed or timed out, 6 could not write the text, 7 mail command not found or not
          runnable, 8 mail command failed, 9 mail command timed out, 10 nothing mailed: no text
          found, 130 interrupted.

        Environment: LOVESNAP_MAIL_COMMAND (the mail command), EMAIL (the sender),
          XDG_STATE_HOME (recovery files: $XDG_STATE_HOME/lovesnap, else ~/.local/state/lovesnap),
          TESSDATA_PREFIX (the traineddata), OMP_THREAD_LIMIT (threads per engine, 1 unless set),
          NO_COLOR, LOVESNAP_GRAPHICS (symbols, sixel, kitty or iterm: the photo view),
          LOVESNAP_TEXT_DETECTOR (the detector's model; empty: none), LOVESNAP_TEXT_RECOGNIZER (the
          second recognizer's model, its characters beside it as .txt; empty: none),
          LOVESNAP_NO_TUNING (1: the OCR processes leave the libraries to do all their own work; or
          the names --version lists).
        """
}
