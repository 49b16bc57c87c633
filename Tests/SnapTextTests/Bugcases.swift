import Foundation

/// Files of /work/shared/bugcases, found from this source file: Tests/SnapTextTests → repo root → ../shared.
enum Bugcases {
    static let root: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()   // SnapTextTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repo root
        .appendingPathComponent("../shared/bugcases").standardized

    /// The bytes of `path` (relative to the bugcases folder).
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// The text of `path`, decoded from UTF-8 without any normalisation.
    static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }
}

/// The UTF-8 bytes of `s`: Swift's `==` on strings ignores NFC/NFD differences, bytes do not.
func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
