import Foundation

/// Files of ../shared/bugcases, read as bytes or as text with no normalisation.
public enum Bugcases {
    /// The bug-case folder.
    public static var root: URL { TestPaths.bugcases }

    /// The bytes of `path` (relative to the bug-case folder).
    public static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// The text of `path`, decoded from UTF-8 without any normalisation.
    public static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path), as: UTF8.self)
    }
}

/// The UTF-8 bytes of `s`: Swift's `==` on strings ignores NFC/NFD differences, bytes do not.
public func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
