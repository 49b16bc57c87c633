import Foundation
import SnapTestSupport
import Testing

/// `scripts/install.sh PREFIX` installs lovesnap as a Debian tool is laid out, with a manual page
/// and a bash completion made from the program itself, and `scripts/uninstall.sh PREFIX` removes
/// all of it (issue 43). The built binary is installed (`LOVESNAP_BINARY`), not a release build.
@Suite struct InstallTests {
    @Test func installMakesAManPageAndACompletionWithEveryOptionAndUninstallRemovesThem() throws {
        let prefix = TestPaths.temporaryDirectory("lsnap-prefix")
        var environment = ProcessInfo.processInfo.environment
        environment["LOVESNAP_BINARY"] = TestPaths.lovesnap
        let script = TestPaths.repoRoot.appendingPathComponent("scripts").path
        let installed = try run("/bin/bash", [script + "/install.sh", prefix.path], environment: environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let files = [
            "bin/lovesnap", "share/lovesnap/text-detection.onnx", "share/lovesnap/text-recognition.onnx",
            "share/lovesnap/text-recognition.txt", "share/lovesnap/LICENSE-Apache-2.0",
            "share/lovesnap/README.md", "share/man/man1/lovesnap.1", "share/bash-completion/completions/lovesnap",
        ]
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: prefix.appendingPathComponent($0).path) })

        // The page formats without a warning (man-db, groff).
        let page = prefix.appendingPathComponent("share/man/man1/lovesnap.1").path
        var manEnvironment = environment
        manEnvironment["MANWIDTH"] = "100"
        let man = try run("/usr/bin/env", ["man", "--warnings", "-l", page], environment: manEnvironment)
        #expect(man.status == 0)
        #expect(man.stderr == "")
        #expect(man.stdout.contains("EDITOR KEYS") && man.stdout.contains("EXIT STATUS"))

        // Every option --help names is in the page and in the completion.
        let help = try lovesnap(["--help"]).stdout
        // The options: what starts an option line (before its description), and the usage lines'.
        let heads = help.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("lovesnap ") { return String(trimmed) }
            guard line.count - trimmed.count <= 6, trimmed.hasPrefix("-") else { return nil }
            return trimmed.components(separatedBy: "  ").first
        }
        let flags = Set(
            heads.flatMap { $0.matches(of: /(?:^|[\s\[|,])(--?[A-Za-z][\w-]*)/).map { String($0.output.1) } })
        let roff = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        let completion = try String(
            contentsOfFile: prefix.appendingPathComponent("share/bash-completion/completions/lovesnap").path,
            encoding: .utf8)
        #expect(flags.count >= 30)
        #expect(flags.filter { !roff.contains($0) }.isEmpty)
        let words = Set(completion.split(whereSeparator: { " \n\"()|".contains($0) }).map(String.init))
        #expect(flags.subtracting(words).isEmpty)

        // The installed program finds its model beside it and reads.
        let read = try run(prefix.appendingPathComponent("bin/lovesnap").path, ["ocr", TestPaths.sample("kettle.png")])
        #expect(read.stdout.hasPrefix("Lenore, the kettle hums your tune,\n"))

        let removed = try run("/bin/bash", [script + "/uninstall.sh", prefix.path])
        #expect(removed.status == 0)
        let left = FileManager.default.enumerator(atPath: prefix.path)?.compactMap { $0 as? String } ?? []
        #expect(left.filter { !$0.hasSuffix("/") && !FileManager.default.isDirectory(prefix.path + "/" + $0) }.isEmpty)
    }
}

extension FileManager {
    fileprivate func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
