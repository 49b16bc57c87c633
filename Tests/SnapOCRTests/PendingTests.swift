import Foundation
import Testing

@testable import SnapOCR

/// `Pending`: a value made on its own thread, waited for by any number of threads.
@Suite struct PendingTests {
    /// A thread that asks whether the work is done after another took the value is answered at
    /// once (with a semaphore, `take()` had used up the one signal and the question waited its
    /// whole time: a minute, the editor's OCR stalled at 36 %). The time limit fails the test.
    @Test(.timeLimit(.minutes(1))) func askingAfterTheValueWasTakenIsAnsweredAtOnce() throws {
        let pending = Pending { 42 }
        #expect(try pending.take() == 42)
        #expect(pending.isDone(waitingAtMost: 600))
        #expect(pending.isDone(waitingAtMost: 600))
    }

    @Test func unfinishedWorkIsNotDoneAndItsErrorIsThrown() throws {
        struct Failed: Error, Equatable {}
        let gate = DispatchSemaphore(value: 0)
        let pending = Pending { () throws -> Int in
            gate.wait()
            throw Failed()
        }
        #expect(!pending.isDone(waitingAtMost: 0.01))
        gate.signal()
        #expect(throws: Failed()) { try pending.take() }
        #expect(pending.isDone(waitingAtMost: 0))
    }
}
