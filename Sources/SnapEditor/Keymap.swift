import SnapTerminal

/// One entry of a ``Keymap``: the keys that do an action, and how the help shows them.
public struct KeyBinding<Action: Hashable & Sendable>: Hashable, Sendable {
    /// The keys, the one the help bar shows first.
    public var keys: [KeyEvent]
    /// What they do.
    public var action: Action
    /// The label on the two-line help bar ("Write Out"), or nil when the binding is not on it.
    public var barLabel: String?
    /// What the help screen (^G) says the keys do.
    public var summary: String

    /// Creates a binding of `keys` to `action`.
    public init(_ keys: [KeyEvent], _ action: Action, bar barLabel: String? = nil, _ summary: String) {
        self.keys = keys
        self.action = action
        self.barLabel = barLabel
        self.summary = summary
    }
}

/// Every key binding of the editor, as data: the one place a binding is written.
///
/// ``update(_:_:keymap:)`` looks keys up here, and the two-line help bar, the help screen (^G) and
/// `lovesnap --help`'s key list are generated from it (see ``helpScreen``, ``keyList(width:indent:)``).
/// Each list's order is the help bar's order for the bindings that have a bar label.
///
/// Not bindings, but rules of ``update(_:_:keymap:)``: printable characters and pastes are typed in
/// (the text, a prompt's answer); in the text, Esc and then a key is Meta + that key (nano's Esc
/// prefix); on the help screen, a key bound to nothing closes it.
public struct Keymap: Equatable, Sendable {
    /// The text being edited.
    public var editing: [KeyBinding<Command>]
    /// While the OCR runs (the text is not there yet).
    public var recognizing: [KeyBinding<Command>]
    /// A one-line prompt: Search, Search (to replace), Replace with, File Name to Write, To, Subject.
    public var prompt: [KeyBinding<PromptAction>]
    /// A question: Replace this instance?, Save modified buffer?, File … exists; OVERWRITE?
    public var question: [KeyBinding<Answer>]
    /// The help screen.
    public var help: [KeyBinding<HelpAction>]
    /// The alternatives menu of a word.
    public var menu: [KeyBinding<MenuAction>]
    /// While a mail command or a ^T command runs.
    public var running: [KeyBinding<Command>]
    /// The question asked when a recovery file is found.
    public var recovery: [KeyBinding<RecoveryChoice>]
    /// The photo view (besides these, the text's moving keys move the cursor and the highlight).
    public var photo: [KeyBinding<PhotoAction>]
    /// A region of the photo being framed.
    public var framing: [KeyBinding<FramingAction>]
    /// The list of data found in the text.
    public var dataMenu: [KeyBinding<DataMenuAction>]
    /// The file browser (^T in the file prompts).
    public var browser: [KeyBinding<BrowserAction>]

    /// Creates a keymap from its lists.
    public init(
        editing: [KeyBinding<Command>], recognizing: [KeyBinding<Command>], prompt: [KeyBinding<PromptAction>],
        question: [KeyBinding<Answer>], help: [KeyBinding<HelpAction>], menu: [KeyBinding<MenuAction>],
        running: [KeyBinding<Command>] = [], recovery: [KeyBinding<RecoveryChoice>] = [],
        photo: [KeyBinding<PhotoAction>] = [], framing: [KeyBinding<FramingAction>] = [],
        dataMenu: [KeyBinding<DataMenuAction>] = [], browser: [KeyBinding<BrowserAction>] = []
    ) {
        self.editing = editing
        self.recognizing = recognizing
        self.prompt = prompt
        self.question = question
        self.help = help
        self.menu = menu
        self.running = running
        self.recovery = recovery
        self.photo = photo
        self.framing = framing
        self.dataMenu = dataMenu
        self.browser = browser
    }

    /// The command `key` runs in the text, if any.
    public func command(for key: KeyEvent) -> Command? { Self.action(for: key, in: editing) }
    /// The command `key` runs while the OCR runs, if any.
    public func recognizingCommand(for key: KeyEvent) -> Command? { Self.action(for: key, in: recognizing) }
    /// What `key` does in a prompt of `kind`, if anything: the first binding of `key` whose action
    /// is available there (M-L is Latin-1 in Write Out and the accurate level in Read again).
    public func promptAction(for key: KeyEvent, in kind: PromptKind) -> PromptAction? {
        prompt.first { $0.keys.contains(key) && $0.action.isAvailable(in: kind) }?.action
    }
    /// The answer `key` gives to a question, if any.
    public func answer(for key: KeyEvent) -> Answer? { Self.action(for: key, in: question) }
    /// What `key` does on the help screen, if anything.
    public func helpAction(for key: KeyEvent) -> HelpAction? { Self.action(for: key, in: help) }
    /// What `key` does in the alternatives menu, if anything.
    public func menuAction(for key: KeyEvent) -> MenuAction? { Self.action(for: key, in: menu) }
    /// The command `key` runs while a mail or ^T command runs, if any.
    public func runningCommand(for key: KeyEvent) -> Command? { Self.action(for: key, in: running) }
    /// The choice `key` makes at the recovery question, if any.
    public func recoveryChoice(for key: KeyEvent) -> RecoveryChoice? { Self.action(for: key, in: recovery) }
    /// What `key` does in the photo view, if anything of its own.
    public func photoAction(for key: KeyEvent) -> PhotoAction? { Self.action(for: key, in: photo) }
    /// What `key` does while a region is framed, if anything.
    public func framingAction(for key: KeyEvent) -> FramingAction? { Self.action(for: key, in: framing) }
    /// What `key` does in the list of data, if anything.
    public func dataMenuAction(for key: KeyEvent) -> DataMenuAction? { Self.action(for: key, in: dataMenu) }
    /// What `key` does in the file browser, if anything.
    public func browserAction(for key: KeyEvent) -> BrowserAction? { Self.action(for: key, in: browser) }

    private static func action<Action>(for key: KeyEvent, in bindings: [KeyBinding<Action>]) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// GNU nano's default keys (with ^T, Execute Command), plus M-M for Mail, Esc for cancelling
    /// the OCR, the proofreading keys (M-] / M-[ next / previous uncertain word, M-Y accept,
    /// M-Space or ^Space the alternatives menu), M-P the photo view, M-F the data found, M-C the
    /// clipboard, M-O reading the photo again. nano's M-P (show whitespace), M-C (constant cursor
    /// position) and M-O (tabs to spaces) toggles are not implemented, so their keys are taken
    /// here; M-F there means nothing by default.
    ///
    /// ^J justifies as nano's does (Enter is the CR terminals send). ^M, ^I and ^H are not listed:
    /// terminals send them as Enter, TAB and Backspace.
    public static let nano = Keymap(
        editing: [
            KeyBinding([.control("g"), .function(1)], .help, bar: "Help", "show this help"),
            KeyBinding(
                [.control("x"), .function(2)], .exit, bar: "Exit", "exit (asks whether to save a changed text)"),
            KeyBinding(
                [.control("o"), .function(3)], .writeOut, bar: "Write Out", "write the text to a file (asks the name)"),
            KeyBinding([.meta("m")], .mail, bar: "Mail", "mail the text (asks To, then Subject)"),
            KeyBinding([.control("w"), .function(6)], .whereIs, bar: "Where Is", "search forward"),
            KeyBinding(
                [.control("\\"), .meta("r"), .function(14)], .replace, bar: "Replace",
                "replace a text, asking at each match"),
            KeyBinding(
                [.control("k"), .function(9)], .cutLine, bar: "Cut",
                "cut the marked region, else the line (cuts in a row add up, one undo)"),
            KeyBinding([.control("u"), .function(10)], .paste, bar: "Paste", "paste the cut text"),
            KeyBinding([.meta("u")], .undo, bar: "Undo", "undo the last change"),
            KeyBinding([.meta("e")], .redo, bar: "Redo", "redo the last undone change"),
            KeyBinding([.control("c"), .function(11)], .location, bar: "Location", "show the cursor position"),
            KeyBinding([.meta("w")], .findNext, bar: "Next", "the next match of the last search, forward"),
            KeyBinding([.meta("]")], .nextUncertain, bar: "Next Doubt", "next uncertain word (wraps)"),
            KeyBinding([.meta("[")], .previousUncertain, bar: "Prev Doubt", "previous uncertain word (wraps)"),
            KeyBinding(
                [.meta("y")], .acceptWord, bar: "Accept", "accept the uncertain word under the cursor as it is"),
            KeyBinding(
                [.meta(" "), .control(" ")], .alternatives, bar: "Readings",
                "other readings of the word under the cursor (engine, spelling, as read)"),
            KeyBinding(
                [.meta("p")], .photoView, bar: "Photo",
                "show the photo, the words' boxes over it and the word under the cursor highlighted"),
            KeyBinding(
                [.meta("f")], .listData, bar: "Data",
                "list the data in the text (card numbers, dates, e-mail, phone, URLs): jump or copy"),
            KeyBinding(
                [.meta("c")], .copyToClipboard, bar: "Clipboard",
                "copy the marked region (else the line) to the system clipboard (OSC 52: works over ssh, in tmux)"),
            KeyBinding(
                [.meta("o")], .readAgain, bar: "Read Again",
                "read the photo again (choose the languages, M-L the level); the text is replaced or kept"),
            KeyBinding([.control("s")], .save, "save under the current name"),
            KeyBinding([.control("q")], .whereWas, "search backward"),
            KeyBinding([.meta("q")], .findPrevious, "the previous match of the last search, backward"),
            KeyBinding([.meta("t")], .cutToEnd, "cut from the cursor to the end of the text"),
            KeyBinding([.meta("a"), .control("^")], .setMark, "set the mark at the cursor, or unset it"),
            KeyBinding([.meta("6")], .copy, "copy the marked region (else the line) to the cut text"),
            KeyBinding(
                [.control("_"), .meta("g")], .goToLine,
                "go to line,column (negative numbers count from the end)"),
            KeyBinding([.meta("d")], .wordCount, "count words, lines and characters (of the region)"),
            KeyBinding([.meta("#")], .toggleLineNumbers, "show or hide line numbers"),
            KeyBinding([.meta("}")], .indent, "indent the line (or the marked lines) by a TAB"),
            KeyBinding([.meta("{")], .unindent, "unindent the line (or the marked lines)"),
            KeyBinding([.modified(.left, .control)], .previousWord, "previous word"),
            KeyBinding([.modified(.right, .control)], .nextWord, "next word"),
            KeyBinding(
                [.control("r"), .insert], .insertFile,
                "insert a text file, or a photo's text, at the cursor (asks the name)"),
            KeyBinding(
                [.control("t")], .executeCommand,
                "run a command on the marked region (else the text); its output may replace it or be inserted"),
            KeyBinding([.control("l")], .refresh, "redraw the screen"),
            KeyBinding([.control("z")], .suspendHint, "say how to suspend: ^T, then ^Z (as nano)"),
            KeyBinding([.control("p"), .up], .moveUp, "previous line"),
            KeyBinding([.control("n"), .down], .moveDown, "next line"),
            KeyBinding([.control("b"), .left], .moveLeft, "previous character"),
            KeyBinding([.control("f"), .right], .moveRight, "next character"),
            KeyBinding([.control("a"), .home], .lineStart, "start of the line"),
            KeyBinding([.control("e"), .end], .lineEnd, "end of the line"),
            KeyBinding([.control("y"), .pageUp, .function(7)], .pageUp, "one screen up"),
            KeyBinding([.control("v"), .pageDown, .function(8)], .pageDown, "one screen down"),
            KeyBinding([.meta("\\")], .firstLine, "first line"),
            KeyBinding([.meta("/")], .lastLine, "last line"),
            KeyBinding([.enter], .newline, "break the line"),
            KeyBinding(
                [.control("j"), .function(4)], .justify,
                "justify the paragraph to the screen's width − 8 (one undo), then go to the next"),
            KeyBinding([.meta("j")], .justifyAll, "justify every paragraph (one undo)"),
            KeyBinding([.tab], .tab, "insert a TAB"),
            KeyBinding([.backspace], .deleteBackward, "delete the character before the cursor"),
            KeyBinding([.control("d"), .delete], .deleteForward, "delete the character under the cursor"),
        ],
        recognizing: [
            KeyBinding([.escape], .cancelRecognition, bar: "Cancel OCR", "cancel the OCR (the editor stays open)"),
            KeyBinding([.control("x"), .function(2)], .exit, bar: "Exit", "cancel the OCR and exit"),
        ],
        prompt: [
            KeyBinding([.control("c"), .escape], .cancel, bar: "Cancel", "cancel"),
            KeyBinding(
                [.meta("c")], .toggleCaseSensitivity, bar: "Case Sens",
                "tell upper from lower case, or not (Search prompts)"),
            KeyBinding(
                [.meta("a")], .toggleAccentSensitivity, bar: "Accents",
                "tell accented letters from plain ones, or not: e finds é, oe finds œ (Search prompts)"),
            KeyBinding(
                [.meta("r")], .toggleRegularExpression, bar: "Reg.exp.",
                "a regular expression (\\1 or $1 in the replacement), or plain text (Search prompts)"),
            KeyBinding([.meta("b")], .toggleBackwards, bar: "Backwards", "search backwards, or not (Search prompt)"),
            KeyBinding([.control("r")], .switchToReplace, bar: "Replace", "replace instead (Search prompt)"),
            KeyBinding(
                [.meta("d")], .toggleDOSFormat, bar: "DOS Format",
                "write DOS line ends (CR LF), or not (File Name to Write)"),
            KeyBinding(
                [.meta("m")], .toggleMacFormat, bar: "Mac Format",
                "write old Mac line ends (CR), or not (File Name to Write)"),
            KeyBinding(
                [.meta("l")], .toggleLatin1, bar: "Latin-1",
                "write Latin-1 (ISO 8859-1), or UTF-8 (File Name to Write)"),
            KeyBinding(
                [.meta("l")], .toggleAccurate, bar: "Accurate",
                "read at the accurate level (several preparations), or fast (Read the photo again)"),
            KeyBinding([.enter, .control("j")], .accept, "accept the answer"),
            KeyBinding([.backspace], .deleteBackward, "delete the character before the cursor"),
            KeyBinding([.control("d"), .delete], .deleteForward, "delete the character under the cursor"),
            KeyBinding([.control("b"), .left], .moveLeft, "previous character"),
            KeyBinding([.control("f"), .right], .moveRight, "next character"),
            KeyBinding([.control("a"), .home], .moveToStart, "start of the answer"),
            KeyBinding([.control("e"), .end], .moveToEnd, "end of the answer"),
            KeyBinding([.up], .olderAnswer, "the previous answer to this prompt"),
            KeyBinding([.down], .newerAnswer, "the next answer to this prompt"),
            KeyBinding([.control("k"), .control("u")], .clear, "clear the answer"),
            KeyBinding([.tab], .completeFileName, "complete the file name (File Name to Write, File to insert)"),
            KeyBinding(
                [.control("t")], .browse, bar: "Browse",
                "the file browser: pick the file in its folder's list (File Name to Write, File to insert)"),
            KeyBinding(
                [.control("z")], .suspend, bar: "Suspend",
                "suspend lovesnap; the shell's fg brings it back (Command to execute)"),
        ],
        question: [
            KeyBinding([.character("Y"), .character("y")], .yes, bar: "Yes", "yes"),
            KeyBinding([.character("N"), .character("n")], .no, bar: "No", "no"),
            KeyBinding(
                [.character("A"), .character("a")], .all, bar: "All",
                "this and all further matches (Replace, Correct this one too?)"),
            KeyBinding(
                [.character("I"), .character("i")], .insert, bar: "Insert",
                "insert the command's output at the cursor (after ^T)"),
            KeyBinding(
                [.character("B"), .character("b")], .below, bar: "Below",
                "put the new reading below the text (after M-O)"),
            KeyBinding([.control("c"), .escape], .cancel, bar: "Cancel", "cancel"),
        ],
        help: [
            KeyBinding([.control("x")], .close, bar: "Close", "close this help (so does any key not listed here)"),
            KeyBinding([.control("y"), .pageUp, .function(7)], .pageUp, bar: "Prev Page", "one screen up"),
            KeyBinding([.control("v"), .pageDown, .function(8)], .pageDown, bar: "Next Page", "one screen down"),
            KeyBinding([.control("p"), .up], .lineUp, bar: "Prev Line", "one line up"),
            KeyBinding([.control("n"), .down], .lineDown, bar: "Next Line", "one line down"),
        ],
        menu: [
            KeyBinding([.enter, .control("j")], .choose, bar: "Replace", "put the highlighted reading in place"),
            KeyBinding([.escape, .control("c")], .cancel, bar: "Cancel", "close the menu"),
            KeyBinding([.up, .control("p")], .up, bar: "Prev", "the reading above"),
            KeyBinding([.down, .control("n")], .down, bar: "Next", "the reading below"),
        ],
        running: [
            KeyBinding([.control("c")], .cancelJob, bar: "Cancel", "stop the mail command or the ^T command")
        ],
        recovery: [
            KeyBinding([.character("R"), .character("r")], .recover, bar: "Recover", "edit the recovered text"),
            KeyBinding(
                [.character("D"), .character("d")], .discard, bar: "Discard",
                "remove the recovery file and open the document as it is"),
            KeyBinding(
                [.character("O"), .character("o")], .readOnly, bar: "Read-Only",
                "open the document read-only, keeping the recovery file"),
            KeyBinding([.control("x")], .exit, bar: "Exit", "leave, keeping the recovery file"),
        ],
        photo: [
            KeyBinding([.escape, .meta("p"), .control("x")], .close, bar: "Text", "back to the text"),
            KeyBinding(
                [.enter, .control("j")], .frame, bar: "Frame",
                "frame a region to read (from the current word's line; or drag with the mouse)"),
        ],
        framing: [
            KeyBinding(
                [.enter, .control("j")], .read, bar: "Read",
                "read the region: its text goes in at the cursor, or in place of the marked text"),
            KeyBinding([.escape, .control("c")], .cancel, bar: "Cancel", "stop framing"),
            KeyBinding([.left], .moveLeft, bar: "Move", "move the region left"),
            KeyBinding([.right], .moveRight, "move the region right"),
            KeyBinding([.up], .moveUp, "move the region up"),
            KeyBinding([.down], .moveDown, "move the region down"),
            KeyBinding(
                [.modified(.right, .shift), .modified(.right, .alt)], .wider, bar: "Resize",
                "make the region wider (Shift or M- with the arrows resize)"),
            KeyBinding([.modified(.left, .shift), .modified(.left, .alt)], .narrower, "make the region narrower"),
            KeyBinding([.modified(.down, .shift), .modified(.down, .alt)], .taller, "make the region taller"),
            KeyBinding([.modified(.up, .shift), .modified(.up, .alt)], .shorter, "make the region shorter"),
        ],
        dataMenu: [
            KeyBinding([.enter, .control("j")], .jump, bar: "Go To", "put the cursor on the item"),
            KeyBinding([.meta("c"), .character("c")], .copy, bar: "Clipboard", "copy the item's value (OSC 52)"),
            KeyBinding([.escape, .control("c"), .control("x")], .close, bar: "Close", "close the list"),
            KeyBinding([.up, .control("p")], .up, bar: "Prev", "the item above"),
            KeyBinding([.down, .control("n")], .down, bar: "Next", "the item below"),
        ],
        browser: [
            KeyBinding(
                [.enter, .control("j")], .choose, bar: "Choose",
                "open the folder, or take the file (inserted or written at once, as in nano)"),
            KeyBinding([.control("x"), .control("c"), .escape], .close, bar: "Close", "back to the prompt"),
            KeyBinding([.control("p"), .up], .up, bar: "Prev Line", "the entry above"),
            KeyBinding([.control("n"), .down], .down, bar: "Next Line", "the entry below"),
            KeyBinding([.control("b"), .left], .left, bar: "Back", "the entry before"),
            KeyBinding([.control("f"), .right], .right, bar: "Forward", "the entry after"),
            KeyBinding([.control("y"), .pageUp], .pageUp, bar: "Prev Page", "one screen up"),
            KeyBinding([.control("v"), .pageDown], .pageDown, bar: "Next Page", "one screen down"),
            KeyBinding([.meta("\\")], .first, "the first entry"),
            KeyBinding([.meta("/")], .last, "the last entry"),
        ])
}
