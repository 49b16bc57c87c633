import CLeptonica

/// The black-and-white filter: how grey pixels become ink (black) or paper (white).
public enum Binarization: String, CaseIterable, Codable, Sendable {
    /// Leptonica background normalisation, then one global Otsu threshold
    /// (`pixOtsuThreshOnBackgroundNorm`, Leptonica's documented parameters 10, 15, 100, 50, 255, 2, 2, 0.1).
    case otsu
    /// Leptonica background normalisation, then Sauvola's local threshold
    /// (`pixBackgroundNormSimple` + `pixSauvolaBinarize`, window half-size 16 px, k = 0.34).
    case sauvola
    /// The grey image goes to Tesseract, which binarizes it itself (its own Otsu, per line).
    /// The default: measured on the benchmark corpus with scripts/ocr-benchmark.py, mean CER 0.050
    /// against 0.145 (otsu) and 0.075 (sauvola), and Tesseract's other `thresholding_method`s
    /// 0.289 (1) and 0.061 (2).
    case tesseract
}

extension Image {
    /// Applies `method` to an 8 bpp grey image and returns a 1 bpp image (or a clone for `.tesseract`).
    /// - Throws: `ImagingError.operationFailed` naming the Leptonica call that failed.
    public func binarized(_ method: Binarization) throws -> Image {
        precondition(depth == 8, "binarized(_:) needs an 8 bpp grey image")
        switch method {
        case .tesseract:
            return try Image.wrap(pixClone(pix), "pixClone")
        case .otsu:
            var threshold: l_int32 = 0
            // Background normalisation needs tiles of 10×15 px; tiny images go straight to a global Otsu.
            if width >= 40 && height >= 40,
                let out = pixOtsuThreshOnBackgroundNorm(pix, nil, 10, 15, 100, 50, 255, 2, 2, 0.1, &threshold)
            {
                return Image(taking: out)
            }
            return try otsuGlobal()
        case .sauvola:
            guard width >= 40 && height >= 40, let norm = pixBackgroundNormSimple(pix, nil, nil) else {
                return try otsuGlobal()
            }
            var n: UnsafeMutablePointer<PIX>? = norm
            defer { pixDestroy(&n) }
            var out: UnsafeMutablePointer<PIX>? = nil
            let half = l_int32(max(2, min(16, (min(width, height) - 3) / 2)))
            guard pixSauvolaBinarize(norm, half, 0.34, 1, nil, nil, nil, &out) == 0, let out else {
                return try otsuGlobal()
            }
            return Image(taking: out)
        }
    }

    /// One Otsu threshold for the whole image (`pixOtsuAdaptiveThreshold` with a single tile).
    func otsuGlobal() throws -> Image {
        var out: UnsafeMutablePointer<PIX>? = nil
        let sx = l_int32(max(16, width))
        let sy = l_int32(max(16, height))
        guard pixOtsuAdaptiveThreshold(pix, sx, sy, 0, 0, 0.1, nil, &out) == 0, let out else {
            return try Image.wrap(pixThresholdToBinary(pix, 128), "pixThresholdToBinary")
        }
        return Image(taking: out)
    }

    /// Otsu's threshold for the whole of an 8 bpp image (grey level 0–255; pixels below it are
    /// dark): `pixOtsuAdaptiveThreshold` with a single tile, its threshold image read back.
    /// - Throws: `ImagingError.operationFailed` when Leptonica fails.
    func otsuThreshold() throws -> Int {
        var threshold: UnsafeMutablePointer<PIX>? = nil
        defer { pixDestroy(&threshold) }
        let (sx, sy) = (l_int32(max(16, width)), l_int32(max(16, height)))
        guard pixOtsuAdaptiveThreshold(pix, sx, sy, 0, 0, 0.1, &threshold, nil) == 0, let threshold
        else { throw ImagingError.operationFailed(operation: "pixOtsuAdaptiveThreshold") }
        var value: l_uint32 = 0
        pixGetPixel(threshold, 0, 0, &value)
        return Int(value)
    }
}
