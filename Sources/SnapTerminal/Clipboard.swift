import Foundation

/// The clipboard escape sequence of xterm (OSC 52): the terminal, not the program, puts the text
/// on the system clipboard, so it works over ssh and inside tmux.
public enum Clipboard {
    /// `ESC ] 52 ; c ; BASE64 BEL`: sets the clipboard (`c`) to `text` (UTF-8, base64 as RFC 4648 §4).
    ///
    /// Inside tmux (`insideTmux`, from `$TMUX`) the sequence is sent as it is — tmux keeps it as a
    /// paste buffer and passes it on when its `set-clipboard` option is `on` — and once more in
    /// tmux's passthrough wrapper (`ESC P tmux; …ESC \`, doubled Escs), which reaches the outer
    /// terminal when `allow-passthrough` is on.
    public static func sequence(for text: String, insideTmux: Bool) -> [UInt8] {
        let osc = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        guard insideTmux else { return Array(osc.utf8) }
        let wrapped = "\u{1B}Ptmux;" + osc.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
        return Array((osc + wrapped).utf8)
    }
}
