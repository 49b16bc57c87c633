import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where the repository, its sample poems and test fixtures, and the built binary are.
public enum TestPaths {
    /// The package root (the folder holding Package.swift).
    public static let repoRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// The sample poems folder (images and their exact texts).
    public static let samplePoems = repoRoot.appendingPathComponent("SamplePoems")

    /// A sample poem file by name (e.g. "kettle.png").
    public static func sample(_ name: String) -> String { samplePoems.appendingPathComponent(name).path }
    /// A test fixture under Tests/Fixtures (made by Tests/Fixtures/make_fixtures.py).
    public static func fixture(_ name: String) -> String {
        repoRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
    }

    /// The `lovesnap` executable built beside the test bundle (swift test builds it too).
    public static let lovesnap: String = {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("lovesnap")
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue {
                return candidate.path
            }
            dir.deleteLastPathComponent()
        }
        return repoRoot.appendingPathComponent(".build/debug/lovesnap").path
    }()

    /// The folders `temporaryDirectory` made, removed with all they hold when the process exits.
    private static let madeFolders: Mutex<[URL]> = {
        atexit {
            for url in TestPaths.madeFolders.withLock({ $0 }) {
                // A folder a test made read-only would stop the removal: open each one up first.
                func openUp(_ path: String) {
                    chmod(path, 0o700)
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                        var info = stat()
                        let child = path + "/" + name
                        if lstat(child, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { openUp(child) }
                    }
                }
                openUp(url.path)
                try? FileManager.default.removeItem(at: url)
            }
        }
        return Mutex([])
    }()

    /// A new empty folder with a short name, `$TMPDIR/LABEL-xxxxxxxx` (so that whole paths fit
    /// in the editor's prompts), mode 0755, removed with what it holds when the test process
    /// exits. The one temporary-folder helper of the tests.
    public static func temporaryDirectory(_ label: String = "lsnap-test") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8).lowercased())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.path, 0o755)
        madeFolders.withLock { $0.append(url) }
        return url
    }

    /// The names in the folder at `path` as the file system holds them (bytes: not always UTF-8),
    /// sorted, without "." and "..".
    public static func entryNames(in path: String) -> [[UInt8]] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [[UInt8]] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
