import CLeptonica

/// A rectangle drawn over an image (``Image/drawing(_:)``).
public struct DrawnBox: Equatable, Sendable {
    /// Left, top, width and height in pixels of the image drawn on.
    public var x: Int, y: Int, width: Int, height: Int
    /// The line's colour, 0–255 each.
    public var red: UInt8, green: UInt8, blue: UInt8
    /// The line's thickness in pixels (≥ 1), drawn inside the rectangle.
    public var thickness: Int
    /// How much of the colour is blended into the inside, 0 (none) to 1 (painted over).
    public var tint: Double

    /// A box from its parts.
    public init(
        x: Int, y: Int, width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, thickness: Int = 1,
        tint: Double = 0
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.red = red
        self.green = green
        self.blue = blue
        self.thickness = thickness
        self.tint = tint
    }
}

extension Image {
    /// The image scaled to exactly `width` × `height` pixels, in colour (32 bpp RGB; Leptonica
    /// `pixScaleToSize`, `pixConvertTo32`).
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public func colorScaled(width: Int, height: Int) throws -> Image {
        let scaled = try Image.wrap(
            pixScaleToSize(pix, l_int32(max(1, width)), l_int32(max(1, height))), "pixScaleToSize")
        if scaled.depth == 32 { return scaled }
        return try withExtendedLifetime(scaled) { try Image.wrap(pixConvertTo32(scaled.pix), "pixConvertTo32") }
    }

    /// A colour copy with `boxes` drawn over it in order (Leptonica `pixBlendInRect` for the
    /// tint, `pixRenderBoxArb` for the lines); boxes outside the image are cut to it.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public func drawing(_ boxes: [DrawnBox]) throws -> Image {
        let copy = try Image.wrap(depth == 32 ? pixCopy(nil, pix) : pixConvertTo32(pix), "pixConvertTo32")
        for b in boxes where b.width > 0 && b.height > 0 {
            guard let box = boxCreate(l_int32(b.x), l_int32(b.y), l_int32(b.width), l_int32(b.height)) else {
                throw ImagingError.operationFailed(operation: "boxCreate")
            }
            var owned: UnsafeMutablePointer<BOX>? = box
            defer { boxDestroy(&owned) }
            if b.tint > 0 {
                let color = (l_uint32(b.red) << 24) | (l_uint32(b.green) << 16) | (l_uint32(b.blue) << 8)
                pixBlendInRect(copy.pix, box, color, l_float32(min(1, b.tint)))
            }
            pixRenderBoxArb(copy.pix, box, l_int32(max(1, b.thickness)), b.red, b.green, b.blue)
        }
        return copy
    }

    /// The pixels as RGBA bytes, row-major, 4 a pixel, alpha 255 (from 32 bpp; other depths are
    /// converted first).
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public func rgbaBytes() throws -> [UInt8] {
        let rgb = depth == 32 ? self : try Image.wrap(pixConvertTo32(pix), "pixConvertTo32")
        let w = rgb.width
        let h = rgb.height
        let wpl = Int(pixGetWpl(rgb.pix))
        guard let data = pixGetData(rgb.pix) else { throw ImagingError.operationFailed(operation: "pixGetData") }
        var out = [UInt8](repeating: 255, count: w * h * 4)
        withExtendedLifetime(rgb) {
            for y in 0..<h {
                let line = data + y * wpl
                for x in 0..<w {
                    // Leptonica's 32 bpp word: red in the top byte, then green, blue (then alpha).
                    let word = line[x]
                    let i = (y * w + x) * 4
                    out[i] = UInt8(truncatingIfNeeded: word >> 24)
                    out[i + 1] = UInt8(truncatingIfNeeded: word >> 16)
                    out[i + 2] = UInt8(truncatingIfNeeded: word >> 8)
                }
            }
        }
        return out
    }
}
