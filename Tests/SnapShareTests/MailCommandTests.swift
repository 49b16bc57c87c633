import Foundation
import Testing
@testable import SnapShare
#if canImport(Glibc)
import Glibc
#endif

@Suite struct MailCommandParseTests {
    @Test(arguments: [
        ("sendmail -t -i", ["sendmail", "-t", "-i"]),
        ("  /usr/sbin/sendmail\t-oi  -t \n", ["/usr/sbin/sendmail", "-oi", "-t"]),
        (#"'/opt/my mail/send' -f "a b" c\ d"#, ["/opt/my mail/send", "-f", "a b", "c d"]),
        (#""a\"b" 'x\y' "\$HOME" $HOME "\q""#, [#"a"b"#, #"x\y"#, "$HOME", "$HOME", #"\q"#]),
        ("'' a''b \"\"", ["", "ab", ""]),
        ("mail -s \"$(touch PWNED)\" `id`", ["mail", "-s", "$(touch PWNED)", "`id`"]),
        ("a\\\nb", ["ab"]),
    ])
    func splitsLikeAShell(_ line: String, _ words: [String]) throws {
        #expect(try MailCommand.parse(line).arguments == words)
    }

    @Test(arguments: [
        ("'abc", "unbalanced single quote"),
        ("mail \"abc", "unbalanced double quote"),
        ("mail abc\\", "ends with a backslash"),
        ("   ", "empty command"),
        ("", "empty command"),
    ])
    func rejects(_ line: String, _ reason: String) {
        #expect(throws: ShareError.invalidCommandLine(commandLine: line, reason: reason)) {
            try MailCommand.parse(line)
        }
    }

    @Test func resolveOrder() throws {
        let env = ["LOVESNAP_MAIL_COMMAND": "msmtp -t"]
        #expect(try MailCommand.resolve(option: "mailx -t", environment: env).arguments == ["mailx", "-t"])
        #expect(try MailCommand.resolve(option: nil, environment: env).arguments == ["msmtp", "-t"])
        #expect(try MailCommand.resolve(option: nil, environment: ["LOVESNAP_MAIL_COMMAND": " "]).arguments
                == MailCommand.defaultArguments)
        #expect(try MailCommand.resolve(option: nil, environment: [:]).arguments == ["sendmail", "-t", "-i"])
        #expect(throws: ShareError.invalidCommandLine(commandLine: "", reason: "empty command")) {
            try MailCommand.resolve(option: "", environment: env)
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: bugcases + "/22-mail-non-ascii/fake-bin"),
                   "needs bug case 22"))
    func pathLookupSkipsNonExecutablesAndFallsBackToSbin() throws {
        let fakeBin = bugcases + "/22-mail-non-ascii/fake-bin"
        let command = MailCommand(arguments: MailCommand.defaultArguments)
        #expect(try command.executablePath(for: "sendmail", searchPath: fakeBin + ":/usr/bin") == fakeBin + "/sendmail")
        // fake-bin/mailx is a plain file without an x bit: skipped.
        #expect(throws: ShareError.mailCommandNotRunnable(command: "sendmail -t -i",
                                                          reason: "mailx: command not found in PATH")) {
            try command.executablePath(for: "mailx", searchPath: fakeBin)
        }
        // An ordinary user's PATH lacks /usr/sbin, where sendmail lives; it is searched after PATH.
        if FileManager.default.isExecutableFile(atPath: "/usr/sbin/nologin") {
            #expect(try command.executablePath(for: "nologin", searchPath: "/nonexistent") == "/usr/sbin/nologin")
        }
        #expect(try command.executablePath(for: "./x/y", searchPath: fakeBin) == "./x/y")
    }

    @Test func displayStringQuotesLikeAShell() {
        #expect(MailCommand(arguments: ["sendmail", "-t", "-i"]).displayString == "sendmail -t -i")
        #expect(MailCommand(arguments: ["/opt/my mail", "it's", ""]).displayString == #"'/opt/my mail' 'it'\''s' ''"#)
    }
}

@Suite struct MailCommandSendTests {
    let poemPath = bugcases + "/22-mail-non-ascii/poem_fr.txt"
    let subjectPath = bugcases + "/22-mail-non-ascii/subject.txt"
    let recipientPath = bugcases + "/22-mail-non-ascii/recipient.txt"

    func text(_ path: String) throws -> String {
        String(decoding: try #require(bytes(path)), as: UTF8.self)
    }

    /// A script that stores its argv (one file per argument) and stdin under `folder`.
    func captureScript(in tmp: TempFolder) throws -> (script: String, folder: String) {
        let folder = tmp.file("captured")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let script = tmp.file("capture.sh")
        try put("""
            #!/bin/sh
            i=0
            for a in "$@"; do i=$((i + 1)); printf '%s' "$a" > '\(folder)'/arg-$i; done
            echo $i > '\(folder)'/argc
            cat > '\(folder)'/stdin
            """, script, mode: 0o755)
        return (script, folder)
    }

    @Test(.enabled(if: python3Available && FileManager.default.fileExists(atPath: bugcases + "/22-mail-non-ascii"),
                   "needs python3 (independent decoder) and bug case 22"))
    func sendsBugCase22AndAnIndependentDecoderGetsItBack() throws {
        let tmp = try TempFolder(); defer { tmp.cleanup() }
        let (script, folder) = try captureScript(in: tmp)
        let poem = try text(poemPath), subject = try text(subjectPath), rcpt = try text(recipientPath)
        try MailCommand(arguments: [script, "-t", "-i"])
            .send(MailMessage(to: [rcpt], subject: subject, body: poem))

        #expect(try text(folder + "/argc") == "2\n")
        #expect(try text(folder + "/arg-1") == "-t")
        #expect(try text(folder + "/arg-2") == "-i")
        let raw = try #require(bytes(folder + "/stdin"))
        #expect(raw.allSatisfy { $0 < 0x80 })
        let lines = String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 && !$0.contains("\n") && !$0.contains("\r") })
        let decoded = try pythonDecode(raw)
        #expect(decoded[0] == subject)
        #expect(decoded[1] == rcpt)
        #expect(decoded[3] == "text/plain")
        #expect(decoded[4] == "utf-8")
        #expect(decoded[5] == "quoted-printable")
        #expect(decoded[6].replacingOccurrences(of: "\r\n", with: "\n") == poem)
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/PWNED"))
    }

    @Test(.enabled(if: python3Available && FileManager.default.fileExists(atPath: bugcases + "/22-mail-non-ascii"),
                   "needs python3 and bug case 22"))
    func bugCase22CheckerPasses() throws {
        let tmp = try TempFolder(); defer { tmp.cleanup() }
        let capture = tmp.file("capture")
        try FileManager.default.createDirectory(atPath: capture, withIntermediateDirectories: false)
        let poem = try text(poemPath), subject = try text(subjectPath), rcpt = try text(recipientPath)
        // The fake sendmail reads CAPTURE_DIR from its environment; env(1) sets it, no shell.
        let command = MailCommand(arguments: ["/usr/bin/env", "CAPTURE_DIR=\(capture)",
                                              bugcases + "/22-mail-non-ascii/fake-bin/sendmail", "-t", "-i"])
        try command.send(MailMessage(to: [rcpt], subject: subject, body: poem))
        let verdict = try run("/usr/bin/env", ["python3", bugcases + "/22-mail-non-ascii/check_mail.py", capture])
        #expect(verdict.status == 0, "\(verdict.stdout)\(verdict.stderr)")
        #expect(verdict.stdout.hasSuffix("PASS\n"))
    }

    @Test func failingCommandReportsStatusAndStderr() throws {
        let tmp = try TempFolder(); defer { tmp.cleanup() }
        let script = tmp.file("fail.sh")
        try put("#!/bin/sh\ncat >/dev/null\necho boom >&2\nexit 3\n", script, mode: 0o755)
        let error = ShareError.mailCommandFailed(command: script, status: 3, stderr: "boom")
        #expect(throws: error) {
            try MailCommand(arguments: [script]).send(MailMessage(to: ["poet@example.org"], subject: "s", body: "b"))
        }
        #expect(error.description == "mail command '\(script)' failed with exit status 3: boom")
    }

    @Test func killedCommandReports128PlusSignal() throws {
        let tmp = try TempFolder(); defer { tmp.cleanup() }
        let script = tmp.file("killed.sh")
        try put("#!/bin/sh\nkill -9 $$\n", script, mode: 0o755)
        #expect(throws: ShareError.mailCommandFailed(command: script, status: 137, stderr: "")) {
            try MailCommand(arguments: [script]).send(MailMessage(to: ["poet@example.org"], subject: "s", body: ""))
        }
    }

    @Test func hugeStderrBeforeReadingDoesNotDeadlock() throws {
        let tmp = try TempFolder(); defer { tmp.cleanup() }
        let script = tmp.file("noisy.sh")
        // 1 MiB on stderr before reading a 1 MiB message: both pipes must be served at once.
        try put("#!/bin/sh\nhead -c 1048576 /dev/zero | tr '\\0' x >&2\ncat >/dev/null\nexit 1\n", script, mode: 0o755)
        let body = String(repeating: "Lenore\n", count: 150_000)
        #expect(throws: ShareError.mailCommandFailed(command: script, status: 1,
                                                     stderr: String(repeating: "x", count: MailCommand.stderrLimit))) {
            try MailCommand(arguments: [script]).send(MailMessage(to: ["poet@example.org"], subject: "s", body: body))
        }
    }

    @Test func commandThatIgnoresItsInputIsNotSuccess() throws {
        // `true` exits 0 without reading; the 1 MiB message cannot fit in a pipe, so we get
        // EPIPE (not a SIGPIPE that would kill the test process) and report it.
        let body = String(repeating: "Lenore\n", count: 150_000)
        let message = MailMessage(to: ["poet@example.org"], subject: "s", body: body)
        do {
            try MailCommand(arguments: ["true"]).send(message)
            Issue.record("expected an error")
        } catch let ShareError.mailCommandStoppedReading(command, written, total) {
            #expect(command == "true")
            #expect(written < total)
            #expect(total == message.rendered().count)
        }
    }

    @Test func missingOrUnrunnableCommand() throws {
        let message = MailMessage(to: ["poet@example.org"], subject: "s", body: "b")
        #expect(throws: ShareError.mailCommandNotRunnable(
            command: "lovesnap-no-such-mailer -t",
            reason: "lovesnap-no-such-mailer: command not found in PATH")) {
            try MailCommand(arguments: ["lovesnap-no-such-mailer", "-t"]).send(message)
        }
        let tmp = try TempFolder(); defer { tmp.cleanup() }
        #expect(throws: ShareError.mailCommandNotRunnable(
            command: tmp.file("nope"), reason: tmp.file("nope") + ": No such file or directory")) {
            try MailCommand(arguments: [tmp.file("nope")]).send(message)
        }
        try put("#!/bin/sh\n", tmp.file("not-executable"), mode: 0o644)
        // Even root may not execute a file without any x bit: posix_spawn reports EACCES.
        #expect(throws: ShareError.mailCommandNotRunnable(
            command: tmp.file("not-executable"), reason: tmp.file("not-executable") + ": Permission denied")) {
            try MailCommand(arguments: [tmp.file("not-executable")]).send(message)
        }
        #expect(throws: ShareError.invalidCommandLine(commandLine: "", reason: "empty command")) {
            try MailCommand(arguments: []).send(message)
        }
    }

    @Test func invalidMessageIsRejectedBeforeRunning() throws {
        let tmp = try TempFolder(); defer { tmp.cleanup() }
        let (script, folder) = try captureScript(in: tmp)
        #expect(throws: ShareError.invalidHeader(field: "Subject", reason: "contains a line break")) {
            try MailCommand(arguments: [script])
                .send(MailMessage(to: ["poet@example.org"], subject: "Hi\r\nBcc: spy@example.net", body: ""))
        }
        #expect(tmp.names(in: folder) == [])
    }
}
