// Memory check: OCRs the sample poems again and again in one process and prints the resident
// set size, so that a leak per photo shows up as RSS growing with the iteration count.
//
//   swift run -c release MemoryLoop [iterations=100] [--one-engine] [files…]
//
// Default: each iteration is `Recognizer().recognize(path:)`, the app's whole pipeline (a new
// Tesseract engine per photo, load, prepare, OSD when unsure, recognize). `--one-engine` keeps one
// `TesseractEngine` and runs load → prepare → recognize, to tell engine-lifetime leaks from
// per-page ones. Without files, cycles ../SamplePoems/*.png and *.jpg.
import Foundation
import SnapImaging
import SnapOCR

/// A field of /proc/self/status in KiB (VmRSS = resident now, VmHWM = peak resident).
func procStatus(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    return -1
}

var arguments = Array(CommandLine.arguments.dropFirst())
let oneEngine = arguments.contains("--one-engine")
arguments.removeAll { $0 == "--one-engine" }
let iterations = arguments.first.flatMap { Int($0) } ?? 100
if let first = arguments.first, Int(first) != nil { arguments.removeFirst() }

var files = arguments
if files.isEmpty {
    let poems = URL(fileURLWithPath: #filePath)  // Fuzz/Sources/MemoryLoop/main.swift
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SamplePoems")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: poems.path)) ?? []
    files = names.filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted().map {
        poems.appendingPathComponent($0).path
    }
}
guard !files.isEmpty else {
    print("no images")
    exit(2)
}

print(
    "files: \(files.count), iterations: \(iterations), mode: \(oneEngine ? "one engine" : "Recognizer per photo"), "
        + "OMP_THREAD_LIMIT=\(ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] ?? "unset")")
print("iteration  VmRSS(KiB)  VmHWM(KiB)  chars")
print(String(format: "%9d  %10d  %10d", 0, procStatus("VmRSS"), procStatus("VmHWM")))
let checkpoints: Set<Int> = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, iterations]
let start = Date()
var failures = 0
do {
    let engine = oneEngine ? try TesseractEngine() : nil
    for i in 1...iterations {
        let path = files[(i - 1) % files.count]
        var chars = 0
        do {
            if let engine {
                let loaded = try ImageLoader(jpegReductionTarget: PreprocessingOptions.defaultMaxDimension).load(path)
                let page = try Preprocessor().prepare(loaded.image)
                chars = try engine.recognize(page).text.count
            } else {
                chars = try Recognizer().recognize(path: path).text.count
            }
        } catch {
            failures += 1
            print("\(path): \(error)")
        }
        if checkpoints.contains(i) {
            print(String(format: "%9d  %10d  %10d  %5d", i, procStatus("VmRSS"), procStatus("VmHWM"), chars))
        }
    }
} catch {
    print("engine: \(error)")
    exit(1)
}
print(String(format: "done in %.1f s, %d failures", Date().timeIntervalSince(start), failures))
exit(failures == 0 ? 0 : 1)
