import CLeptonica

extension Image {
    /// An 8 bpp grey version (Leptonica `pixConvertRGBToLuminance` for RGB, `pixConvertTo8` otherwise).
    public func grayscale() throws -> Image {
        if depth == 8 && !hasColormap { return try Image.wrap(pixClone(pix), "pixClone") }
        if depth == 32 { return try Image.wrap(pixConvertRGBToLuminance(pix), "pixConvertRGBToLuminance") }
        return try Image.wrap(pixConvertTo8(pix, 0), "pixConvertTo8")
    }

    /// Fraction (0–1) of pixels that are ON (black) in a 1 bpp image (Leptonica `pixCountPixels`).
    public func blackFraction() throws -> Double {
        precondition(depth == 1, "blackFraction needs a 1 bpp image")
        var count: l_int32 = 0
        guard pixCountPixels(pix, &count, nil) == 0 else {
            throw ImagingError.operationFailed(operation: "pixCountPixels")
        }
        return Double(count) / Double(max(1, width * height))
    }

    /// Mean grey value (0–255) of an 8 bpp image, sampled every `factor` pixels, over the ON pixels
    /// of `mask` (1 bpp, this image's size) when one is given (Leptonica `pixGetAverageMasked`).
    /// - Throws: `ImagingError.operationFailed` when Leptonica fails (a mask without ON pixels).
    public func meanGray(sampling factor: Int = 4, under mask: Image? = nil) throws -> Double {
        var value: l_float32 = 0
        guard
            pixGetAverageMasked(pix, mask?.pix, 0, 0, l_int32(max(1, factor)), l_int32(L_MEAN_ABSVAL), &value) == 0
        else {
            throw ImagingError.operationFailed(operation: "pixGetAverageMasked")
        }
        return Double(value)
    }

    /// A connected component of a 1 bpp image: its bounding box (pixels) and its own pixels
    /// (a 1 bpp image of the box's size).
    struct Component {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var mask: Image
    }

    /// The 8-connected components of a 1 bpp image with their pixels (Leptonica `pixConnCompPixa`).
    /// - Throws: `ImagingError.operationFailed` when Leptonica fails.
    func components() throws -> [Component] {
        var pixa: UnsafeMutablePointer<PIXA>? = nil
        guard let boxa = pixConnCompPixa(pix, &pixa, 8), let pixa else {
            throw ImagingError.operationFailed(operation: "pixConnCompPixa")
        }
        var bx: UnsafeMutablePointer<BOXA>? = boxa
        var px: UnsafeMutablePointer<PIXA>? = pixa
        defer {
            boxaDestroy(&bx)
            pixaDestroy(&px)
        }
        var out: [Component] = []
        for i in 0..<pixaGetCount(pixa) {
            var x: l_int32 = 0
            var y: l_int32 = 0
            var w: l_int32 = 0
            var h: l_int32 = 0
            guard boxaGetBoxGeometry(boxa, i, &x, &y, &w, &h) == 0, let p = pixaGetPix(pixa, i, l_int32(L_CLONE)) else {
                throw ImagingError.operationFailed(operation: "pixaGetPix")
            }
            out.append(Component(x: Int(x), y: Int(y), width: Int(w), height: Int(h), mask: Image(taking: p)))
        }
        return out
    }

    /// Bounding boxes of the 8-connected components of a 1 bpp image, in pixels (Leptonica `pixConnCompBB`).
    public func componentBoxes() throws -> [(x: Int, y: Int, width: Int, height: Int)] {
        guard let boxa = pixConnCompBB(pix, 8) else { throw ImagingError.operationFailed(operation: "pixConnCompBB") }
        var b: UnsafeMutablePointer<BOXA>? = boxa
        defer { boxaDestroy(&b) }
        let n = Int(boxaGetCount(boxa))
        var out: [(Int, Int, Int, Int)] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            var x: l_int32 = 0
            var y: l_int32 = 0
            var w: l_int32 = 0
            var h: l_int32 = 0
            if boxaGetBoxGeometry(boxa, l_int32(i), &x, &y, &w, &h) == 0 {
                out.append((Int(x), Int(y), Int(w), Int(h)))
            }
        }
        return out
    }
}
