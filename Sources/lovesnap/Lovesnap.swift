import Foundation

@main
struct Lovesnap {
    static func main() {
        // Arguments are taken as given (Linux argv bytes decoded as UTF-8).
        let argv = Array(CommandLine.arguments.dropFirst())
        let args: Arguments
        do { args = try Arguments.parse(argv) } catch {
            Console.error("\(error)")
            exit(ExitCode.usage.rawValue)
        }
        switch args.mode {
        case .help: print(Arguments.help); exit(0)
        case .version: print(Arguments.version); exit(0)
        case .worker: exit(WorkerMode.run(args))
        case .ocr: exit(OCRCommand.run(args))
        case .editPhoto, .editText: exit(EditorCommand.run(args))
        }
    }
}
