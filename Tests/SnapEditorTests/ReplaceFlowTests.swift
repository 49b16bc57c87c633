import Foundation
import SnapTerminal
import SnapTestSupport
import SnapText
import Testing

@testable import SnapEditor

@Test func replaceAllFromTheQuestionIsOneUndoStep() throws {
    let original = try Fixtures.text("replace-all-self-containing.txt")
    let (editor, terminal, _) = makeEditor(text: original)
    editor.press(.control("\\"))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search (to replace): "))
    editor.press(typing("Lenore") + [.enter])
    #expect(editor.state.mode == .prompt(Prompt(kind: .replaceWith(search: "Lenore"))))
    editor.press(typing("Name") + [.enter])
    guard case .confirmReplace(let session) = editor.state.mode else {
        Issue.record("no Replace this instance? question")
        return
    }
    #expect(session.match == 0..<6)
    let frame = render(editor.state, size: terminal.size)
    #expect(frame.text(ofRow: 21).hasPrefix("Replace this instance?"))
    #expect((0..<6).allSatisfy { frame[1, $0].style == .reverse })  // the match is highlighted
    #expect(frame[1, 6].style == .normal)
    editor.press(.character("A"))
    #expect(editor.state.status == StatusMessage("Replaced 3 occurrences"))
    #expect(
        editor.state.buffer.text
            == "Name, the kettle hums your tune,\nCome home, Name, before the frost;\nle vent écrit ton nom, Name.\n")
    #expect(editor.state.isModified)
    #expect(editor.state.buffer.cursor == .zero)
    editor.press(.meta("u"))
    #expect(bytes(editor.state.buffer.text) == bytes(original))
    editor.press(.meta("e"))
    #expect(
        editor.state.buffer.text
            == "Name, the kettle hums your tune,\nCome home, Name, before the frost;\nle vent écrit ton nom, Name.\n")
}

/// All matches of a text too large to keep as edits (its replaced span is more than 64 KiB):
/// the same one step, "Undid replacement" and "Redid replacement", the text exact both ways.
@Test func replaceAllOfALargeTextIsOneStepToo() throws {
    let original = String(repeating: try Fixtures.text("replace-all-self-containing.txt"), count: 1000)
    let (editor, _, _) = makeEditor(text: original)
    editor.press([.control("\\")] + typing("Lenore") + [.enter] + typing("Name") + [.enter, .character("A")])
    #expect(editor.state.status == StatusMessage("Replaced 3000 occurrences"))
    let replaced = original.replacingOccurrences(of: "Lenore", with: "Name")
    #expect(editor.state.buffer.text == replaced)
    #expect(editor.state.buffer.history.undoSteps.count == 1)
    editor.press(.meta("u"))
    #expect(editor.state.status == StatusMessage("Undid replacement"))
    #expect(bytes(editor.state.buffer.text) == bytes(original))
    editor.press(.meta("e"))
    #expect(editor.state.status == StatusMessage("Redid replacement"))
    #expect(editor.state.buffer.text == replaced)
}

@Test func yesNoAnswersWalkTheMatchesAndWrap() {
    let (editor, _, _) = makeEditor(text: "cat cat\ncat cat")
    editor.press(.down, .right)  // cursor inside the third "cat": start after it
    editor.press(.control("\\"))
    editor.press(typing("cat") + [.enter] + typing("dog") + [.enter])
    // Order: 4th (12), wrap, 1st (0), 2nd (4), 3rd (8, it starts before the cursor), then stop.
    editor.press(.character("y"))  // 4th
    editor.press(.character("n"))  // 1st kept
    editor.press(.character("y"))  // 2nd
    guard case .confirmReplace(let session) = editor.state.mode else {
        Issue.record("loop ended early")
        return
    }
    #expect(session.match == 8..<11)
    #expect(session.wrapped)
    editor.press(.character("n"))  // 3rd kept
    #expect(editor.state.mode == .editing)
    #expect(editor.state.status == StatusMessage("Replaced 2 occurrences"))
    #expect(editor.state.buffer.text == "cat dog\ncat dog")
    #expect(editor.state.buffer.cursor == TextPosition(line: 1, column: 1))
    editor.press(.meta("u"))
    #expect(editor.state.buffer.text == "cat cat\ncat dog")
}

@Test func oneReplacementSaysOccurrence() {
    let (editor, _, _) = makeEditor(text: "raven")
    editor.press([.control("\\")] + typing("raven") + [.enter] + typing("crow") + [.enter, .character("y")])
    #expect(editor.state.status == StatusMessage("Replaced 1 occurrence"))
    #expect(editor.state.buffer.text == "crow")
}

@Test func cancelStopsTheLoopKeepingReplacementsMade() {
    let (editor, _, _) = makeEditor(text: "a a a")
    editor.press([.control("\\")] + typing("a") + [.enter] + typing("b") + [.enter])
    editor.press(.character("y"), .control("c"))
    #expect(editor.state.status == StatusMessage("Replaced 1 occurrence"))
    #expect(editor.state.buffer.text == "b a a")
    #expect(editor.state.mode == .editing)
}

/// Through the prompts: an empty search, a search that is not there, "en" → "EN" undone, then
/// "en" → "" with the replacement prompt starting empty (not the previous replacement).
@Test func emptySearchUndoAndEmptyReplacementThroughThePrompts() throws {
    let original = try Fixtures.text("replace-empty-and-undo.txt")
    let (editor, terminal, _) = makeEditor(text: original)
    // 1. empty search: refused, nothing changes, prompt closed.
    editor.press(.control("\\"), .enter)
    #expect(editor.state.status == StatusMessage("Nothing to search for"))
    #expect(editor.state.mode == .editing)
    #expect(bytes(editor.state.buffer.text) == bytes(original))
    // 2. not found.
    editor.press([.control("\\")] + typing("ENx") + [.enter] + typing("y") + [.enter])
    #expect(editor.state.status == StatusMessage("\"ENx\" not found"))
    #expect(bytes(editor.state.buffer.text) == bytes(original))
    // 3. en -> EN, all, then undo.
    editor.press([.control("\\")] + typing("en") + [.enter] + typing("EN") + [.enter, .character("a")])
    #expect(editor.state.status == StatusMessage("Replaced 3 occurrences"))
    editor.press(.meta("u"))
    #expect(bytes(editor.state.buffer.text) == bytes(original))
    // 4. en -> "" : the search prompt offers [en]; the replacement prompt starts EMPTY.
    editor.press(.control("\\"))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search (to replace) [en]: "))
    editor.press(.enter)  // accept the default
    #expect(editor.state.mode == .prompt(Prompt(kind: .replaceWith(search: "en"))))
    editor.press(.enter, .character("a"))
    #expect(editor.state.status == StatusMessage("Replaced 3 occurrences"))
    #expect(bytes(editor.state.buffer.text) == (try Fixtures.bytes("replace-empty-and-undo.after-delete.txt")))
}

@Test func previousReplacementOnlyComesBackWhenAskedFor() {
    let (editor, _, _) = makeEditor(text: "ab ab")
    editor.press([.control("\\")] + typing("a") + [.enter] + typing("X") + [.enter, .character("a")])
    editor.press(.meta("u"))
    editor.press([.control("\\")] + typing("b") + [.enter])
    guard case .prompt(let prompt) = editor.state.mode else {
        Issue.record("no prompt")
        return
    }
    #expect(prompt.text == "")
    editor.press(.up)  // history: the user picks it
    guard case .prompt(let recalled) = editor.state.mode else {
        Issue.record("no prompt")
        return
    }
    #expect(recalled.text == "X")
    editor.press(.enter, .character("a"))
    #expect(editor.state.buffer.text == "aX aX")
}

@Test func whereIsFindsWrapsAndRemembers() {
    let (editor, terminal, _) = makeEditor(text: "raven\nthe raven\nnevermore")
    editor.press([.control("w")] + typing("raven") + [.enter])
    #expect(editor.state.buffer.cursor == TextPosition(line: 1, column: 4))
    #expect(editor.state.status == nil)
    editor.press(.control("w"))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search [raven]: "))
    editor.press(.enter)
    #expect(editor.state.buffer.cursor == .zero)
    #expect(editor.state.status == StatusMessage("Search Wrapped"))
    editor.press(.meta("w"))
    #expect(editor.state.buffer.cursor == TextPosition(line: 1, column: 4))
    editor.press([.control("w")] + typing("Tesla") + [.enter])
    #expect(editor.state.status == StatusMessage("\"Tesla\" not found"))
    editor.press([.control("w")] + typing("nevermore") + [.enter, .control("w"), .enter])
    #expect(editor.state.status == StatusMessage("This is the only occurrence"))
    editor.press(.control("w"), .escape)
    #expect(editor.state.status == StatusMessage("Cancelled"))
    #expect(editor.state.mode == .editing)
}

/// Search ignores case by default, as nano's does (issue 43: `hélène` was not found where nano
/// found it); M-C in a search prompt makes it case-sensitive, shown as nano shows it.
@Test func searchIgnoresCaseUnlessMetaCSaysOtherwise() {
    let (editor, terminal, _) = makeEditor(text: "Lenore LENORE lenore")
    editor.press(.control("\\"))
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search (to replace): "))
    editor.press(typing("lenore") + [.enter] + typing("Lenore") + [.enter, .character("a")])
    #expect(editor.state.status == StatusMessage("Replaced 3 occurrences"))
    #expect(editor.state.buffer.text == "Lenore Lenore Lenore")
    editor.press(.control("w"), .meta("c"))  // case-sensitive now
    #expect(render(editor.state, size: terminal.size).text(ofRow: 21).hasPrefix("Search [Case Sensitive] [lenore]: "))
    editor.press(.enter)
    #expect(editor.state.status == StatusMessage("\"lenore\" not found"))
}
