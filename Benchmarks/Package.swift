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
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // GRDB on the system SQLite: only postbox-grdb-bench links it (never together with SQLCipher).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
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
        // Signal benchmarks (peer: OpenCombine 0.14.0, the Combine API on Linux).
        .executableTarget(
            name: "signal-bench",
            dependencies: [
                "BenchmarkSupport", .product(name: "SwiftSignalKit", package: "Telegraph"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "Sources/signal-bench", swiftSettings: Settings.swift),

        // ChatHistory benchmarks (peer: the standard library's CollectionDifference).
        .executableTarget(
            name: "mergelists-bench",
            dependencies: [
                "BenchmarkSupport", .product(name: "MergeLists", package: "Telegraph"),
                .product(name: "TestVectors", package: "Telegraph"),
            ],
            path: "Sources/mergelists-bench", swiftSettings: Settings.swift),

        // TextLayout against Pango called directly on the same strings.
        .systemLibrary(
            name: "CPangoPeer", path: "Sources/CPangoPeer", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]),
        .executableTarget(
            name: "textlayout-bench",
            dependencies: [
                "BenchmarkSupport", "CPangoPeer", .product(name: "TextLayout", package: "Telegraph"),
                .product(name: "SyncCore", package: "Telegraph"),
            ],
            path: "Sources/textlayout-bench", swiftSettings: Settings.swift),

        // A chat drawn to PNG: one 1080×2400 screen of a conversation made through tg-server (no peer; ms per screen).
        .executableTarget(
            name: "chatrender-bench",
            dependencies: [
                "BenchmarkSupport", .product(name: "ChatRender", package: "Telegraph"),
                .product(name: "ChatHistory", package: "Telegraph"),
                .product(name: "ChatConversationFixture", package: "Telegraph"),
                .product(name: "MediaResources", package: "Telegraph"), .product(name: "TelegramCore", package: "Telegraph"),
            ],
            path: "Sources/chatrender-bench", swiftSettings: Settings.swift),

        // TL and crypto benchmarks (peers: Telethon, cryptg, OpenSSL ECB; limits: dependent AES-NI, a hand-written decoder).
        .systemLibrary(
            name: "COpenSSLPeer", path: "Sources/COpenSSLPeer", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The latency limit of chained AES: dependent single-block AES-NI encryptions (C intrinsics, no library).
        .target(name: "CAESNILimit", path: "Sources/CAESNILimit"),
        .executableTarget(
            name: "tl-bench",
            dependencies: [
                "BenchmarkSupport", "COpenSSLPeer", "CAESNILimit", .product(name: "CryptoUtils", package: "Telegraph"),
                .product(name: "TLRuntime", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
            ],
            path: "Sources/tl-bench", swiftSettings: Settings.swift),

        // MTProto benchmarks (peer: Telethon against the same tg-server).
        .executableTarget(
            name: "core-bench",
            dependencies: [
                "BenchmarkSupport", "CoreBenchSupport", .product(name: "TelegramCore", package: "Telegraph"),
                .product(name: "SyncCore", package: "Telegraph"), .product(name: "SyncCoreApi", package: "Telegraph"),
                .product(name: "Postbox", package: "Telegraph"), .product(name: "Network", package: "Telegraph"),
                .product(name: "TelegramApi", package: "Telegraph"), .product(name: "SwiftSignalKit", package: "Telegraph"),
                .product(name: "ServerTestSupport", package: "Telegraph"),
                .product(name: "UpdateSequencing", package: "Telegraph"),
            ],
            path: "Sources/core-bench", swiftSettings: Settings.swift),
        .target(
            name: "CoreBenchSupport",
            dependencies: [
                .product(name: "TelegramCore", package: "Telegraph"), .product(name: "ServerTestSupport", package: "Telegraph"),
                .product(name: "TelegramApi", package: "Telegraph"), .product(name: "SyncCore", package: "Telegraph"),
                .product(name: "SyncCoreApi", package: "Telegraph"),
            ],
            path: "Sources/CoreBenchSupport", swiftSettings: Settings.swift),
        .executableTarget(
            name: "send-bench",
            dependencies: [
                "BenchmarkSupport", "CoreBenchSupport", .product(name: "TelegramCore", package: "Telegraph"),
                .product(name: "SyncCore", package: "Telegraph"), .product(name: "Postbox", package: "Telegraph"),
                .product(name: "SwiftSignalKit", package: "Telegraph"), .product(name: "ServerTestSupport", package: "Telegraph"),
                .product(name: "MediaResources", package: "Telegraph"), .product(name: "MediaBox", package: "Telegraph"),
                .product(name: "ImageCore", package: "Telegraph"), .product(name: "JPEGBinding", package: "Telegraph"),
            ],
            path: "Sources/send-bench", swiftSettings: Settings.swift),
        .executableTarget(
            name: "transfer-bench",
            dependencies: [
                "BenchmarkSupport", "CoreBenchSupport", "ServerBenchSupport",
                .product(name: "TelegramCore", package: "Telegraph"),
                .product(name: "SyncCore", package: "Telegraph"), .product(name: "SyncCoreApi", package: "Telegraph"),
                .product(name: "Postbox", package: "Telegraph"), .product(name: "Network", package: "Telegraph"),
                .product(name: "TelegramApi", package: "Telegraph"), .product(name: "SwiftSignalKit", package: "Telegraph"),
                .product(name: "CryptoUtils", package: "Telegraph"), .product(name: "TestVectors", package: "Telegraph"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/transfer-bench", swiftSettings: Settings.swift),
        .executableTarget(
            name: "mtproto-bench",
            dependencies: [
                "BenchmarkSupport", "ServerBenchSupport",
                .product(name: "Network", package: "Telegraph"), .product(name: "MTProtoServer", package: "Telegraph"),
                .product(name: "ServerAPI", package: "Telegraph"), .product(name: "MTProtoApi", package: "Telegraph"),
                .product(name: "TelegramApi", package: "Telegraph"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AccountNetworking", package: "Telegraph"),
            ],
            path: "Sources/mtproto-bench", swiftSettings: Settings.swift),

        // Our `mtproxy` (a release process) in front of a release tg-server: connect and 1,000 calls through it with
        // each kind of secret against the same client straight to the DC, and fake-TLS against plain obfuscated2.
        .executableTarget(
            name: "mtproxy-bench",
            dependencies: [
                "BenchmarkSupport", "ServerBenchSupport",
                .product(name: "Network", package: "Telegraph"), .product(name: "MTProtoTransport", package: "Telegraph"),
                .product(name: "MTProtoCore", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/mtproxy-bench", swiftSettings: Settings.swift),

        // A release tg-server started as its own process, for the server benchmarks.
        .target(
            name: "ServerBenchSupport",
            dependencies: [
                .product(name: "CryptoUtils", package: "Telegraph"), .product(name: "MTProtoServer", package: "Telegraph"),
                .product(name: "Network", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
            ],
            path: "Sources/ServerBenchSupport", swiftSettings: Settings.swift),

        // Supergroups and channels: a post fanned out to 1,000 online members (a release tg-server process), 50,000
        // posts caught up into Postbox (peers: Postbox's own insert, Telethon + cryptg), getParticipants over 10,000.
        .executableTarget(
            name: "channel-bench",
            dependencies: [
                "BenchmarkSupport", "CoreBenchSupport", "ServerBenchSupport",
                .product(name: "TelegramCore", package: "Telegraph"), .product(name: "SyncCore", package: "Telegraph"),
                .product(name: "SyncCoreApi", package: "Telegraph"), .product(name: "Postbox", package: "Telegraph"),
                .product(name: "Network", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
                .product(name: "TLRuntime", package: "Telegraph"), .product(name: "SwiftSignalKit", package: "Telegraph"),
                .product(name: "ServerTestSupport", package: "Telegraph"), .product(name: "ServerAPI", package: "Telegraph"),
                .product(name: "MTProtoServer", package: "Telegraph"), .product(name: "CryptoUtils", package: "Telegraph"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/channel-bench", swiftSettings: Settings.swift),

        // What clients can make a tg-server process hold (no peer: the bounds are the figures).
        .executableTarget(
            name: "server-limits-bench",
            dependencies: [
                "BenchmarkSupport", "ServerBenchSupport",
                .product(name: "Network", package: "Telegraph"), .product(name: "MTProtoServer", package: "Telegraph"),
                .product(name: "MTProtoCore", package: "Telegraph"), .product(name: "MTProtoTransport", package: "Telegraph"),
                .product(name: "MTProtoApi", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
                .product(name: "CryptoUtils", package: "Telegraph"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/server-limits-bench", swiftSettings: Settings.swift),

        // Signed-in clients talking through a release tg-server, beside the bare cost of its storage and crypto.
        .executableTarget(
            name: "server-bench",
            dependencies: [
                "BenchmarkSupport", "ServerBenchSupport",
                .product(name: "Network", package: "Telegraph"), .product(name: "MTProtoCore", package: "Telegraph"),
                .product(name: "ServerStore", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
                .product(name: "TLRuntime", package: "Telegraph"), .product(name: "CryptoUtils", package: "Telegraph"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/server-bench", swiftSettings: Settings.swift),

        // Media benchmarks (peers: rlottie C loop, dwebp, opusenc).
        // rlottie driven by plain C, the peer of the .tgs render benchmark.
        .target(name: "CRLottieLoop", path: "Sources/CRLottieLoop", linkerSettings: [.linkedLibrary("rlottie")]),
        .executableTarget(
            name: "media-bench",
            dependencies: [
                "BenchmarkSupport", "CRLottieLoop",
                .product(name: "AnimatedSticker", package: "Telegraph"),
                .product(name: "RLottieBinding", package: "Telegraph"),
                .product(name: "ImageCore", package: "Telegraph"),
                .product(name: "ImageTransform", package: "Telegraph"),
                .product(name: "WebPBinding", package: "Telegraph"),
                .product(name: "OpusBinding", package: "Telegraph"),
                .product(name: "GZip", package: "Telegraph"),
            ],
            path: "Sources/media-bench", swiftSettings: Settings.swift),

        // A video's first frame to a 320 px JPEG thumbnail (VideoBinding over FFmpeg's libraries, ImageTransform's
        // Lanczos, libjpeg-turbo) against the `ffmpeg` command doing the same.
        .executableTarget(
            name: "video-bench",
            dependencies: [
                "BenchmarkSupport", .product(name: "VideoBinding", package: "Telegraph"),
                .product(name: "ImageCore", package: "Telegraph"),
                .product(name: "ImageTransform", package: "Telegraph"),
                .product(name: "JPEGBinding", package: "Telegraph"),
            ],
            path: "Sources/video-bench", swiftSettings: Settings.swift),

        // Time to a video's first frame streamed from a release tg-server process against the whole download first.
        .executableTarget(
            name: "stream-bench",
            dependencies: [
                "BenchmarkSupport", "CoreBenchSupport", "ServerBenchSupport",
                .product(name: "MediaResources", package: "Telegraph"), .product(name: "MediaBox", package: "Telegraph"),
                .product(name: "VideoBinding", package: "Telegraph"), .product(name: "TelegramCore", package: "Telegraph"),
                .product(name: "SyncCore", package: "Telegraph"), .product(name: "SyncCoreApi", package: "Telegraph"),
                .product(name: "Postbox", package: "Telegraph"), .product(name: "Network", package: "Telegraph"),
                .product(name: "TelegramApi", package: "Telegraph"), .product(name: "SwiftSignalKit", package: "Telegraph"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/stream-bench", swiftSettings: Settings.swift),

        // Postbox benchmarks (peers: raw SQLCipher; GRDB in its own executable).
        .target(name: "PostboxBenchData", path: "Sources/PostboxBenchData"),
        .systemLibrary(
            name: "CSQLCipherPeer", path: "Sources/CSQLCipherPeer", pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"])]),
        // The hot-key experiment: LMDB behind the same small interface as a SQLCipher table. LMDB did not win clearly
        // enough to enter the product (BENCHMARKS.md), so it lives here only.
        .systemLibrary(
            name: "CLMDBPeer", path: "Sources/CLMDBPeer", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        .target(
            name: "HotStoreExperiment",
            dependencies: ["CLMDBPeer", .product(name: "ValueBox", package: "Telegraph")],
            path: "Sources/HotStoreExperiment", swiftSettings: Settings.swift),
        .executableTarget(
            name: "postbox-bench",
            dependencies: [
                "BenchmarkSupport", "PostboxBenchData", "CSQLCipherPeer",
                .product(name: "Postbox", package: "Telegraph"),
                .product(name: "PostboxTesting", package: "Telegraph"),
                "HotStoreExperiment",
                .product(name: "ValueBox", package: "Telegraph"),
                .product(name: "SQLite", package: "Telegraph"),
            ],
            path: "Sources/postbox-bench", swiftSettings: Settings.swift),
        // GRDB 7.10 on the system libsqlite3: a separate binary, because one binary must never link both
        // libsqlite3 and libsqlcipher (both export sqlite3_*).
        .executableTarget(
            name: "postbox-grdb-bench",
            dependencies: ["BenchmarkSupport", "PostboxBenchData", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/postbox-grdb-bench", swiftSettings: Settings.swift),
        // Live-view latency: Postbox's view Signals against GRDB 7.10's ValueObservation, which runs as
        // postbox-views-grdb-peer (no `-bench` suffix, so `make bench` runs it only through postbox-views-bench).
        .executableTarget(
            name: "postbox-views-bench",
            dependencies: [
                "BenchmarkSupport", "PostboxBenchData",
                .product(name: "Postbox", package: "Telegraph"),
                .product(name: "PostboxTesting", package: "Telegraph"),
                .product(name: "SwiftSignalKit", package: "Telegraph"),
            ],
            path: "Sources/postbox-views-bench", swiftSettings: Settings.swift),
        .executableTarget(
            name: "postbox-views-grdb-peer",
            dependencies: ["BenchmarkSupport", "PostboxBenchData", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/postbox-views-grdb-peer", swiftSettings: Settings.swift),
        // One notification-service run (peak RSS, wall time) over an account of 100,000 messages; the service
        // binaries and postbox-tool (the peer) are built by bench.sh and named in the environment.
        .executableTarget(
            name: "notification-bench",
            dependencies: [
                "BenchmarkSupport", .product(name: "PushNotifications", package: "Telegraph"),
                .product(name: "Postbox", package: "Telegraph"), .product(name: "SyncCore", package: "Telegraph"),
                .product(name: "MTProtoCore", package: "Telegraph"), .product(name: "CryptoUtils", package: "Telegraph"),
            ],
            path: "Sources/notification-bench", swiftSettings: Settings.swift),

    ]
)
