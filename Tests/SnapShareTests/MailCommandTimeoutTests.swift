import Foundation
import SnapTestSupport
import Testing

@testable import SnapShare

@Suite struct MailCommandTimeoutTests {
    @Test func hangingMailCommandIsStoppedAfterItsTimeout() throws {
        let pidFile = TestPaths.temporaryDirectory("mail-hang").appendingPathComponent("pid").path
        var command = MailCommand(arguments: ["/bin/sh", "-c", "echo $$ > '\(pidFile)'; cat >/dev/null; exec sleep 30"])
        command.timeout = 0.5
        #expect(throws: ShareError.mailCommandTimedOut(command: command.displayString, seconds: 0.5)) {
            try command.send(MailMessage(to: ["poet@example.org"], subject: "s", body: "b"))
        }
        // Stopped, not waited for: the command (now `sleep 30`) is gone when send returns.
        let pid = try #require(
            (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            })
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        #expect(
            ShareError.mailCommandTimedOut(command: "sendmail -t -i", seconds: 60).description
                == "mail command 'sendmail -t -i' did not finish within 60 s and was stopped; the mail may not have been sent"
        )
    }

    /// A timeout past what nanoseconds since boot hold (`--mail-timeout 1e12`) is no timeout:
    /// the message is sent (it trapped converting the deadline to UInt64, the editor's text lost).
    @Test func aTimeoutOfCenturiesIsNone() throws {
        let out = TestPaths.temporaryDirectory("mail-timeout").appendingPathComponent("sent.txt")
        for timeout in [1e12, 1e300, .infinity] {
            var command = MailCommand(arguments: ["/bin/sh", "-c", "cat > '\(out.path)'"])
            command.timeout = timeout
            try command.send(MailMessage(to: ["poet@example.org"], subject: "s", body: "b"))
            // The headers, a blank line, the body in quoted-printable (RFC 2045 § 6.7).
            #expect(try String(contentsOf: out, encoding: .utf8).hasSuffix("\r\n\r\nb=\r\n"))
        }
    }

    @Test func commandThatNeverReadsIsStoppedToo() throws {
        var command = MailCommand(arguments: ["/bin/sleep", "30"])
        command.timeout = 0.5
        // 1 MiB body: more than a pipe holds, so the write side blocks until the deadline.
        #expect(throws: ShareError.mailCommandTimedOut(command: command.displayString, seconds: 0.5)) {
            try command.send(
                MailMessage(to: ["poet@example.org"], subject: "s", body: String(repeating: "x\n", count: 1 << 19)))
        }
    }
}
