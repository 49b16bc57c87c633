import Foundation
import SnapTestSupport
import Testing

/// The OCR worker runs Tesseract's OpenMP regions inline under its default `OMP_THREAD_LIMIT=1`
/// (`CInterposed/serial_openmp.c`) and through libgomp's threads when the user allows more: the same document.
/// Without OMP_THREAD_LIMIT, the worker `lovesnap ocr` forks (`WorkerServer.serveForked`) runs
/// them inline too, though the libgomp it inherits read no limit.
@Suite struct ThreadLimitTests {
    @Test(arguments: ["fenetre.png", "dim-warm-light.jpg"])
    func theWorkerReadsTheSameWithOneThreadOrTwo(name: String) throws {
        let path = name.hasSuffix(".jpg") ? TestPaths.fixture(name) : TestPaths.sample(name)
        var env = ProcessInfo.processInfo.environment
        env["OMP_THREAD_LIMIT"] = "1"
        let alone = try lovesnap(["ocr", "--json", path], environment: env)
        env["OMP_THREAD_LIMIT"] = "2"
        let threads = try lovesnap(["ocr", "--json", path], environment: env)
        env["OMP_THREAD_LIMIT"] = nil
        let unset = try lovesnap(["ocr", "--json", path], environment: env)
        #expect(alone.status == 0 && threads.status == 0 && unset.status == 0)
        #expect(alone.stdout.contains("\"words\":[{"))
        #expect(alone.stdout == threads.stdout)
        #expect(unset.stdout == alone.stdout)
    }

    /// With every interposed library function switched off (`LOVESNAP_INTERPOSITION=off`,
    /// `CInterposed/interposition.c`) the libraries do their own work: the same document.
    @Test(arguments: ["fenetre.png", "dim-warm-light.jpg"])
    func theInterposedFunctionsSwitchedOffReadTheSame(name: String) throws {
        let path = name.hasSuffix(".jpg") ? TestPaths.fixture(name) : TestPaths.sample(name)
        var env = ProcessInfo.processInfo.environment
        env["LOVESNAP_INTERPOSITION"] = nil
        let on = try lovesnap(["ocr", "--json", path], environment: env)
        env["LOVESNAP_INTERPOSITION"] = "off"
        let off = try lovesnap(["ocr", "--json", path], environment: env)
        #expect(on.status == 0 && off.status == 0)
        #expect(on.stdout.contains("\"words\":[{"))
        #expect(off.stdout == on.stdout)
    }
}
