import SnapTerminal

/// A named editor action, as bound to keys by a ``Keymap`` (nano's names where nano has them).
public enum Command: String, CaseIterable, Sendable {
    /// Show the help screen (^G).
    case help
    /// Leave, asking to save a modified buffer (^X).
    case exit
    /// Ask for a file name and write the text (^O).
    case writeOut
    /// Write the text to the current file name without asking (^S).
    case save
    /// Search forward (^W).
    case whereIs
    /// Repeat the last search (M-W).
    case findNext
    /// Search and replace, asking at each match (^\).
    case replace
    /// Undo (M-U).
    case undo
    /// Redo (M-E).
    case redo
    /// Mail the text (M-M).
    case mail
    /// Cut the current line (^K).
    case cutLine
    /// Paste the cut text (^U).
    case paste
    /// Report the cursor position (^C).
    case location
    /// Redraw the screen (^L).
    case refresh
    /// Cursor up.
    case moveUp
    /// Cursor down.
    case moveDown
    /// Cursor left, one character (grapheme cluster).
    case moveLeft
    /// Cursor right, one character (grapheme cluster).
    case moveRight
    /// Start of line.
    case lineStart
    /// End of line.
    case lineEnd
    /// One screen up.
    case pageUp
    /// One screen down.
    case pageDown
    /// First line.
    case firstLine
    /// Last line.
    case lastLine
    /// Break the line (Enter).
    case newline
    /// Insert a TAB.
    case tab
    /// Delete the character before the cursor (Backspace).
    case deleteBackward
    /// Delete the character under the cursor (Delete).
    case deleteForward
    /// Cancel the running OCR (Esc).
    case cancelRecognition
}
