import Foundation
import SnapOCR

#if canImport(Glibc)
    import Glibc
#endif

/// The processes lovesnap starts of itself, each with a small command line of its own, parsed
/// here and never by the user's (`Arguments`): the request is one Codable value as JSON
/// (`RecognitionOptions` inside it), decoded by the role's server.
///
/// - `__worker REQUEST -- PHOTO`: the OCR worker (`WorkerServer`);
/// - `__reader REQUEST -- PHOTO`: the worker's reader of the photo as it is (`ReaderServer`);
/// - `__spelling LANGS`: the worker's spelling dictionaries (`SpellingServer`);
/// - `__orientation REQUEST`: OSD of the page on its standard input (`OrientationProcess`);
/// - `__detector REQUEST`: the text regions of the image on its standard input (`DetectorProcess`).
enum InternalRole: Equatable {
    case worker(request: String, photo: String)
    case reader(request: String, photo: String)
    case spelling(languages: [String])
    case orientation(request: String)
    case detector(request: String)

    /// The role `argv` (without the program's name) asks for; nil when its first word names none
    /// (the user's command line, `Arguments`).
    /// - Throws: `UsageError` for a role with the wrong words after it.
    static func parse(_ argv: [String]) throws -> InternalRole? {
        guard let first = argv.first else { return nil }
        func requestAndPhoto() throws -> (request: String, photo: String) {
            guard argv.count == 4, argv[2] == "--" else {
                throw Arguments.UsageError(description: "\(first.dropFirst(2)): usage: \(first) REQUEST -- PHOTO")
            }
            return (argv[1], argv[3])
        }
        func request() throws -> String {
            guard argv.count == 2 else {
                throw Arguments.UsageError(description: "\(first.dropFirst(2)): usage: \(first) REQUEST")
            }
            return argv[1]
        }
        switch first {
        case "__worker":
            let (request, photo) = try requestAndPhoto()
            return .worker(request: request, photo: photo)
        case "__reader":
            let (request, photo) = try requestAndPhoto()
            return .reader(request: request, photo: photo)
        case "__spelling":
            guard argv.count == 2 else { throw Arguments.UsageError(description: "spelling: usage: __spelling LANGS") }
            return .spelling(languages: try EngineOptions.parseLanguages(argv[1]))
        case "__orientation": return .orientation(request: try request())
        case "__detector": return .detector(request: try request())
        default: return nil
        }
    }

    /// Runs the role. Each ends its process itself as soon as its answer is written (freeing its
    /// engines first kept the parent waiting about 0.12 s for nothing); the worker returns only
    /// after a failure, which it has sent as a message.
    /// - Throws: `.parentGone` when the parent had already gone; `.workerEnded` after the worker's failure.
    func run() throws(CommandFailure) -> Never {
        // Only the worker keeps freed image memory; the processes that read with Tesseract tune
        // its libraries (`LibraryTuning`).
        var isWorker = false
        var readsWithTesseract = true
        switch self {
        case .worker: isWorker = true
        case .spelling, .detector: readsWithTesseract = false
        case .reader, .orientation: break
        }
        guard WorkerServer.prepareProcess(keepsFreedImageMemory: isWorker, tunesLibraries: readsWithTesseract) else {
            throw .parentGone
        }
        let served: Bool
        switch self {
        case .worker(let request, let photo):
            let outcome = WorkerServer(output: .standardOutput).serve(request: request, path: photo) {
                WorkerServer.endHelpers()
                _exit(0)
            }
            if case .failure(let failure) = outcome { throw .workerEnded(failure) }
            served = true
        case .reader(let request, let photo):
            served = ReaderServer(output: .standardOutput).serve(
                request: request, path: photo, commands: .standardInput)
        case .spelling(let languages):
            served = SpellingServer(output: .standardOutput).serve(languages: languages, questions: .standardInput)
        case .orientation(let request):
            served = OrientationProcess.serve(request: request, path: "/dev/stdin", output: .standardOutput)
        case .detector(let request):
            served = DetectorProcess.serve(request: request, path: "/dev/stdin", output: .standardOutput)
        }
        _exit(served ? 0 : ExitCode.failure.rawValue)
    }
}
