import Foundation
import SnapEditor
import SnapExport
import SnapOCR
import SnapShare
import SnapSpelling
import SnapTerminal
import SnapText

/// The OCR worker seen through the editor's `RecognitionTask` protocol.
final class WorkerRecognitionTask: RecognitionTask {
    let client: WorkerClient
    let input: InputFile
    /// Where the reading's documents go when it finishes; nil when they make no page of the
    /// exports (a region is part of a page already read).
    let pages: ReadPages?
    /// The OCR failure, if any: the status line may cut it at the screen's width, so it is also
    /// printed in full on stderr when the editor ends.
    private(set) var failure: String?
    /// Which words are marked uncertain.
    let proofreading: Proofreading
    init(client: WorkerClient, input: InputFile, proofreading: Proofreading, pages: ReadPages?) {
        self.pages = pages
        self.client = client
        self.input = input
        self.proofreading = proofreading
    }

    /// The editor's records of `result`'s words, with their doubts, on export page `page`.
    static func proofWords(_ result: RecognitionResult, _ proofreading: Proofreading, page: Int?) -> [ProofWord] {
        let doubts = proofreading.doubts(about: result.words)
        return result.words.indices.map { i in
            let w = result.words[i]
            let b = w.boundingBox
            return ProofWord(
                text: w.text, range: w.textRange, confidence: w.confidence,
                box: WordBox(x: b.x, y: b.y, width: b.width, height: b.height), line: w.line,
                alternatives: w.alternatives, isUnknownWord: w.isKnownWord == false,
                doubts: doubts[i].map(\.description), otherReading: w.otherReading, page: page,
                isReadConfidently: w.confidence >= proofreading.uncertainBelow, withAccents: w.withAccents,
                learnedReading: w.learnedAlternative)
        }
    }

    func poll() -> [RecognitionEvent] {
        client.poll().map { event in
            switch event {
            case .progress(let percent, _): return .progress(percent: percent)
            case .finished(let r):
                var page: Int?
                if let pages, !r.text.isEmpty {
                    page = pages.documents.count
                    pages.documents.append(r.documents)
                }
                return .finished(
                    text: r.text, meanConfidence: r.meanConfidence,
                    notes: r.notes.filter { !$0.isDiagnostic }.map(\.description),
                    words: Self.proofWords(r, proofreading, page: page), rotationDegrees: r.rotationDegrees)
            case .failed(let reason):
                let message =
                    Self.asText(reason, path: input.path, shown: input.shownPath)
                    ?? input.userFacing(reason.description)
                if reason != .cancelled { failure = message }
                return .failed(message: message)
            }
        }
    }

    func cancel() { client.cancel() }

    /// What to say instead of `reason` when the "photo" is a text file (UTF-8 without NUL in its
    /// first 4 KiB) or is missing under a name that is not an image's: a nano user's
    /// `lovesnap notes.txt` meant to edit it, and `lovesnap edit` does (short enough for an
    /// 80-column status line). Nil otherwise, and for what is not a file named as typed (standard
    /// input, a pipe read into a file of its own: `path` is then not `shown`).
    static func asText(_ reason: WorkerFailure, path: String, shown: String) -> String? {
        guard path == shown else { return nil }
        let name = PathName.displayName(of: shown)
        let command = "lovesnap edit \(ShellWords.quoted(shown))"
        switch reason {
        case .unusablePhoto(.fileNotFound) where !ImageName.names(path):
            return "\(name): no such file; to start a text file: \(command)"
        case .unusablePhoto(.notAnImage):
            return ImageName.startsAsUTF8Text(path)
                ? "\(name) is a text file, not a photo; to edit it: \(command)" : nil
        default:
            return nil
        }
    }

    /// The languages' Hunspell dictionaries, loaded the first time a suggestion is asked for.
    private lazy var spelling: SpellChecker? = try? SpellChecker(languages: languages)
    /// The OCR languages (`-l`).
    var languages: [String] = EngineOptions.defaultLanguages

    func suggestions(for word: String) -> [String] {
        spelling?.suggestions(for: word) ?? []
    }

    func isKnownWord(_ token: String) -> Bool? {
        spelling?.isKnownToken(token)
    }
}

/// The photos the editor read and their documents, in the order they were read (the main photo,
/// each one ^R inserted, each new reading of M-O): the pages Write Out's exports are made of.
final class ReadPages {
    /// Each reading's documents (nil: read without them), indexed by its words' `ProofWord.page`.
    var documents: [PageDocuments?] = []
    /// Every photo opened or inserted, as the worker was given it (Write Out refuses them).
    var photos: [String] = []
}
