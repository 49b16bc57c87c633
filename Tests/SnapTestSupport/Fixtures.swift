import Foundation

/// Files of Tests/Fixtures (made by Tests/Fixtures/make_fixtures.py), read as bytes or as text
/// with no normalisation.
public enum Fixtures {
    /// The bytes of the fixture `name`.
    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture(name))))
    }

    /// The text of the fixture `name`, decoded from UTF-8 without any normalisation.
    public static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }
}

/// The UTF-8 bytes of `s`: Swift's `==` on strings ignores NFC/NFD differences, bytes do not.
public func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
