/// The undo and redo stacks of a ``TextBuffer``.
///
/// A step is a list of ``Edit``s applied in order; undo applies their inverses in reverse order.
/// A change too large to keep as edits (a replace-all over more than 64 KiB) is kept instead as
/// the text before and after it (``Step/replaced``: two ropes that share their unchanged chunks),
/// and undo and redo put one or the other back. A burst of typing (or of Backspace, or of Delete) merges into one step while it stays contiguous
/// and no other command closes the group (``closeGroup()``); a replace-all is always one step.
public struct History: Equatable, Sendable {
    /// How a step may merge with the step before it.
    public enum Grouping: Equatable, Sendable {
        /// Typed text, each insert starting where the previous one ended.
        case typing
        /// Backspace: each remove ends where the previous one started.
        case deletingBackward
        /// Delete: each remove starts at the same offset.
        case deletingForward
        /// Consecutive cuts (^K ^K ^K): each remove starts at the same offset, as with Delete, so
        /// that they undo in one step as in nano.
        case cutting
        /// A paste (^U): a step of its own, never merged; named for Undo's message ("Undid
        /// paste", as nano says).
        case pasting
        /// A justification (^J, M-J): a step of its own, never merged; named for Undo's message
        /// ("Undid justification", as nano says).
        case justifying
    }

    /// One undoable change.
    public struct Step: Equatable, Sendable {
        /// The edits, in the order they were applied (none for a step that only changed marks, or
        /// that ``replaced`` the whole text).
        public var edits: [Edit]
        /// The cursor's UTF-8 offset before the step (restored by undo).
        public var cursorBefore: Int
        /// The cursor's UTF-8 offset after the step (restored by redo).
        public var cursorAfter: Int
        /// How this step may absorb the next one; nil never merges.
        public var grouping: Grouping?
        /// The buffer's marks before the step (restored by undo).
        public var marksBefore: [TextMark]
        /// The buffer's marks after the step (restored by redo).
        public var marksAfter: [TextMark]
        /// For a change too large to keep as edits (a replace-all): the whole text before and
        /// after it, and the first offset where they differ. The two ropes share the chunks the
        /// change did not touch, so the step costs the changed chunks only; undo and redo put
        /// one or the other back at once.
        public var replaced: (before: Rope, after: Rope, firstChange: Int)?
        /// Which state of the text the step leads to (``History/textState``): given when recorded,
        /// and anew when a later edit merges into it.
        public internal(set) var id = 0

        /// Creates a step.
        public init(
            edits: [Edit], cursorBefore: Int, cursorAfter: Int, grouping: Grouping? = nil,
            marksBefore: [TextMark] = [], marksAfter: [TextMark] = [],
            replacing replaced: (before: Rope, after: Rope, firstChange: Int)? = nil
        ) {
            self.edits = edits
            self.cursorBefore = cursorBefore
            self.cursorAfter = cursorAfter
            self.grouping = grouping
            self.marksBefore = marksBefore
            self.marksAfter = marksAfter
            self.replaced = replaced
        }

        /// Whether the step changes the text (not only marks).
        public var changesText: Bool { !edits.isEmpty || replaced != nil }

        /// The first offset the step changes, or nil when it changes only marks.
        var firstChange: Int? { replaced?.firstChange ?? edits.map(\.offset).min() }

        /// Steps are equal when their edits, cursors, grouping, marks and texts are.
        public static func == (lhs: Step, rhs: Step) -> Bool {
            lhs.edits == rhs.edits && lhs.cursorBefore == rhs.cursorBefore && lhs.cursorAfter == rhs.cursorAfter
                && lhs.grouping == rhs.grouping && lhs.marksBefore == rhs.marksBefore
                && lhs.marksAfter == rhs.marksAfter && lhs.replaced?.before == rhs.replaced?.before
                && lhs.replaced?.after == rhs.replaced?.after && lhs.replaced?.firstChange == rhs.replaced?.firstChange
        }
    }

    /// Steps that ``TextBuffer/undo()`` would undo, oldest first.
    public private(set) var undoSteps: [Step] = []
    /// Steps that ``TextBuffer/redo()`` would redo, the next one last.
    public private(set) var redoSteps: [Step] = []
    private var groupIsOpen = false
    private var nextID = 1

    /// An empty history.
    public init() {}

    /// The state the text is in along this history: the same value means the same text, as undo
    /// and redo bring a state's value back (typing a letter and undoing it gives the value before).
    /// 0 before any change. Steps that change only marks do not count. What tells nano's
    /// "Modified" from a text undone back to what was written.
    public var textState: Int { undoSteps.last(where: \.changesText)?.id ?? 0 }

    /// Whether there is a step to undo.
    public var canUndo: Bool { !undoSteps.isEmpty }
    /// Whether there is a step to redo.
    public var canRedo: Bool { !redoSteps.isEmpty }

    /// Records an applied step, merging it into the previous one when both belong to one burst.
    /// Clears the redo stack.
    public mutating func record(_ step: Step) {
        redoSteps.removeAll()
        if groupIsOpen, let grouping = step.grouping, var last = undoSteps.last, last.grouping == grouping,
            last.edits.count == 1, step.edits.count == 1,
            let merged = Self.merge(last.edits[0], step.edits[0], grouping)
        {
            last.edits = [merged]
            last.cursorAfter = step.cursorAfter
            last.marksAfter = step.marksAfter
            last.id = nextID
            nextID += 1
            undoSteps[undoSteps.count - 1] = last
            return
        }
        var step = step
        step.id = nextID
        nextID += 1
        undoSteps.append(step)
        groupIsOpen = step.grouping != nil
    }

    /// Ends the current burst: the next step starts a new undo step.
    public mutating func closeGroup() {
        groupIsOpen = false
    }

    /// Removes the newest undo step, moving it to the redo stack.
    mutating func popUndo() -> Step? {
        groupIsOpen = false
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        return step
    }

    /// Removes the next redo step, moving it back to the undo stack.
    mutating func popRedo() -> Step? {
        groupIsOpen = false
        guard let step = redoSteps.popLast() else { return nil }
        undoSteps.append(step)
        return step
    }

    private static func merge(_ a: Edit, _ b: Edit, _ grouping: Grouping) -> Edit? {
        switch grouping {
        case .typing:
            guard a.kind == .insert, b.kind == .insert, b.offset == a.endOffset else { return nil }
            return .insert(a.text + b.text, at: a.offset)
        case .deletingBackward:
            guard a.kind == .remove, b.kind == .remove, b.endOffset == a.offset else { return nil }
            return .remove(b.text + a.text, at: b.offset)
        case .deletingForward, .cutting:
            guard a.kind == .remove, b.kind == .remove, b.offset == a.offset else { return nil }
            return .remove(a.text + b.text, at: a.offset)
        case .pasting, .justifying:
            return nil
        }
    }
}
