import Foundation
import SnapEditor
import SnapProcess
import SnapShare

/// The one way lovesnap mails a text: the editor's M-M and `lovesnap ocr --mail` both compose
/// the message here (RFC 5322 addresses, From from `--from`, `$EMAIL` or user@host) and hand
/// it to the same mail command.
struct Mailing: Sendable {
    /// The mail transport (`--mail-command`, `$LOVESNAP_MAIL_COMMAND`, `sendmail -t -i`), with
    /// its `--mail-timeout`.
    let command: MailCommand
    /// `--from`, if given.
    let fromOption: String?
    /// The environment (`$EMAIL`, `$USER`).
    let environment: [String: String]

    /// The command line's mail settings.
    /// - Throws: `CommandFailure.usage` when `--mail-command` (or the environment's) cannot be split.
    init(_ args: Arguments, environment: [String: String]) throws(CommandFailure) {
        var command: MailCommand
        do { command = try MailCommand.resolve(option: args.mailCommand, environment: environment) } catch {
            throw .usage(error)
        }
        command.timeout = args.mailTimeout
        self.command = command
        self.fromOption = args.from
        self.environment = environment
    }

    /// `text` as a message to the To field `to` with `subject`, validated.
    /// - Throws: `ShareError` for a bad sender or recipient, a group, a line break in a field.
    func message(_ text: String, to: String, subject: String) throws(ShareError) -> MailMessage {
        let from = try MailSender.resolve(option: fromOption, environment: environment)
        return try MailMessage.compose(body: text, toField: to, subject: subject, from: from)
    }

    /// Sends `message` through the mail command (blocking; `cancellation` stops it).
    /// - Throws: `ShareError` from `MailCommand.send`.
    func send(_ message: MailMessage, cancellation: Cancellation? = nil) throws(ShareError) {
        do { try command.send(message, cancellation: cancellation) } catch let error as ShareError { throw error } catch
        {
            throw .mailCommandFailed(command: command.displayString, status: -1, stderr: "\(error)")
        }
    }
}

/// A ``BackgroundCall`` seen through the editor's `BackgroundJob` protocol: its result as a
/// `JobOutcome` (a cancel as `.cancelled`, other errors as `.failed` with their message).
final class CallJob: BackgroundJob {
    private let call: BackgroundCall<String>?
    private let immediate: JobOutcome?

    init(_ call: BackgroundCall<String>) {
        self.call = call
        self.immediate = nil
    }

    /// A job that ended before it started (a bad address, say).
    init(ended outcome: JobOutcome) {
        self.call = nil
        self.immediate = outcome
    }

    func poll() -> JobOutcome? {
        if let immediate { return immediate }
        switch call?.result {
        case nil: return nil
        case .success(let output): return .finished(output: output)
        case .failure(let error):
            switch error as? ShareError {
            case .mailCommandCancelled?, .commandCancelled?: return .cancelled(message: "\(error)")
            default: return .failed(message: "\(error)")
            }
        }
    }

    func cancel() { call?.cancel() }
}
