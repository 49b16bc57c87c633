import Foundation
import SnapTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Mail that a real transport delivers: lovesnap → Debian's `msmtp -t` (sendmail-compatible) →
/// SMTP on 127.0.0.1 → a real SMTP server (aiosmtpd) started by the test; the delivered message
/// is read back and decoded by Python's `email` package, and every decoded byte is checked.
@Suite(
    .serialized,
    .enabled(if: SMTPServer.isAvailable, "msmtp and python3-aiosmtpd are needed (scripts/install-deps.sh)"))
struct MailDeliveryTests {
    static let statusRow = 21

    /// A body that SMTP and mbox tend to damage: accents, a line that is a single dot (SMTP's end
    /// of data), lines starting with "From " (mbox) and "." , a 2000-character line, trailing
    /// blanks, a tab, and no final newline.
    static let trickyBody =
        "Lenore, je t'écris à la fenêtre,\n.\nFrom the kettle, a song;\nFrom: not a header\n"
        + ".. two dots\n" + String(repeating: "é", count: 1000) + String(repeating: "x", count: 1000) + "\n"
        + "trailing blanks   \n\tindented\ncœur — 詩 🌙\nthe end"

    @Test func headlessMailIsDeliveredWithItsAddressesAndText() throws {
        let server = try SMTPServer()
        defer { server.stop() }
        let r = try lovesnap([
            "ocr", TestPaths.sample("kettle.png"),
            "--mail", #""Lenore, my love" <lenore@example.org>, ben@example.org"#,
            "--subject", "Pour toi — été", "--from", "Edgar Poe <edgar@example.org>",
            "--mail-command", server.msmtpCommand,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout == "")  // the mail carries the text
        #expect(r.stderr == "")
        let deliveries = try server.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].sender == "edgar@example.org")
        #expect(deliveries[0].recipients == ["lenore@example.org", "ben@example.org"])
        #expect(deliveries[0].raw.allSatisfy { $0 < 0x80 })
        let mail = try SMTPServer.decode(deliveries[0].raw)
        #expect(mail.defects == [])
        #expect(mail.from == "Edgar Poe <edgar@example.org>")
        #expect(mail.to == #""Lenore, my love" <lenore@example.org>, ben@example.org"#)
        #expect(Array(mail.subject.unicodeScalars) == Array("Pour toi — été".unicodeScalars))
        #expect(mail.contentType == "text/plain")
        #expect(mail.charset == "utf-8")
        let poem = try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
        #expect(mail.body == Data(poem.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    @Test func theEditorsMailIsDeliveredByteForByte() throws {
        let server = try SMTPServer()
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory("lsnap-smtp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("lettre.txt")
        try Data(Self.trickyBody.utf8).write(to: file)

        let t = try TmuxSession(
            [TestPaths.lovesnap, "--mail-command", server.msmtpCommand, "edit", "lettre.txt"], in: dir,
            environment: ["EMAIL": #""Poe, Edgar" <edgar@example.org>"#],
            label: "lsnap-smtp")
        defer { t.kill() }
        try t.waitFor("Lenore, je t'écris à la fenêtre,")
        try t.press("M-m")
        try t.waitFor("To: ")
        let to = #""Lenore, my love" <lenore@example.org>"#
        try t.type(to)
        try t.press("Enter")
        try t.waitFor("Subject: Lenore, je t'écris à la fenêtre,")
        try t.press("Enter")
        let screen = try t.waitUntil("the mail result") {
            $0[Self.statusRow].contains("[ Mail sent") || $0[Self.statusRow].contains("failed")
        }
        #expect(screen[Self.statusRow].trimmingCharacters(in: .whitespaces) == "[ Mail sent to \(to) ]")
        try t.press("C-x")
        #expect(try t.waitForExit() == 0)

        let deliveries = try server.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].sender == "edgar@example.org")
        #expect(deliveries[0].recipients == ["lenore@example.org"])
        let mail = try SMTPServer.decode(deliveries[0].raw)
        #expect(mail.defects == [])
        #expect(mail.from == #""Poe, Edgar" <edgar@example.org>"#)
        #expect(mail.to == to)
        #expect(mail.subject == "Lenore, je t'écris à la fenêtre,")
        #expect(mail.mimeVersion == "1.0")
        #expect(["quoted-printable", "base64"].contains(mail.transferEncoding))
        let expected = Data(Self.trickyBody.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        if mail.body != expected {
            let got = String(decoding: mail.body, as: UTF8.self)
            Issue.record("body differs:\n\(got.debugDescription)\nexpected:\n\(Self.trickyBody.debugDescription)")
        }
        // On the wire, no line is longer than RFC 5322's 998 (lovesnap keeps them at 76).
        let lines = String(decoding: deliveries[0].raw, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
    }
}

/// `lovesnap ocr PHOTO --mail TO`: each failure its exit code and a message naming the cause;
/// a bad address, sender or subject is refused before any OCR is done.
@Suite struct HeadlessMailTests {
    let kettle = TestPaths.sample("kettle.png")

    @Test func badAddressesAndHeadersAreRefusedBeforeOCR() throws {
        let cases: [([String], [String: String], String)] = [
            (
                ["--mail", "Friends: a@x.org, b@y.org;"], [:],
                #"lovesnap: invalid mail address "Friends: a@x.org, b@y.org;": is a group ("name: address, …;"), which cannot be mailed to; give the addresses themselves"#
            ),
            (
                ["--mail", "a@x.org", "--subject", "Hi\nBcc: spy@x.org"], [:],
                "lovesnap: invalid Subject: contains a line break"
            ),
            (
                ["--mail", "a@x.org", "--from", "e@x.org\r\nBcc: spy@x.org"], [:],
                #"lovesnap: invalid mail address "e@x.org\r\nBcc: spy@x.org": contains a line break or control character"#
            ),
            (
                ["--mail", "a@x.org"], ["EMAIL": "e@x.org\nBcc: spy@x.org"],
                #"lovesnap: invalid mail address "e@x.org\nBcc: spy@x.org": contains a line break or control character"#
            ),
            (
                ["--mail", "Lenore l@example.org"], [:],
                #"lovesnap: invalid mail address "Lenore l@example.org": a name needs the address in <…>, as in: Lenore <lenore@example.org>"#
            ),
        ]
        for (options, environment, message) in cases {
            var env = ProcessInfo.processInfo.environment
            env["EMAIL"] = nil
            for (key, value) in environment { env[key] = value }
            // A photo that does not exist: had OCR started, the exit code would be 3.
            let r = try lovesnap(
                ["ocr", "/nonexistent/never-read.png"] + options + ["--mail-command", "cat"], environment: env)
            #expect(r.status == 2, "\(options): \(r.stderr)")
            #expect(r.stderr == message + "\n")
            #expect(r.stdout == "")
        }
        let usage = try lovesnap(["ocr", kettle, "--subject", "S"])
        #expect(usage.status == 2)
        #expect(usage.stderr == "lovesnap: --subject goes with --mail (lovesnap ocr PHOTO --mail TO --subject S)\n")
    }

    @Test func eachMailFailureHasItsExitCode() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notFound = try lovesnap(["ocr", kettle, "--mail", "a@x.org", "--mail-command", "no-such-mailer -t"])
        #expect(notFound.status == 7)
        #expect(
            notFound.stderr
                == "lovesnap: cannot run mail command 'no-such-mailer -t': no-such-mailer: command not found in PATH\n")
        // Said before any photo is read: a photo that is no image would be exit 3 once read.
        let text = dir.appendingPathComponent("poem.jpg").path
        try Data("Lenore\n".utf8).write(to: URL(fileURLWithPath: text))
        let before = try lovesnap(["ocr", text, "--mail", "a@x.org", "--mail-command", "no-such-mailer -t"])
        #expect(before.status == 7)
        #expect(before.stderr == notFound.stderr)

        let failing = try lovesnap([
            "ocr", kettle, "--mail", "a@x.org", "--mail-command", "sh -c 'cat > /dev/null; echo refused >&2; exit 75'",
        ])
        #expect(failing.status == 8)
        #expect(
            failing.stderr
                == "lovesnap: mail command 'sh -c 'cat > /dev/null; echo refused >&2; exit 75'' failed with exit status 75: refused\n"
        )

        let slow = try lovesnap([
            "ocr", kettle, "--mail", "a@x.org", "--mail-command", "sh -c 'cat > /dev/null; sleep 60'",
            "--mail-timeout", "1",
        ])
        #expect(slow.status == 9)
        #expect(
            slow.stderr
                == "lovesnap: mail command 'sh -c 'cat > /dev/null; sleep 60'' did not finish within 1 s and was stopped; the mail may not have been sent\n"
        )

        let blank = TestPaths.fixture("white-1x1.png")
        let empty = try lovesnap(["ocr", blank, "--mail", "a@x.org", "--mail-command", "cat"])
        #expect(empty.status == 10)
        #expect(empty.stderr == "lovesnap: no text found in \(blank); nothing was mailed\n")

        // -o with --mail: the file is written, and the mail sent (here to a file, by a script).
        let captured = dir.appendingPathComponent("mail.eml").path
        let out = dir.appendingPathComponent("kettle.txt").path
        let both = try lovesnap([
            "ocr", kettle, "-o", out, "--mail", "a@x.org", "--mail-command", "sh -c 'cat > \"$0\"' \(captured)",
        ])
        #expect(both.status == 0, "\(both.stderr)")
        let poem = try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == poem)
        let mail = try String(contentsOfFile: captured, encoding: .utf8)
        #expect(mail.contains("\r\nSubject: Lenore, the kettle hums your tune,\r\n"))
        #expect(mail.contains("\r\nTo: a@x.org\r\n"))
    }

    /// `--mail` with several photos, `--replace` and `--format`: the mail carries the text as
    /// `lovesnap ocr` would print it (the photos joined, after the replacements), the documents go
    /// to `-o BASE`; a text the replacements empty is not mailed, nor written.
    @Test func theMailCarriesTheEditedTextOfEveryPhoto() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The mail command decodes the message (Python's email package) into a file.
        let decoder = dir.appendingPathComponent("decode.py").path
        try Data(
            """
            import email, email.policy, sys
            m = email.message_from_binary_file(sys.stdin.buffer, policy=email.policy.default)
            open(sys.argv[1], "w", encoding="utf-8").write(m["Subject"] + "\\n" + m.get_content())

            """.utf8
        ).write(to: URL(fileURLWithPath: decoder))
        let decoded = dir.appendingPathComponent("mail.txt").path
        let base = dir.appendingPathComponent("poems").path
        let r = try lovesnap([
            "ocr", kettle, TestPaths.sample("harbour.png"), "--replace", "Lenore=Hélène", "--format", "txt,hocr",
            "-o", base, "--mail", "a@x.org", "--mail-command", "python3 \(decoder) \(decoded)",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "")
        let kettleText = try String(contentsOfFile: TestPaths.sample("kettle.txt"), encoding: .utf8)
        let harbourText = try String(contentsOfFile: TestPaths.sample("harbour.txt"), encoding: .utf8)
        let text = (kettleText + "\n" + harbourText).replacingOccurrences(of: "Lenore", with: "Hélène")
        #expect(try String(contentsOfFile: decoded, encoding: .utf8) == "Hélène, the kettle hums your tune,\n" + text)
        #expect(try String(contentsOfFile: base + ".txt", encoding: .utf8) == text)
        let hocr = try String(contentsOfFile: base + ".hocr", encoding: .utf8)
        #expect(hocr.components(separatedBy: ">Hélène,<").count == 3)
        #expect(hocr.components(separatedBy: "class=\"ocr_page\"").count == 3)

        // --format without -o BASE: the documents would have nowhere to go (before any OCR).
        let usage = try lovesnap([
            "ocr", "/nonexistent/never-read.png", "--format", "hocr", "--mail", "a@x.org", "--mail-command", "cat",
        ])
        #expect(usage.status == 2)
        #expect(
            usage.stderr
                == "lovesnap: --format with --mail needs -o BASE: the mail carries the text, the documents go to files\n"
        )

        // Everything replaced away: nothing mailed, nothing written.
        let out = dir.appendingPathComponent("empty.txt").path
        let emptied = try lovesnap([
            "ocr", kettle, "--replace-regex", #"[\s\S]+="#, "-o", out, "--mail", "a@x.org", "--mail-command",
            "python3 \(decoder) \(dir.appendingPathComponent("never.txt").path)",
        ])
        #expect(emptied.status == 10)
        #expect(emptied.stderr == "lovesnap: the text is empty after --replace; nothing was mailed\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("never.txt").path))
    }

    /// SIGINT, SIGTERM or SIGHUP (the terminal closed) during the send: the mail command is
    /// stopped, not orphaned (on SIGHUP lovesnap died and left it to PID 1), exit 130.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func anInterruptDuringTheSendStopsTheMailCommand(signal: Int32) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("mailer.pid").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.lovesnap)
        p.arguments = [
            "ocr", kettle, "--mail", "a@x.org", "--mail-command",
            "sh -c 'cat > /dev/null; echo $$ > \(pidFile); exec sleep 300'",
        ]
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        var mailer: pid_t = 0
        for _ in 0..<1500 where mailer == 0 {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                mailer = pid
            } else {
                usleep(20_000)
            }
        }
        try #require(mailer > 0, "the mail command never started")
        #expect(kill(p.processIdentifier, signal) == 0)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        #expect(
            stderr
                == "lovesnap: mail command 'sh -c 'cat > /dev/null; echo $$ > \(pidFile); exec sleep 300'' was stopped; the mail may not have been sent\n"
        )
        var gone = false
        for _ in 0..<500 where !gone {
            let stat = try? String(contentsOfFile: "/proc/\(mailer)/stat", encoding: .utf8)
            gone = stat == nil || stat?.split(separator: ")").last?.split(separator: " ").first == "Z"
            if !gone { usleep(20_000) }
        }
        #expect(gone)
    }
}
