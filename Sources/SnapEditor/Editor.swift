import Foundation
import SnapText
import SnapTerminal

/// The editor: glues a ``Terminal``, ``update(_:_:keymap:)``, ``render(_:size:keymap:)``, the OCR job
/// and the sharing service into a run loop.
///
/// The loop draws the state, waits for a key (at most 100 ms, so OCR progress shows and a
/// termination signal is noticed at once), feeds it to ``update(_:_:keymap:)``, feeds the OCR job's
/// reports to ``apply(_:to:)-(RecognitionEvent,_)``, and performs the effects update asks for (save,
/// mail, cancel, repaint), feeding their outcome back with ``apply(_:to:)-(EffectResult,_)``. It does
/// not start or stop the terminal: whoever made the ``NcursesTerminal`` calls its `shutdown()`
/// afterwards.
///
/// When the terminal reports a termination signal (``Terminal/pendingTerminationSignal``), the loop
/// writes the text to an emergency file (``EmergencySave``) on this thread, records a
/// ``TerminationReport`` and returns 128 + the signal.
public final class Editor {
    /// The current state (read it after ``run()`` for the final text).
    public private(set) var state: EditorState
    private let terminal: Terminal
    private let recognition: RecognitionTask?
    private let sharing: DocumentSharing
    private let keymap: Keymap
    private let homeFolder: String?
    private let temporaryFolder: String

    /// Set when a termination signal ended the run: what happened to the text, and the message for
    /// stderr (print it after the terminal is restored).
    public private(set) var termination: TerminationReport?

    /// Creates an editor on `terminal` for `configuration`, with nano's keys.
    public init(terminal: Terminal, configuration: EditorConfiguration, keymap: Keymap = .nano) {
        self.terminal = terminal
        self.recognition = configuration.recognition
        self.sharing = configuration.sharing
        self.keymap = keymap
        self.homeFolder = configuration.homeFolder
        self.temporaryFolder = configuration.temporaryFolder
        self.state = EditorState(displayName: configuration.displayName, saveName: configuration.defaultSaveName,
                                 savesToOwnFile: configuration.savesToOwnFile,
                                 text: configuration.recognition == nil ? configuration.initialText : "",
                                 recognizing: configuration.recognition != nil, screenSize: terminal.size)
        if configuration.recognition == nil, let status = configuration.initialStatus { state.status = StatusMessage(status) }
    }

    /// Runs until the user exits (returns 0) or a termination signal arrives (saves the text as
    /// ``EmergencySave`` says, sets ``termination`` and returns 128 + the signal).
    ///
    /// A still-running OCR job is cancelled on the way out.
    public func run() -> Int32 {
        var needsDraw = true
        while state.exitCode == nil {
            if let sig = terminal.pendingTerminationSignal {
                terminate(by: sig)
                break
            }
            if pollRecognition() { needsDraw = true }
            if needsDraw { draw() }
            let key = terminal.readKey(timeout: 100)
            needsDraw = key != nil
            if let key, terminal.pendingTerminationSignal == nil { handle(key) }
        }
        if state.isRecognizing { recognition?.cancel() }
        return state.exitCode ?? 0
    }

    /// Writes the emergency file (if there is text or a change), records the report, sets the exit code.
    func terminate(by sig: Int32) {
        let text = state.buffer.text
        let outcome: EmergencySave.Outcome
        // As nano: only a buffer with changes (or an OCR result never written) is rescued, so that
        // closing a terminal on an untouched file leaves no NAME.save behind.
        if !state.isModified && !state.hasUnsavedText {
            outcome = .nothingToSave
        } else {
            outcome = EmergencySave.write(Array(text.utf8), saveName: state.saveName, home: homeFolder,
                                          temporaryFolder: temporaryFolder)
        }
        let report = TerminationReport(signal: sig, outcome: outcome)
        termination = report
        state.exitCode = report.exitCode
    }

    /// Handles one key as the run loop does: update, then the effects (drawn first when there are
    /// any, so the screen says what is going on while they run: "Sending to…").
    func handle(_ key: KeyEvent) {
        apply(screenSize: terminal.size, to: &state)
        let effects = update(&state, key, keymap: keymap)
        guard !effects.isEmpty else { return }
        draw()
        for effect in effects { perform(effect) }
    }

    /// Applies the OCR job's new events; true if there were any.
    @discardableResult
    func pollRecognition() -> Bool {
        guard state.isRecognizing, let recognition else { return false }
        let events = recognition.poll()
        for event in events { apply(event, to: &state) }
        return !events.isEmpty
    }

    private func draw() {
        terminal.draw(render(state, size: terminal.size, keymap: keymap))
    }

    /// Does the work of one effect and feeds its outcome back to the state.
    private func perform(_ effect: EditorEffect) {
        switch effect {
        case let .save(text, path, confirmed):
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                apply(.saveFailed(message: "\(path): Is a directory"), to: &state)
                return
            }
            if !confirmed && FileManager.default.fileExists(atPath: path) {
                apply(.saveNeedsOverwriteConfirmation(path: path), to: &state)
                return
            }
            do {
                try sharing.save(text, to: path)
                apply(.saved(path: path), to: &state)
            } catch {
                apply(.saveFailed(message: Self.message(for: error)), to: &state)
            }
        case let .mail(text, to, subject):
            do {
                try sharing.mail(text, to: to, subject: subject)
                apply(.mailed(to: to), to: &state)
            } catch {
                apply(.mailFailed(message: Self.message(for: error)), to: &state)
            }
        case .cancelRecognition:
            recognition?.cancel()
        case .redrawScreen:
            terminal.invalidate()
        }
    }

    private static func message(for error: Error) -> String {
        if let localized = (error as? LocalizedError)?.errorDescription { return localized }
        if error is CocoaError || type(of: error) == NSError.self { return error.localizedDescription }
        return String(describing: error)
    }
}
