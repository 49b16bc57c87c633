import Foundation
import SnapTestSupport
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

/// A new empty folder (real path) for one test.
private func folder(_ label: String = "dir") throws -> String {
    let url = TestPaths.temporaryDirectory("lsnap-emergency-\(label)")
    return url.path
}

private func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

private func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// The path written, or the error's text.
private func write(_ bytes: [UInt8], saveName: String, home: String?, temporaryFolder: String = "/tmp") -> String {
    do {
        return try EmergencyFile.write(bytes, saveName: saveName, home: home, temporaryFolder: temporaryFolder)
    } catch {
        return "error: \(error)"
    }
}

// MARK: - Naming

@Test func candidateNamesFollowNano() {
    #expect(EmergencyFile.candidate("raven.txt", number: 0) == "raven.txt.save")
    #expect(EmergencyFile.candidate("raven.txt", number: 1) == "raven.txt.save.1")
    #expect(EmergencyFile.candidate("/p/poem.txt", number: 2) == "/p/poem.txt.save.2")
    #expect(EmergencyFile.candidate("/p/poem.txt", number: 12) == "/p/poem.txt.save.12")
}

@Test func locationsAreOwnFolderThenHomeThenTmp() {
    #expect(
        EmergencyFile.locations(forSaveName: "/photos/raven.txt", home: "/home/ann")
            == ["/photos/raven.txt", "/home/ann/raven.txt", "/tmp/raven.txt"])
    #expect(
        EmergencyFile.locations(forSaveName: "raven.txt", home: "/home/ann/")
            == ["raven.txt", "/home/ann/raven.txt", "/tmp/raven.txt"])
    #expect(
        EmergencyFile.locations(forSaveName: "/p/poem.txt", home: nil)
            == ["/p/poem.txt", "/tmp/poem.txt"])
    #expect(
        EmergencyFile.locations(forSaveName: "/p/poem.txt", home: "", temporaryFolder: "/var/tmp")
            == ["/p/poem.txt", "/var/tmp/poem.txt"])
    #expect(
        EmergencyFile.locations(forSaveName: "/tmp/poem.txt", home: "/tmp")
            == ["/tmp/poem.txt"])
    #expect(
        EmergencyFile.locations(forSaveName: "", home: "/home/ann")
            == ["lovesnap", "/home/ann/lovesnap", "/tmp/lovesnap"])
}

// MARK: - Writing

@Test func writesNameSaveThenNumberedOnes() throws {
    let dir = try folder()
    let name = dir + "/poem.txt"
    let text: [UInt8] = Array("Lenore é\r\nline 2\n".utf8)
    #expect(write(text, saveName: name, home: nil) == dir + "/poem.txt.save")
    #expect(write([0x41], saveName: name, home: nil) == dir + "/poem.txt.save.1")
    #expect(write([0x42], saveName: name, home: nil) == dir + "/poem.txt.save.2")
    #expect(contents(dir + "/poem.txt.save") == text)  // earlier files untouched
    #expect(contents(dir + "/poem.txt.save.1") == [0x41])
    #expect(contents(dir + "/poem.txt.save.2") == [0x42])
    #expect(names(in: dir) == ["poem.txt.save", "poem.txt.save.1", "poem.txt.save.2"])
    let mode = try FileManager.default.attributesOfItem(atPath: dir + "/poem.txt.save")[.posixPermissions] as? Int
    #expect(mode == 0o600)
}

@Test func fillsTheFirstFreeNumber() throws {
    let dir = try folder()
    try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/raven.txt.save"))
    try Data("old1".utf8).write(to: URL(fileURLWithPath: dir + "/raven.txt.save.1"))
    #expect(write(Array("new".utf8), saveName: dir + "/raven.txt", home: nil) == dir + "/raven.txt.save.2")
    #expect(contents(dir + "/raven.txt.save") == Array("old".utf8))
    #expect(contents(dir + "/raven.txt.save.1") == Array("old1".utf8))
}

@Test func emptyTextMakesAnEmptyFile() throws {
    let dir = try folder()
    #expect(write([], saveName: dir + "/a.txt", home: nil) == dir + "/a.txt.save")
    #expect(contents(dir + "/a.txt.save") == [])
}

@Test func doesNotFollowALinkInTheWay() throws {
    let dir = try folder()
    let target = dir + "/victim"
    try FileManager.default.createSymbolicLink(atPath: dir + "/a.txt.save", withDestinationPath: target)
    #expect(write([0x43], saveName: dir + "/a.txt", home: nil) == dir + "/a.txt.save.1")
    #expect(!FileManager.default.fileExists(atPath: target))
}

@Test func missingFolderFallsBackToHome() throws {
    let home = try folder("home")
    let tmp = try folder("tmp")
    let outcome = write(
        [0x44], saveName: "/nonexistent-lovesnap-\(UUID().uuidString)/raven.txt",
        home: home, temporaryFolder: tmp)
    #expect(outcome == home + "/raven.txt.save")
    #expect(contents(home + "/raven.txt.save") == [0x44])
    #expect(names(in: tmp).isEmpty)
}

@Test func unusableHomeFallsBackToTmp() throws {
    let tmp = try folder("tmp")
    let gone = "/nonexistent-lovesnap-\(UUID().uuidString)"
    #expect(
        write([0x45], saveName: gone + "/raven.txt", home: gone + "/home", temporaryFolder: tmp)
            == tmp + "/raven.txt.save")
    #expect(
        write([0x46], saveName: gone + "/raven.txt", home: nil, temporaryFolder: tmp)
            == tmp + "/raven.txt.save.1")
}

@Test func nowhereToWriteReportsTheOwnFolder() {
    let gone = "/nonexistent-lovesnap-\(UUID().uuidString)"
    #expect(throws: ShareError.writeFailed(path: gone + "/raven.txt.save", reason: "No such file or directory")) {
        try EmergencyFile.write([0x47], saveName: gone + "/raven.txt", home: gone, temporaryFolder: gone + "/t")
    }
    #expect(
        write([0x47], saveName: gone + "/raven.txt", home: gone, temporaryFolder: gone + "/t")
            == "error: \(gone)/raven.txt.save: No such file or directory")
}

@Test(.enabled(if: geteuid() != 0, "skipped as root: root ignores a read-only folder's permissions"))
func readOnlyFolderFallsBackToHome() throws {
    let dir = try folder("ro")
    let home = try folder("home")
    chmod(dir, 0o555)
    defer { chmod(dir, 0o755) }
    #expect(write([0x48], saveName: dir + "/poem.txt", home: home) == home + "/poem.txt.save")
    #expect(names(in: dir).isEmpty)
}

/// The twin of the test above that runs whoever runs the tests: as root, the save is written with
/// the file-system identity of an ordinary user (setfsuid), for whom the folder is read-only.
@Test(.enabled(if: OrdinaryUser.available, "needs setfsuid to act as an ordinary user"))
func readOnlyFolderFallsBackToHomeForAnOrdinaryUser() throws {
    let dir = try folder("ro-user")
    let home = try folder("home-user")
    let (uid, gid) = OrdinaryUser.owner
    chown(dir, uid, gid)
    chown(home, uid, gid)
    chmod(dir, 0o555)
    defer { chmod(dir, 0o755) }
    let saved = try OrdinaryUser.perform { write([0x48], saveName: dir + "/poem.txt", home: home) }
    #expect(saved == home + "/poem.txt.save")
    #expect(names(in: dir).isEmpty)
}

@Test func fileInsteadOfFolderFallsBack() throws {
    // A path whose "folder" is a regular file: ENOTDIR, whoever runs the test.
    let dir = try folder()
    let home = try folder("home")
    try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/plain"))
    #expect(write([0x49], saveName: dir + "/plain/poem.txt", home: home) == home + "/poem.txt.save")
}

@Test func aFolderFullOfNumberedFilesMovesOn() throws {
    let dir = try folder()
    let home = try folder("home")
    for number in 0...EmergencyFile.maximumNumber {
        try Data().write(to: URL(fileURLWithPath: EmergencyFile.candidate(dir + "/p.txt", number: number)))
    }
    #expect(write([0x4A], saveName: dir + "/p.txt", home: home) == home + "/p.txt.save")
    #expect(
        write([0x4B], saveName: dir + "/p.txt", home: nil, temporaryFolder: dir)
            == "error: \(dir)/p.txt.save.999: too many emergency files")
}
