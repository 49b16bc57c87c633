// swift-tools-version:6.0
import PackageDescription

// Layout: a thin executable (`lovesnap`) over library modules with one responsibility each.
// C libraries come from Debian (see README.md and .ci/run); their module maps live in Sources/C*.

/// Linker flags that export `symbols` from the executable, so that the libraries' calls to them
/// come to lovesnap's own definitions (ELF symbol interposition: the C target CInterposed). The
/// linker exports a definition by itself only for an unversioned reference from a library
/// (Leptonica's brick functions and `pixWriteMem`); these references are versioned or internal.
func exporting(_ symbols: [String]) -> [LinkerSetting] {
    [.unsafeFlags(symbols.flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] })]
}

let package = Package(
    name: "LoveInASnap",
    products: [
        .executable(name: "lovesnap", targets: ["lovesnap"]),
        .library(name: "SnapImaging", targets: ["SnapImaging"]),
        .library(name: "SnapOCR", targets: ["SnapOCR"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLeptonica", pkgConfig: "lept",
            providers: [.apt(["libleptonica-dev"])]),
        // No pkgConfig: tesseract.pc's `-larchive -lcurl` would make the executable load a second
        // curl and its TLS libraries (libcurl4-nss-dev's and NSS: 7 more), which it never calls;
        // libtesseract loads what it needs itself. The module map links -ltesseract.
        .systemLibrary(
            name: "CTesseract",
            providers: [.apt(["libtesseract-dev", "tesseract-ocr-eng", "tesseract-ocr-fra", "tesseract-ocr-osd"])]),
        .systemLibrary(
            name: "CExif", pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]),
        // giflib: only to count a GIF's frames without decoding them (Leptonica reads the first).
        .systemLibrary(
            name: "CGif", pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CHunspell", pkgConfig: "hunspell",
            providers: [.apt(["libhunspell-dev", "hunspell-en-us", "hunspell-fr"])]),
        // libxml2 edits Tesseract's hOCR and ALTO; qpdf its PDF (coordinates, edited words, pages).
        .systemLibrary(
            name: "CLibxml2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CQpdf", pkgConfig: "libqpdf",
            providers: [.apt(["libqpdf-dev"])]),
        // chafa: pictures as terminal graphics (symbols, sixel, kitty, iTerm2) and terminal detection.
        .systemLibrary(
            name: "CChafa", pkgConfig: "chafa",
            providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // No pkgConfig: SwiftPM drops ncursesw's -D flags anyway (see shim.h).
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),

        // libc calls Glibc's Swift module does not declare (prctl, posix_spawn's setsid, mallopt; wcwidth for
        // the test of SnapText's width table).
        .target(name: "CLibc"),
        // Library functions lovesnap defines itself (ELF symbol interposition), each a workaround
        // for time a library wastes, all in this one module behind one switch (tuning.c: on only
        // in the OCR processes, only for the library versions verified, and off for those
        // LOVESNAP_NO_TUNING names): Tesseract's line images kept as uncompressed, unfiltered PNGs
        // while it reads (line_images.c); Tesseract's character ambiguity tables, which only its
        // legacy engine uses, left unloaded while an LSTM-only engine starts (unichar_ambigs.c);
        // Tesseract's OpenMP parallel regions run inline when the thread limit is 1
        // (serial_openmp.c); Leptonica's openings, erosions, dilations and safe closings by long
        // bricks made with its composite bricks where that is exactly the same
        // (brick_morphology.c). The references below are versioned or internal, so the linker
        // exports the definitions only when told.
        .target(
            name: "CInterposed",
            linkerSettings: exporting([
                "png_set_compression_level",
                "_ZN9tesseract13UnicharAmbigs17LoadUnicharAmbigsERKNS_10UNICHARSETEPNS_5TFileEibPS1_",
                "GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait",
            ])),
        // Leptonica's allocator in the OCR processes (setPixMemoryManager): the photo's raster in
        // a memory file the reader maps (see pix_memory.c).
        .target(name: "CPixMemory"),
        // The trained text detector through Debian's OpenCV 4.6 (libopencv-dev): dnn for the
        // network, imgproc for its post-processing and the line images (text_detector.cpp). Only
        // these three of OpenCV's libraries are linked (its pkg-config names all 60).
        .target(
            name: "CTextDetector",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_dnn"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core"),
            ]),

        .target(name: "SnapText"),
        // Every child process lovesnap starts, one type: the OCR worker and its helpers, the mail
        // command, ^T's command (posix_spawn through CLibc, pipes with O_CLOEXEC, waitpid).
        .target(name: "SnapProcess", dependencies: ["CLibc"]),
        .target(
            name: "SnapImaging", dependencies: ["CLeptonica", "CExif", "CGif", "CInterposed", "CPixMemory"]),
        .target(
            name: "SnapOCR",
            dependencies: [
                "SnapImaging", "SnapSpelling", "SnapExport", "SnapProcess", "CTesseract", "CLeptonica", "CLibc",
                "CInterposed", "CTextDetector",
            ]),
        .target(name: "SnapExport", dependencies: ["SnapImaging", "CLibxml2", "CQpdf"]),
        .target(name: "SnapSpelling", dependencies: ["CHunspell"]),
        .target(name: "SnapShare", dependencies: ["SnapText", "SnapProcess"]),
        // Pure: the data a text holds (card numbers, expiry dates, e-mail, phone, URLs, dates).
        .target(name: "SnapDetectors"),
        .target(name: "SnapTerminal", dependencies: ["CNcursesw", "CChafa"]),
        .target(name: "SnapEditor", dependencies: ["SnapText", "SnapTerminal", "SnapDetectors"]),
        .executableTarget(
            name: "lovesnap",
            dependencies: [
                "CLibc", "SnapEditor", "SnapText", "SnapOCR", "SnapShare", "SnapImaging", "SnapSpelling", "SnapExport",
                "SnapDetectors", "SnapProcess",
            ]),

        // The editor's model and rendering timed on a text file (scripts/editor-benchmark.py runs it).
        .executableTarget(
            name: "lovesnap-bench", dependencies: ["SnapEditor", "SnapText", "SnapShare", "SnapTerminal"]),

        // Non-product helpers every test target may use: paths, running the built binary, CER.
        .target(name: "SnapTestSupport", path: "Tests/SnapTestSupport"),
        .testTarget(name: "SnapTextTests", dependencies: ["SnapText", "SnapTestSupport", "CLibc"]),
        .testTarget(
            name: "SnapImagingTests",
            dependencies: ["SnapImaging", "SnapTestSupport", "CInterposed", "CPixMemory"]),
        .testTarget(
            name: "SnapOCRTests",
            dependencies: [
                "SnapOCR", "SnapImaging", "SnapSpelling", "SnapTestSupport", "SnapProcess", "CInterposed",
            ]),
        .testTarget(name: "SnapSpellingTests", dependencies: ["SnapSpelling"]),
        .testTarget(
            name: "SnapShareTests", dependencies: ["SnapShare", "SnapText", "SnapTestSupport", "SnapProcess"]),
        .testTarget(name: "SnapExportTests", dependencies: ["SnapExport", "SnapImaging", "SnapTestSupport"]),
        .testTarget(name: "SnapDetectorsTests", dependencies: ["SnapDetectors"]),
        .testTarget(name: "SnapTerminalTests", dependencies: ["SnapTerminal"]),
        .testTarget(
            name: "SnapEditorTests", dependencies: ["SnapEditor", "SnapText", "SnapTerminal", "SnapTestSupport"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["SnapShare", "SnapImaging", "SnapTestSupport", "SnapProcess"]),
    ],
    swiftLanguageModes: [.v6]
)

// The release build carries Swift's runtime and Foundation in its executables, as
// `swift build --static-swift-stdlib` does (the modules compiled against the static libraries,
// the executables linked with them): no relocations of ten shared Swift libraries at each start
// of lovesnap and of its OCR worker (`--version` 24 → 16 ms), and fewer private pages in each
// (docs/measurements/speed.md). The debug build, which the tests run, links them as shared libraries, faster
// to link. Foundation's archive makes the release link warn that it uses `mktemp`.
let staticSwiftLibraries = BuildSettingCondition.when(configuration: .release)
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-static-stdlib"], staticSwiftLibraries)]
    if target.type == .executable {
        target.linkerSettings =
            (target.linkerSettings ?? []) + [.unsafeFlags(["-static-stdlib"], staticSwiftLibraries)]
    }
}
