// swift-tools-version:6.0
// The libFuzzer driver for every harness in BuildTools/FuzzHarnesses. Kept out of the main package because it only
// links under `-sanitize=fuzzer` (libFuzzer supplies `main`). Run with `make fuzz`; `FUZZ_HARNESS=<name>` picks the
// harness a run drives.
import PackageDescription

let package = Package(
    name: "TelegraphFuzz",
    dependencies: [.package(name: "Telegraph", path: "..")],
    targets: [
        .executableTarget(
            name: "fuzz", dependencies: [.product(name: "FuzzHarnesses", package: "Telegraph")],
            path: "Sources/fuzz", swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ]
)
