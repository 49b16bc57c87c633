import CLeptonica

extension Image {
    /// Turns the image clockwise by `quarterTurns` × 90° (Leptonica `pixRotateOrth`); 0 returns a clone.
    public func rotated(quarterTurnsClockwise quarterTurns: Int) throws -> Image {
        let q = ((quarterTurns % 4) + 4) % 4
        if q == 0 { return try Image.wrap(pixClone(pix), "pixClone") }
        return try Image.wrap(pixRotateOrth(pix, l_int32(q)), "pixRotateOrth")
    }

    /// Turns the image clockwise by `degrees` (any angle), bringing in white at the corners and
    /// keeping the size (Leptonica `pixRotate`, area mapping).
    public func rotated(degrees: Double) throws -> Image {
        let radians = l_float32(degrees * .pi / 180)
        return try Image.wrap(
            pixRotate(pix, radians, l_int32(L_ROTATE_AREA_MAP), l_int32(L_BRING_IN_WHITE), 0, 0), "pixRotate")
    }

    /// Mirrors left ↔ right (Leptonica `pixFlipLR`).
    public func flippedHorizontally() throws -> Image {
        try Image.wrap(pixFlipLR(nil, pix), "pixFlipLR")
    }

    /// Scales by `factor` in both directions, keeping the aspect ratio (Leptonica `pixScale`:
    /// area-mapping when shrinking, linear interpolation when enlarging 8/32 bpp images).
    /// The result is at least 1×1 pixel.
    public func scaled(by factor: Double) throws -> Image {
        let f = Float(factor)
        if abs(factor - 1) < 1e-6 { return try Image.wrap(pixClone(pix), "pixClone") }
        let w = max(1, Int((Double(width) * factor).rounded()))
        let h = max(1, Int((Double(height) * factor).rounded()))
        // pixScale can round a side to 0 for tiny images; pixScaleToSize never does.
        if Double(width) * factor < 1.5 || Double(height) * factor < 1.5 {
            return try Image.wrap(pixScaleToSize(pix, l_int32(w), l_int32(h)), "pixScaleToSize")
        }
        return try Image.wrap(pixScale(pix, f, f), "pixScale")
    }

    /// The pixels of the rectangle at (`x`, `y`) of `width` × `height` pixels, cut to the image
    /// (Leptonica `pixClipRectangle`).
    /// - Throws: `ImagingError.operationFailed` when the rectangle misses the image.
    public func clipped(x: Int, y: Int, width: Int, height: Int) throws -> Image {
        guard let box = boxCreate(l_int32(x), l_int32(y), l_int32(width), l_int32(height)) else {
            throw ImagingError.operationFailed(operation: "boxCreate")
        }
        var b: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&b) }
        return try Image.wrap(pixClipRectangle(pix, box, nil), "pixClipRectangle")
    }

    /// A copy of the pixels that shares nothing with this image (Leptonica `pixCopy`): another
    /// thread may work on it while this one goes on with the original (Leptonica's reference
    /// counts, which `pixClone` changes, are not atomic).
    public func copied() throws -> Image {
        try Image.wrap(pixCopy(nil, pix), "pixCopy")
    }

    /// A photometric negative (Leptonica `pixInvert`).
    public func inverted() throws -> Image {
        try Image.wrap(pixInvert(nil, pix), "pixInvert")
    }

    /// Adds `pixels` of `white` border on every side (Leptonica `pixAddBorder`).
    public func padded(by pixels: Int) throws -> Image {
        let white: l_uint32 = depth == 1 ? 0 : (depth == 8 ? 255 : 0xffff_ff00)
        return try Image.wrap(pixAddBorder(pix, l_int32(pixels), white), "pixAddBorder")
    }
}
