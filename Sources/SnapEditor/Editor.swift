import Dispatch
import Foundation
import SnapTerminal
import SnapText

/// The editor: glues a ``Terminal``, ``update(_:_:keymap:)``, ``render(_:size:keymap:)``, the OCR job
/// and the sharing service into a run loop.
///
/// The loop draws the state, waits for a key (at most 100 ms, so OCR progress shows and a
/// termination signal is noticed at once), feeds it to ``update(_:_:keymap:)``, feeds the OCR job's
/// reports to ``apply(_:to:)-(RecognitionEvent,_)``, and performs the effects update asks for (save,
/// mail, cancel, repaint, emergency save), feeding their outcome back with
/// ``apply(_:to:)-(EffectResult,_)``. It never changes the state itself. It does not start or stop
/// the terminal: whoever made the ``NcursesTerminal`` calls its `shutdown()` afterwards.
///
/// When the terminal reports a termination signal (``Terminal/pendingTerminationSignal``), the
/// loop hands it to ``apply(terminationSignal:to:)``, performs the emergency save it may ask for
/// (on this thread), and returns 128 + the signal; ``termination`` then says what happened.
public final class Editor {
    /// The current state (read it after ``run()`` for the final text).
    public private(set) var state: EditorState
    private let terminal: Terminal
    private var recognition: RecognitionTask?
    private let photoReader: ((String) throws -> RecognitionTask)?
    private let heldRecognition: (() throws -> RecognitionTask)?
    private let photoRenderer: PhotoRenderer?
    private let regionReader: ((PhotoSource, WordBox) throws -> RecognitionTask)?
    private let photoRereader: ((PhotoSource, ReadingChoice) throws -> RecognitionTask)?
    private let sharing: DocumentSharing
    private let keymap: Keymap
    /// The mail or ^T command running now (``Mode/running(_:)``).
    private var job: BackgroundJob?
    /// Seconds of a monotonic clock, for the recovery journal's delays.
    private let clock: () -> Double

    /// Set when a termination signal ended the run: what happened to the text, and the message for
    /// stderr (print it after the terminal is restored).
    public var termination: TerminationReport? { state.termination }

    /// Creates an editor on `terminal` for `configuration`, with nano's keys; `clock` gives
    /// seconds of a monotonic clock (the recovery journal's delays).
    public init(
        terminal: Terminal, configuration: EditorConfiguration, keymap: Keymap = .nano,
        clock: @escaping () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.terminal = terminal
        self.recognition = configuration.recognition
        self.photoReader = configuration.photoReader
        self.heldRecognition = configuration.heldRecognition
        self.photoRenderer = configuration.photoRenderer
        self.regionReader = configuration.regionReader
        self.photoRereader = configuration.photoRereader
        self.sharing = configuration.sharing
        self.keymap = keymap
        self.clock = clock
        self.state = EditorState(
            displayName: configuration.displayName, saveName: configuration.defaultSaveName,
            savesToOwnFile: configuration.savesToOwnFile,
            content: configuration.recognition == nil ? configuration.initialContent : Rope(),
            recognizing: configuration.recognition != nil, screenSize: terminal.size)
        state.format = configuration.format
        state.readingChoice = configuration.readingChoice
        state.diskState = configuration.diskState
        state.journal = JournalState(isEnabled: configuration.journals)
        if let photo = configuration.photo {
            state.photos = [photo]
            state.isOpenedOnPhoto = true
        }
        if configuration.recognition == nil, let status = configuration.initialStatus {
            state.status = StatusMessage(status)
        }
        if let offer = configuration.recoveries.first {
            state.mode = .recoveryOffer(offer)
            state.recovery.pendingRecoveries = Array(configuration.recoveries.dropFirst())
            state.recovery.recognitionOnHold = configuration.recognition == nil && configuration.heldRecognition != nil
            state.status = nil
        }
        state.keepLineData()
    }

    /// Runs until the user exits (returns 0) or a termination signal arrives (saves the text if it
    /// changed, sets ``termination`` and returns 128 + the signal).
    ///
    /// A still-running OCR job is cancelled on the way out.
    ///
    /// A mail or ^T command runs in the background meanwhile (the loop polls it on every turn, at
    /// least every 100 ms), and so the loop still draws, reads keys (^C stops the command) and
    /// notices a termination signal at once: the emergency save comes first, then the command is
    /// stopped. Every turn also gives the recovery journal its clock (``apply(clock:to:)``).
    public func run() -> Int32 {
        var needsDraw = true
        while state.exitCode == nil {
            if let sig = terminal.pendingTerminationSignal {
                // No drawing: the terminal may be gone (SIGHUP).
                for effect in apply(terminationSignal: sig, to: &state) { perform(effect) }
                break
            }
            if pollRecognition() { needsDraw = true }
            // What was typed while a photo was read goes into the text once it is there.
            for key in takeHeldKeys(from: &state) where terminal.pendingTerminationSignal == nil {
                handle(key)
                needsDraw = true
            }
            if pollJob() { needsDraw = true }
            // A recovery file written or not: a failure is on the status line at once.
            let timed = apply(clock: clock(), to: &state)
            for effect in timed { perform(effect) }
            if needsDraw || !timed.isEmpty { draw() }
            if case .recoveryOffer = state.mode, !recoveryQuestionShown {
                // Keys typed before the question was on the screen do not answer it.
                recoveryQuestionShown = true
                terminal.discardTypeahead()
            }
            let key = terminal.readKey(timeout: 100)
            needsDraw = key != nil
            if let key, terminal.pendingTerminationSignal == nil { handle(key) }
        }
        if state.isRecognizing { recognition?.cancel() }
        stopJob()
        for effect in finishingEffects(state) { perform(effect) }
        return state.exitCode ?? 0
    }

    /// Whether the recovery question has been drawn (the typeahead before it is discarded once).
    private var recoveryQuestionShown = false

    /// The mail or ^T command that was still running when the editor ended (a termination
    /// signal), and was stopped: say so once the terminal is restored.
    public private(set) var stoppedJob: RunningJob?

    /// Stops a mail or ^T command still running (the editor is ending), waiting at most 2 s for it
    /// to go (a stopped command is killed at once, with its process group).
    func stopJob() {
        guard let job else { return }
        job.cancel()
        let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
        while job.poll() == nil && DispatchTime.now().uptimeNanoseconds < deadline { usleep(10_000) }
        if case .running(let running) = state.mode { stoppedJob = running }
        self.job = nil
    }

    /// Handles one key as the run loop does: update, then the effects (drawn first when there are
    /// any, so the screen says what is going on while they run: "Sending to…").
    func handle(_ key: KeyEvent) {
        apply(screenSize: terminal.size, to: &state)
        let effects = update(&state, key, keymap: keymap)
        guard !effects.isEmpty else { return }
        draw()
        for effect in effects { perform(effect) }
        pollJob()
    }

    /// Applies how the running mail or ^T command ended, once it has; true if it did.
    @discardableResult
    func pollJob() -> Bool {
        guard let job, let outcome = job.poll() else { return false }
        self.job = nil
        apply(.jobEnded(outcome), to: &state)
        return true
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
        case .save(let text, let path, let confirmed, let format, let pages, let changeConfirmed):
            if let refusal = sharing.refusal(toWrite: path) {
                apply(.saveFailed(message: refusal), to: &state)
                return
            }
            switch sharing.existingItem(at: path) {
            case .folder:
                apply(.saveFailed(message: "\(path): Is a directory"), to: &state)
                return
            case .other where !confirmed:
                apply(.saveNeedsOverwriteConfirmation(path: path), to: &state)
                return
            case .other, .nothing:
                break
            }
            // The text's own file, changed on disk by another program since it was read or written.
            if !changeConfirmed, path == state.saveName, let known = state.diskState {
                let now = sharing.version(of: path)
                let changed: Bool
                switch known {
                case .absent: changed = now != nil
                case .present(let version): changed = now != nil && now != version
                }
                if changed {
                    apply(.saveNeedsChangeConfirmation(path: path), to: &state)
                    return
                }
            }
            do {
                let version = try sharing.save(text, to: path, format: format, pages: pages)
                apply(.saved(path: path, version: version), to: &state)
            } catch {
                var message = Self.message(for: error)
                if case SnapTextError.notEncodable = error,
                    let key = keymap.prompt.first(where: { $0.action == .toggleLatin1 })?.keys.first
                {
                    message += " (\(key.helpName) in Write Out: UTF-8)"
                }
                apply(.saveFailed(message: message), to: &state)
            }
        case .insertFile(let path) where EditorConfiguration.isPhoto(path) && photoReader != nil:
            do {
                recognition = try photoReader?(path)
                apply(.photoInsertionStarted(path: path), to: &state)
            } catch {
                apply(.fileReadFailed(message: Self.message(for: error)), to: &state)
            }
        case .insertFile(let path):
            do {
                apply(.fileRead(path: path, text: try sharing.read(path)), to: &state)
            } catch {
                apply(.fileReadFailed(message: Self.message(for: error)), to: &state)
            }
        case .mail(let text, let to, let subject):
            job = sharing.startMail(text, to: to, subject: subject)
        case .listFolder(let path, let fallback):
            do {
                let listed: (path: String, entries: [FolderEntry], workingFolder: String)
                if let first = try? sharing.listFolder(path) {
                    listed = first
                } else {
                    listed = try sharing.listFolder(fallback ?? path)  // again without one: its error
                }
                apply(
                    .folderListed(path: listed.path, entries: listed.entries, workingFolder: listed.workingFolder),
                    to: &state)
            } catch {
                apply(.folderListFailed(message: Self.message(for: error)), to: &state)
            }
        case .suspend:
            if let reason = terminal.suspend() { apply(.suspendRefused(reason: reason), to: &state) }
        case .completeFileName(let answer):
            apply(.fileNamesFound(answer: answer, names: sharing.fileNames(completing: answer)), to: &state)
        case .checkMailTo(let to):
            if let refusal = sharing.refusal(toMail: to) {
                apply(.mailToChecked(to: to, refusal: refusal, addressRefused: true), to: &state)
            } else {
                apply(.mailToChecked(to: to, refusal: sharing.mailCommandProblem(), addressRefused: false), to: &state)
            }
        case .runCommand(let commandLine, let input):
            job = sharing.startCommand(commandLine, input: input)
        case .cancelJob:
            job?.cancel()
        case .writeJournal(let text, let document, let revision):
            do {
                try sharing.writeJournal(text, forDocument: document)
                apply(.journalWritten(document: document, revision: revision), to: &state)
            } catch {
                apply(.journalFailed(message: Self.message(for: error), revision: revision), to: &state)
            }
        case .removeJournal(let document):
            sharing.removeJournal(forDocument: document)
            apply(.journalRemoved(document: document), to: &state)
        case .discardRecovery(let file):
            sharing.discardRecovery(file: file)
        case .adoptRecovery(let file, let text, let document, let revision):
            do {
                if try sharing.adoptRecovery(file: file, text: text, forDocument: document) {
                    apply(.journalWritten(document: document, revision: revision), to: &state)
                }
            } catch {
                apply(.journalFailed(message: Self.message(for: error), revision: revision), to: &state)
            }
        case .startRecognition:
            do {
                guard let heldRecognition else { return }
                recognition = try heldRecognition()
                apply(.recognitionStarted, to: &state)
            } catch {
                apply(.recognitionNotStarted(message: Self.message(for: error)), to: &state)
            }
        case .cancelRecognition:
            recognition?.cancel()
        case .redrawScreen:
            terminal.invalidate()
        case .renderPhoto(let request):
            guard let photoRenderer else {
                apply(.photoFailed(request: request, message: "Photos cannot be shown here"), to: &state)
                return
            }
            do {
                apply(.photoRendered(try photoRenderer.render(request)), to: &state)
            } catch {
                apply(.photoFailed(request: request, message: Self.message(for: error)), to: &state)
            }
        case .readRegion(let photo, let index, let region):
            do {
                guard let regionReader else { throw RegionUnavailable() }
                recognition = try regionReader(photo, region)
                let name = "region \(region.x),\(region.y),\(region.width),\(region.height) of \(photo.name)"
                apply(.regionReadStarted(index: index, name: name), to: &state)
            } catch {
                apply(.fileReadFailed(message: Self.message(for: error)), to: &state)
            }
        case .readAgain(let photo, let choice):
            do {
                guard let photoRereader else { throw RereadingUnavailable() }
                recognition = try photoRereader(photo, choice)
                apply(.readAgainStarted(choice: choice), to: &state)
            } catch {
                apply(.fileReadFailed(message: Self.message(for: error)), to: &state)
            }
        case .copyToClipboard(let text):
            terminal.copyToClipboard(text)
        case .suggestSpellings(let markID, let word):
            apply(.suggested(markID: markID, suggestions: recognition?.suggestions(for: word) ?? []), to: &state)
        case .checkSeries(let series, let confused):
            let known = confused.map { recognition?.isKnownWord($0.replacement) == true }
            apply(.seriesChecked(series, confused: confused, known: known), to: &state)
        case .emergencySave(let text, let saveName, let signal):
            do {
                let path = try sharing.saveEmergencyCopy(text, forDocument: saveName)
                apply(.emergencySaved(path: path, signal: signal), to: &state)
            } catch {
                apply(.emergencySaveFailed(reason: Self.message(for: error), signal: signal), to: &state)
            }
        }
    }

    /// No reader of the photo again was configured.
    private struct RereadingUnavailable: Error, CustomStringConvertible {
        var description: String { "The photo cannot be read again here" }
    }

    /// No region reader was configured.
    private struct RegionUnavailable: Error, CustomStringConvertible {
        var description: String { "Regions of the photo cannot be read here" }
    }

    private static func message(for error: Error) -> String {
        if let localized = (error as? LocalizedError)?.errorDescription { return localized }
        if error is CocoaError || type(of: error) == NSError.self { return error.localizedDescription }
        return String(describing: error)
    }
}
