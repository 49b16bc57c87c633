import Foundation
import SnapImaging
import SnapProcess
import SnapTestSupport
import Synchronization
import Testing

@testable import SnapOCR

/// Orientation detection in a process of its own (`lovesnap __orientation`, `OrientationProcess`).
/// In `ReaderProcessTests` (serialized): the worker's helper processes, one at a time.
extension ReaderProcessTests {
    /// harbour.png turned upside down, prepared as the worker prepares it.
    static func pageUpsideDown() throws -> PreparedImage {
        let photo = try ImageLoader().load(TestPaths.sample("harbour.png")).image.rotated(quarterTurnsClockwise: 2)
        return try Preprocessor().prepare(photo)
    }

    @Test func theOrientationProcessFindsWhatOSDFindsHere() throws {
        let page = try Self.pageUpsideDown()
        let detector = try #require(OrientationDetector(tessdataPath: nil))
        let here = try #require(detector.detect(page.image, resolution: page.resolution))
        let apart = try OrientationProcess.detect(
            page.image, resolution: page.resolution, tessdataPath: nil, executable: TestPaths.lovesnap)
        #expect(apart == here)
        #expect(here.quarterTurnsClockwise == 2)
    }

    @Test func anOrientationProcessThatFailsSaysWhy() throws {
        let page = try Self.pageUpsideDown()
        #expect(throws: OrientationProcess.Failure(reason: "the orientation process exited with status 1")) {
            try OrientationProcess.detect(
                page.image, resolution: page.resolution, tessdataPath: nil, executable: "/bin/false")
        }
        // A tessdata folder without osd.traineddata.
        let empty = TestPaths.temporaryDirectory("tessdata").path
        #expect(throws: OrientationProcess.Failure(reason: "osd.traineddata could not be loaded")) {
            try OrientationProcess.detect(
                page.image, resolution: page.resolution, tessdataPath: empty, executable: TestPaths.lovesnap)
        }
    }

    @Test func aRecognizerDetectsOrientationApartAsHere() throws {
        // The page upside down reads poorly, so OSD is asked, in one process of its own, and the
        // page is turned back: the same result as with OSD here.
        let dir = TestPaths.temporaryDirectory("osd")
        let path = dir.appendingPathComponent("upside-down.png").path
        try ImageLoader().load(TestPaths.sample("harbour.png")).image.rotated(quarterTurnsClockwise: 2).writePNG(
            to: path)
        var one = RecognitionOptions()
        one.threads = 1
        let here = try Recognizer(options: one).recognize(path: path)
        let executable = try Self.executableOfItsOwn()
        let apart = try Recognizer(options: one, readerExecutable: executable).recognize(path: path)
        #expect(ChildProcess.count("__orientation", executable: executable) == 1)
        #expect(apart == here)
        #expect(here.text == (try String(contentsOfFile: TestPaths.sample("harbour.txt"), encoding: .utf8)))
        #expect(
            here.notes.contains { if case .turnedByOrientationDetection(degrees: 180, _) = $0 { true } else { false } })
    }
}

/// Children started from several threads at once (`ChildProcess`).
extension ReaderProcessTests {
    @Test func pipesForChildrenAreClosedOnExec() throws {
        let (reading, writing) = try ChildProcess.pipe()
        #expect(fcntl(reading.fileDescriptor, F_GETFD) == FD_CLOEXEC)
        #expect(fcntl(writing.fileDescriptor, F_GETFD) == FD_CLOEXEC)
    }

    @Test func aChildHoldsItsStandardDescriptorsOnly() throws {
        // Started while this process holds pipes and files of its own (and other suites start
        // children meanwhile): the child's descriptors are the three it was given, whatever this
        // process had open (`closefrom(3)`).
        let (reading, writing) = try ChildProcess.pipe()
        let open = Pipe()
        let child = try ChildProcess(
            executable: "/bin/ls", arguments: ["/proc/self/fd"], standardOutput: writing)
        try writing.close()
        let listed = String(decoding: reading.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.waitForExit() == .exited(status: 0))
        // ls's own descriptor for the folder it lists is the 4th.
        #expect(listed.split(separator: "\n") == ["0", "1", "2", "3"])
        withExtendedLifetime(open) {}
    }

    @Test func aChildThatCannotStartOrEndsBySignalSaysSo() throws {
        #expect(throws: POSIXError(.ENOENT)) { try ChildProcess(executable: "/nonexistent/lovesnap", arguments: []) }
        let sleeper = try ChildProcess(executable: "/bin/sleep", arguments: ["30"])
        #expect(sleeper.isRunning)
        sleeper.kill()
        #expect(sleeper.waitForExit() == .signalled(SIGKILL))
        #expect(ChildProcess.describe(sleeper.waitForExit(), of: "reader") == "the reader was ended by signal 9")
        #expect(!sleeper.isRunning)
    }

    @Test func helpersStartedFromManyThreadsAtOnceEachEndWithTheirAnswer() throws {
        // Spelling processes (long-lived) and orientation processes (ended by their answer),
        // started from 24 threads at once: with Foundation's `Process`, a child could inherit
        // another's pipe or the socket by which Foundation learns that it ended, and a wait for
        // the end then lasted as long as the other child (300 s in the worker). Every
        // orientation process answers and ends, and every spelling process answers.
        // (Only read from the threads: each writes its pixels to its own memory file.)
        nonisolated(unsafe) let page = try Self.pageUpsideDown()
        let found = Mutex<[Int]>([])
        let spellers = Mutex<[SpellingProcess]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { i in
            if i % 2 == 0 {
                if let p = try? SpellingProcess(executable: TestPaths.lovesnap, languages: ["eng"]) {
                    spellers.withLock { $0.append(p) }
                }
            } else {
                let o = try? OrientationProcess.detect(
                    page.image, resolution: page.resolution, tessdataPath: nil, executable: TestPaths.lovesnap)
                found.withLock { $0.append(o?.quarterTurnsClockwise ?? -1) }
            }
        }
        #expect(found.withLock { $0 } == Array(repeating: 2, count: 12))
        let answers = try spellers.withLock { $0 }.map { try $0.known(["kettle", "kxttle"]) }
        #expect(answers == Array(repeating: [true, false], count: 12))
    }
}

/// A helper that stops answering (SIGSTOP) is given up on, and the worker does the work itself.
extension ReaderProcessTests {
    @Test func aSpellingProcessThatStopsAnsweringIsGivenUpOn() throws {
        let process = try SpellingProcess(executable: TestPaths.lovesnap, languages: ["eng"], answerTimeout: 1)
        #expect(try process.known(["kettle"]) == [true])
        kill(process.processIdentifier, SIGSTOP)
        #expect(throws: SpellingProcess.Failure(reason: "the spelling process gave no answer within 1.0 s")) {
            try process.known(["kettle"])
        }
    }

    @Test func anOrientationProcessThatStopsAnsweringIsGivenUpOn() throws {
        // `/bin/sleep` stands for a process that never answers.
        let page = try Self.pageUpsideDown()
        #expect(throws: OrientationProcess.Failure(reason: "the orientation process gave no answer within 1.0 s")) {
            try OrientationProcess.detect(
                page.image, resolution: page.resolution, tessdataPath: nil, executable: Self.sleeper(), timeout: 1)
        }
    }

    /// A script that sleeps whatever it is given: `sleeper __orientation REQUEST`.
    static func sleeper() throws -> String {
        let path = TestPaths.temporaryDirectory("sleeper").appendingPathComponent("sleeper").path
        try "#!/bin/sh\nexec sleep 30\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }
}
