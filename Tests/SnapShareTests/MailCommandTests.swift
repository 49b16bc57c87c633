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
        #expect(
            try MailCommand.resolve(option: nil, environment: ["LOVESNAP_MAIL_COMMAND": " "]).arguments
                == MailCommand.defaultArguments)
        #expect(try MailCommand.resolve(option: nil, environment: [:]).arguments == ["sendmail", "-t", "-i"])
        #expect(throws: ShareError.invalidCommandLine(commandLine: "", reason: "empty command")) {
            try MailCommand.resolve(option: "", environment: env)
        }
    }

    @Test func pathLookupSkipsNonExecutablesAndFallsBackToSbin() throws {
        // A folder with an executable sendmail and a mailx without any x bit.
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let fakeBin = tmp.file("bin")
        try FileManager.default.createDirectory(atPath: fakeBin, withIntermediateDirectories: false)
        try put("#!/bin/sh\ncat >/dev/null\n", fakeBin + "/sendmail", mode: 0o755)
        try put("sendmail", fakeBin + "/mailx", mode: 0o644)
        let command = MailCommand(arguments: MailCommand.defaultArguments)
        #expect(try command.executablePath(for: "sendmail", searchPath: fakeBin + ":/usr/bin") == fakeBin + "/sendmail")
        // mailx is a plain file without an x bit: skipped.
        #expect(
            throws: ShareError.mailCommandNotRunnable(
                command: "sendmail -t -i",
                reason: "mailx: command not found in PATH")
        ) {
            try command.executablePath(for: "mailx", searchPath: fakeBin)
        }
        // No sendmail anywhere (as on the machine install-deps.sh prepares): what to install is said,
        // and msmtp is named when it is there.
        if !["/usr/sbin/sendmail", "/sbin/sendmail", "/usr/lib/sendmail"].contains(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) {
            let empty = tmp.file("empty")
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
            #expect(
                throws: ShareError.mailCommandNotRunnable(
                    command: "sendmail -t -i",
                    reason:
                        "sendmail: command not found in PATH; apt-get install msmtp-mta (your account in ~/.msmtprc), "
                        + "or give --mail-command")
            ) { try command.executablePath(for: "sendmail", searchPath: empty) }
            try put("#!/bin/sh\n", empty + "/msmtp", mode: 0o755)
            #expect(
                throws: ShareError.mailCommandNotRunnable(
                    command: "sendmail -t -i",
                    reason:
                        "sendmail: command not found in PATH; msmtp is here: apt-get install msmtp-mta, "
                        + "or --mail-command 'msmtp -t --read-envelope-from'")
            ) { try command.executablePath(for: "sendmail", searchPath: empty) }
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
    /// A body that needs MIME encoding (accents, a "From " line, a lone ".", trailing spaces, a
    /// 1399-octet line, CJK, an emoji, no final newline) and a subject holding shell syntax.
    let body = fixture("mail-body-needing-encoding.txt")
    let subject = "Po\u{E8}me d'\u{E9}t\u{E9} \u{2014} Lenore $(touch PWNED) `id` ;"
    let recipient = "poet@example.org"

    func text(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        String(decoding: try #require(bytes(path), sourceLocation: sourceLocation), as: UTF8.self)
    }

    /// A script that stores its argv (one file per argument), its working folder and its stdin
    /// under `folder`.
    func captureScript(in tmp: TempFolder) throws -> (script: String, folder: String) {
        let folder = tmp.file("captured")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let script = tmp.file("capture.sh")
        try put(
            """
            #!/bin/sh
            i=0
            for a in "$@"; do i=$((i + 1)); printf '%s' "$a" > '\(folder)'/arg-$i; done
            echo $i > '\(folder)'/argc
            pwd > '\(folder)'/cwd
            cat > '\(folder)'/stdin
            """, script, mode: 0o755)
        return (script, folder)
    }

    @Test(.enabled(if: python3Available, "needs python3 with the email package, the independent decoder"))
    func messageNeedingEncodingIsDecodedBackByAnIndependentDecoder() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let (script, folder) = try captureScript(in: tmp)
        let poem = try text(body)
        try MailCommand(arguments: [script, "-t", "-i"])
            .send(MailMessage(to: [recipient], subject: subject, body: poem))

        #expect(try text(folder + "/argc") == "2\n")
        #expect(try text(folder + "/arg-1") == "-t")
        #expect(try text(folder + "/arg-2") == "-i")
        let raw = try #require(bytes(folder + "/stdin"))
        #expect(raw.allSatisfy { $0 < 0x80 })
        let lines = String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 && !$0.contains("\n") && !$0.contains("\r") })
        let decoded = try pythonDecode(raw)
        #expect(decoded[0] == subject)
        #expect(decoded[1] == recipient)
        #expect(decoded[3] == "text/plain")
        #expect(decoded[4] == "utf-8")
        #expect(decoded[5] == "quoted-printable")
        #expect(decoded[6].replacingOccurrences(of: "\r\n", with: "\n") == poem)
        #expect(decoded[7] == "1.0")
        // The subject's shell syntax ran nowhere: no argv re-splitting, no file made.
        let cwd = try text(folder + "/cwd").trimmingCharacters(in: .newlines)
        for place in [cwd, tmp.path, FileManager.default.currentDirectoryPath] {
            #expect(!FileManager.default.fileExists(atPath: place + "/PWNED"), "PWNED in \(place)")
        }
    }

    @Test func failingCommandReportsStatusAndStderr() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let script = tmp.file("fail.sh")
        try put("#!/bin/sh\ncat >/dev/null\necho boom >&2\nexit 3\n", script, mode: 0o755)
        let error = ShareError.mailCommandFailed(command: script, status: 3, stderr: "boom")
        #expect(throws: error) {
            try MailCommand(arguments: [script]).send(MailMessage(to: ["poet@example.org"], subject: "s", body: "b"))
        }
        #expect(error.description == "mail command '\(script)' failed with exit status 3: boom")
    }

    @Test func killedCommandReports128PlusSignal() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let script = tmp.file("killed.sh")
        try put("#!/bin/sh\nkill -9 $$\n", script, mode: 0o755)
        #expect(throws: ShareError.mailCommandFailed(command: script, status: 137, stderr: "")) {
            try MailCommand(arguments: [script]).send(MailMessage(to: ["poet@example.org"], subject: "s", body: ""))
        }
    }

    @Test func hugeStderrBeforeReadingDoesNotDeadlock() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let script = tmp.file("noisy.sh")
        // 1 MiB on stderr before reading a 1 MiB message: both pipes must be served at once.
        try put("#!/bin/sh\nhead -c 1048576 /dev/zero | tr '\\0' x >&2\ncat >/dev/null\nexit 1\n", script, mode: 0o755)
        let body = String(repeating: "Lenore\n", count: 150_000)
        #expect(
            throws: ShareError.mailCommandFailed(
                command: script, status: 1,
                stderr: String(repeating: "x", count: MailCommand.stderrLimit))
        ) {
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
        #expect(
            throws: ShareError.mailCommandNotRunnable(
                command: "lovesnap-no-such-mailer -t",
                reason: "lovesnap-no-such-mailer: command not found in PATH")
        ) {
            try MailCommand(arguments: ["lovesnap-no-such-mailer", "-t"]).send(message)
        }
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        #expect(
            throws: ShareError.mailCommandNotRunnable(
                command: tmp.file("nope"), reason: tmp.file("nope") + ": No such file or directory")
        ) {
            try MailCommand(arguments: [tmp.file("nope")]).send(message)
        }
        try put("#!/bin/sh\n", tmp.file("not-executable"), mode: 0o644)
        // Even root may not execute a file without any x bit: posix_spawn reports EACCES.
        #expect(
            throws: ShareError.mailCommandNotRunnable(
                command: tmp.file("not-executable"), reason: tmp.file("not-executable") + ": Permission denied")
        ) {
            try MailCommand(arguments: [tmp.file("not-executable")]).send(message)
        }
        #expect(throws: ShareError.invalidCommandLine(commandLine: "", reason: "empty command")) {
            try MailCommand(arguments: []).send(message)
        }
    }

    @Test func invalidMessageIsRejectedBeforeRunning() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let (script, folder) = try captureScript(in: tmp)
        #expect(throws: ShareError.invalidHeader(field: "Subject", reason: "contains a line break")) {
            try MailCommand(arguments: [script])
                .send(MailMessage(to: ["poet@example.org"], subject: "Hi\r\nBcc: spy@example.net", body: ""))
        }
        #expect(tmp.names(in: folder) == [])
    }
}
