import Foundation

@main
struct Lovesnap {
    static func main() {
        let stdoutIsOpen = StandardStreams.secure()
        let (argv, undecodable) = InputFile.commandLine()
        let args: Arguments
        do { args = try Arguments.parse(argv) } catch {
            Console.error("\(error)")
            exit(ExitCode.usage.rawValue)
        }
        var input: InputFile?
        if let given = args.input, args.mode != .worker {
            do { input = try InputFile(argument: given, rawBytes: undecodable[given]) } catch {
                Console.error("\(error)")
                exit(ExitCode.badInput.rawValue)
            }
        }
        switch args.mode {
        case .help: exit(printOrFail(Arguments.help))
        case .version: exit(printOrFail(Arguments.version))
        case .worker: exit(WorkerMode.run(args))
        case .ocr: exit(OCRCommand.run(args, input: input!, stdoutIsOpen: stdoutIsOpen))
        case .editPhoto, .editText: exit(EditorCommand.run(args, input: input!))
        }
    }

    /// Prints `text` and a newline on stdout; exit code 6 when stdout cannot take it.
    static func printOrFail(_ text: String) -> Int32 {
        do { try OutputFile.write(Array((text + "\n").utf8), to: nil); return ExitCode.ok.rawValue } catch {
            Console.error("\(error)")
            return ExitCode.outputFailed.rawValue
        }
    }
}
