import CLeptonica

extension Image {
    /// Makes an 8 bpp grey image from row-major `pixels` (0 = black, 255 = white), `width` × `height`.
    /// - Throws: `ImagingError.operationFailed` when the sizes do not match or Leptonica fails.
    public convenience init(gray8 pixels: [UInt8], width: Int, height: Int) throws {
        guard width > 0, height > 0, pixels.count == width * height,
            let p = pixCreate(l_int32(width), l_int32(height), 8)
        else {
            throw ImagingError.operationFailed(operation: "pixCreate")
        }
        for y in 0..<height {
            for x in 0..<width {
                pixSetPixel(p, l_int32(x), l_int32(y), l_uint32(pixels[y * width + x]))
            }
        }
        self.init(taking: p)
    }

    /// The pixels of an 8 bpp image, row-major (for 1 bpp images: 0 = white, 1 = black); other
    /// depths as Leptonica's `pixGetPixel` gives them.
    ///
    /// 1 bpp images are widened by `pixConvert1To8` (0 and 1 kept), 8 bpp rows are copied out by
    /// `pixGetRasterData` (one byte per pixel): a page mask of millions of pixels read one
    /// `pixGetPixel` call at a time took a few percent of a photo's preparation.
    public func pixelValues() -> [UInt32] {
        let bytes: Image? =
            switch depth {
            case 8: self
            case 1: try? Image.wrap(pixConvert1To8(nil, pix, 0, 1), "pixConvert1To8")
            default: nil
            }
        if let bytes {
            var data: UnsafeMutablePointer<l_uint8>? = nil
            var count = 0
            if pixGetRasterData(bytes.pix, &data, &count) == 0, let data {
                defer { lept_free(data) }
                if count == width * height {
                    return UnsafeBufferPointer(start: data, count: count).map { UInt32($0) }
                }
            }
        }
        var out: [UInt32] = []
        out.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                var v: l_uint32 = 0
                pixGetPixel(pix, l_int32(x), l_int32(y), &v)
                out.append(v)
            }
        }
        return out
    }
}
