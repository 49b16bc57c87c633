import CLibc
import Glibc
import Testing

@testable import SnapText

/// SnapText's table of scalar widths (`ScalarWidths.swift`, made by scripts/make-width-table.py)
/// against glibc's `wcwidth` in C.UTF-8 on this machine, every scalar: the editor's columns are
/// the ones libc gives, without SnapText calling libc.
@Test func theWidthTableIsGlibcsWcwidthForEveryScalar() throws {
    let locale = try #require(newlocale(Int32(LC_CTYPE_MASK), "C.UTF-8", nil))
    defer { freelocale(locale) }
    let previous = uselocale(locale)
    defer { uselocale(previous) }
    var differing: [String] = []
    for value in UInt32(0)..<0x11_0000 {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let libc = max(0, Int(clibc_wcwidth(wchar_t(bitPattern: value))))
        if DisplayWidth.wcwidth(scalar) != libc { differing.append("U+\(String(value, radix: 16)): \(libc)") }
    }
    #expect(differing.isEmpty, "\(differing.count) scalars differ, first \(differing.prefix(10))")
    // A few by hand: Latin, a combining acute, a CJK ideograph, an emoji, an unassigned scalar.
    #expect(
        ["e", "\u{301}", "\u{4E2D}", "\u{1F600}", "\u{E0080}"].map { DisplayWidth.wcwidth($0.unicodeScalars.first!) }
            == [1, 0, 2, 2, 0])
}
