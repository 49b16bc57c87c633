import Foundation
import SnapEditor
import SnapOCR
import SnapShare

@main
struct Lovesnap {
    static func main() {
        let stdoutIsOpen = StandardStreams.secure()
        do {
            exit(try run(stdoutIsOpen: stdoutIsOpen))
        } catch {
            if let message = error.message { Console.error(message) }
            exit(error.exitCode.rawValue)
        }
    }

    /// Parses the command line and runs the command.
    /// - Returns: the exit status of a command that did not fail (the editor's may be 129 or 143).
    /// - Throws: `CommandFailure`, which knows its message and exit code.
    static func run(stdoutIsOpen: Bool) throws(CommandFailure) -> Int32 {
        let (argv, undecodable) = CommandLineArguments.current()
        // A process lovesnap started of itself (the OCR worker, its helpers) has its own command line.
        let role: InternalRole?
        do { role = try InternalRole.parse(argv) } catch { throw .usage(error) }
        if let role { try role.run() }
        let args: Arguments
        do { args = try Arguments.parse(argv, undecodable: Set(undecodable.keys)) } catch { throw .usage(error) }
        // A slip in -c is said before any OCR, as a usage error (Tesseract's variables checked
        // on an engine that loads nothing).
        if let refused = TesseractEngine.refusedVariable(args.options.engine.variables ?? []) {
            throw .usage(OCRError.invalidVariable(refused))
        }
        func input(_ argument: String, opening: Bool = true) throws(CommandFailure) -> InputFile {
            do { return try InputFile(argument: argument, rawBytes: undecodable[argument], opening: opening) } catch {
                throw .unusableInput(error, input: nil)
            }
        }
        switch args.command {
        case .help: try printOrFail(Arguments.help)
        case .helpKeys: try printOrFail(Keymap.nano.helpScreen(width: 80).joined(separator: "\n"))
        case .version: try printOrFail(Arguments.versionText())
        case .listLanguages:
            let listed: (folder: String, languages: [String])
            do { listed = try TesseractEngine.availableLanguages(tessdataPath: args.options.engine.tessdataPath) } catch
            {
                throw .tessdataUnusable(error)
            }
            try printOrFail(
                (["List of available languages in \"\(listed.folder)\" (\(listed.languages.count)):"] + listed.languages)
                    .joined(separator: "\n"))
        case .ocr(let photos, let output):
            var inputs: [InputFile] = []
            for photo in photos {
                let file = try input(photo)
                do { inputs.append(try file.readingPipes()) } catch { throw .unusableInput(error, input: file) }
            }
            // `-o` by its bytes: a name that is not UTF-8 is written as given.
            let outputName = output.map { undecodable[$0].map(FileSystemName.init(bytes:)) ?? FileSystemName($0) }
            try OCRCommand.run(args, inputs: inputs, output: outputName, stdoutIsOpen: stdoutIsOpen)
        case .editPhoto(let photo):
            // nano's habit: `lovesnap notes.txt` edits the text file, as `lovesnap edit` does.
            if ImageName.isTextFile(photo) {
                return try EditorCommand.run(args, input: input(photo, opening: false), isText: true)
            }
            let file = try input(photo)
            let piped: InputFile
            do { piped = try file.readingPipes() } catch { throw .unusableInput(error, input: file) }
            return try EditorCommand.run(args, input: piped, isText: false)
        // A text file is read and written by its name's bytes (`InputFile.fileName`), and may be new.
        case .editText(let file): return try EditorCommand.run(args, input: input(file, opening: false), isText: true)
        }
        return ExitCode.ok.rawValue
    }

    /// Prints `text` and a newline on stdout.
    /// - Throws: `.outputFailed` when stdout cannot take it.
    static func printOrFail(_ text: String) throws(CommandFailure) {
        do { try OutputFile.write(Array((text + "\n").utf8), to: nil) } catch { throw .outputFailed(error) }
    }
}
