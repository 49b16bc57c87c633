import Foundation
import SnapEditor
import SnapShare
import SnapTerminal
import SnapText

/// `lovesnap-bench FILE [--search WORD --replacement TEXT] [--keys N]`: the editor's model and
/// rendering timed in one process on one text file, as `lovesnap edit FILE` runs them (the file
/// read by SnapShare, each key through `update`, each screen through `render` at 80×24), with one
/// JSON object on stdout. `scripts/editor-benchmark.py` runs it on each file of its table, beside
/// the real binary and GNU nano in tmux. Times are wall-clock seconds; memory is the process's
/// peak resident set (`VmHWM` of /proc/self/status) in bytes.
@main
struct EditorBenchmark {
    struct Result: Codable {
        var file: String
        var bytes: Int
        var lines: Int
        /// Reading the file and building the first screen.
        var open: Double
        /// Per keystroke (a typed character, then the whole screen built), at each place.
        var keystroke: [String: Keystrokes]
        /// Going to each place (the key or Go To Line that gets there), once.
        var jump: [String: Double]
        /// The cursor's UTF-8 offset and screen column at each place, once there.
        var place: [String: [Int]]
        var replaceAll: Double
        var replaced: Int
        var undoSteps: Int
        var undo: Double
        var redo: Double
        var peakRSS: Int
        /// The resident set before the file was read (the process's own code and libraries).
        var startRSS: Int
        /// This thread's CPU seconds for open, middle, end (the jumps), replaceAll, undo, redo.
        var cpu: [String: Double]
    }

    /// Seconds per keystroke: wall clock, and the CPU time of this thread (which does not grow
    /// when other processes take the machine's cores).
    struct Keystrokes: Codable {
        var mean: Double
        var median: Double
        var max: Double
        var cpuMean: Double
        var cpuMax: Double
    }

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String, _ fallback: String) -> String {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return fallback }
            defer { arguments.removeSubrange(i...(i + 1)) }
            return arguments[i + 1]
        }
        let search = option("--search", "the")
        let replacement = option("--replacement", "thee")
        let keys = Int(option("--keys", "200")) ?? 200
        guard arguments.count == 1 else {
            FileHandle.standardError.write(
                Data("usage: lovesnap-bench FILE [--search WORD] [--replacement TEXT] [--keys N]\n".utf8))
            exit(2)
        }
        do {
            let result = try run(path: arguments[0], search: search, replacement: replacement, keys: keys)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            FileHandle.standardOutput.write(try encoder.encode(result) + Data("\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("lovesnap-bench: \(arguments[0]): \(error)\n".utf8))
            exit(1)
        }
    }

    static let size = TerminalSize(rows: 24, columns: 80)

    static func run(path: String, search: String, replacement: String, keys: Int) throws -> Result {
        var frame = Frame(size: size)
        let clock = ContinuousClock()
        func seconds(_ d: Duration) -> Double {
            Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var cpu: [String: Double] = [:]
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = clock.now
            try body()
            return seconds(clock.now - start)
        }
        // Wall-clock time, and this thread's CPU time kept under `name`.
        func time(_ name: String, _ body: () throws -> Void) rethrows -> Double {
            let before = threadCPUTime()
            let wall = try time(body)
            cpu[name] = threadCPUTime() - before
            return wall
        }

        let startRSS = residentBytes()
        var state = EditorState(displayName: path, saveName: path, content: Rope(), screenSize: size)
        let open = try time("open") {
            let file = try TextFile.read(path)
            state = EditorState(
                displayName: path, saveName: path, savesToOwnFile: true, content: file.content, screenSize: size)
            state.format = file.format
            frame = render(state, size: size)
        }
        let bytes = state.buffer.utf8Count
        let lines = state.buffer.writtenLineCount

        func press(_ key: KeyEvent) {
            _ = update(&state, key)
            frame = render(state, size: size)
        }
        func typing(_ count: Int) -> Keystrokes {
            var times: [Double] = []
            var cpu: [Double] = []
            for i in 0..<count {
                let before = threadCPUTime()
                times.append(time { press(.character(i % 2 == 0 ? "x" : "é")) })
                cpu.append(threadCPUTime() - before)
            }
            let sorted = times.sorted()
            return Keystrokes(
                mean: times.reduce(0, +) / Double(max(1, times.count)), median: sorted[sorted.count / 2],
                max: sorted.last ?? 0, cpuMean: cpu.reduce(0, +) / Double(max(1, cpu.count)), cpuMax: cpu.max() ?? 0)
        }

        var keystroke: [String: Keystrokes] = [:]
        var jump: [String: Double] = [:]
        var place: [String: [Int]] = [:]
        func here() -> [Int] { [state.buffer.cursorOffset, state.buffer.cursorDisplayColumn] }
        place["start"] = here()
        keystroke["start"] = typing(keys)
        // The middle: Go To Line with the middle line, or (one long line) its middle column.
        let middle = lines > 1 ? "\(lines / 2)" : "1,\(bytes / 2)"
        jump["middle"] = time("middle") {
            press(.control("_"))
            for c in middle { press(.character(c)) }
            press(.enter)
        }
        place["middle"] = here()
        keystroke["middle"] = typing(keys)
        // The end of the last line of text: M-/ (the empty line after the final newline), Up, End.
        jump["end"] = time("end") {
            press(.meta("/"))
            press(.up)
            press(.end)
        }
        place["end"] = here()
        keystroke["end"] = typing(keys)
        press(.meta("\\"))

        // Replace-all from the top, as a user does it: ^\, the word, Enter, the replacement, Enter, A.
        press(.control("\\"))
        for c in search { press(.character(c)) }
        press(.enter)
        for c in replacement { press(.character(c)) }
        let steps = state.buffer.history.undoSteps.count
        let replaceAll = time("replaceAll") {
            press(.enter)
            press(.character("A"))
        }
        let replaced = Int(state.status?.text.split(separator: " ").dropFirst().first ?? "") ?? -1
        let undoSteps = state.buffer.history.undoSteps.count - steps
        let undo = time("undo") { press(.meta("u")) }
        let redo = time("redo") { press(.meta("e")) }
        _ = frame
        return Result(
            file: path, bytes: bytes, lines: lines, open: open, keystroke: keystroke, jump: jump, place: place,
            replaceAll: replaceAll, replaced: replaced, undoSteps: undoSteps, undo: undo, redo: redo,
            peakRSS: peakResidentBytes(), startRSS: startRSS, cpu: cpu)
    }

    /// This thread's CPU time in seconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// `VmHWM` of /proc/self/status, in bytes (0 when it cannot be read).
    static func peakResidentBytes() -> Int { status("VmHWM:") }

    /// `VmRSS` of /proc/self/status, in bytes (0 when it cannot be read).
    static func residentBytes() -> Int { status("VmRSS:") }

    static func status(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1024
        }
        return 0
    }
}
