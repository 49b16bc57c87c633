import Foundation

/// A rectangle in pixels of the upright photo (after EXIF orientation), origin top-left.
public struct BoundingBox: Codable, Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
}

/// One recognized word.
public struct RecognizedWord: Codable, Equatable, Sendable {
    /// The word's text (UTF-8, NFC).
    public var text: String
    /// Where it is, in pixels of the upright photo.
    public var boundingBox: BoundingBox
    /// Tesseract's confidence, 0–100.
    public var confidence: Double
    /// Index (from 0) of the text line it belongs to, in reading order.
    public var line: Int
}

/// The outcome of OCR on one photo.
public struct RecognitionResult: Codable, Equatable, Sendable {
    /// The text, UTF-8, NFC, LF line ends; empty when no text was found.
    public var text: String
    /// Tesseract's mean word confidence, 0–100 (`TessBaseAPIMeanTextConf`).
    public var meanConfidence: Int
    /// Every word with its box, confidence and line.
    public var words: [RecognizedWord]
    /// Rotation that makes the page upright, degrees clockwise (0, 90, 180, 270): EXIF, OSD and
    /// Tesseract's layout analysis together. Word boxes are in the upright page's pixels.
    public var rotationDegrees: Int
    /// Things the user should know ("transparency flattened onto white", "no text found", …).
    public var warnings: [String]
    /// How the pipeline ran (measured text height, scale, orientation confidence, variant chosen),
    /// for `lovesnap ocr --verbose` and bug reports.
    public var diagnostics: [String]

    public init(text: String, meanConfidence: Int, words: [RecognizedWord], rotationDegrees: Int,
                warnings: [String], diagnostics: [String] = []) {
        self.text = text; self.meanConfidence = meanConfidence; self.words = words
        self.rotationDegrees = rotationDegrees; self.warnings = warnings; self.diagnostics = diagnostics
    }
}
