import CNcursesw
import Dispatch
import Glibc
import Synchronization

/// The real ``Terminal``: ncursesw on the process's standard input and output.
///
/// Starting it sets a UTF-8 locale (the user's, else `C.UTF-8`), raw mode (so ^C, ^Z, ^\ and ^S
/// reach the editor as keys), no echo, keypad off (ncurses hands over the bytes; ``KeyDecoder``
/// decodes them, Esc waiting 25 ms for the rest of a sequence), bracketed paste, and colour for
/// ``Style/warning`` when the terminal has colours and `NO_COLOR` is unset or empty (no-color.org).
/// ``shutdown()`` (also run by `deinit`, at `exit`, and on SIGTERM/SIGHUP/SIGINT/SIGQUIT) restores
/// the terminal; it is idempotent. With `deferTermination`, SIGTERM and SIGHUP are instead held for
/// the program (``pendingTerminationSignal``) and an outside SIGINT is ignored, as nano does.
/// This is the only type in the project that touches ncurses.
public final class NcursesTerminal: Terminal {
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var isShutDown = false

    /// Starts curses on the terminal.
    ///
    /// `installSignalHandlers`: restore the terminal, then die as before, on SIGTERM, SIGHUP,
    /// SIGINT and SIGQUIT (only where the signal still has its default action).
    ///
    /// `deferTermination` (with `installSignalHandlers`): SIGTERM and SIGHUP do not kill the
    /// process; the handler only records the first one (an atomic store, nothing else), and the
    /// program reads it from ``pendingTerminationSignal`` — it must poll it (the editor does, between
    /// keys) and then save, ``shutdown()`` and exit itself. Later termination signals are ignored
    /// (SIGQUIT and SIGKILL still end a stuck process). A SIGINT sent from outside is ignored (^C is
    /// a key in raw mode anyway). The handlers are reset to the default in programs this process
    /// starts (`exec`), unlike `SIG_IGN`.
    /// Throws ``TerminalError`` when standard input/output is not a terminal or `TERM` is unusable.
    public init(installSignalHandlers: Bool = true, deferTermination: Bool = false) throws {
        Self.prepareLocale()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        if installSignalHandlers {
            // Initialise the global before a handler can touch it.
            _ = caughtTermination.load(ordering: .sequentiallyConsistent)
            // Before newterm: ncurses installs its own SIGINT/SIGTERM handler (exit status 1) only
            // where the action is still the default.
            for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
                let handler: @convention(c) (Int32) -> Void
                switch sig {
                case SIGTERM where deferTermination, SIGHUP where deferTermination: handler = recordTermination
                case SIGINT where deferTermination: handler = ignoreSignal
                default: handler = restoreAndDie
                }
                // SIG_DFL imports as nil: keep any other action (an ignored SIGHUP under nohup, a
                // handler the program installed) as it was. glibc's signal() sets SA_RESTART.
                if let previous = signal(sig, handler) { signal(sig, previous) }
            }
        }
        // A terminal that cannot move the cursor (TERM=dumb) would show garbage: stop before
        // anything reaches it.
        guard cn_term_can_address_cursor() != 0 else {
            throw TerminalError.noCursorAddressing(term: getenv("TERM").map { String(cString: $0) } ?? "")
        }
        guard let screen = cn_newterm_stdio() else {
            throw TerminalError.cannotStart(term: getenv("TERM").map { String(cString: $0) } ?? "")
        }
        guard let window = cn_stdscr() else {
            endwin()
            delscreen(screen)
            throw TerminalError.cannotStart(term: getenv("TERM").map { String(cString: $0) } ?? "")
        }

        self.screen = screen
        self.window = window
        cursesActive.store(true, ordering: .sequentiallyConsistent)
        _ = Self.restoreAtExit
        raw()  // not cbreak/halfdelay: those turn ISIG back on and ^C would kill us
        noecho()
        nonl()
        keypad(window, false)  // the bytes as sent: KeyDecoder decodes every sequence
        intrflush(window, false)
        curs_set(1)
        // Colour only where the terminal has it and the user did not ask for none (no-color.org).
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        if !noColor && has_colors() && start_color() == OK {
            _ = use_default_colors()
            colorsEnabled = init_pair(Self.warningPair, Int16(COLOR_RED), -1) == OK
            if colorsEnabled { colorCount = Int(cn_colors()) }
        }
        Self.writeToTerminal("\u{1B}[?2004h")  // bracketed paste on
    }

    /// The colour pair of ``Style/warning`` (red on the terminal's own background).
    private static let warningPair: Int16 = 1
    /// Whether ``Style/warning`` draws in colour.
    private var colorsEnabled = false
    /// The colours a picture's cells may use (ncurses' `COLORS`: 256, 16 or 8), 0 when colour is
    /// off (no colours, or `NO_COLOR`).
    public private(set) var colorCount = 0
    /// The graphics-protocol pictures on the screen now, as last drawn.
    private var shownGraphics: [Frame.PlacedGraphic] = []
    /// Whether mouse reporting is on.
    private var reportsMouse = false

    private static let restoreAtExit: Void = { atexit { NcursesTerminal.restoreTerminal() } }()

    deinit {
        shutdown()
        delscreen(screen)
    }

    /// Sets `LC_ALL` from the environment, falling back to `C.UTF-8` when its codeset is not UTF-8.
    ///
    /// ncursesw reads and draws non-ASCII text only under a UTF-8 locale, and must see it before
    /// `newterm`/`initscr`; ``init(installSignalHandlers:)`` calls this, and so may a program early.
    public static func prepareLocale() {
        _ = setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset != "UTF-8" { _ = setlocale(LC_ALL, "C.UTF-8") }
    }

    /// Ends curses and gives the terminal back (cursor shown, echo on, bracketed paste off).
    /// Idempotent; later draws and reads do nothing.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        Self.restoreTerminal()
    }

    /// Restores the terminal if curses is active; idempotent and callable from `atexit` or a signal
    /// handler (for a program that installs its own handlers).
    public static func restoreTerminal() {
        guard cursesActive.exchange(false, ordering: .sequentiallyConsistent) else { return }
        endwin()
        writeToTerminal("\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l")
    }

    /// The SIGTERM or SIGHUP caught since a terminal was started with `deferTermination`, or nil.
    /// Safe to read at any time (an atomic load); it stays set.
    public var pendingTerminationSignal: Int32? {
        let sig = caughtTermination.load(ordering: .sequentiallyConsistent)
        return sig == 0 ? nil : sig
    }

    /// The current size, as ncurses knows it after the last `KEY_RESIZE`.
    public var size: TerminalSize {
        guard !isShutDown else { return TerminalSize(rows: 0, columns: 0) }
        return TerminalSize(rows: Int(getmaxy(window)), columns: Int(getmaxx(window)))
    }

    /// The frame drawn last and the window size it was drawn at; the next draw of a frame of the
    /// same size puts only the cells that changed (ncurses then sends only what differs anyway,
    /// but building every cell again costs about a millisecond a keystroke).
    private var drawn: (frame: Frame, rows: Int32, columns: Int32)?

    /// Draws `frame` in one refresh, clipped to the current screen size.
    public func draw(_ frame: Frame) {
        guard !isShutDown else { return }
        let rows = min(Int(getmaxy(window)), frame.size.rows)
        let columns = min(Int(getmaxx(window)), frame.size.columns)
        if frame.wantsMouse != reportsMouse {
            reportsMouse = frame.wantsMouse
            // Button-event tracking (press, drag, release) in SGR form (`ESC [ < b ; x ; y M`).
            Self.writeToTerminal(reportsMouse ? "\u{1B}[?1002h\u{1B}[?1006h" : "\u{1B}[?1006l\u{1B}[?1002l")
        }
        // Protocol pictures live outside curses' idea of the screen: when they change, curses
        // must repaint every cell (a picture's pixels stay until text is written over them).
        let graphicsChanged = frame.graphics != shownGraphics
        if graphicsChanged && !shownGraphics.isEmpty {
            if shownGraphics.contains(where: {
                if case .graphic(_, .kitty) = $0.picture.content { true } else { false }
            }) {
                Self.writeToTerminal("\u{1B}_Ga=d\u{1B}\\")  // kitty: delete every placement
            }
            clearok(window, true)
        }
        // Unchanged cells are not put again, unless pictures changed (curses repaints everything then).
        let previous =
            graphicsChanged
            ? nil
            : drawn.flatMap {
                $0.frame.size == frame.size && $0.rows == getmaxy(window) && $0.columns == getmaxx(window)
                    ? $0.frame : nil
            }
        if previous == nil { werase(window) }
        for row in 0..<max(0, rows) {
            for column in 0..<max(0, columns) {
                let cell = frame[row, column]
                if cell.width == 0 { continue }
                if let previous, previous[row, column] == cell,
                    cell.width == 1 || column + 1 >= columns || previous[row, column + 1] == frame[row, column + 1]
                {
                    continue
                }
                var pair = Int32(colorsEnabled && cell.style.contains(.warning) ? Self.warningPair : 0)
                if colorsEnabled, let colors = cell.colors {
                    pair = max(0, alloc_pair(Int32(colors.foreground), Int32(colors.background)))
                }
                if cell.width == 2 && column + 1 >= columns {
                    put(" ", attributes: attributes(cell.style), pair: pair, row: row, column: column)
                } else {
                    put(cell.content, attributes: attributes(cell.style), pair: pair, row: row, column: column)
                }
            }
        }
        if let cursor = frame.cursor, cursor.row >= 0, cursor.row < rows, cursor.column >= 0, cursor.column < columns {
            curs_set(1)
            wmove(window, Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wrefresh(window)
        drawn = (frame, getmaxy(window), getmaxx(window))
        if graphicsChanged {
            shownGraphics = frame.graphics
            var bytes: [UInt8] = Array("\u{1B}7".utf8)  // save the cursor curses left
            for placed in frame.graphics where placed.row < rows && placed.column < columns {
                guard case .graphic(let data, _) = placed.picture.content else { continue }
                bytes += Array("\u{1B}[\(placed.row + 1);\(placed.column + 1)H".utf8) + data
            }
            bytes += Array("\u{1B}8".utf8)
            if !frame.graphics.isEmpty { Self.writeBytes(bytes) }
        }
    }

    /// Puts `text` on the system clipboard through the terminal (OSC 52, ``Clipboard``).
    public func copyToClipboard(_ text: String) {
        guard !isShutDown else { return }
        Self.writeBytes(Clipboard.sequence(for: text, insideTmux: getenv("TMUX") != nil))
    }

    /// A cell's size in pixels as the terminal reports it (`TIOCGWINSZ`), nil when it does not.
    public var cellPixelSize: (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
            size.ws_xpixel > 0, size.ws_ypixel > 0
        else { return nil }
        return (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
    }

    /// Stops lovesnap's process group with `SIGSTOP` until its shell continues it (`fg`), as
    /// nano's `do_suspend` does: the cursor to the last row, curses ended (`endwin`, the shell's
    /// terminal modes back), bracketed paste and mouse reporting off, "Use "fg" to return to
    /// lovesnap." printed. Once continued, the program's modes are back (`reset_prog_mode`) and
    /// the whole screen is repainted at the next draw.
    ///
    /// Refused (a reason returned, nothing done) when the process group leads its session: no
    /// job-control shell could continue it (run as a terminal's or tmux's own command).
    public func suspend() -> String? {
        guard !isShutDown else { return "the terminal is closed" }
        guard getpgrp() != getsid(0) else { return "no shell to return to (lovesnap is not a shell's job)" }
        _ = move(getmaxy(window) - 1, 0)
        _ = refresh()
        _ = def_prog_mode()
        _ = endwin()
        Self.writeToTerminal("\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\n\nUse \"fg\" to return to lovesnap.\n")
        // The whole job (the OCR worker and reader too) stops, and continues with it.
        kill(0, SIGSTOP)
        _ = reset_prog_mode()
        Self.writeToTerminal("\u{1B}[?2004h" + (reportsMouse ? "\u{1B}[?1002h\u{1B}[?1006h" : ""))
        invalidate()
        return nil
    }

    /// Makes the next draw clear and repaint the whole screen (ncurses `clearok`).
    public func invalidate() {
        guard !isShutDown else { return }
        clearok(window, true)
        drawn = nil
    }

    /// The next key within `timeout` ms (negative: forever), decoded; nil on timeout.
    ///
    /// The bytes come from ncurses with `keypad` off, so ncurses hands them over undecoded (only
    /// `KEY_RESIZE` is its own); ``KeyDecoder`` makes keys of them. While the decoder waits for the
    /// rest of a sequence, the read waits only its ``KeyDecoder/pendingTimeout``.
    public func readKey(timeout: Int) -> KeyEvent? {
        guard !isShutDown else { return nil }
        while queued.isEmpty {
            let pending = decoder.pendingTimeout
            switch readInput(waiting: pending ?? timeout) {
            case .byte(let byte):
                queued += decoder.feed(byte)
            case .resize:
                queued.append(.resize)
            case .other:
                continue
            case .nothing:
                guard pending != nil else { return nil }
                queued += decoder.flush()
                if queued.isEmpty { return nil }
            }
        }
        return queued.removeFirst()
    }

    /// ncurses `flushinp`, and the keys already decoded or half-decoded here.
    public func discardTypeahead() {
        guard !isShutDown else { return }
        flushinp()
        queued = []
        decoder = KeyDecoder()
    }

    // MARK: - Input

    /// Turns bytes into keys.
    private var decoder = KeyDecoder()
    /// Keys decoded but not handed out yet (one read can complete several).
    private var queued: [KeyEvent] = []

    private enum Input {
        case byte(UInt8)
        case resize
        /// Another ncurses key code (none is expected with keypad off).
        case other
        /// Nothing within the time.
        case nothing
    }

    private func readInput(waiting milliseconds: Int) -> Input {
        wtimeout(window, Int32(clamping: milliseconds))
        let started = DispatchTime.now().uptimeNanoseconds
        let code = wgetch(window)
        switch code {
        case 0...0xFF:
            immediateFailures = 0
            return .byte(UInt8(code))
        case KEY_RESIZE:
            immediateFailures = 0
            return .resize
        case ERR:
            noteFailedRead(after: DispatchTime.now().uptimeNanoseconds - started, waited: milliseconds)
            return .nothing
        default:
            immediateFailures = 0
            return .other
        }
    }

    /// Consecutive reads that failed at once instead of waiting for their timeout.
    private var immediateFailures = 0

    /// A terminal that went away (its window closed while SIGHUP is ignored, as under `nohup`)
    /// makes every read fail at once: the loop would spin at 100 % CPU. After 50 such reads in a
    /// row it is treated as a hangup, so the editor saves the buffer and ends, as nano does.
    private func noteFailedRead(after nanoseconds: UInt64, waited milliseconds: Int) {
        guard milliseconds >= 20, nanoseconds < UInt64(milliseconds) * 500_000 else {
            immediateFailures = 0
            return
        }
        immediateFailures += 1
        if immediateFailures >= 50 {
            _ = caughtTermination.compareExchange(expected: 0, desired: SIGHUP, ordering: .sequentiallyConsistent)
        }
    }

    // MARK: - Output

    private func attributes(_ style: Style) -> attr_t {
        var a = cn_A_NORMAL()
        if style.contains(.reverse) { a |= cn_A_REVERSE() }
        if style.contains(.bold) { a |= cn_A_BOLD() }
        if style.contains(.underline) { a |= cn_A_UNDERLINE() }
        return a
    }

    /// One cell: a base character plus up to 4 combining marks (ncurses' CCHARW_MAX is 5); `pair`
    /// may be above 32767 (an extended pair, passed through setcchar's `opts`).
    private func put(_ content: String, attributes: attr_t, pair: Int32, row: Int, column: Int) {
        var scalars = content.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        if scalars.isEmpty || scalars.contains(where: { $0 < 0x20 || $0 == 0x7F }) { scalars = [0x20] }
        var wide = Array(scalars.prefix(5)) + [0]
        var cell = cchar_t()
        var extended = pair
        let short = Int16(clamping: pair)
        if setcchar(&cell, &wide, attributes, short, &extended) != OK {
            var first: [wchar_t] = [scalars[0], 0]
            guard setcchar(&cell, &first, attributes, short, &extended) == OK else { return }
        }
        mvwadd_wch(window, Int32(row), Int32(column), &cell)
    }

    private static func writeToTerminal(_ sequence: String) {
        writeBytes(Array(sequence.utf8))
    }

    /// Writes all of `bytes` to the terminal (a picture's sequence can be larger than one write takes).
    private static func writeBytes(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// Whether the terminal is in curses mode; shared with the atexit and signal paths, which cannot
/// capture context. Lock-free, so a signal handler may exchange it.
private let cursesActive = Atomic<Bool>(false)

/// The first termination signal held back for the program (0: none). Lock-free, so a signal handler
/// may store into it.
private let caughtTermination = Atomic<Int32>(0)

/// Records the first SIGTERM/SIGHUP; does nothing else (async-signal-safe). Later ones are dropped.
private func recordTermination(_ sig: Int32) {
    _ = caughtTermination.compareExchange(expected: 0, desired: sig, ordering: .sequentiallyConsistent)
}

/// An outside SIGINT while the editor runs: ignored (a handler, not SIG_IGN, so children get the default).
private func ignoreSignal(_ sig: Int32) {}

private func restoreAndDie(_ sig: Int32) {
    NcursesTerminal.restoreTerminal()
    signal(sig, SIG_DFL)
    raise(sig)
}
