import SnapTerminal

/// A named editor action, as bound to keys by a ``Keymap`` (nano's names where nano has them).
public enum Command: String, CaseIterable, Sendable {
    /// Show the help screen (^G).
    case help
    /// Leave, asking to save a modified buffer (^X).
    case exit
    /// Ask for a file name and write the text (^O).
    case writeOut
    /// Ask for a file name and insert its text at the cursor (^R, nano's Read File).
    case insertFile
    /// Write the text to the current file name without asking (^S).
    case save
    /// Search forward (^W).
    case whereIs
    /// Search backward (^Q, nano's Where Was).
    case whereWas
    /// Find the next match of the last search, forward (M-W).
    case findNext
    /// Find the previous match of the last search, backward (M-Q).
    case findPrevious
    /// Cut from the cursor to the end of the text (M-T, nano's Cut Till End).
    case cutToEnd
    /// Search and replace, asking at each match (^\).
    case replace
    /// Undo (M-U).
    case undo
    /// Redo (M-E).
    case redo
    /// Mail the text (M-M).
    case mail
    /// Cut the marked region, or else the current line (^K); consecutive cuts add to the cut
    /// text and undo as one step.
    case cutLine
    /// Copy the marked region, or else the current line, to the cut text (M-6).
    case copy
    /// Set the mark at the cursor, or unset it (M-A, ^6): the region between the mark and the
    /// cursor is highlighted, and ^K, M-6 and M-D work on it.
    case setMark
    /// Ask for "line,column" and go there (^_, M-G); negative numbers count from the end.
    case goToLine
    /// Count the words, lines and characters of the text, or of the marked region (M-D).
    case wordCount
    /// Show or hide line numbers (M-#).
    case toggleLineNumbers
    /// Indent the line, or the marked lines, by a TAB (M-}).
    case indent
    /// Unindent the line, or the marked lines, by a TAB or up to 8 spaces (M-{).
    case unindent
    /// To the start of this or the previous word (Ctrl-Left).
    case previousWord
    /// To the start of the next word (Ctrl-Right).
    case nextWord
    /// Paste the cut text (^U).
    case paste
    /// Report the cursor position (^C).
    case location
    /// Redraw the screen (^L).
    case refresh
    /// Say how to suspend (^Z): ^T, then ^Z, as in nano 7.2 without `--suspendable`.
    case suspendHint
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
    /// Justify the paragraph at the cursor, then go to the next (^J, nano's Justify).
    case justify
    /// Justify every paragraph (M-J, nano's Full Justify).
    case justifyAll
    /// Insert a TAB.
    case tab
    /// Delete the character before the cursor (Backspace).
    case deleteBackward
    /// Delete the character under the cursor (Delete).
    case deleteForward
    /// Cancel the running OCR (Esc).
    case cancelRecognition
    /// The next uncertain word, wrapping (M-]).
    case nextUncertain
    /// The previous uncertain word, wrapping (M-[).
    case previousUncertain
    /// Accept the uncertain word under the cursor as it is: its mark goes (M-Y; undo brings it back).
    case acceptWord
    /// The menu of other readings of the word under the cursor (M-Space, ^Space).
    case alternatives
    /// Ask for a command, pipe the marked region (else the whole text) to it, and show its
    /// output, which may then replace the region or be inserted (^T, nano's Execute Command).
    case executeCommand
    /// Stop the running mail command or ^T command (^C while one runs).
    case cancelJob
    /// Show the photo with the recognized words' boxes, the word under the cursor highlighted (M-P).
    case photoView
    /// List the data found in the text: card numbers, expiry dates, e-mail, phone, URLs, dates (M-F).
    case listData
    /// Copy the marked region, or else the line, to the system clipboard through the terminal (OSC 52, M-C).
    case copyToClipboard
    /// Read the photo again, asking for the languages and the level (M-O): after a cancelled or
    /// failed reading, or a poor one; the new reading replaces the text, or goes below it.
    case readAgain
}

/// What a key does in the list of data found in the text (M-F).
public enum DataMenuAction: String, CaseIterable, Sendable {
    /// Highlight the item above (wrapping).
    case up
    /// Highlight the item below (wrapping).
    case down
    /// Put the cursor on the item (Enter).
    case jump
    /// Copy the item's value to the system clipboard (OSC 52).
    case copy
    /// Close the list.
    case close
}

/// What a key does in a one-line prompt (Search, Replace with, File Name to Write, To, Subject).
/// Printable characters and pastes are typed into the answer and are not bound.
public enum PromptAction: String, CaseIterable, Sendable {
    /// Accept the answer (Enter).
    case accept
    /// Close the prompt, doing nothing (^C, Esc).
    case cancel
    /// Delete the character before the cursor.
    case deleteBackward
    /// Delete the character under the cursor.
    case deleteForward
    /// Cursor left.
    case moveLeft
    /// Cursor right.
    case moveRight
    /// Cursor to the start of the answer.
    case moveToStart
    /// Cursor to the end of the answer.
    case moveToEnd
    /// The previous answer given to this kind of prompt (Up).
    case olderAnswer
    /// The next answer given to this kind of prompt, then an empty one (Down).
    case newerAnswer
    /// Empty the answer (^K, as nano's Cut there; ^U).
    case clear
    /// Search with or without telling upper from lower case (M-C; search prompts only).
    case toggleCaseSensitivity
    /// Turn Search into Search (to replace) (^R; the Search prompt only).
    case switchToReplace
    /// Tell accented letters from plain ones, or not (M-A; search prompts only).
    case toggleAccentSensitivity
    /// Search for a regular expression, or for the text as it is (M-R; search prompts only).
    case toggleRegularExpression
    /// Search backwards, or forwards (M-B; the Search prompt only).
    case toggleBackwards
    /// Write with DOS line ends (CR LF), or back to Unix ones (M-D; File Name to Write only).
    case toggleDOSFormat
    /// Write with old Mac line ends (CR), or back to Unix ones (M-M; File Name to Write only).
    case toggleMacFormat
    /// Write in Latin-1 (ISO 8859-1), or in UTF-8 (M-L; File Name to Write only): a file read as
    /// Latin-1 can be written as UTF-8, and the other way round.
    case toggleLatin1
    /// Read at the accurate level, or the fast one (M-L; the Read again prompt only).
    case toggleAccurate
    /// Complete the file name typed, as nano does (Tab; the Write Out and Insert prompts only).
    case completeFileName
    /// Suspend lovesnap until the shell's `fg` (^Z; the Command to execute prompt only, as nano's
    /// ^T ^Z).
    case suspend
    /// Open the file browser on the answer's folder (^T; the Write Out and Insert prompts only).
    case browse

    /// Whether the action does anything in a prompt of `kind` (elsewhere its key is ignored).
    public func isAvailable(in kind: PromptKind) -> Bool {
        switch self {
        case .toggleCaseSensitivity, .toggleRegularExpression, .toggleAccentSensitivity:
            return kind == .search || kind == .replaceSearch
        case .toggleBackwards: return kind == .search
        case .switchToReplace: return kind == .search
        case .toggleDOSFormat, .toggleMacFormat, .toggleLatin1: return kind == .writeOut
        case .toggleAccurate: return kind == .readAgain
        case .completeFileName, .browse: return kind == .writeOut || kind == .insertFile
        case .suspend: return kind == .executeCommand
        default: return true
        }
    }
}

/// An answer to a question on the status line ("Replace this instance?", "Save modified buffer?",
/// "File … exists; OVERWRITE?", the output of a ^T command, a new reading of the photo).
public enum Answer: String, CaseIterable, Sendable {
    /// Yes.
    case yes
    /// No.
    case no
    /// Yes to this and every further match ("Replace this instance?" only).
    case all
    /// Insert at the cursor (a ^T command's output only).
    case insert
    /// Put the new reading below the text (a new reading of the photo only, M-O).
    case below
    /// Stop asking; back to the text.
    case cancel

    /// Whether the answer is offered by the question in `mode` (elsewhere its key is ignored).
    public func isAvailable(in mode: Mode) -> Bool {
        switch self {
        case .all:
            if case .confirmReplace = mode { return true }
            if case .confirmSeries = mode { return true }
            return false
        case .insert:
            if case .commandOutput = mode { return true }
            return false
        case .below:
            if case .confirmReading = mode { return true }
            return false
        case .yes, .no, .cancel:
            return true
        }
    }
}

/// What to do with a recovery file found when the document is opened.
public enum RecoveryChoice: String, CaseIterable, Sendable {
    /// Edit the recovered text (the recovery file stays until it is saved).
    case recover
    /// Remove the recovery file and open the document as it is.
    case discard
    /// Open the document as it is, read-only, and keep the recovery file (another lovesnap may
    /// still be editing it).
    case readOnly
    /// Leave lovesnap, keeping the recovery file.
    case exit
}

/// What a key does on the help screen. Any key not bound closes it too.
public enum HelpAction: String, CaseIterable, Sendable {
    /// Close the help screen.
    case close
    /// Scroll one line up.
    case lineUp
    /// Scroll one line down.
    case lineDown
    /// Scroll one screen up.
    case pageUp
    /// Scroll one screen down.
    case pageDown
}
