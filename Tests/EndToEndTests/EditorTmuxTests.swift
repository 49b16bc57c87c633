import Foundation
import SnapTestSupport
import Testing

/// The real `lovesnap` editor in a real terminal: an 80x24 tmux pane on a private server, keys sent
/// with `send-keys`, the screen read with `capture-pane`, files and mail checked byte for byte.
///
/// Each test has its own tmux socket and temporary folder, kills its tmux server even when it
/// fails, and polls the screen (20 s at most) instead of sleeping.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: the terminal tests need it"))
struct EditorTmuxTests {
    // Screen rows at 80x24: 0 title, 1...20 text, 21 status/prompt, 22...23 help lines.
    static let titleRow = 0, textRows = 1...20, statusRow = 21

    func truth(_ name: String) throws -> String {
        try String(contentsOfFile: TestPaths.sample(name), encoding: .utf8)
    }

    /// A status message as lovesnap centres it: "[ text ]".
    func status(_ screen: [String]) -> String {
        screen.count > Self.statusRow ? screen[Self.statusRow].trimmingCharacters(in: .whitespaces) : ""
    }

    /// Fails with a unified diff when `actual` is not `expected` byte for byte.
    func expectSameBytes(
        _ actual: Data, _ expected: String, _ what: String, in folder: URL,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard actual != Data(expected.utf8) else { return }
        let expectedFile = folder.appendingPathComponent("expected.txt")
        try Data(expected.utf8).write(to: expectedFile)
        let actualFile = folder.appendingPathComponent("actual.txt")
        try actual.write(to: actualFile)
        let diff = try run("/usr/bin/env", ["diff", "-u", expectedFile.path, actualFile.path])
        Issue.record("\(what) differs from the expected text:\n\(diff.stdout)", sourceLocation: sourceLocation)
    }

    // MARK: - 1. Photo → OCR → replace → write out → exit

    @Test func photoIsReadThenReplacedWrittenOutAndSavedExactly() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-harbour")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            atPath: TestPaths.sample("harbour-photo.jpg"),
            toPath: dir.appendingPathComponent("harbour-photo.jpg").path)
        let poem = try truth("harbour.txt")
        let poemLines = poem.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(poemLines.count == 7)
        let name = "\u{C9}lodie"  // "Élodie", precomposed
        let occurrences = poem.components(separatedBy: "Lenore").count - 1
        #expect(occurrences == 1)

        let t = try TmuxSession([TestPaths.lovesnap, "harbour-photo.jpg"], in: dir, label: "lsnap-harbour")
        defer { t.kill() }

        // The OCR result replaces the progress screen: "[ Read 7 lines (conf N) ]", N also in the title.
        var screen = try t.waitUntil("the OCR result") { status($0).contains("Read 7 lines") }
        let title = screen[Self.titleRow]
        // "harbour" is British: the en_GB dictionary knows it (issue 42), so nothing is uncertain.
        let titleMatch = title.wholeMatch(
            of: #/  LoveInASnap +harbour-photo\.jpg +no uncertain words  Modified  conf (\d+)/#)
        #expect(titleMatch != nil, "title: '\(title)'")
        let confidence = titleMatch.map { String($0.1) } ?? "?"
        // The page is cut out of its table, its vignette and uneven light evened out, and the
        // status says so: too long for the brackets at 80 columns, cut with "…".
        #expect(
            status(screen)
                == "Read 7 lines (conf \(confidence)); page found and straightened; dim or uneven light evened…")
        #expect(Array(screen[1...7]) == poemLines, "screen:\n\(TmuxSession.show(screen))")

        // ^\ Lenore ⏎ Élodie ⏎ A
        try t.press("C-\\")
        try t.waitFor("Search (to replace): ")
        try t.type("Lenore")
        try t.press("Enter")
        try t.waitFor("Replace with: ")
        try t.type(name)
        screen = try t.waitFor("Replace with: \(name)")
        try t.press("Enter")
        try t.waitFor("Replace this instance?")
        try t.type("A")
        screen = try t.waitUntil("the replace count") { status($0).hasPrefix("[ Replaced") }
        #expect(status(screen) == "[ Replaced 1 occurrence ]")
        #expect(screen[6] == "Come home, \(name), before the frost;")
        #expect(screen[Self.titleRow].hasSuffix("Modified  conf \(confidence)"))

        // ^O ⏎ (the photo's name with .txt)
        try t.press("C-o")
        screen = try t.waitFor("File Name to Write: ")
        #expect(screen[Self.statusRow] == "File Name to Write: harbour-photo.txt")
        try t.press("Enter")
        screen = try t.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        #expect(status(screen) == "[ Wrote 7 lines ]")
        #expect(!screen[Self.titleRow].contains("Modified"))

        // ^X leaves at once: nothing is modified any more.
        try t.press("C-x")
        let exitStatus = try t.waitForExit()
        #expect(exitStatus == 0)

        let saved = try Data(contentsOf: dir.appendingPathComponent("harbour-photo.txt"))
        try expectSameBytes(
            saved, poem.replacingOccurrences(of: "Lenore", with: name),
            "harbour-photo.txt", in: dir)
    }

    // MARK: - 2. Mail through the editor

    /// Writes an executable that stores its arguments (NUL-terminated) in `argv` and its standard
    /// input in `message`, both in `capture`.
    func writeFakeSendmail(named name: String, in folder: URL, capture: URL) throws -> URL {
        let script = folder.appendingPathComponent(name)
        try """
        #!/bin/sh
        for a in "$@"; do printf '%s\\0' "$a"; done > '\(capture.path)/argv'
        cat > '\(capture.path)/message'
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    struct DecodedMail: Decodable {
        let to: String, subject: String, body: String
        let contentType: String, charset: String, transferEncoding: String, mimeVersion: String
        let defects: [String]
    }

    /// Parses a stored message with Python's `email` package (an independent MIME decoder).
    func decodeWithPython(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> DecodedMail {
        let program = """
            import email, email.policy, json, sys
            raw = open(sys.argv[1], 'rb').read()
            m = email.message_from_bytes(raw, policy=email.policy.default)
            charset = m.get_content_charset()
            print(json.dumps({
                'to': str(m['To']), 'subject': str(m['Subject']),
                'body': m.get_payload(decode=True).decode(charset),
                'contentType': m.get_content_type(), 'charset': charset,
                'transferEncoding': str(m['Content-Transfer-Encoding']),
                'mimeVersion': str(m['MIME-Version']),
                'defects': [repr(d) for d in m.defects],
            }, ensure_ascii=True))
            """
        let r = try run("/usr/bin/env", ["python3", "-c", program, file.path])
        try #require(r.status == 0, "python3 could not decode the message: \(r.stderr)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(DecodedMail.self, from: Data(r.stdout.utf8))
    }

    /// Opens fenetre.txt with `lovesnap edit`, mails it to poet@example.org (M-M) with `subject`
    /// (nil: accept the default), then exits.
    func mailFenetre(
        subject: String?, options: [String], environment: [String: String],
        dir: URL, capture: URL, label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try FileManager.default.copyItem(
            atPath: TestPaths.sample("fenetre.txt"),
            toPath: dir.appendingPathComponent("fenetre.txt").path)
        let t = try TmuxSession(
            [TestPaths.lovesnap, "edit"] + options + ["fenetre.txt"], in: dir,
            environment: environment, label: label)
        defer { t.kill() }
        try t.waitFor("Lenore, je t'écris à la fenêtre,")

        // A bad address is said at once, before the Subject is asked, and asked again with what
        // was typed: nothing to type anew.
        try t.press("M-m")
        var screen = try t.waitFor("To: ")
        try t.type("not an address")
        try t.press("Enter")
        screen = try t.waitFor("invalid mail address")
        #expect(
            status(screen)
                == "To [invalid mail address \"not an add…]: not an address",
            sourceLocation: sourceLocation)
        try t.press("C-u")
        screen = try t.waitUntil("an empty To prompt") { $0[Self.statusRow].hasSuffix("]:") }
        try t.type("poet@example.org")
        try t.press("Enter")
        screen = try t.waitFor("Subject: ")
        // The default subject: the first line.
        #expect(screen[Self.statusRow] == "Subject: Lenore, je t'écris à la fenêtre,", sourceLocation: sourceLocation)
        if let subject {
            try t.press("C-u")
            try t.waitUntil("an empty Subject prompt") { $0[Self.statusRow] == "Subject:" }
            try t.type(subject)
            try t.waitFor("Subject: \(subject)")
        }
        try t.press("Enter")
        // "[ Sending to poet@example.org… ]" shows while the command runs, then the result.
        screen = try t.waitUntil("the mail result") { status($0).hasPrefix("[ ") && !status($0).hasPrefix("[ Sending") }
        #expect(status(screen) == "[ Mail sent to poet@example.org ]", sourceLocation: sourceLocation)
        try t.press("C-x")
        let exitStatus = try t.waitForExit()
        #expect(exitStatus == 0, sourceLocation: sourceLocation)
    }

    /// A mail command found nowhere is said once To is given, before the Subject is asked.
    @Test func aMailCommandFoundNowhereIsSaidBeforeTheSubject() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-nomailer")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            atPath: TestPaths.sample("fenetre.txt"), toPath: dir.appendingPathComponent("fenetre.txt").path)
        let t = try TmuxSession(
            [TestPaths.lovesnap, "edit", "--mail-command", "no-such-mailer -t", "fenetre.txt"], in: dir,
            columns: 100, label: "lsnap-nomailer")
        defer { t.kill() }
        try t.waitFor("Lenore, je t'écris à la fenêtre,")
        try t.press("M-m")
        try t.waitFor("To: ")
        try t.type("poet@example.org")
        try t.press("Enter")
        let screen = try t.waitFor("no-such-mailer:")
        #expect(
            status(screen)
                == "[ cannot run mail command 'no-such-mailer -t': no-such-mailer: command not found in PATH ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
    }

    func checkMail(in capture: URL, subject: String, argv: [String], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let raw = try Data(contentsOf: capture.appendingPathComponent("message"))
        #expect(
            raw.allSatisfy { $0 < 0x80 }, "the message on the wire must be ASCII (RFC 2047/2045 encoded)",
            sourceLocation: sourceLocation)
        let mail = try decodeWithPython(capture.appendingPathComponent("message"))
        #expect(mail.defects == [], sourceLocation: sourceLocation)
        #expect(mail.to == "poet@example.org", sourceLocation: sourceLocation)
        #expect(
            Array(mail.subject.unicodeScalars) == Array(subject.unicodeScalars),
            "subject \(mail.subject.debugDescription)", sourceLocation: sourceLocation)
        #expect(mail.contentType == "text/plain", sourceLocation: sourceLocation)
        #expect(mail.charset == "utf-8", sourceLocation: sourceLocation)
        #expect(mail.mimeVersion == "1.0", sourceLocation: sourceLocation)
        #expect(["quoted-printable", "base64"].contains(mail.transferEncoding), sourceLocation: sourceLocation)
        // The body decodes to the file's text with RFC 5322 CRLF line ends, accents intact.
        let expectedBody = try truth("fenetre.txt").replacingOccurrences(of: "\n", with: "\r\n")
        #expect(
            Array(mail.body.unicodeScalars) == Array(expectedBody.unicodeScalars),
            "body \(mail.body.debugDescription)", sourceLocation: sourceLocation)

        let stored = try Data(contentsOf: capture.appendingPathComponent("argv"))
        let arguments = stored.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
        #expect(arguments == argv, sourceLocation: sourceLocation)
    }

    @Test func mailWithTheDefaultSubjectThroughMailCommandOption() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-mail1")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("capture")
        try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
        // A space in the program's path: the option is split like a shell would, but no shell runs.
        let sendmail = try writeFakeSendmail(named: "fake sendmail", in: dir, capture: capture)
        try mailFenetre(
            subject: nil, options: ["--mail-command", "'\(sendmail.path)' -t -i"], environment: [:],
            dir: dir, capture: capture, label: "lsnap-mail1")
        try checkMail(in: capture, subject: "Lenore, je t'écris à la fenêtre,", argv: ["-t", "-i"])
    }

    @Test func mailWithATypedAccentedSubjectThroughTheEnvironment() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-mail2")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("capture")
        try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
        let sendmail = try writeFakeSendmail(named: "fake-sendmail", in: dir, capture: capture)
        let subject = "Po\u{E8}me d'\u{E9}t\u{E9}"  // "Poème d'été", precomposed
        try mailFenetre(
            subject: subject, options: [],
            environment: ["LOVESNAP_MAIL_COMMAND": "\(sendmail.path) -t -i -F \"L\u{E9}a Po\u{E8}te\""],
            dir: dir, capture: capture, label: "lsnap-mail2")
        try checkMail(in: capture, subject: subject, argv: ["-t", "-i", "-F", "L\u{E9}a Po\u{E8}te"])
    }

    // MARK: - 3. Esc while the OCR runs

    @Test func escapeCancelsTheOCRKillsTheWorkerAndLeavesAWorkingEmptyEditor() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-esc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("dense-two-columns.png")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("dense-two-columns.png"), toPath: copy.path)

        // dense-two-columns.png (2550x3300, 120 lines of verse) takes ~7 s to read, --level accurate
        // several times that: a wide window for Esc even when the whole suite loads the machine.
        let t = try TmuxSession([TestPaths.lovesnap, "--level", "accurate", copy.path], in: dir, label: "lsnap-esc")
        defer { t.kill() }
        let lovesnapPID = try t.panePID()
        // (A helper the worker is starting shows the worker's command line until its `exec`: a
        // process whose parent is a worker is not one.)
        func workers() -> [ProcessEntry] {
            let all = ProcessEntry.all().filter {
                $0.arguments.contains("__worker") && $0.arguments.contains(copy.path)
            }
            let ids = Set(all.map(\.pid))
            return all.filter { !ids.contains($0.parent) }
        }
        func children() -> [ProcessEntry] { ProcessEntry.all().filter { $0.parent == lovesnapPID } }

        var screen = try t.waitUntil("the progress bar") { lines in
            lines.contains { $0.contains(#/\[#*-+\] \d+%/#) }
        }
        #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces) == "Reading dense-two-columns.png" })
        #expect(screen[Self.statusRow] == "Esc cancels the OCR")
        // The worker runs, as a child of lovesnap, with the photo's path.
        let running = workers()
        #expect(running.count == 1 && running.first?.parent == lovesnapPID, "workers: \(running)")

        try t.press("Escape")
        screen = try t.waitUntil("the cancel message") { status($0).hasPrefix("[ ") }
        #expect(
            status(screen) == "[ OCR cancelled; M-O reads the photo again ]", "screen:\n\(TmuxSession.show(screen))")
        #expect(
            screen[Self.textRows].allSatisfy { $0.isEmpty }, "the buffer must be empty:\n\(TmuxSession.show(screen))")
        #expect(screen[Self.titleRow].trimmingCharacters(in: .whitespaces).hasSuffix("dense-two-columns.png"))

        // No worker is left, nor any child of lovesnap (not even a zombie).
        let deadline = Date().addingTimeInterval(20)
        while (!workers().isEmpty || !children().isEmpty) && Date() < deadline { usleep(50_000) }
        #expect(workers().isEmpty, "worker still there: \(workers())")
        #expect(children().isEmpty, "lovesnap still has children: \(children())")

        // The editor still works: type, write out under the offered name, leave.
        try t.type("No\u{EB}l \u{E0} la mer")
        try t.press("Enter")
        try t.type("Esc, puis du texte.")
        try t.press("Enter")
        screen = try t.waitFor("Esc, puis du texte.")
        #expect(Array(screen[1...3]) == ["No\u{EB}l \u{E0} la mer", "Esc, puis du texte.", ""])
        try t.press("C-o")
        let savePath = dir.appendingPathComponent("dense-two-columns.txt").path
        screen = try t.waitFor("File Name to Write: ")
        #expect(screen[Self.statusRow] == "File Name to Write: \(savePath)")
        try t.press("Enter")
        screen = try t.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        #expect(status(screen) == "[ Wrote 2 lines ]")
        try t.press("C-x")
        let exitStatus = try t.waitForExit()
        #expect(exitStatus == 0)
        try expectSameBytes(
            try Data(contentsOf: URL(fileURLWithPath: savePath)),
            "No\u{EB}l \u{E0} la mer\nEsc, puis du texte.\n", "dense-two-columns.txt", in: dir)
    }

    /// The engine crashing mid-OCR (SIGSEGV sent to the worker) becomes a message; the editor
    /// stays usable and what the user types is saved.
    @Test func workerCrashMidOCRLeavesAWorkingEditor() throws {
        let dir = TestPaths.temporaryDirectory("lsnap-segv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("dense-two-columns.png")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("dense-two-columns.png"), toPath: copy.path)
        let t = try TmuxSession([TestPaths.lovesnap, "--level", "accurate", copy.path], in: dir, label: "lsnap-segv")
        defer { t.kill() }
        // (Not a helper the worker is starting: see `escapeCancelsTheOCR…`.)
        func workers() -> [ProcessEntry] {
            let all = ProcessEntry.all().filter {
                $0.arguments.contains("__worker") && $0.arguments.contains(copy.path) && $0.state != "Z"
            }
            let ids = Set(all.map(\.pid))
            return all.filter { !ids.contains($0.parent) }
        }
        _ = try t.waitUntil("the progress bar") { lines in lines.contains { $0.contains(#/\[#*-+\] \d+%/#) } }
        let worker = try #require(workers().first, "no worker running")
        kill(worker.pid, SIGSEGV)
        var screen = try t.waitUntil("the crash message") { status($0).hasPrefix("[ ") }
        #expect(
            status(screen) == "[ OCR stopped: the engine crashed on dense-two-columns.png (signal SIGSEGV) ]",
            "screen:\n\(TmuxSession.show(screen))")
        #expect(workers().isEmpty)

        try t.type("Lenore")
        screen = try t.waitFor("Lenore")
        try t.press("C-o")
        _ = try t.waitFor("File Name to Write: ")
        try t.press("Enter")
        screen = try t.waitUntil("the write") { status($0).hasPrefix("[ Wrote") }
        #expect(status(screen) == "[ Wrote 1 line ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)
        #expect(
            try String(contentsOfFile: dir.appendingPathComponent("dense-two-columns.txt").path, encoding: .utf8)
                == "Lenore\n")  // a final newline added on save, as in nano
    }

    // MARK: - 4. A failed write keeps the buffer

    @Test func failedWriteKeepsTheModifiedBuffer() throws {
        let missing = "/nonexistent-dir/x.txt"
        try #require(!FileManager.default.fileExists(atPath: "/nonexistent-dir"), "/nonexistent-dir exists here")
        let dir = TestPaths.temporaryDirectory("lsnap-savefail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let draft = dir.appendingPathComponent("draft.txt")
        let original = "Brouillon d'\u{E9}t\u{E9}\n"
        try Data(original.utf8).write(to: draft)

        let t = try TmuxSession([TestPaths.lovesnap, "edit", "draft.txt"], in: dir, label: "lsnap-savefail")
        defer { t.kill() }
        try t.waitFor("Brouillon d'été")
        try t.type("Ajout : ")
        var screen = try t.waitFor("Ajout : Brouillon d'été")
        #expect(screen[Self.titleRow].hasSuffix("Modified"))

        // ^O, clear the offered name, a path in a missing folder.
        try t.press("C-o")
        screen = try t.waitFor("File Name to Write: ")
        #expect(screen[Self.statusRow] == "File Name to Write: draft.txt")
        try t.press("C-u")
        try t.type(missing)
        try t.waitFor("File Name to Write: \(missing)")
        try t.press("Enter")
        screen = try t.waitUntil("the write error") { status($0).hasPrefix("[ ") }
        #expect(status(screen) == "[ \(missing): No such file or directory ]")
        #expect(screen[1] == "Ajout : Brouillon d'été")
        #expect(screen[Self.titleRow].hasSuffix("Modified"))

        // ^X → Y → the same bad path: the error again, and the editor stays open.
        try t.press("C-x")
        screen = try t.waitFor("Save modified buffer?")
        try t.type("Y")
        screen = try t.waitFor("File Name to Write: ")
        #expect(screen[Self.statusRow] == "File Name to Write: draft.txt")
        try t.press("C-u")
        try t.type(missing)
        try t.waitFor("File Name to Write: \(missing)")
        try t.press("Enter")
        screen = try t.waitUntil("the second write error") { status($0).hasPrefix("[ ") }
        #expect(status(screen) == "[ \(missing): No such file or directory ]")
        #expect(try t.exitStatus() == nil, "a failed write must not end the editor")
        #expect(screen[1] == "Ajout : Brouillon d'été")

        // ^X still asks (the buffer is still modified); N leaves without writing.
        try t.press("C-x")
        screen = try t.waitFor("Save modified buffer?")
        #expect(screen[Self.statusRow] == "Save modified buffer?")
        try t.type("N")
        let exitStatus = try t.waitForExit()
        #expect(exitStatus == 0)

        try expectSameBytes(try Data(contentsOf: draft), original, "draft.txt", in: dir)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["draft.txt"])
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-dir"))
    }
}
