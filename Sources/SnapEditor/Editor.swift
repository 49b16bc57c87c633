import Foundation
import SnapText
import SnapTerminal

/// The editor: glues a ``Terminal``, ``update(_:_:keymap:)``, ``render(_:size:)``, the OCR job and
/// the sharing service into a run loop.
///
/// The loop draws the state, waits for a key (100 ms while the OCR runs, so progress shows),
/// applies it, polls the OCR job and performs the effects (save, mail, cancel). It does not start
/// or stop the terminal: whoever made the ``NcursesTerminal`` calls its `shutdown()` afterwards.
public final class Editor {
    /// The current state (read it after ``run()`` for the final text).
    public private(set) var state: EditorState
    private let terminal: Terminal
    private let recognition: RecognitionTask?
    private let sharing: DocumentSharing
    private let keymap: Keymap

    /// Creates an editor on `terminal` for `configuration`, with nano's keys.
    public init(terminal: Terminal, configuration: EditorConfiguration, keymap: Keymap = .nano) {
        self.terminal = terminal
        self.recognition = configuration.recognition
        self.sharing = configuration.sharing
        self.keymap = keymap
        self.state = EditorState(displayName: configuration.displayName, saveName: configuration.defaultSaveName,
                                 savesToOwnFile: configuration.savesToOwnFile,
                                 text: configuration.recognition == nil ? configuration.initialText : "",
                                 recognizing: configuration.recognition != nil, screenSize: terminal.size)
    }

    /// Runs until the user exits; returns the process exit code (0).
    ///
    /// A still-running OCR job is cancelled on the way out.
    public func run() -> Int32 {
        var needsDraw = true
        while state.exitCode == nil {
            if pollRecognition() { needsDraw = true }
            if needsDraw {
                state.screenSize = terminal.size
                terminal.draw(render(state, size: state.screenSize))
            }
            let key = terminal.readKey(timeout: state.isRecognizing ? 100 : 1000)
            needsDraw = key != nil
            if let key { handle(key) }
        }
        if state.isRecognizing { recognition?.cancel() }
        return state.exitCode ?? 0
    }

    /// Handles one key as the run loop does (update, then effects).
    func handle(_ key: KeyEvent) {
        state.screenSize = terminal.size
        let effects = update(&state, key, keymap: keymap)
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

    private func perform(_ effect: EditorEffect) {
        switch effect {
        case let .save(text, path, confirmed):
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
