/// One change to a ``TextBuffer``: a text inserted at, or removed from, a UTF-8 offset.
///
/// Every change to a buffer goes through this type (or, for a replace-all too large to keep as
/// edits, through a whole new rope kept with the old one in its undo step), so undo and redo
/// come from ``inverse`` (insert ↔ remove) and are exact to the byte. Offsets count UTF-8 bytes from the start of the
/// whole text (lines joined with `"\n"`), so an edit never depends on how graphemes regroup
/// (`"e"` + `"\u{301}"` becoming `"é"`). Offsets are always on Unicode-scalar boundaries.
public struct Edit: Equatable, Sendable {
    /// Whether the edit adds or takes away text.
    public enum Kind: Equatable, Sendable {
        /// `text` is inserted so that it starts at `offset`.
        case insert
        /// The `text` that starts at `offset` is removed.
        case remove
    }

    /// Insert or remove.
    public var kind: Kind
    /// UTF-8 byte offset into the whole text where `text` starts (0 ... text's UTF-8 count).
    public var offset: Int
    /// The inserted or removed text; may contain `"\n"`.
    public var text: String

    /// Creates an edit; prefer ``insert(_:at:)`` and ``remove(_:at:)``.
    public init(kind: Kind, offset: Int, text: String) {
        self.kind = kind
        self.offset = offset
        self.text = text
    }

    /// An edit that inserts `text` at UTF-8 `offset`.
    public static func insert(_ text: String, at offset: Int) -> Edit {
        Edit(kind: .insert, offset: offset, text: text)
    }

    /// An edit that removes `text`, which must be found at UTF-8 `offset`.
    public static func remove(_ text: String, at offset: Int) -> Edit {
        Edit(kind: .remove, offset: offset, text: text)
    }

    /// The edit that undoes this one: an insert becomes a remove of the same text at the same offset.
    public var inverse: Edit {
        Edit(kind: kind == .insert ? .remove : .insert, offset: offset, text: text)
    }

    /// The UTF-8 offset just after `text`: `offset + text.utf8.count`.
    public var endOffset: Int { offset + text.utf8.count }
}
