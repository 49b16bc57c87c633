import Foundation
import SnapImaging

/// The text detector (`TextDetector`) in a process of its own, started from this executable for
/// one photo and ended with its answer (`OneShotHelper`): OpenCV's network holds about 160 MiB
/// while it runs at 960 px, which the worker, at its own peak while Tesseract reads beside it,
/// need not hold.
///
/// `lovesnap __detector REQUEST` reads the photo, already scaled to the network's size, handed
/// over on its standard input (a memory file), and writes one JSON line: the regions, or why it
/// failed.
public enum DetectorProcess {
    /// The protocol's version, in both lines: a process of another build is refused.
    static let version = 1

    /// The request, as the process's one argument after `__detector`.
    struct Request: Codable, Equatable {
        var v = DetectorProcess.version
        /// The model file (ONNX).
        var model: String
        /// `TextDetector.limitSide`, pixels.
        var limitSide: Int
    }

    /// The answer: the regions in the handed-over image's pixels, or why there are none.
    struct Answer: Codable, Equatable, HelperLine {
        var v = DetectorProcess.version
        var regions: [DetectedRegion]?
        var failed: String?
    }

    /// Detects the text regions of `photo` with `detector`: the photo scaled to the network's
    /// size here (`Image.scaled(by:)`, Leptonica; with `sizedByPrint`, the network's input made
    /// smaller for large print, `TextDetector.side(for:)`), the network run in a process started
    /// from `executable` (or here when `executable` is nil or the process fails), the regions
    /// given back in `photo`'s pixels. A process that gives no answer within `timeout` seconds is
    /// killed, and the detector runs here.
    /// - Returns: the regions, and whether the network's input was made smaller than
    ///   `detector.limitSide` for the print.
    /// - Throws: `OCRError.detectionFailed` when the detector fails here.
    static func detect(
        _ photo: Image, with detector: TextDetector, executable: String?, sizedByPrint: Bool = false,
        timeout: Double = 30
    ) throws -> (regions: [DetectedRegion], reduced: Bool) {
        let factor = min(1, Double(detector.limitSide) / Double(max(photo.width, photo.height, 1)))
        let small = factor < 1 ? try photo.scaled(by: factor) : photo
        let back = (x: Double(photo.width) / Double(small.width), y: Double(photo.height) / Double(small.height))
        var detector = detector
        let full = detector.limitSide
        if sizedByPrint { detector.limitSide = detector.side(for: small) }
        var regions: [DetectedRegion]?
        if let executable {
            let request = Request(model: detector.modelPath, limitSide: detector.limitSide)
            if let (data, _) = try? OneShotHelper.run(
                "__detector", request: request, image: small, executable: executable, timeout: timeout),
                let answer = try? JSONDecoder().decode(Answer.self, from: data.split(separator: 0x0A).first ?? Data()),
                answer.v == version
            {
                if let failed = answer.failed { throw OCRError.detectionFailed(reason: failed) }
                regions = answer.regions
            }
        }
        let found = try regions ?? detector.detect(small)
        let inPhoto = found.map { r in
            DetectedRegion(corners: r.corners.map { .init(x: $0.x * back.x, y: $0.y * back.y) }, score: r.score)
        }
        return (inPhoto, detector.limitSide < full)
    }

    /// The process's side: reads the image handed over at `path`, detects, writes the answer to
    /// `output`.
    /// - Returns: false when it failed (said in a `failed` line).
    public static func serve(request json: String, path: String, output: FileHandle) -> Bool {
        var answer = Answer()
        do {
            let request = try JSONDecoder().decode(Request.self, from: Data(json.utf8))
            guard request.v == version else {
                throw HelperFailure(reason: "protocol version \(request.v), not \(version)")
            }
            var detector = TextDetector(modelPath: request.model)
            detector.limitSide = request.limitSide
            answer.regions = try detector.detect(try Image.readHandedOver(from: path))
        } catch {
            answer.failed = "\(error)"
        }
        guard let line = try? answer.encodedLine() else { return false }
        return (try? output.write(contentsOf: line)) != nil && answer.failed == nil
    }
}
