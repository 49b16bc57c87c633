// The escape sequences KeyDecoder knows: xterm, VT220, rxvt and Linux console cursor, editing and
// function keys, with xterm's modifiers; and the text of a bracketed paste.

extension KeyDecoder {
    /// `ESC [ 2 0 1 ~`, the end of a bracketed paste.
    static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    /// The pasted bytes as text: invalid UTF-8 replaced, CR LF and lone CR turned into LF.
    static func pastedText(_ bytes: [UInt8]) -> String {
        var text = ""
        var previousWasCR = false
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            text.unicodeScalars.append(scalar == "\r" ? "\n" : scalar)
        }
        return text
    }

    /// The key for a final byte shared by CSI and SS3 (`A` up … `S` F4; `M` Enter in SS3 only).
    static func finalKey(_ byte: UInt8, ss3: Bool) -> KeyEvent? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "P")...UInt8(ascii: "S"): return .function(Int(byte - UInt8(ascii: "P")) + 1)
        case UInt8(ascii: "M") where ss3: return .enter
        case UInt8(ascii: "Z") where !ss3: return .backTab
        default: return nil
        }
    }

    /// A CSI sequence: `ESC [` `body` `final`, where `body` is `N` or `N;M` (M: xterm's modifier).
    static func csiKey(body: [UInt8], final: UInt8) -> KeyEvent? {
        if body.first == UInt8(ascii: "<") { return mouse(body: body.dropFirst(), final: final) }
        if body == [UInt8(ascii: "[")] {
            guard (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(final) else { return nil }
            return .function(Int(final - UInt8(ascii: "A")) + 1)  // Linux console F1–F5
        }
        let text = String(decoding: body, as: UTF8.self)
        let fields = text.split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count <= 2, fields.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        let number = fields.first.flatMap { Int($0) }
        let modifier = fields.count == 2 ? Int(fields[1]) ?? 1 : 1
        switch final {
        case UInt8(ascii: "~"):
            guard let number, let key = tildeKey(number) else { return nil }
            return applying(modifier: modifier, to: key)
        case UInt8(ascii: "a"): return number == nil ? .modified(.up, .shift) : nil  // rxvt Shift+arrows
        case UInt8(ascii: "b"): return number == nil ? .modified(.down, .shift) : nil
        case UInt8(ascii: "c"): return number == nil ? .modified(.right, .shift) : nil
        case UInt8(ascii: "d"): return number == nil ? .modified(.left, .shift) : nil
        default:
            guard number == nil || number == 1, let key = finalKey(final, ss3: false) else { return nil }
            return applying(modifier: modifier, to: key)
        }
    }

    /// An SGR mouse report, `ESC [ < B ; X ; Y M` (press or drag) or `… m` (release): X and Y from 1;
    /// B's low bits the button (3 none), +4 Shift, +8 Alt, +16 Ctrl, +32 motion, +64 the wheel.
    static func mouse(body: ArraySlice<UInt8>, final: UInt8) -> KeyEvent? {
        guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
        let fields = String(decoding: body, as: UTF8.self).split(separator: ";").map { Int($0) }
        guard fields.count == 3, let b = fields[0], let x = fields[1], let y = fields[2], x >= 1, y >= 1 else {
            return nil
        }
        var modifiers: KeyModifiers = []
        if b & 4 != 0 { modifiers.insert(.shift) }
        if b & 8 != 0 { modifiers.insert(.alt) }
        if b & 16 != 0 { modifiers.insert(.control) }
        let button = b & 3
        let action: MouseEvent.Action
        if b & 64 != 0 {
            action = button == 0 ? .wheelUp : .wheelDown
        } else if final == UInt8(ascii: "m") {
            action = .release
        } else {
            action = b & 32 != 0 ? .drag : .press
        }
        return .mouse(
            MouseEvent(action, button: b & 64 != 0 ? 0 : button, row: y - 1, column: x - 1, modifiers: modifiers))
    }

    /// VT220-style `ESC [ N ~` keys.
    static func tildeKey(_ number: Int) -> KeyEvent? {
        switch number {
        case 1, 7: return .home
        case 2: return .insert
        case 3: return .delete
        case 4, 8: return .end
        case 5: return .pageUp
        case 6: return .pageDown
        case 11...15: return .function(number - 10)
        case 17...21: return .function(number - 11)
        case 23...26: return .function(number - 12)
        case 28, 29: return .function(number - 13)
        case 31...34: return .function(number - 14)
        default: return nil
        }
    }

    /// Applies xterm's modifier parameter (1 + Shift 1 + Alt 2 + Ctrl 4 + Meta 8).
    ///
    /// Function keys are renumbered as ncurses' xterm description does (Shift +12, Ctrl +24,
    /// Ctrl+Shift +36, Alt +48, Alt+Shift +60, up to F63): Shift+F2 is F14, nano's Replace.
    static func applying(modifier: Int, to key: KeyEvent) -> KeyEvent {
        guard modifier >= 2 && modifier <= 16 else { return key }
        let modifiers = KeyModifiers(rawValue: UInt8(modifier - 1))
        if case .function(let n) = key {
            let offsets: [KeyModifiers: Int] = [
                [.shift]: 12, [.control]: 24, [.control, .shift]: 36,
                [.alt]: 48, [.alt, .shift]: 60,
            ]
            if let offset = offsets[modifiers], n + offset <= 63 { return .function(n + offset) }
        }
        return .modified(key, modifiers)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
