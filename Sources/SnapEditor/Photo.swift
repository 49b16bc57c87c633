import SnapTerminal

/// A photo the text was read from: where it is, and how OCR turned it upright.
public struct PhotoSource: Equatable, Sendable {
    /// Its path, as the OCR worker was given it.
    public var path: String
    /// Its name for messages.
    public var name: String
    /// Degrees clockwise (0, 90, 180, 270) that made the page upright: EXIF, orientation
    /// detection and Tesseract together (`RecognitionResult.rotationDegrees`); word boxes are in
    /// pixels of the photo turned so.
    public var rotationDegrees: Int

    /// A photo from its parts.
    public init(path: String, name: String, rotationDegrees: Int = 0) {
        self.path = path
        self.name = name
        self.rotationDegrees = rotationDegrees
    }
}

/// A rectangle drawn over the photo, and how.
public struct PhotoMark: Equatable, Sendable {
    /// How a box is drawn.
    public enum Kind: Equatable, Sendable {
        /// A recognized word: a thin blue box.
        case word
        /// An uncertain word: a red box.
        case uncertain
        /// The word under the cursor: a thick yellow box over a yellow tint.
        case current
        /// The region being framed: a thick green box.
        case region
    }

    /// Where, in pixels of the upright photo.
    public var box: WordBox
    /// How.
    public var kind: Kind

    /// A mark from its parts.
    public init(_ box: WordBox, _ kind: Kind) {
        self.box = box
        self.kind = kind
    }
}

/// What to draw in the photo area: which photo, in how many cells, with which boxes.
public struct PhotoRequest: Equatable, Sendable {
    /// The photo.
    public var photo: PhotoSource
    /// The area in cells; the photo is fitted into it, keeping its aspect ratio (a cell is taken
    /// to be twice as high as wide).
    public var columns: Int, rows: Int
    /// The boxes, drawn in order (the current word and the region last, over the others).
    public var marks: [PhotoMark]

    /// A request from its parts.
    public init(photo: PhotoSource, columns: Int, rows: Int, marks: [PhotoMark]) {
        self.photo = photo
        self.columns = columns
        self.rows = rows
        self.marks = marks
    }
}

/// A drawn photo: the picture, where it sits in the area, and the photo's size, to map cells to
/// pixels (the mouse, the region's steps).
public struct PhotoRendering: Equatable, Sendable {
    /// What was asked for.
    public var request: PhotoRequest
    /// The picture, ``Picture/columns`` × ``Picture/rows`` cells.
    public var picture: Picture
    /// The picture's top-left cell inside the area (it is centred).
    public var column: Int, row: Int
    /// The upright photo's size in pixels.
    public var photoWidth: Int, photoHeight: Int

    /// A rendering from its parts.
    public init(request: PhotoRequest, picture: Picture, column: Int, row: Int, photoWidth: Int, photoHeight: Int) {
        self.request = request
        self.picture = picture
        self.column = column
        self.row = row
        self.photoWidth = photoWidth
        self.photoHeight = photoHeight
    }

    /// Photo pixels per cell, across and down.
    var pixelsPerCell: (x: Double, y: Double) {
        (Double(photoWidth) / Double(max(1, picture.columns)), Double(photoHeight) / Double(max(1, picture.rows)))
    }

    /// The photo pixel at the top-left of the cell `column`, `row` of the area, clamped to the photo.
    func photoPoint(column: Int, row: Int) -> (x: Int, y: Int) {
        let (px, py) = pixelsPerCell
        let x = Int((Double(column - self.column) * px).rounded())
        let y = Int((Double(row - self.row) * py).rounded())
        return (min(max(0, x), photoWidth), min(max(0, y), photoHeight))
    }
}

/// Draws photos for the photo view (M-P); the executable passes the real one (Leptonica + chafa).
public protocol PhotoRenderer: AnyObject {
    /// The photo of `request` with its marks, fitted into its area.
    /// - Throws: an error whose description is shown as is (the photo is gone or unreadable).
    func render(_ request: PhotoRequest) throws -> PhotoRendering
}

/// The open photo view (M-P): the photo with the words' boxes above, the text below.
public struct PhotoView: Equatable, Sendable {
    /// The photo shown (an index of ``EditorState/photos``).
    public var photo: Int
    /// The region being framed, in pixels of the upright photo; nil when none is.
    public var region: WordBox?
    /// Where a mouse drag began (photo pixels), while a button is down.
    var dragStart: (x: Int, y: Int)? {
        get { dragX.map { ($0, dragY) } }
        set {
            dragX = newValue?.x
            dragY = newValue?.y ?? 0
        }
    }
    var dragX: Int?
    var dragY = 0

    /// A view of photo `photo`, no region framed.
    public init(photo: Int, region: WordBox? = nil) {
        self.photo = photo
        self.region = region
    }
}

/// What a key does in the photo view (the text's moving keys also work, and move the highlight).
public enum PhotoAction: String, CaseIterable, Sendable {
    /// Back to the text (Esc, M-P).
    case close
    /// Frame a region to read, starting from the current word's line (Enter).
    case frame
}

/// What a key does while a region of the photo is framed.
public enum FramingAction: String, CaseIterable, Sendable {
    /// Read the region and insert its text at the cursor, or in place of the marked text (Enter).
    case read
    /// Stop framing (Esc).
    case cancel
    /// Move the region one cell.
    case moveLeft, moveRight, moveUp, moveDown
    /// Make the region one cell wider, narrower, taller or shorter (its top-left corner stays).
    case wider, narrower, taller, shorter
}
