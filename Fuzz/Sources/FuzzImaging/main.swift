import Foundation
import SnapImaging

#if canImport(Glibc)
    import Glibc
#endif

/// The file every input is written to: on tmpfs when there is one, one per process so that
/// parallel jobs (`-jobs=N`) do not share it.
private let inputPath: String = {
    let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory()
    return "\(dir)/lovesnap-fuzz-\(getpid()).img"
}()

/// Writes `bytes` to `inputPath` (truncating), or returns false.
private func writeInput(_ data: UnsafeRawPointer, _ count: Int) -> Bool {
    let fd = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var done = 0
    while done < count {
        let n = write(fd, data + done, count - done)
        if n <= 0 { return false }
        done += n
    }
    return true
}

/// libFuzzer entry point: one input = one image file. The loader is configured as
/// `Recognizer` configures it (default memory limit, JPEG reduction towards 4000 px);
/// any thrown `ImagingError` is a correct answer, a crash, leak or hang is a bug.
func fuzzImaging(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    guard writeInput(data, count) else { return 0 }
    let options = PreprocessingOptions()
    let loader = ImageLoader(jpegReductionTarget: options.maxDimension)
    do {
        let loaded = try loader.load(inputPath)
        let prepared = try Preprocessor(options: options).prepare(loaded.image)
        // Touch the result so nothing is optimised away, and check the invariants the OCR relies on.
        precondition(prepared.image.width >= 1 && prepared.image.height >= 1)
        precondition(max(prepared.image.width, prepared.image.height) <= options.maxDimension + 1)
        precondition(prepared.image.depth == 8 || prepared.image.depth == 1)
    } catch is ImagingError {
        // Refused or unreadable input: the expected outcome for most mutations.
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
    return 0
}

/// libFuzzer's driver (compiler-rt `FuzzerDriver.cpp`): parses the libFuzzer flags in argv and
/// calls `callback` once per input. SwiftPM links executables with `main` bound to this module's
/// entry point, so libFuzzer's own `main` is not used; this top-level code calls the driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

atexit { unlink(inputPath) }  // -fork runs one process per job; each leaves its file otherwise
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzImaging))
