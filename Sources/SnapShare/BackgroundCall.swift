import Foundation
import SnapProcess
import Synchronization

/// A blocking call (a mail command, a ^T command) run on a thread of its own, so that the caller
/// (the editor's run loop) goes on and only polls for the result.
///
/// The call gets a ``Cancellation``; ``cancel()`` cancels it, and a ``ChildProcess`` run under
/// it is killed at once.
public final class BackgroundCall<Value: Sendable>: Sendable {
    /// The result, shared with the thread.
    private final class Outcome: Sendable {
        let value = Mutex<Result<Value, any Error>?>(nil)
    }
    private let outcome = Outcome()
    private let cancellation = Cancellation()

    /// Starts `work` on a new thread at once.
    public init(_ work: @escaping @Sendable (Cancellation) throws -> Value) {
        let cancellation = self.cancellation
        let outcome = self.outcome
        let thread = Thread {
            let result = Result { try work(cancellation) }
            outcome.value.withLock { $0 = result }
        }
        thread.name = "lovesnap background call"
        thread.start()
    }

    /// The result once the call returned or threw; nil while it runs. Never blocks.
    public var result: Result<Value, any Error>? { outcome.value.withLock { $0 } }

    /// Cancels the call (idempotent): see ``Cancellation/cancel()``.
    public func cancel() { cancellation.cancel() }

    /// Waits (polling every 10 ms) at most `seconds` for the result; nil if it is still running.
    public func wait(seconds: Double) -> Result<Value, any Error>? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let result { return result }
            usleep(10_000)
        }
        return result
    }
}
