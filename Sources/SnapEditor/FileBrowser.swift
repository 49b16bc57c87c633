import SnapTerminal
import SnapText

// nano's file browser (^T in the File to insert and File Name to Write prompts): a folder's
// entries in a grid, folders first; Enter opens a folder or takes a file, as if its name had been
// typed and Enter pressed.

/// One entry of a folder as the browser lists it.
public struct FolderEntry: Equatable, Sendable {
    /// The name in its folder ("..": the parent).
    public var name: String
    /// Whether it is a folder (a symbolic link to one counts as one).
    public var isFolder: Bool
    /// Its size in bytes (files only; 0 for folders); nil when it cannot be looked at (a broken
    /// link, a folder that cannot be searched).
    public var size: Int?

    /// An entry from its parts.
    public init(name: String, isFolder: Bool, size: Int? = 0) {
        self.name = name
        self.isFolder = isFolder
        self.size = size
    }

    /// What the grid shows after the name, as nano 7.2 does: "(parent dir)", "(dir)", the size in
    /// bytes, KB, MB or GB (1024s, rounded down), the number right-aligned in 4 columns, or "--"
    /// when it is not known.
    public var info: String {
        if name == ".." { return "(parent dir)" }
        if isFolder { return "(dir)" }
        guard var value = size else { return "--" }
        var unit = " "
        for next in ["K", "M", "G"] where value >= 1024 {
            value /= 1024
            unit = next
        }
        let number = String(value)
        return String(repeating: " ", count: max(0, 4 - number.count)) + number + " \(unit)B"
    }

    /// `entries` as the browser lists them: ".." first, then folders, then files, each by name
    /// (upper and lower case alike, then as they are).
    public static func sorted(_ entries: [FolderEntry]) -> [FolderEntry] {
        entries.sorted { a, b in
            if (a.name == "..") != (b.name == "..") { return a.name == ".." }
            if a.isFolder != b.isFolder { return a.isFolder }
            let (x, y) = (a.name.lowercased(), b.name.lowercased())
            return x != y ? x < y : a.name < b.name
        }
    }
}

/// The open file browser (``Mode/browser(_:)``).
public struct FileBrowser: Equatable, Sendable {
    /// The prompt it was opened from, as it was: ^X goes back to it, a file taken answers it.
    public var prompt: Prompt
    /// The folder shown, absolute and without "." or ".." parts.
    public var folder: String
    /// Its entries, sorted (``FolderEntry/sorted(_:)``).
    public var entries: [FolderEntry]
    /// The highlighted entry's index.
    public var selected = 0
    /// The program's working folder, absolute: a file taken inside it answers the prompt with its
    /// relative path.
    public var workingFolder: String

    /// A browser of `folder` opened from `prompt`, the first entry highlighted.
    public init(prompt: Prompt, folder: String, entries: [FolderEntry], selected: Int = 0, workingFolder: String) {
        self.prompt = prompt
        self.folder = folder
        self.entries = entries
        self.selected = selected
        self.workingFolder = workingFolder
    }

    /// The columns one entry takes in the grid: its longest name and info, at least 20, at most
    /// `width`.
    static func cellWidth(_ entries: [FolderEntry], width: Int) -> Int {
        let longest =
            entries.map { (entry: FolderEntry) -> Int in
                DisplayWidth.of(entry.name) + 2 + DisplayWidth.of(entry.info) + 2
            }.max() ?? 0
        return max(1, min(width, max(20, longest)))
    }

    /// How many entries a grid row holds at `width` columns.
    static func columns(_ entries: [FolderEntry], width: Int) -> Int {
        max(1, width / cellWidth(entries, width: width))
    }

    /// The path of `name` in ``folder``, as the prompt is answered with it: relative to
    /// ``workingFolder`` when inside it, else absolute.
    func path(of name: String) -> String {
        let full = folder == "/" ? "/" + name : folder + "/" + name
        let base = workingFolder.hasSuffix("/") ? workingFolder : workingFolder + "/"
        return full.hasPrefix(base) ? String(full.dropFirst(base.count)) : full
    }
}

/// What a key does in the file browser.
public enum BrowserAction: String, CaseIterable, Sendable {
    /// Open the highlighted folder, or take the highlighted file (Enter).
    case choose
    /// Back to the prompt, its answer as it was (^X, ^C, Esc).
    case close
    /// The entry above, one grid row up.
    case up
    /// The entry below, one grid row down.
    case down
    /// The entry before.
    case left
    /// The entry after.
    case right
    /// One screen of rows up.
    case pageUp
    /// One screen of rows down.
    case pageDown
    /// The first entry.
    case first
    /// The last entry.
    case last
}

/// The folder part of a file prompt's `answer`: up to and with its last "/", "" when it has none
/// (the working folder). What Tab completes in, and the browser opens on.
public func folderPart(of answer: String) -> String {
    answer.lastIndex(of: "/").map { String(answer[...$0]) } ?? ""
}

/// The folder the browser opens on for a prompt's `answer`: ``folderPart(of:)``, else the working
/// folder (".").
func browserStartFolder(_ answer: String) -> String {
    let folder = folderPart(of: answer)
    return folder.isEmpty ? "." : folder
}

/// A key in the file browser (the grid's columns and rows are those of the screen's size).
func updateBrowser(_ state: inout EditorState, _ browser: FileBrowser, _ action: BrowserAction?) -> [EditorEffect] {
    var browser = browser
    let count = browser.entries.count
    let columns = FileBrowser.columns(browser.entries, width: state.screenSize.columns)
    let rows = max(1, state.layout.textRows.count)
    func move(by delta: Int) {
        browser.selected = min(max(0, browser.selected + delta), max(0, count - 1))
    }
    switch action {
    case .up?: move(by: -columns)
    case .down?: move(by: columns)
    case .left?: move(by: -1)
    case .right?: move(by: 1)
    case .pageUp?: move(by: -columns * rows)
    case .pageDown?: move(by: columns * rows)
    case .first?: browser.selected = 0
    case .last?: browser.selected = max(0, count - 1)
    case .close?:
        state.mode = .prompt(browser.prompt)
        return []
    case .choose?:
        guard browser.entries.indices.contains(browser.selected) else { break }
        let entry = browser.entries[browser.selected]
        if entry.isFolder {
            state.mode = .browser(browser)
            return [.listFolder(browser.folder == "/" ? "/" + entry.name : browser.folder + "/" + entry.name)]
        }
        // As if its name had been typed and Enter pressed (nano: the file is read or written at once).
        var prompt = browser.prompt
        prompt.answer = Array(browser.path(of: entry.name))
        prompt.cursor = prompt.answer.count
        state.mode = .editing
        return accept(prompt, in: &state)
    case nil:
        break
    }
    state.mode = .browser(browser)
    return []
}

/// A folder listed for the browser: opened from a prompt, or entered from the browser (the entry
/// it came from highlighted when going up).
func folderListed(_ path: String, entries: [FolderEntry], workingFolder: String, in state: inout EditorState) {
    let sorted = FolderEntry.sorted(entries)
    switch state.mode {
    case .prompt(let prompt) where prompt.kind == .writeOut || prompt.kind == .insertFile:
        state.mode = .browser(
            FileBrowser(prompt: prompt, folder: path, entries: sorted, workingFolder: workingFolder))
    case .browser(let old):
        // Up to the parent: the folder left is highlighted, as in nano.
        let left = old.folder.hasPrefix(path) ? old.folder.split(separator: "/").last.map(String.init) : nil
        let selected = left.flatMap { name in sorted.firstIndex { $0.name == name } } ?? 0
        state.mode = .browser(
            FileBrowser(
                prompt: old.prompt, folder: path, entries: sorted, selected: selected, workingFolder: old.workingFolder)
        )
    default:
        break  // the browser or its prompt was left meanwhile
    }
}
