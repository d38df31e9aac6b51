// swift-tools-version:6.0
// Telegraph's benchmarks: one executable per area, each measuring our modules against a named peer in the same run
// and printing a ratio table. Kept out of the main package so its peers (OpenCombine, GRDB, system libraries used
// directly) never reach the product graph. Run with `make bench` from the repository root.
import PackageDescription

/// Settings shared by every benchmark target.
enum Settings {
    static var swift: [SwiftSetting] { [] }
}

let package = Package(
    name: "TelegraphBenchmarks",
    dependencies: [
        .package(name: "Telegraph", path: ".."),
    ],
    targets: [
        // Timing, statistics and the ratio table every benchmark prints.
        .target(name: "BenchmarkSupport", path: "Sources/BenchmarkSupport"),
        // zlib as the peer for CRC-32 (the main package reaches zlib only through its GZip wrapper).
        .systemLibrary(name: "CZlibPeer", path: "Sources/CZlibPeer", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .executableTarget(
            name: "hashing-bench",
            dependencies: ["BenchmarkSupport", "CZlibPeer", .product(name: "Hashing", package: "Telegraph")],
            path: "Sources/hashing-bench", swiftSettings: Settings.swift),
        // Signal benchmarks (peer: OpenCombine).

        // TL and crypto benchmarks (peers: OpenSSL ECB, Telethon).
        .systemLibrary(
            name: "COpenSSLPeer", path: "Sources/COpenSSLPeer", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .executableTarget(
            name: "tl-bench",
            dependencies: [
                "BenchmarkSupport", "COpenSSLPeer", .product(name: "CryptoUtils", package: "Telegraph"),
                .product(name: "TLRuntime", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
            ],
            path: "Sources/tl-bench", swiftSettings: Settings.swift),

        // Media benchmarks (peers: rlottie C loop, dwebp, opusenc).

        // Postbox benchmarks (peers: raw SQLCipher; GRDB in its own executable).

    ]
)
