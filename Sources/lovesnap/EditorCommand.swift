import Foundation

/// `lovesnap PHOTO` and `lovesnap edit FILE`: the editor. (Wired once the editor lands.)
enum EditorCommand {
    static func run(_ args: Arguments) -> Int32 {
        Console.error("the editor is not built yet")
        return ExitCode.failure.rawValue
    }
}
