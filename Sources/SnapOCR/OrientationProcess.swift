import Foundation
import SnapImaging
import SnapProcess

#if canImport(Glibc)
    import Glibc
#endif

/// Orientation detection (OSD, `OrientationDetector`) in a process of its own, for the worker:
/// `lovesnap __orientation REQUEST` reads a page handed over on its standard input (a memory
/// file, `Image.writeHandedOver`), detects its orientation and writes one JSON line:
///
/// ```
/// {"found":{"confidence":10.3,"quarterTurnsClockwise":2},"v":1}
/// {"v":1}                                    OSD found too little text to decide
/// {"failed":"osd.traineddata could not be loaded","v":1}
/// ```
/// OSD's model (`osd.traineddata`, Tesseract's legacy engine) holds about 40 MiB once loaded:
/// loaded in the worker beside its engine, it made the worker's peak 2.5× the `tesseract`
/// command line's on a page turned upside down (docs/measurements/speed.md). It is wanted on few pages (the
/// first reading poor), so the process is started for one page and ends with its answer.
public enum OrientationProcess {
    /// The protocol version this build speaks and reads.
    static let version = 1

    /// What the process is asked: where `osd.traineddata` is (nil: Tesseract's default) and the
    /// page's resolution (DPI).
    struct Request: Codable, Equatable {
        var v = OrientationProcess.version
        var tessdataPath: String?
        var resolution: Int
    }

    /// The one answer line.
    struct Answer: Codable, Equatable, HelperLine {
        var v = OrientationProcess.version
        var found: OrientationDetector.Orientation?
        var failed: String?
    }

    /// The process failed, or could not be started.
    typealias Failure = HelperFailure

    /// Detects the orientation of `page` (`OrientationDetector.detect`) in a process started
    /// from `executable`, waiting for it.
    /// - Returns: nil when OSD found too little text to decide.
    /// - Throws: `Failure` when the process could not be started, failed (no `osd.traineddata`
    ///   included) or ended without an answer.
    ///   - timeout: seconds the answer may take before the process is killed (a stopped or hung
    ///     process must not hold the worker to its own timeout; OSD takes 0.1–0.7 s).
    static func detect(
        _ page: Image, resolution: Int, tessdataPath: String?, executable: String, timeout: Double = 30
    ) throws -> OrientationDetector.Orientation? {
        let request = Request(tessdataPath: tessdataPath, resolution: resolution)
        let (data, termination) = try OneShotHelper.run(
            "__orientation", request: request, image: page, executable: executable, timeout: timeout)
        let line = data.split(separator: 0x0A).first ?? Data()
        guard let answer = try? JSONDecoder().decode(Answer.self, from: line), answer.v == version else {
            throw Failure(reason: ChildProcess.describe(termination, of: "orientation process"))
        }
        if let failed = answer.failed { throw Failure(reason: failed) }
        return answer.found
    }

    /// The process's side: reads the page handed over at `path` and writes the answer to `output`.
    /// - Returns: false when it failed (said in a `failed` line).
    public static func serve(request json: String, path: String, output: FileHandle) -> Bool {
        var answer = Answer()
        do {
            let request = try JSONDecoder().decode(Request.self, from: Data(json.utf8))
            guard request.v == version else { throw Failure(reason: "protocol version \(request.v), not \(version)") }
            let page = try Image.readHandedOver(from: path)
            guard let detector = OrientationDetector(tessdataPath: request.tessdataPath) else {
                throw Failure(reason: "osd.traineddata could not be loaded")
            }
            answer.found = detector.detect(page, resolution: request.resolution)
        } catch {
            answer.failed = "\(error)"
        }
        guard let line = try? answer.encodedLine() else { return false }
        return (try? output.write(contentsOf: line)) != nil && answer.failed == nil
    }
}
