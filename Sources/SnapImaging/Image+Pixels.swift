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

    /// The pixels of an 8 bpp image, row-major (for 1 bpp images: 0 = white, 1 = black).
    public func pixelValues() -> [UInt32] {
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
