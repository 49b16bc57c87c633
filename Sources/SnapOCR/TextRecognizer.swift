import CLeptonica
import CTextDetector
import Foundation
import SnapImaging

/// A trained text recognizer beside Tesseract: PaddleOCR's PP-OCRv4 recognizer
/// (`Models/text-recognition.onnx` and its characters, `Models/text-recognition.txt`; Apache-2.0,
/// see `Models/README.md`), run through OpenCV 4.6's dnn module (`CTextDetector`, `tr_read`).
///
/// A learned network that shares nothing with Tesseract's LSTM models: where it reads a word
/// Tesseract doubted the same way, the word is probably what is printed; where it reads a word
/// Tesseract was fairly sure of otherwise, the word deserves a look (`Proofreading`). It knows
/// Latin letters, digits and punctuation, and only a few accents (é, è, à and some others).
public struct TextRecognizer: Sendable {
    /// The model file (ONNX).
    public let modelPath: String
    /// The network's classes from 1 (class 0 is CTC's blank): each a character.
    public let characters: [String]

    /// The environment variable naming another model file (its characters beside it, `.txt`);
    /// empty: no recognizer.
    public static let modelEnvironmentVariable = "LOVESNAP_TEXT_RECOGNIZER"
    /// The model's file name, installed beside the executable in `../share/lovesnap/`.
    public static let modelFileName = "text-recognition.onnx"

    /// Why the recognizer could not read: its reason, as said to the user.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// The reason, in English ("no character list … beside the model", OpenCV's message).
        public let description: String
    }

    /// A recognizer reading its model from `modelPath` and its characters from the file beside it
    /// with the extension `.txt` (one character a line, from class 1).
    /// - Throws: `Failure` when the characters cannot be read.
    public init(modelPath: String) throws {
        self.modelPath = modelPath
        let list = (modelPath as NSString).deletingPathExtension + ".txt"
        guard let text = FileManager.default.contents(atPath: list) else {
            throw Failure(description: "no character list \(list) beside the model")
        }
        var lines = String(decoding: text, as: UTF8.self).components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        characters = lines
    }

    /// Where the model is: `$LOVESNAP_TEXT_RECOGNIZER` when set (empty: none), else beside the
    /// executable in `../share/lovesnap/`, else the source tree's `Models/` (`ModelFile.path`).
    public static func defaultModelPath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        ModelFile.path(modelFileName, variable: modelEnvironmentVariable, environment: environment)
    }

    /// Why there is no model (`defaultModelPath(environment:)` found none).
    public static func missing(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        ModelFile.missing(modelFileName, variable: modelEnvironmentVariable, environment: environment)
    }

    /// What the network read in each of `boxes` (pixels of `image`, any depth): the text and the
    /// mean probability of its characters as a confidence (0–100), nil for a box that reads
    /// nothing. A box is read at 48 px high, at most 320 px wide (a longer word is squeezed), on
    /// `threads` threads (the run's other readings are over when it is asked: two cores).
    /// - Throws: `Failure` with OpenCV's reason (a model it cannot read).
    public func read(_ image: Image, boxes: [BoundingBox], threads: Int = 2) throws -> [(
        text: String, confidence: Double
    )?] {
        guard !boxes.isEmpty else { return [] }
        let rgb = try TextDetector.rgb(image)
        var input = boxes.map {
            tr_box(x: Int32($0.x), y: Int32($0.y), width: Int32($0.width), height: Int32($0.height))
        }
        var readings = [tr_reading](repeating: tr_reading(), count: boxes.count)
        var error = [CChar](repeating: 0, count: 512)
        let rc = withExtendedLifetime(rgb) {
            tr_read(
                modelPath, pixGetData(rgb.pix), Int32(rgb.width), Int32(rgb.height), pixGetWpl(rgb.pix), &input,
                Int32(boxes.count), Int32(characters.count), Int32(threads), &readings, &error, error.count)
        }
        guard rc == 0 else {
            throw Failure(
                description: String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return readings.map { r in
            guard r.length > 0 else { return nil }
            let classes = withUnsafeBytes(of: r.classes) { Array($0.bindMemory(to: Int32.self).prefix(Int(r.length))) }
            let text = classes.map { k in k >= 1 && Int(k) <= characters.count ? characters[Int(k) - 1] : "" }.joined()
            return (text.trimmingCharacters(in: .whitespaces), Double(r.score) * 100)
        }
    }
}

/// Where lovesnap's model files are found.
enum ModelFile {
    /// Why `path(_:variable:environment:)` found no file `name` with `environment`.
    static func missing(_ name: String, variable: String, environment: [String: String]) -> String {
        switch environment[variable] {
        case .some(""): return "switched off: \(variable) is empty"
        case .some(let named): return "\(variable) names \(named), which cannot be read"
        case nil:
            return "no model: no \(name) in ../share/lovesnap beside the executable or in the source tree's Models/"
        }
    }

    /// `$variable` when set (empty or unreadable: nil), else
    /// `<executable>/../share/lovesnap/<name>` (`scripts/install.sh`'s layout), else the source
    /// tree's `Models/<name>` (a build run where it was made). Nil when none exists.
    static func path(_ name: String, variable: String, environment: [String: String]) -> String? {
        if let named = environment[variable] {
            return named.isEmpty || !FileManager.default.isReadableFile(atPath: named) ? nil : named
        }
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let bin = (exe as NSString).deletingLastPathComponent
            candidates.append(
                ((bin as NSString).appendingPathComponent("../share/lovesnap") as NSString)
                    .appendingPathComponent(name))
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Models").appendingPathComponent(name)
        candidates.append(source.path)
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
