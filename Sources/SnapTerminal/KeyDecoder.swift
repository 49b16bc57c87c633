/// Turns the bytes a terminal sends into ``KeyEvent``s: UTF-8 text, control bytes, Esc, Meta
/// (Esc + key), CSI and SS3 sequences (xterm, VT220, rxvt and Linux console), bracketed paste.
///
/// A value fed bytes, with no terminal and no clock: ``feed(_:)`` returns the keys the bytes
/// complete, and when input goes quiet for ``pendingTimeout`` milliseconds the reader calls
/// ``flush()`` to settle what is still open — a lone Esc, `Esc O` (Meta+O), a letter that might
/// still get a combining mark, a cut-short paste.
///
/// - A base character and the combining marks that follow it at once are one ``KeyEvent/character(_:)``
///   (one grapheme cluster, `e` + U+0308 is `ë`): a character is held until a byte that does not
///   extend it arrives, or until ``flush()``.
/// - Invalid UTF-8 becomes U+FFFD (one per maximal invalid subsequence, as `String(decoding:as:)`
///   does); nothing is dropped silently and nothing traps.
/// - `ESC [ 200 ~` … `ESC [ 201 ~` (bracketed paste) is one ``KeyEvent/paste(_:)`` with CR and CR LF
///   turned into LF; the bytes inside are text, never keys.
/// - A sequence it does not know (or one cut by a control byte, or longer than 16 bytes) is dropped.
public struct KeyDecoder: Sendable {
    /// Milliseconds to wait after Esc for the rest of a sequence (ncurses' `ESCDELAY` as lovesnap set it).
    public static let escapeTimeout = 25
    /// Milliseconds to wait for the next byte of a CSI sequence or of a UTF-8 character.
    public static let sequenceTimeout = 50
    /// Milliseconds of silence that end a bracketed paste whose end marker never came.
    public static let pasteTimeout = 200

    /// The longest CSI sequence body kept before it is dropped as garbage.
    static let maximumSequenceLength = 16

    private enum State: Sendable {
        /// Plain text and control bytes.
        case ground
        /// After Esc: Meta + key, or the start of a sequence.
        case escape
        /// After `ESC [`: the bytes so far, without the final one.
        case csi([UInt8])
        /// After `ESC O`: modifier digits so far.
        case ss3([UInt8])
        /// Inside a bracketed paste: the bytes so far (the end marker is removed when it arrives).
        case paste([UInt8])
    }

    private var state = State.ground
    /// The bytes of a UTF-8 character begun but not finished (in `ground` or `escape`).
    private var partial: [UInt8] = []
    /// A character that combining marks may still join (in `ground`).
    private var held: String?

    /// A decoder in its initial state.
    public init() {}

    /// Whether bytes are waiting for more input (or for ``flush()``) before they make a key.
    public var isPending: Bool { pendingTimeout != nil }

    /// How many milliseconds the reader should wait for another byte before calling ``flush()``;
    /// nil when nothing is pending. 0 means "only what is already there": a held character joins
    /// combining marks sent with it, not ones typed later.
    public var pendingTimeout: Int? {
        switch state {
        case .ground:
            if !partial.isEmpty { return Self.sequenceTimeout }
            return held == nil ? nil : 0
        case .escape, .ss3: return Self.escapeTimeout
        case .csi: return Self.sequenceTimeout
        case .paste: return Self.pasteTimeout
        }
    }

    /// Feeds `bytes` in order; returns the keys they complete, oldest first.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [KeyEvent] {
        var events: [KeyEvent] = []
        for byte in bytes { events += feed(byte) }
        return events
    }

    /// Feeds one byte; returns the keys it completes (often none yet), oldest first.
    public mutating func feed(_ byte: UInt8) -> [KeyEvent] {
        var events: [KeyEvent] = []
        consume(byte, into: &events)
        return events
    }

    /// Settles everything pending as if no more bytes will follow soon: a lone Esc, `Esc O` as
    /// Meta+O, a held character, a paste without its end marker, an unfinished UTF-8 character
    /// (U+FFFD). An unfinished CSI sequence is dropped. The decoder is then idle.
    public mutating func flush() -> [KeyEvent] {
        var events: [KeyEvent] = []
        switch state {
        case .ground:
            if !partial.isEmpty {
                partial = []
                character("\u{FFFD}", into: &events)
            }
            releaseHeld(into: &events)
        case .escape:
            if partial.isEmpty {
                events.append(.escape)
            } else {
                partial = []
                events.append(.meta(for: "\u{FFFD}"))
            }
        case .csi(let body):
            // Esc [ and nothing more: Alt+[ (M-[), as Esc O is M-O.
            if body.isEmpty { events.append(.meta("[")) }
        case .ss3(let digits):
            events.append(.meta("o"))
            state = .ground
            for digit in digits { consume(digit, into: &events) }
            releaseHeld(into: &events)
        case .paste(let bytes):
            events.append(.paste(Self.pastedText(bytes)))
        }
        state = .ground
        return events
    }

    // MARK: - States

    private mutating func consume(_ byte: UInt8, into events: inout [KeyEvent]) {
        switch state {
        case .ground: ground(byte, into: &events)
        case .escape: escape(byte, into: &events)
        case .csi(let body): csi(body, byte, into: &events)
        case .ss3(let digits): ss3(digits, byte, into: &events)
        case .paste(var bytes):
            bytes.append(byte)
            if bytes.count >= Self.pasteEnd.count, bytes.suffix(Self.pasteEnd.count).elementsEqual(Self.pasteEnd) {
                bytes.removeLast(Self.pasteEnd.count)
                state = .ground
                events.append(.paste(Self.pastedText(bytes)))
            } else {
                state = .paste(bytes)
            }
        }
    }

    private mutating func ground(_ byte: UInt8, into events: inout [KeyEvent]) {
        if !partial.isEmpty {
            switch continueUTF8(byte) {
            case .pending: return
            case .scalar(let scalar):
                character(scalar, into: &events)
                return
            case .invalid:
                character("\u{FFFD}", into: &events)  // the cut-short character; the byte is read anew
            }
        }
        if byte >= 0x80 {
            if let scalar = startUTF8(byte) { character(scalar, into: &events) }
            return
        }
        switch byte {
        case 0x1B:
            releaseHeld(into: &events)
            state = .escape
        case 0x20..<0x7F:
            character(Unicode.Scalar(byte), into: &events)
        default:
            releaseHeld(into: &events)
            if let key = KeyEvent.fromControlByte(UInt32(byte)) { events.append(key) }
        }
    }

    private mutating func escape(_ byte: UInt8, into events: inout [KeyEvent]) {
        // Alt + a non-ASCII key: Esc and a UTF-8 character (U+FFFD if it is not valid).
        if !partial.isEmpty {
            switch continueUTF8(byte) {
            case .pending: return
            case .scalar(let scalar):
                state = .ground
                events.append(.meta(for: Character(scalar)))
            case .invalid:
                state = .ground
                events.append(.meta(for: "\u{FFFD}"))
                ground(byte, into: &events)
            }
            return
        }
        if byte >= 0x80 {
            if let scalar = startUTF8(byte) {
                state = .ground
                events.append(.meta(for: Character(scalar)))
            }
            return
        }
        switch byte {
        case UInt8(ascii: "["):
            state = .csi([])
        case UInt8(ascii: "O"):
            state = .ss3([])
        case 0x20..<0x7F:
            // M-Space too (the alternatives menu): as two keys, a question took the Esc as its
            // cancel and the space went into the text.
            state = .ground
            events.append(.meta(for: Character(Unicode.Scalar(byte))))
        default:
            // Esc then a control key or another Esc: a lone Esc, then that key.
            events.append(.escape)
            state = .ground
            ground(byte, into: &events)
        }
    }

    private mutating func csi(_ body: [UInt8], _ byte: UInt8, into events: inout [KeyEvent]) {
        guard byte >= 0x20 && byte < 0x7F else {
            // A control byte cuts the sequence short: drop it, and the byte is a key of its own.
            state = .ground
            ground(byte, into: &events)
            return
        }
        let isFinal: Bool
        if body == [UInt8(ascii: "[")] {
            isFinal = true  // the Linux console's F1–F5: `ESC [ [ A` … `ESC [ [ E`
        } else if body.isEmpty && byte == UInt8(ascii: "[") {
            isFinal = false
        } else {
            isFinal = (0x40...0x7E).contains(byte)
        }
        guard isFinal else {
            if body.count < Self.maximumSequenceLength {
                state = .csi(body + [byte])
            } else {
                state = .ground  // garbage: dropped, and this byte is read anew
                ground(byte, into: &events)
            }
            return
        }
        state = .ground
        if body == Array("200".utf8) && byte == UInt8(ascii: "~") {
            state = .paste([])
            return
        }
        if let key = Self.csiKey(body: body, final: byte) { events.append(key) }
    }

    private mutating func ss3(_ digits: [UInt8], _ byte: UInt8, into events: inout [KeyEvent]) {
        if (0x30...0x39).contains(byte) && digits.count < 2 {
            state = .ss3(digits + [byte])
            return
        }
        state = .ground
        let modifier = Int(String(decoding: digits, as: UTF8.self)) ?? 1
        if let key = Self.finalKey(byte, ss3: true) {
            events.append(Self.applying(modifier: modifier, to: key))
        } else {
            // Not a sequence after all: Alt+O, then the bytes as typed.
            events.append(.meta("o"))
            for digit in digits { ground(digit, into: &events) }
            ground(byte, into: &events)
        }
    }

    // MARK: - Characters

    /// Adds `scalar` to the held character when it extends its grapheme cluster; else sends the
    /// held one and holds `scalar`.
    private mutating func character(_ scalar: Unicode.Scalar, into events: inout [KeyEvent]) {
        if var text = held {
            text.unicodeScalars.append(scalar)
            if text.count == 1 {
                held = text
                return
            }
            releaseHeld(into: &events)
        }
        held = String(scalar)
    }

    private mutating func releaseHeld(into events: inout [KeyEvent]) {
        if let text = held, let character = text.first { events.append(.character(character)) }
        held = nil
    }

    private enum UTF8Step {
        /// More bytes are needed.
        case pending
        /// The character is complete.
        case scalar(Unicode.Scalar)
        /// The byte cannot continue the character: it was dropped (U+FFFD), the byte is not used.
        case invalid
    }

    /// A byte ≥ 0x80 outside a character: a lead byte starts one (nil), anything else is U+FFFD.
    private mutating func startUTF8(_ byte: UInt8) -> Unicode.Scalar? {
        guard (0xC2...0xF4).contains(byte) else { return "\u{FFFD}" }  // continuation, C0, C1, F5…FF
        partial = [byte]
        return nil
    }

    /// The next byte of the character begun in `partial`.
    private mutating func continueUTF8(_ byte: UInt8) -> UTF8Step {
        guard Self.isValidContinuation(byte, after: partial) else {
            partial = []
            return .invalid
        }
        partial.append(byte)
        guard partial.count == Self.sequenceLength(lead: partial[0]) else { return .pending }
        defer { partial = [] }
        return .scalar(String(decoding: partial, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}")
    }

    private static func sequenceLength(lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        default: return 4
        }
    }

    /// The second byte's narrower ranges exclude overlong forms, surrogates and values past U+10FFFF.
    private static func isValidContinuation(_ byte: UInt8, after partial: [UInt8]) -> Bool {
        guard partial.count == 1 else { return (0x80...0xBF).contains(byte) }
        switch partial[0] {
        case 0xE0: return (0xA0...0xBF).contains(byte)
        case 0xED: return (0x80...0x9F).contains(byte)
        case 0xF0: return (0x90...0xBF).contains(byte)
        case 0xF4: return (0x80...0x8F).contains(byte)
        default: return (0x80...0xBF).contains(byte)
        }
    }
}
