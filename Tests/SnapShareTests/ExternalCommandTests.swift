import Foundation
import SnapProcess
import Testing

@testable import SnapShare

#if canImport(Glibc)
    import Glibc
#endif

/// Commands typed for ^T, and cancelling a running command (^C) in a session of its own.
@Suite struct ExternalCommandTests {
    @Test func pipesTheInputAndReturnsTheOutput() throws {
        let input = Array("the curtains blush\nLenore, the kettle\nà la fenêtre\n".utf8)
        #expect(
            try ExternalCommand.run("sort", input: input)
                == Array("Lenore, the kettle\nthe curtains blush\nà la fenêtre\n".utf8))
        // No shell: a pipe sign and a $ are arguments of echo.
        #expect(try ExternalCommand.run("echo a | b $HOME", input: []) == Array("a | b $HOME\n".utf8))
        // A shell when asked for.
        #expect(try ExternalCommand.run("sh -c 'tr a-z A-Z | rev'", input: Array("abc\n".utf8)) == Array("CBA\n".utf8))
    }

    @Test func failuresSayWhy() {
        #expect(throws: ShareError.commandFailed(command: "sh -c 'echo no >&2; exit 3'", status: 3, stderr: "no")) {
            try ExternalCommand.run("sh -c 'echo no >&2; exit 3'", input: [])
        }
        #expect(
            throws: ShareError.commandNotRunnable(
                command: "no-such-command-here", reason: "no-such-command-here: command not found in PATH")
        ) {
            try ExternalCommand.run("no-such-command-here", input: [])
        }
        #expect(throws: ShareError.invalidCommand(commandLine: "sort 'x", reason: "unbalanced single quote")) {
            try ExternalCommand.run("sort 'x", input: [])
        }
        #expect(throws: ShareError.invalidCommand(commandLine: "  ", reason: "empty command")) {
            try ExternalCommand.run("  ", input: [])
        }
        #expect(
            ShareError.commandFailed(command: "sort -x", status: 2, stderr: "sort: invalid option -- 'x'").description
                == "'sort -x' failed with exit status 2: sort: invalid option -- 'x'")
    }

    @Test func theCommandRunsInASessionOfItsOwnWithoutATerminal() throws {
        // /proc/PID/stat: pid (comm) state ppid pgrp session tty_nr. The shell leads its own
        // session and process group, and has no controlling terminal (tty_nr 0), so it cannot
        // draw on the editor's screen or read its keys.
        let out = try ExternalCommand.run("sh -c 'echo $$; cut -d\" \" -f5,6,7 /proc/$$/stat'", input: [])
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        if lines.count == 2 { #expect(lines[1] == "\(lines[0]) \(lines[0]) 0") }
    }

    @Test func cancellingKillsTheWholeProcessGroupAtOnce() throws {
        let tmp = try TempFolder()
        defer { tmp.cleanup() }
        let pidFile = tmp.file("pid")
        // A shell whose child sleeps: both must go.
        let call = BackgroundCall<[UInt8]> { cancellation in
            try ExternalCommand.run(
                "sh -c 'sleep 300 & echo $! > \(pidFile); wait'", input: Array("x".utf8), cancellation: cancellation)
        }
        var sleeper: pid_t = 0
        for _ in 0..<500 where sleeper == 0 {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                sleeper = pid
            } else {
                usleep(10_000)
            }
        }
        #expect(sleeper > 0)
        #expect(call.result == nil)
        call.cancel()
        let result = try #require(call.wait(seconds: 30))
        #expect(throws: ShareError.commandCancelled(command: "sh -c 'sleep 300 & echo $! > \(pidFile); wait'")) {
            try result.get()
        }
        // The sleeping grandchild went with its group (it may linger as a zombie of init a moment).
        var gone = false
        for _ in 0..<300 where !gone {
            let state = (try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            gone = state == nil || state == "Z"
            if !gone { usleep(10_000) }
        }
        #expect(gone)
    }

    @Test func aCancelledMailCommandSaysTheMailMayNotHaveGone() throws {
        var slow = MailCommand(arguments: ["sh", "-c", "cat > /dev/null; sleep 300"])
        slow.timeout = 120
        let command = slow
        let message = MailMessage(to: ["a@b.org"], subject: "s", body: "b")
        let call = BackgroundCall<Bool> { cancellation in
            try command.send(message, cancellation: cancellation)
            return true
        }
        usleep(200_000)
        #expect(call.result == nil)
        call.cancel()
        let result = try #require(call.wait(seconds: 30))
        #expect(throws: ShareError.mailCommandCancelled(command: "sh -c 'cat > /dev/null; sleep 300'")) {
            try result.get()
        }
        #expect(
            ShareError.mailCommandCancelled(command: "sendmail -t -i").description
                == "mail command 'sendmail -t -i' was stopped; the mail may not have been sent")
    }

    @Test func outputPastTheLimitIsRefused() {
        #expect(
            throws: ShareError.commandOutputTooLarge(
                command: "head -c 16777217 /dev/zero", limit: ExternalCommand.outputLimit)
        ) {
            try ExternalCommand.run("head -c 16777217 /dev/zero", input: [])
        }
    }

    @Test func aCommandWritingForEverIsStoppedPastTheLimit() {
        // `yes` never ends: it was read and its output dropped until ^C. Stopped past the limit
        // now; a watchdog cancels it after 60 s so that a regression fails instead of hanging.
        let cancellation = Cancellation()
        let watchdog = DispatchWorkItem { cancellation.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        #expect(throws: ShareError.commandOutputTooLarge(command: "yes", limit: ExternalCommand.outputLimit)) {
            try ExternalCommand.run("yes", input: Array("text\n".utf8), cancellation: cancellation)
        }
    }
}
