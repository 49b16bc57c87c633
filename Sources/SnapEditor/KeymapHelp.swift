import SnapTerminal
import SnapText
import Synchronization

/// ``Keymap/helpScreen(width:)`` by width, with the keymap it was made for.
private let wrappedHelpScreens = Mutex<[Int: (keymap: Keymap, lines: [String])]>([:])

/// One shortcut on the two-line help bar: the key as nano writes it and a short label.
public struct HelpBarItem: Hashable, Sendable {
    /// `^G`, `M-U`, `Esc`, ` Y` (a single character is padded to two columns, as nano does).
    public var key: String
    /// `Help`, `Write Out`…
    public var label: String

    /// Creates an item.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

extension KeyEvent {
    /// The key as nano's help writes it: `^G`, `M-U`, `F1`, `Up`, `PgUp`, `Enter`, `Y`.
    public var helpName: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .control(" "): return "^Space"
        case .meta(" "): return "M-Space"
        case .control(let c): return "^" + String(c).uppercased()
        case .meta(let c): return "M-" + String(c).uppercased()
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .insert: return "Ins"
        case .delete: return "Del"
        case .backspace: return "Bsp"
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .backTab: return "Sh-Tab"
        case .escape: return "Esc"
        case .function(let n): return "F\(n)"
        case .paste: return "Paste"
        case .resize: return "Resize"
        case .mouse: return "Mouse"
        case .modified(let key, let modifiers):
            var prefix = ""
            if modifiers.contains(.control) { prefix += "^" }
            if modifiers.contains(.alt) || modifiers.contains(.meta) { prefix += "M-" }
            if modifiers.contains(.shift) { prefix += "Sh-" }
            return prefix + key.helpName
        }
    }
}

extension Keymap {
    /// The help bar for `state`: the bindings with a bar label that apply to what keys do now.
    public func helpBar(for state: EditorState) -> [HelpBarItem] {
        if state.isRecognizing { return Self.barItems(recognizing) }
        switch state.mode {
        case .editing: return Self.barItems(editing)
        case .prompt(let prompt): return Self.barItems(self.prompt.filter { $0.action.isAvailable(in: prompt.kind) })
        case .confirmReplace, .confirmSave, .confirmOverwrite, .confirmSeries, .confirmEmptyMail,
            .confirmChangedOnDisk, .commandOutput, .confirmReading:
            return Self.barItems(question.filter { $0.action.isAvailable(in: state.mode) })
        case .help: return Self.barItems(help)
        case .alternatives: return Self.barItems(menu)
        case .running: return Self.barItems(running)
        case .recoveryOffer: return Self.barItems(recovery)
        case .photo(let view): return view.region == nil ? Self.barItems(photo) : Self.barItems(framing)
        case .data: return Self.barItems(dataMenu)
        case .browser: return Self.barItems(browser)
        }
    }

    private static func barItems<Action>(_ bindings: [KeyBinding<Action>]) -> [HelpBarItem] {
        bindings.compactMap { binding in
            guard let label = binding.barLabel, let key = binding.keys.first?.helpName else { return nil }
            return HelpBarItem(key: key.count == 1 ? " " + key : key, label: label)
        }
    }

    /// The help screen's text (^G), one binding a line, every binding of every list.
    public var helpScreen: [String] {
        let width =
            2
            + ([
                editing.map(\.keys), recognizing.map(\.keys), prompt.map(\.keys), question.map(\.keys),
                help.map(\.keys), menu.map(\.keys), running.map(\.keys), recovery.map(\.keys),
                photo.map(\.keys), framing.map(\.keys), dataMenu.map(\.keys), browser.map(\.keys),
            ].joined().map { Self.keyNames($0).count }.max() ?? 0)
        func section<Action>(_ title: String, _ bindings: [KeyBinding<Action>]) -> [String] {
            [""] + [title]
                + bindings.map { binding in
                    let keys = Self.keyNames(binding.keys)
                    return keys + String(repeating: " ", count: max(1, width - keys.count)) + binding.summary
                }
        }
        return [
            "LoveInASnap: fix the poem read from the photo, then write it out or mail it.",
            "^ means Ctrl; M- means Alt, or Esc then the key. Characters are typed in.",
            "The text is copied to a recovery file once you stop typing for \(Self.seconds(JournalState.idleDelay)) "
                + "(every \(Self.seconds(JournalState.maximumDelay)) while you type on): if lovesnap or the machine "
                + "stops, reopen the same file or photo to recover it; keys typed after the last copy are lost.",
        ]
            + section("The text:", editing)
            + section("While the OCR runs:", recognizing)
            + section(
                "In a prompt (Search, Replace with, File Name to Write, To, Subject, Command, Read the photo again):",
                prompt)
            + section(
                "At a question (Replace this instance?, Correct this one too?, Save modified buffer?, OVERWRITE?, "
                    + "a command's output, a new reading of the photo):",
                question)
            + section("On this help screen:", help)
            + section("In the menu of other readings of a word (M-Space):", menu)
            + section("While a mail or a command runs:", running)
            + section("When a recovery file is found:", recovery)
            + section("In the photo view (M-P; the text's moving keys move the highlight too):", photo)
            + section("While a region of the photo is framed:", framing)
            + section("In the list of data found in the text (M-F):", dataMenu)
            + section("In the file browser (^T in File to insert and File Name to Write):", browser)
    }

    /// "1 s", "4 s": a delay as the help screen says it.
    static func seconds(_ delay: Double) -> String {
        delay == delay.rounded() ? "\(Int(delay)) s" : "\(delay) s"
    }

    /// The help screen's text wrapped to `width` columns: a line too long breaks at spaces, its
    /// continuation indented to where the description starts (when that leaves half the width),
    /// and a word longer than a line is cut. Scrolling and drawing use these lines.
    ///
    /// Remembered per width for the last keymap asked about: each key on the help screen scrolls
    /// and redraws it, and wrapping some 240 lines on every key made paging through it lag.
    public func helpScreen(width: Int) -> [String] {
        if let known = wrappedHelpScreens.withLock({ $0[width] }), known.keymap == self { return known.lines }
        let lines = helpScreen.flatMap { Self.wrap($0, width: width) }
        wrappedHelpScreens.withLock { $0[width] = (self, lines) }
        return lines
    }

    static func wrap(_ line: String, width: Int) -> [String] {
        guard width > 0, DisplayWidth.of(line) > width else { return [line] }
        // The description column: after the first run of two or more spaces.
        var indent = 0
        let characters = Array(line)
        if let gap = (1..<characters.count).first(where: { characters[$0] == " " && characters[$0 - 1] == " " }) {
            var end = gap
            while end < characters.count && characters[end] == " " { end += 1 }
            indent = DisplayWidth.of(String(characters[..<end])) < width / 2 ? end : 0
        }
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = indent > 0 ? String(characters[..<indent]) : ""
        let words = String(characters[indent...]).split(separator: " ", omittingEmptySubsequences: true)
        func flush() {
            lines.append(current)
            current = pad
        }
        for word in words {
            var word = String(word)
            let room = width - DisplayWidth.of(current)
            let separator = current.isEmpty || current.hasSuffix(" ") ? "" : " "
            if DisplayWidth.of(separator + word) <= room {
                current += separator + word
                continue
            }
            if !current.trimmingWhitespace().isEmpty { flush() }
            while DisplayWidth.of(current + word) > width {  // longer than a line: cut it
                var head = ""
                for c in word where DisplayWidth.of(current + head + String(c)) <= width { head.append(c) }
                if head.isEmpty { head = String(word.prefix(1)) }
                current += head
                word.removeFirst(head.count)
                flush()
            }
            current += word
        }
        if !current.trimmingWhitespace().isEmpty { lines.append(current) }
        return lines
    }

    private static func keyNames(_ keys: [KeyEvent]) -> String {
        keys.map(\.helpName).joined(separator: " ")
    }

    /// `lovesnap --help`'s key list: the help bar's shortcuts for the text, then those while the OCR
    /// runs, as `KEY Label` items wrapped at `width` columns, each line starting with `indent`.
    public func keyList(width: Int, indent: String) -> [String] {
        var items = Self.barItems(editing)
        for item in Self.barItems(recognizing) where !items.contains(where: { $0.key == item.key }) {
            items.append(item)
        }
        var lines: [String] = []
        var line = indent
        for item in items {
            let text = item.key.trimmingWhitespace() + " " + item.label
            if line != indent && DisplayWidth.of(line) + 2 + DisplayWidth.of(text) > width {
                lines.append(line)
                line = indent
            }
            line += (line == indent ? "" : "  ") + text
        }
        if line != indent { lines.append(line) }
        return lines
    }
}
