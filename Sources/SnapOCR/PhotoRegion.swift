import Foundation

/// A rectangle of the photo to read on its own (a region of interest: a card's number strip, one
/// field of a form), in pixels or in percent of the upright photo (after EXIF orientation and
/// `quarterTurnsClockwise`).
public struct PhotoRegion: Codable, Equatable, Sendable, CustomStringConvertible {
    /// How the numbers are meant.
    public enum Unit: String, Codable, Sendable {
        /// Pixels of the upright photo.
        case pixels
        /// Percent (0–100) of the upright photo's width (x, width) and height (y, height).
        case percent
    }

    /// Left and top edges, from the photo's top-left corner.
    public var x: Double, y: Double
    /// Size; both > 0.
    public var width: Double, height: Double
    /// Pixels or percent.
    public var unit: Unit
    /// Quarter turns clockwise the upright photo is turned by before the region is cut (0–3): the
    /// turn orientation detection found when the region was framed on the page shown turned.
    public var quarterTurnsClockwise = 0

    /// A region from its parts.
    public init(x: Double, y: Double, width: Double, height: Double, unit: Unit, quarterTurnsClockwise: Int = 0) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.unit = unit
        self.quarterTurnsClockwise = quarterTurnsClockwise
    }

    /// A region in pixels.
    public init(pixels box: BoundingBox, quarterTurnsClockwise: Int = 0) {
        self.init(
            x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height), unit: .pixels,
            quarterTurnsClockwise: quarterTurnsClockwise)
    }

    /// Why a region cannot be read; `description` is the message.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The message, naming the value at fault.
        public let description: String
    }

    /// Parses `--region`'s value: `X,Y,W,H` in whole pixels (`120,300,800,90`), or all four in
    /// percent (`10%,20%,50%,15%`, decimals allowed; a bare `0` is 0 % among percentages).
    /// - Throws: ``Problem`` naming what is wrong: not four numbers, units mixed, a negative
    ///   edge, an empty size, a percentage above 100 or a region past 100 %.
    public static func parse(_ text: String) throws -> PhotoRegion {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let form = "X,Y,W,H in pixels (120,300,800,90) or percent (10%,20%,50%,15%)"
        guard fields.count == 4 else {
            throw Problem(description: "--region needs four numbers, \(form), not '\(text)'")
        }
        // A bare 0 is the same in both units (`0,0,100%,100%`).
        let isPercent = fields.contains { $0.hasSuffix("%") }
        guard !isPercent || fields.allSatisfy({ $0.hasSuffix("%") || $0 == "0" }) else {
            throw Problem(description: "--region '\(text)': give all four numbers in pixels or all four in percent")
        }
        var values: [Double] = []
        for field in fields {
            let number = isPercent && field.hasSuffix("%") ? String(field.dropLast()) : field
            let value: Double? = isPercent ? Double(number) : Int(number).map(Double.init)
            guard let value, value.isFinite, !number.isEmpty, !number.hasPrefix("+") else {
                throw Problem(
                    description:
                        "--region '\(text)': '\(field)' is not a \(isPercent ? "percentage" : "whole number of pixels")"
                )
            }
            values.append(value)
        }
        let names = ["X", "Y", "width", "height"]
        for (i, v) in values.enumerated() {
            if i < 2 && v < 0 { throw Problem(description: "--region '\(text)': \(names[i]) must be 0 or more") }
            if i >= 2 && v <= 0 {
                throw Problem(description: "--region '\(text)': the \(names[i]) must be more than 0")
            }
            if isPercent && v > 100 { throw Problem(description: "--region '\(text)': \(names[i]) is above 100%") }
        }
        if isPercent && (values[0] + values[2] > 100 || values[1] + values[3] > 100) {
            throw Problem(
                description: "--region '\(text)': the region goes past the photo's edge (X+W or Y+H above 100%)")
        }
        return PhotoRegion(
            x: values[0], y: values[1], width: values[2], height: values[3], unit: isPercent ? .percent : .pixels)
    }

    /// The region in pixels of a `width` × `height` photo, cut to it.
    /// - Returns: the rectangle and whether it had to be cut.
    /// - Throws: ``Problem`` when the region lies wholly outside the photo (or is under 1 pixel).
    public func pixels(inWidth photoWidth: Int, height photoHeight: Int) throws -> (box: BoundingBox, clipped: Bool) {
        let (fx, fy) = unit == .percent ? (Double(photoWidth) / 100, Double(photoHeight) / 100) : (1, 1)
        let left = Int((x * fx).rounded())
        let top = Int((y * fy).rounded())
        let right = Int(((x + width) * fx).rounded())
        let bottom = Int(((y + height) * fy).rounded())
        let l = max(0, left)
        let t = max(0, top)
        let r = min(photoWidth, right)
        let b = min(photoHeight, bottom)
        guard r > l, b > t else {
            throw Problem(
                description: "the region \(self) lies outside the photo, which is \(photoWidth)×\(photoHeight) pixels")
        }
        return (
            BoundingBox(x: l, y: t, width: r - l, height: b - t), l != left || t != top || r != right || b != bottom
        )
    }

    /// `X,Y,W,H` as given (`120,300,800,90` or `10%,20%,50%,15%`).
    public var description: String {
        func f(_ v: Double) -> String {
            let s =
                v == v.rounded() ? String(Int(v)) : String(format: "%g", locale: Locale(identifier: "en_US_POSIX"), v)
            return unit == .percent ? s + "%" : s
        }
        return [x, y, width, height].map(f).joined(separator: ",")
    }
}
