import CLeptonica

/// Finds regions of light text on a dark ground (an inverted heading, a band on a book cover,
/// a sign, a whole negative page) so that they can be turned dark-on-light, region by region.
///
/// A region is a solid dark block of the Otsu-thresholded page: what remains of the dark parts
/// after an opening by a square of about 2 % of the page's long side (`brick`: it removes print,
/// speckles and texture), a component covering at least 0.5 % of the page that, with its holes filled,
/// fills its bounding box to at least 55 %, and whose light pixels look like letters: at least
/// four light components of a similar height (4 px to 60 % of the block's height, at most four
/// times as wide as high), at least half of them in lines (`inLines`) and covering at least 1 %
/// of the block (`minimumLetterCover`), and none larger than 15 % of the block (a page lying on a dark table
/// is a hole of the table, not a letter) and that do not enclose dark letters as tall as
/// themselves (see `hasLetters`). Polarity is decided per region: a dark table around a
/// light page, or dark photos beside text, are left alone.
public enum RegionPolarity {
    /// A block of light-on-dark text, in pixels of the page it was found in.
    public struct Region: Equatable, Sendable {
        /// Left edge (pixels).
        public var x: Int
        /// Top edge (pixels).
        public var y: Int
        /// Width (pixels).
        public var width: Int
        /// Height (pixels).
        public var height: Int
    }

    /// The light-on-dark text blocks of an 8 bpp page, largest first.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func lightOnDarkRegions(_ gray: Image) throws -> [Region] {
        try lightOnDarkBlocks(gray).map(\.region)
    }

    /// The light-on-dark text blocks of an 8 bpp page, largest first, each with its shape: a
    /// 1 bpp mask of the block's size, ON over the block with its holes (its letters) filled.
    static func lightOnDarkBlocks(_ gray: Image) throws -> [(region: Region, shape: Image)] {
        precondition(gray.depth == 8, "lightOnDarkRegions needs an 8 bpp grey image")
        guard gray.width >= 16, gray.height >= 16 else { return [] }
        let binary = try gray.otsuGlobal()
        let side = brick(gray)
        let solid = try Image.wrap(pixOpenCompBrick(nil, binary.pix, side, side), "pixOpenCompBrick")
        let pageArea = gray.width * gray.height
        var regions: [(region: Region, shape: Image)] = []
        for c in try solid.components() where c.width * c.height * 200 >= pageArea && c.height >= 8 {
            let region = Region(x: c.x, y: c.y, width: c.width, height: c.height)
            // The block with its holes filled: the print inside it included.
            let block = c.mask
            let holes = try withExtendedLifetime(block) {
                try Image.wrap(pixHolesByFilling(block.pix, 4), "pixHolesByFilling")
            }
            let filled = try withExtendedLifetime((block, holes)) {
                try Image.wrap(pixOr(nil, block.pix, holes.pix), "pixOr")
            }
            guard try filled.blackFraction() >= 0.55 else { continue }
            // Light pixels inside the block: its letters, if it holds light text.
            let ink = try binary.clipped(to: region)
            let light = try withExtendedLifetime(ink) {
                try Image.wrap(pixSubtract(nil, filled.pix, ink.pix), "pixSubtract")
            }
            if try hasLetters(light, blockHeight: region.height) { regions.append((region, filled)) }
        }
        return regions.sorted { $0.region.width * $0.region.height > $1.region.width * $1.region.height }
    }

    /// The side (pixels) of the square that opens away print, speckles and texture from a page's
    /// dark parts: 2 % of the page's long side (at least 3), rounded to a product of two of the
    /// factors of Leptonica's composite bricks (`selectComposableSizes`: 131 → 12 × 11 = 132).
    /// The opening by such a composite (`pixOpenCompBrick`: a brick and a comb, 12 + 11 rasterops
    /// a pass instead of 132) is exactly the opening by the brick (`pixOpenBrick`, checked with
    /// `pixEqual` on the 225 photos of the corpus and stress sets), in 0.06 s instead of 0.32 s
    /// on a 5125×6572 photo.
    static func brick(_ gray: Image) -> l_int32 {
        var (first, second): (l_int32, l_int32) = (0, 0)
        let size = l_int32(max(3, max(gray.width, gray.height) / 50))
        guard selectComposableSizes(size, &first, &second) == 0, first * second > 0 else { return size }
        return first * second
    }

    /// The light-on-dark blocks of `gray` alone, turned dark-on-light on a white page of the same
    /// size, or nil when there is none or one block is (nearly) the whole page: a sign on a stone
    /// wall, read with the wall blanked out. Each block is copied by its shape, not its bounding
    /// box, so the wall around a tilted sign stays out (Leptonica `pixInvert`,
    /// `pixCombineMaskedGeneral`); the blocks found, how many.
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func blocksAlone(_ gray: Image) throws -> (page: Image, blocks: Int)? {
        let blocks = try lightOnDarkBlocks(gray)
        guard let first = blocks.first, first.region.width * first.region.height * 10 < gray.width * gray.height * 9
        else { return nil }
        let inverted = try Image.wrap(pixInvert(nil, gray.pix), "pixInvert")
        let page = try Image.wrap(pixCreate(l_int32(gray.width), l_int32(gray.height), 8), "pixCreate")
        pixSetAllArbitrary(page.pix, 255)
        for (r, shape) in blocks {
            // The block's own pixels and its shape, both placed at its corner of the page.
            let block = try inverted.clipped(to: r)
            try withExtendedLifetime((block, shape)) {
                guard pixCombineMaskedGeneral(page.pix, block.pix, shape.pix, l_int32(r.x), l_int32(r.y)) == 0 else {
                    throw ImagingError.operationFailed(operation: "pixCombineMaskedGeneral")
                }
            }
        }
        return (page, blocks.count)
    }

    /// Whether the light parts of a dark block (ON in `light`) look like letters (see the type's
    /// documentation). Dark letters in a lit patch of paper (a shadowed page's lit wedge) have
    /// light counters that pass for small letters; the patch then holds dark letters at least as
    /// tall as those, which light letters never do (their own counters are smaller than them): a
    /// block whose light parts hold half as many such holes as they have letters is not light text.
    static func hasLetters(_ light: Image, blockHeight: Int) throws -> Bool {
        let parts = try light.componentBoxes()
        let area = light.width * light.height
        let maxHeight = max(4, blockHeight * 6 / 10)
        var heights: [Int] = []
        for h in parts {
            if h.width * h.height * 100 > area * 15 { return false }
            if h.height >= 4, h.height <= maxHeight, h.width <= 4 * h.height { heights.append(h.height) }
        }
        guard heights.count >= 4 else { return false }
        heights.sort()
        let median = heights[heights.count / 2]
        let letters = parts.filter {
            $0.height * 2 >= median && $0.height <= median * 2 && $0.width <= 4 * $0.height
        }
        let similar = letters.count
        guard similar >= 4 else { return false }
        // Letters are printed in lines and cover a share of their block; the light flecks of a
        // dark halftone photo beside the text are scattered and sparse.
        guard try light.blackFraction() >= minimumLetterCover,
            inLines(letters.map { $0.y * 2 + $0.height }, tolerance: median / 2) * 2 >= similar
        else { return false }
        let holes = try withExtendedLifetime(light) {
            try Image.wrap(pixHolesByFilling(light.pix, 4), "pixHolesByFilling")
        }
        let darkLetters = try holes.componentBoxes().filter {
            $0.height >= median && $0.height <= maxHeight && $0.width <= 4 * $0.height
        }.count
        return darkLetters * 2 < similar
    }

    /// The least share of a light-on-dark block (0–1) its letters cover: 6–16 % on the headings,
    /// pages and signs measured, under 0.5 % on the light flecks of dark photos and shadows.
    static let minimumLetterCover = 0.01

    /// How many of the letters whose doubled vertical centres (`centres`, in half pixels) are
    /// given share a line with at least two others: their centres within `tolerance` pixels.
    static func inLines(_ centres: [Int], tolerance: Int) -> Int {
        let sorted = centres.sorted()
        // The first index whose centre is at least `value` (binary search).
        func lowerBound(_ value: Int) -> Int {
            var (lo, hi) = (0, sorted.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        return sorted.filter { lowerBound($0 + 2 * tolerance + 1) - lowerBound($0 - 2 * tolerance) >= 3 }.count
    }

    /// A copy of `gray` with every region inverted (Leptonica `pixRasterop` with `PIX_NOT(PIX_DST)`).
    /// - Throws: `ImagingError.operationFailed` when a Leptonica call fails.
    public static func invert(_ regions: [Region], in gray: Image) throws -> Image {
        let out = try Image.wrap(pixCopy(nil, gray.pix), "pixCopy")
        for r in regions {
            // 0x5 is PIX_NOT(PIX_DST) in Leptonica's raster-op codes (a C macro Swift cannot import).
            pixRasterop(out.pix, l_int32(r.x), l_int32(r.y), l_int32(r.width), l_int32(r.height), 0x5, nil, 0, 0)
        }
        return out
    }
}

extension Image {
    /// The pixels inside `region`.
    func clipped(to region: RegionPolarity.Region) throws -> Image {
        try clipped(x: region.x, y: region.y, width: region.width, height: region.height)
    }
}
