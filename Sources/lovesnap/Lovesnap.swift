import Foundation

@main
struct Lovesnap {
    static func main() {
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
        case .help: print(Arguments.help); exit(0)
        case .version: print(Arguments.version); exit(0)
        case .worker: exit(WorkerMode.run(args))
        case .ocr: exit(OCRCommand.run(args, input: input!))
        case .editPhoto, .editText: exit(EditorCommand.run(args, input: input!))
        }
    }
}
