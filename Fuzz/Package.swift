// swift-tools-version:6.0
import PackageDescription

// Fuzzing and memory checks for LoveInASnap, kept out of the main package so that `swift test`
// there never builds them. See README.md in this folder for the commands.
let package = Package(
    name: "LoveInASnapFuzz",
    dependencies: [.package(name: "LoveInASnap", path: "..")],  // name: the checkout folder may be called anything
    targets: [
        // libFuzzer target: bytes → temp file → ImageLoader.load → Preprocessor.prepare.
        // Build only with `-sanitize=fuzzer`: main.swift hands control to libFuzzer's driver.
        .executableTarget(
            name: "FuzzImaging",
            dependencies: [.product(name: "SnapImaging", package: "LoveInASnap")]),
        // OCRs the sample poems N times in one process and prints the RSS along the way.
        .executableTarget(
            name: "MemoryLoop",
            dependencies: [
                .product(name: "SnapOCR", package: "LoveInASnap"),
                .product(name: "SnapImaging", package: "LoveInASnap"),
            ]),
    ],
    swiftLanguageModes: [.v5]
)
