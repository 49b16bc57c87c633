import SnapEditor
import SnapImaging
import SnapOCR
import SnapTerminal

/// The photo view's pictures: the photo loaded and turned upright as OCR read it (Leptonica),
/// scaled to the cells it gets, the words' boxes drawn over it, and made into terminal graphics
/// by chafa (``PictureRenderer``). The last photo loaded is kept, so moving the highlight only
/// scales and draws.
final class PhotoPreview: PhotoRenderer {
    let pictures: PictureRenderer
    let memoryLimit: Int
    /// The upright photo last loaded, for `source`, and its size in pixels of the full photo.
    private var cached: (source: PhotoSource, image: Image, width: Int, height: Int)?

    init(pictures: PictureRenderer, memoryLimit: Int) {
        self.pictures = pictures
        self.memoryLimit = memoryLimit
    }

    /// Quarter turns clockwise beyond EXIF that made `photo` upright (orientation detection,
    /// Tesseract's layout analysis): the turn the OCR's boxes and a framed region are in.
    static func extraQuarterTurns(_ photo: PhotoSource) -> Int {
        let exif = Recognizer.rotation(ofEXIF: ImageLoader.exifOrientation(photo.path))
        return (((photo.rotationDegrees - exif) / 90) % 4 + 4) % 4
    }

    /// Pixels of the picture per cell for the symbols (chafa works on 8 × 8 cells of a glyph twice
    /// as high as wide).
    static let symbolCell = (width: 8, height: 16)

    func render(_ request: PhotoRequest) throws -> PhotoRendering {
        let (upright, width, height) = try photo(request.photo)
        // Fit the photo into the area, a cell twice as high as wide.
        var columns = request.columns
        var rows = max(1, Int((Double(columns) * Double(height) / Double(width) / 2).rounded()))
        if rows > request.rows {
            rows = request.rows
            columns = max(1, min(request.columns, Int((Double(rows) * 2 * Double(width) / Double(height)).rounded())))
        }
        let cell =
            pictures.graphics == .symbols
            ? Self.symbolCell : (width: pictures.cellWidth, height: pictures.cellHeight)
        let pw = columns * cell.width
        let ph = rows * cell.height
        let (sx, sy) = (Double(pw) / Double(width), Double(ph) / Double(height))
        let line = max(1, cell.height / 8)
        let boxes = request.marks.map { mark -> DrawnBox in
            let b = mark.box
            var x = Int((Double(b.x) * sx).rounded())
            var y = Int((Double(b.y) * sy).rounded())
            var w = max(2, Int((Double(b.width) * sx).rounded()))
            var h = max(2, Int((Double(b.height) * sy).rounded()))
            switch mark.kind {
            case .word:
                return DrawnBox(x: x, y: y, width: w, height: h, red: 40, green: 110, blue: 255, thickness: line)
            case .uncertain:
                return DrawnBox(x: x, y: y, width: w, height: h, red: 230, green: 30, blue: 30, thickness: line)
            case .current:
                // Thick enough to fill a cell's half, so a symbol of it shows at any size.
                let t = max(2, cell.height / 4)
                (x, y, w, h) = (x - t, y - t, w + 2 * t, h + 2 * t)
                return DrawnBox(
                    x: x, y: y, width: w, height: h, red: 255, green: 255, blue: 0, thickness: t, tint: 0.35)
            case .region:
                return DrawnBox(
                    x: x, y: y, width: w, height: h, red: 0, green: 200, blue: 0, thickness: max(2, cell.height / 4))
            }
        }
        let drawn = try upright.colorScaled(width: pw, height: ph).drawing(boxes)
        let picture = pictures.render(rgba: try drawn.rgbaBytes(), width: pw, height: ph, columns: columns, rows: rows)
        return PhotoRendering(
            request: request, picture: picture, column: (request.columns - columns) / 2,
            row: (request.rows - rows) / 2, photoWidth: width, photoHeight: height)
    }

    /// The upright photo (decoded at a size fit for a screen) and its full size in pixels.
    private func photo(_ source: PhotoSource) throws -> (Image, Int, Int) {
        if let cached, cached.source == source { return (cached.image, cached.width, cached.height) }
        let loaded = try ImageLoader(memoryLimit: memoryLimit, jpegReductionTarget: 2400).load(source.path)
        let turns = Self.extraQuarterTurns(source)
        var image = try loaded.image.rotated(quarterTurnsClockwise: turns)
        var width = image.width * loaded.decodeReduction
        var height = image.height * loaded.decodeReduction
        // A very large photo is kept at most 2400 px on its long side: the screen shows less.
        let long = max(image.width, image.height)
        if long > 2400 { image = try image.scaled(by: 2400 / Double(long)) }
        if width <= 0 || height <= 0 { (width, height) = (1, 1) }
        cached = (source, image, width, height)
        return (image, width, height)
    }
}
