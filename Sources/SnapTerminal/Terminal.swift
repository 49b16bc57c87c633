/// A character terminal the editor draws on and reads keys from.
///
/// The editor only sees this protocol; ``NcursesTerminal`` is the real one, and tests use a fake.
public protocol Terminal: AnyObject {
    /// The current size in cells (may be as small as 1x1, or 0x0 while unknown).
    var size: TerminalSize { get }
    /// Shows `frame` (clipped to the current size if the terminal changed size meanwhile).
    func draw(_ frame: Frame)
    /// The next key, waiting at most `timeout` milliseconds (negative: wait forever); nil on timeout.
    func readKey(timeout: Int) -> KeyEvent?
    /// Forgets what is on the screen, so the next ``draw(_:)`` repaints every cell (^L).
    func invalidate()
    /// Puts `text` on the system clipboard through the terminal (xterm's OSC 52, ``Clipboard``);
    /// the terminal may refuse it, and nothing tells.
    func copyToClipboard(_ text: String)
    /// A termination signal (`SIGTERM`, `SIGHUP`) that arrived and was held back for the program to
    /// act on (save, restore, exit), or nil. It stays set once caught.
    var pendingTerminationSignal: Int32? { get }
    /// Throws away the keys typed but not read yet (ncurses `flushinp`): keys typed before a
    /// question was on the screen must not answer it.
    func discardTypeahead()
    /// Stops the program as a job of its shell until `fg` continues it (nano's Suspend): the
    /// terminal is given back first and taken again after. Returns nil once continued, or why it
    /// cannot be suspended (nothing then changed).
    func suspend() -> String?
}

extension Terminal {
    /// Does nothing: for terminals that always repaint everything.
    public func invalidate() {}

    /// Does nothing: for terminals without a clipboard.
    public func copyToClipboard(_ text: String) {}

    /// Never any: for terminals that do not catch signals.
    public var pendingTerminationSignal: Int32? { nil }

    /// Does nothing: for terminals without typeahead.
    public func discardTypeahead() {}

    /// Refuses: for terminals that are no shell's job.
    public func suspend() -> String? { "this terminal cannot be suspended" }
}
