import Foundation
import SnapProcess
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's half of the worker–spelling protocol: starts the spelling process (this same
/// executable, `lovesnap __spelling LANGS`, see `SpellingServer`) and asks it which words its
/// Hunspell dictionaries know, a list at a time.
///
/// The dictionaries weigh a doubtful page's readings against each other (`WordEvidence`) and mark
/// the words no dictionary knows. In the worker they were 21 MiB of its peak on every doubtful
/// page; in a process of their own they are not added to the engine's. The process dies with the
/// worker (`PR_SET_PDEATHSIG`, `WorkerServer.prepareProcess`); `cancel()` and deinit kill it.
/// Starting one makes this process ignore SIGPIPE. Thread-safe; questions are asked one at a time.
final class SpellingProcess: Sendable {
    /// The process ended without the answer waited for, or answered `failed`.
    typealias Failure = HelperFailure

    private struct State {
        /// Answers not taken yet, in order.
        var answers: [SpellingServer.Answer] = []
        /// Why the process ended, once it has.
        var ended: String?
        /// The process id once started (0 before).
        var pid: pid_t = 0
        var killed = false
        /// The dictionaries loaded, once the first answer is taken.
        var dictionaries: [String]?
    }

    /// What the thread reading the answers shares with the askers (not `self`: see `init`).
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// Signalled for every answer, and when the process ends.
        let changed = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()
    /// The process's standard input: one line a question.
    private let questions: FileHandle
    /// Held while a question waits for its answer.
    private let asking = Mutex(())
    /// Seconds an answer (the dictionaries loaded included) may take before the process is
    /// killed and the question fails: a stopped or hung process must not hold the worker to its
    /// timeout. A question takes milliseconds, the dictionaries 0.1–0.3 s.
    let answerTimeout: Double

    /// Starts the spelling process for `languages`; its dictionaries load at once.
    /// - Parameters:
    ///   - executable: this executable (`/proc/self/exe` in the worker).
    ///   - languages: Tesseract language codes (`["fra", "eng"]`).
    /// - Throws: `POSIXError` when no pipe can be made (no descriptor left).
    ///   - answerTimeout: seconds an answer may take (`answerTimeout`).
    init(executable: String, languages: [String], answerTimeout: Double = 30) throws {
        self.answerTimeout = answerTimeout
        let shared = shared
        // The thread reading the answers holds no reference to `self`: deinit kills the process.
        questions = try ChildProcess.startHelper(
            "__spelling", arguments: [languages.joined(separator: "+")], executable: executable,
            name: "spelling process",
            started: { pid in
                shared.state.withLock { s in
                    s.pid = pid
                    return s.killed
                }
            },
            line: { line in
                guard let answer = try? JSONDecoder().decode(SpellingServer.Answer.self, from: line),
                    answer.v == SpellingServer.version
                else { return }
                shared.state.withLock { $0.answers.append(answer) }
                shared.changed.signal()
            },
            ended: { why in
                shared.state.withLock { $0.ended = why }
                shared.changed.signal()
            })
    }

    deinit { cancel() }

    /// The process's id once started (0 before, or when it could not be).
    var processIdentifier: pid_t { shared.state.withLock { $0.pid } }

    /// Stops the process (SIGKILL) unless it has ended: every question not answered yet fails.
    /// Idempotent.
    func cancel() {
        let pid = shared.state.withLock { s -> pid_t in
            s.killed = true
            return s.ended == nil ? s.pid : 0
        }
        if pid > 0 { kill(pid, SIGKILL) }
        try? questions.close()
    }

    /// Waits for the dictionaries to load.
    /// - Returns: their names, as Hunspell's files name them (`fr`, `en_US`).
    /// - Throws: `Failure` when none could be loaded (the reason is `SpellingError`'s
    ///   description) or the process ended first.
    func dictionaryNames() throws -> [String] {
        try asking.withLock { _ in try loaded() }
    }

    /// Which of `words` a language's main dictionary knows (`SpellChecker.isKnown`), in their order.
    /// - Throws: `Failure` when the process failed or ended without answering.
    func known(_ words: [String]) throws -> [Bool] {
        let answer = try ask(words)
        guard let known = answer.known, known.count == words.count else {
            throw Failure(reason: answer.failed ?? "an answer for \(answer.known?.count ?? 0) of \(words.count) words")
        }
        return known
    }

    /// The Tesseract languages whose dictionaries, any of them, know each of `words`
    /// (`SpellChecker.languagesKnowing`), in their order.
    /// - Throws: `Failure` when the process failed or ended without answering.
    func knownIn(_ words: [String]) throws -> [Set<String>] {
        let answer = try ask(words)
        guard let known = answer.knownIn, known.count == words.count else {
            throw Failure(
                reason: answer.failed ?? "an answer for \(answer.knownIn?.count ?? 0) of \(words.count) words")
        }
        return known.map(Set.init)
    }

    /// The answer to the question `words`.
    private func ask(_ words: [String]) throws -> SpellingServer.Answer {
        try asking.withLock { _ in
            _ = try loaded()
            try running()
            var line = try JSONEncoder().encode(words)
            line.append(0x0A)
            do { try questions.write(contentsOf: line) } catch { throw Failure(reason: "\(error)") }
            return try next()
        }
    }

    /// The first answer (taken once).
    private func loaded() throws -> [String] {
        if let names = shared.state.withLock({ $0.dictionaries }) { return names }
        let first = try next()
        guard let names = first.dictionaries else { throw Failure(reason: first.failed ?? "no dictionaries") }
        shared.state.withLock { $0.dictionaries = names }
        return names
    }

    /// Throws `Failure` once the process was stopped or has ended.
    private func running() throws {
        let (ended, killed) = shared.state.withLock { ($0.ended, $0.killed) }
        if killed { throw Failure(reason: "the spelling process was stopped") }
        if let ended { throw Failure(reason: ended) }
    }

    /// Waits for the next answer, at most `answerTimeout` seconds (then the process is killed).
    private func next() throws -> SpellingServer.Answer {
        let deadline = DispatchTime.now() + answerTimeout
        while true {
            let (answer, ended, killed) = shared.state.withLock { s -> (SpellingServer.Answer?, String?, Bool) in
                (s.answers.isEmpty ? nil : s.answers.removeFirst(), s.ended, s.killed)
            }
            if let answer { return answer }
            if killed { throw Failure(reason: "the spelling process was stopped") }
            if let ended { throw Failure(reason: ended) }
            if DispatchTime.now() >= deadline {
                cancel()
                throw Failure(reason: "the spelling process gave no answer within \(answerTimeout) s")
            }
            _ = shared.changed.wait(timeout: .now() + 0.05)
        }
    }
}
