import SnapText

/// What the editor starts with: the document's name, its text or a running OCR job, and the
/// services it saves and mails through.
public struct EditorConfiguration {
    /// The name shown in the title bar (the photo's or the text file's name).
    public var displayName: String
    /// The path pre-filled in the Write Out prompt.
    public var defaultSaveName: String
    /// Whether `defaultSaveName` is the file the text came from (then it is overwritten without asking).
    public var savesToOwnFile: Bool
    /// The text to edit at start (ignored while `recognition` runs: its result replaces it).
    public var initialContent: Rope
    /// ``initialContent`` as a string.
    public var initialText: String {
        get { String(initialContent) }
        set { initialContent = Rope(newValue) }
    }
    /// The OCR job whose result becomes the text, or nil when editing a text file.
    public var recognition: RecognitionTask?
    /// Where Write Out, Mail and the emergency save go, and what the editor asks about files.
    public var sharing: DocumentSharing
    /// The first status line when no OCR runs (nano's "[ Read 4 lines ]" or "[ New File ]"); nil for none.
    public var initialStatus: String?
    /// Starts OCR of the photo at a path (for ^R on a photo); nil when photos cannot be inserted.
    /// Throws when the OCR cannot start; the error's description is shown as is.
    public var photoReader: ((String) throws -> RecognitionTask)?
    /// How the text file was written (line ends, encoding, final newline), kept for writing it back.
    public var format = TextFormat()
    /// The text file as it was on disk when read (``DiskState/absent`` for a new file), so that
    /// Write Out can tell it changed since; nil when not known (a photo).
    public var diskState: DiskState?
    /// Whether the text is kept in a recovery file while it is modified
    /// (``DocumentSharing/writeJournal(_:forDocument:)``).
    public var journals = false
    /// Texts found for the document that earlier runs did not save (recovery files, files a
    /// save left behind), newest first: the editor asks first what to do with each.
    public var recoveries: [RecoveryOffer] = []
    /// Starts the photo's OCR when ``recognition`` was held back for the recovery question (it is
    /// nil then); called unless the recovered text is taken.
    public var heldRecognition: (() throws -> RecognitionTask)?
    /// The photo being read (its path as given to the OCR), for the photo view; nil for a text file.
    public var photo: PhotoSource?
    /// Draws the photo view (M-P); nil when photos cannot be shown.
    public var photoRenderer: PhotoRenderer?
    /// Starts OCR of a region (pixels of the upright photo) of a photo, for the photo view's
    /// framing; nil when regions cannot be read. Throws when the OCR cannot start.
    public var regionReader: ((PhotoSource, WordBox) throws -> RecognitionTask)?
    /// Starts OCR of a photo again with a choice of languages and level (M-O), its words' pages
    /// for the exports new ones (``ProofWord/page``); nil when the photo cannot be read again.
    /// Throws when the OCR cannot start (languages that are not a `+` list); the error's
    /// description is shown as is.
    public var photoRereader: ((PhotoSource, ReadingChoice) throws -> RecognitionTask)?
    /// The languages and level M-O offers first (the command line's `-l` and `--level`).
    public var readingChoice = ReadingChoice()

    /// Whether `path` names one of Write Out's exports by its extension (`.hocr`, `.tsv`, `.xml`
    /// for ALTO, `.pdf`: Tesseract's documents of the photos, not the text file).
    public static func isExport(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return ["hocr", "tsv", "xml", "pdf"].contains(path[path.index(after: dot)...].lowercased())
    }

    /// Whether `path` names a photo by its extension (PNG, JPEG, TIFF, GIF, BMP, WebP, PNM).
    public static func isPhoto(_ path: String) -> Bool {
        let photo = ["png", "jpg", "jpeg", "tif", "tiff", "gif", "bmp", "webp", "pnm", "ppm", "pgm", "pbm"]
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return photo.contains(path[path.index(after: dot)...].lowercased())
    }

    /// Creates a configuration from its parts.
    public init(
        displayName: String, defaultSaveName: String, savesToOwnFile: Bool = false, initialText: String = "",
        recognition: RecognitionTask?, sharing: DocumentSharing
    ) {
        self.displayName = displayName
        self.defaultSaveName = defaultSaveName
        self.savesToOwnFile = savesToOwnFile
        self.initialContent = Rope(initialText)
        self.recognition = recognition
        self.sharing = sharing
    }

    /// For a photo being read by `recognition`: the title shows the photo's file name and Write Out
    /// offers the photo's path with its extension replaced by `.txt` (`raven.jpg` → `raven.txt`).
    public static func photo(path: String, recognition: RecognitionTask, sharing: DocumentSharing)
        -> EditorConfiguration
    {
        var configuration = EditorConfiguration(
            displayName: fileName(of: path), defaultSaveName: textFileName(forPhoto: path),
            recognition: recognition, sharing: sharing)
        configuration.photo = PhotoSource(path: path, name: fileName(of: path))
        return configuration
    }

    /// For a text file opened directly: Write Out offers the file's own path.
    public static func textFile(path: String, text: String, sharing: DocumentSharing) -> EditorConfiguration {
        textFile(path: path, content: Rope(text), sharing: sharing)
    }

    /// For a text file opened directly, its text as read (a rope, not copied): Write Out offers
    /// the file's own path.
    public static func textFile(path: String, content: Rope, sharing: DocumentSharing) -> EditorConfiguration {
        var configuration = EditorConfiguration(
            displayName: fileName(of: path), defaultSaveName: path, savesToOwnFile: true, recognition: nil,
            sharing: sharing)
        configuration.initialContent = content
        return configuration
    }

    /// `path` with its last extension replaced by `.txt` (added if there is none):
    /// `raven.jpg` → `raven.txt`, `/p/a.b.png` → `/p/a.b.txt`, `.hidden` → `.hidden.txt`, and a photo
    /// already called `x.txt` → `x.txt.txt` (never the photo itself).
    public static func textFileName(forPhoto path: String) -> String {
        let name = fileName(of: path)
        let directory = path.hasSuffix(name) ? String(path.dropLast(name.count)) : ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name[dot...] != ".txt" else {
            return path + ".txt"
        }
        return directory + name[..<dot] + ".txt"
    }

    /// The last path component of `path` (`/p/raven.jpg` → `raven.jpg`).
    public static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        let name = path[path.index(after: slash)...]
        return name.isEmpty ? path : String(name)
    }
}
