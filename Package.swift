// swift-tools-version:6.0
// Telegraph: the core of Telegram-iOS as a modular Swift package.
//
// The manifest is data. `modules` is the one table of library modules (name, area, direct dependencies, tests),
// `apps` the table of executables (name, folder, the modules each links), `appRules` the subsets each app must stay
// inside. The helpers at the bottom turn the tables into targets and products, and `Layering.check()` fails
// manifest evaluation, with one line naming the file, both modules and the rule, when a dependency goes against
// the area order (`Area.mayDependOn`, the README's "Layers"), forms a cycle, reaches outside an app's subset, or
// imports a C module that is not its own.
import PackageDescription

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Areas

/// An architectural area; a folder under `Modules/` (or `Apps/`, `BuildTools/`).
enum Area: String, CaseIterable {
    case System, Base, Signal, Postbox, Network, Core, MediaPipeline, StickerDecode, ChatHistory, Client, Server
    case Apps, BuildTools

    /// The areas a module of this area may depend on directly (besides its own).
    var mayDependOn: Set<Area> {
        switch self {
        case .System: return []
        case .Base: return [.System]
        case .Signal: return [.Base, .System]
        case .Postbox: return [.Signal, .Base, .System]
        case .Network: return [.Signal, .Base, .System]
        case .Core: return [.Postbox, .Network, .Signal, .Base, .System]
        case .MediaPipeline: return [.Signal, .Base, .System]
        case .StickerDecode: return [.MediaPipeline, .Signal, .Base, .System]
        case .ChatHistory: return [.Core, .Postbox, .MediaPipeline, .StickerDecode, .Signal, .Base, .System]
        // What composes a client from the account core, the media and the chat screen's model.
        case .Client:
            return [.Core, .ChatHistory, .MediaPipeline, .StickerDecode, .Postbox, .Network, .Signal, .Base, .System]
        case .Server: return [.Network, .Postbox, .MediaPipeline, .Signal, .Base, .System]
        case .Apps, .BuildTools: return Set(Area.allCases).subtracting([.Apps, .BuildTools])
        }
    }
}

/// Single-module exceptions to the area rule, each with its reason (none: the modules that composed a client from
/// several areas live in the Client area).
let layeringExceptions: [(module: String, mayDependOn: Area, reason: String)] = []

// MARK: - The module table

/// What kind of target a row becomes.
enum Kind { case swift, system(pkgConfig: String, apt: String, wrapper: String), cShims(wrapper: String) }

/// One row of the module table.
struct Module {
    let name: String
    let area: Area
    let kind: Kind
    let deps: [String]
    let tests: Bool
    let testDeps: [String]
    /// Helpers shared by test targets: only `testDeps` and other test-support modules may name it, never an app.
    var testSupport = false
    let line: Int

    /// A Swift library module at `Modules/<area>/<name>`.
    static func swift(
        _ name: String, _ area: Area, deps: [String] = [], tests: Bool = true, testDeps: [String] = [],
        line: Int = #line
    ) -> Module {
        Module(name: name, area: area, kind: .swift, deps: deps, tests: tests, testDeps: testDeps, line: line)
    }

    /// A Swift module of helpers shared by test targets (test targets cannot import each other) at
    /// `Modules/<area>/<name>`; test targets list it in `testDeps`, and no library module or app may depend on it.
    static func testSupport(
        _ name: String, _ area: Area, deps: [String] = [], tests: Bool = false, testDeps: [String] = [],
        line: Int = #line
    ) -> Module {
        Module(
            name: name, area: area, kind: .swift, deps: deps, tests: tests, testDeps: testDeps, testSupport: true,
            line: line)
    }

    /// A `[system]` module map over pkg-config, imported only by `wrapper`.
    static func system(_ name: String, pkgConfig: String, apt: String, wrapper: String, line: Int = #line) -> Module {
        Module(
            name: name, area: .System, kind: .system(pkgConfig: pkgConfig, apt: apt, wrapper: wrapper), deps: [],
            tests: false, testDeps: [], line: line)
    }

    /// A small C target wrapping macros or variadic functions of a system module, imported only by `wrapper`.
    static func cShims(_ name: String, deps: [String], wrapper: String, line: Int = #line) -> Module {
        Module(
            name: name, area: .System, kind: .cShims(wrapper: wrapper), deps: deps, tests: false, testDeps: [],
            line: line)
    }

    var path: String { area == .BuildTools ? "BuildTools/\(name)" : "Modules/\(area.rawValue)/\(name)" }
    var isC: Bool { if case .swift = kind { return false } else { return true } }
    var wrapper: String? {
        switch kind {
        case .swift: return nil
        case .system(_, _, let wrapper), .cShims(let wrapper): return wrapper
        }
    }
}

let modules: [Module] = [
    // System: C libraries over pkg-config. Debian package names are the apt providers; each has one Swift wrapper.
    .system("CSQLCipher", pkgConfig: "sqlcipher", apt: "libsqlcipher-dev", wrapper: "SQLite"),
    .system("COpenSSL", pkgConfig: "libcrypto", apt: "libssl-dev", wrapper: "CryptoUtils"),
    .system("CZlib", pkgConfig: "zlib", apt: "zlib1g-dev", wrapper: "GZip"),
    .system("CWebP", pkgConfig: "libwebpdemux", apt: "libwebp-dev", wrapper: "WebPBinding"),
    .system("COpus", pkgConfig: "opus", apt: "libopus-dev", wrapper: "OpusBinding"),
    .system("COgg", pkgConfig: "ogg", apt: "libogg-dev", wrapper: "OpusBinding"),
    .system("CRLottie", pkgConfig: "rlottie", apt: "librlottie-dev", wrapper: "RLottieBinding"),
    .system("CPNG", pkgConfig: "libpng", apt: "libpng-dev", wrapper: "ImageCore"),
    .system("CJPEGTurbo", pkgConfig: "libturbojpeg", apt: "libturbojpeg0-dev", wrapper: "JPEGBinding"),
    // Zstandard, the frame cache's codec (LZFSE is Apple's; see Modules/StickerDecode/README.md).
    .system("CZstd", pkgConfig: "libzstd", apt: "libzstd-dev", wrapper: "AnimatedSticker"),
    // Pango (HarfBuzz shaping, FriBidi, fontconfig) with its cairo font map: message text layout. libpango1.0-dev
    // brings libcairo2-dev, libharfbuzz-dev, libfribidi-dev and libfontconfig-dev.
    .system("CPango", pkgConfig: "pangocairo", apt: "libpango1.0-dev", wrapper: "TextLayout"),
    // utf8proc: Unicode character widths (East Asian width, emoji) for terminal rendering.
    .system("CUtf8proc", pkgConfig: "libutf8proc", apt: "libutf8proc-dev", wrapper: "ChatRender"),
    // FFmpeg (libavformat, libavcodec, libswscale, libavutil): one module map, since each library's headers include
    // the others'; libavformat's pkg-config file gives the one include directory all four share.
    .system("CFFmpeg", pkgConfig: "libavformat", apt: "libavformat-dev", wrapper: "VideoBinding"),
    // opus_encoder_ctl / opus_decoder_ctl are variadic: plain C wrappers for Swift.
    .cShims("COpusShims", deps: ["COpus"], wrapper: "OpusBinding"),

    // Base: bytes and hashes.
    .swift("Buffers", .Base),
    .swift("Hashing", .Base, testDeps: ["TestVectors"]),
    // Base: crypto and compression wrappers.
    .cShims("COpenSSLShims", deps: ["COpenSSL"], wrapper: "CryptoUtils"),
    .swift("CryptoUtils", .Base, deps: ["COpenSSL", "COpenSSLShims"], testDeps: ["TestVectors"]),
    // GZip: gzip/zlib inflate with an output cap and deflate (the only importer of CZlib).
    .swift("GZip", .Base, deps: ["CZlib"], testDeps: ["TestVectors"]),
    // CommandLineOutput: every tool's errors (`<tool>: error: <what> — <what to do>`), documented exit codes, progress
    // lines, atomic file writes, and the ArgumentParser entry point that ties them together.
    .swift("CommandLineOutput", .Base, deps: ["ArgumentParser"], testDeps: ["ArgumentParser", "TestVectors"]),
    // SecretFiles: owner-only files and folders for key material (0600 / 0700, O_EXCL | O_NOFOLLOW, fsync, rename).
    .swift("SecretFiles", .Base),
    // PasswordSRP: two-step verification's SRP-2048 (the PH2 KDF, the verifier, the server's round and check, the
    // client's A and M1).
    .swift("PasswordSRP", .Base, deps: ["CryptoUtils"], testDeps: ["CryptoUtils", "TestVectors"]),
    // TestVectors: test support — repository fixtures, hex, a seeded generator, a process runner.
    .testSupport("TestVectors", .Base, tests: true),

    // Signal: SwiftSignalKit and its test doubles.
    .swift("SwiftSignalKit", .Signal, testDeps: ["SignalTesting", "TestVectors"]),
    .testSupport("SignalTesting", .Signal, deps: ["SwiftSignalKit"], tests: true, testDeps: ["SwiftSignalKit"]),

    // Postbox: the encrypted reactive database.
    // CSQLCipherShims: C wrappers for SQLITE_TRANSIENT binds and the variadic sqlite3_config.
    .cShims("CSQLCipherShims", deps: ["CSQLCipher"], wrapper: "SQLite"),
    // SQLite: the only importer of SQLCipher — connection, cached statements, typed errors, keying, WAL, checkpoints.
    .swift("SQLite", .Postbox, deps: ["CSQLCipher", "CSQLCipherShims"], testDeps: ["TestVectors"]),
    // ValueBox: numbered key-value tables with memcmp-ordered keys, ranges, and FTS5 tables (unicode61, diacritics off).
    .swift("ValueBox", .Postbox, deps: ["SQLite"], testDeps: ["SQLite", "TestVectors"]),
    // PostboxCoding: Telegram's binary object format, the type registry by MurmurHash3, a Codable adapter.
    .swift("PostboxCoding", .Postbox, deps: ["Buffers", "Hashing"], testDeps: ["Hashing", "TestVectors"]),
    // MediaBox: resource files, partial downloads with range maps, kept and short-lived caches.
    .swift("MediaBox", .Postbox, testDeps: ["TestVectors"]),
    // Postbox: identity types, tables, transactions with operation records, readers, upgrades.
    .swift(
        "Postbox", .Postbox,
        deps: ["ValueBox", "PostboxCoding", "SQLite", "MediaBox", "Buffers", "SwiftSignalKit", "SecretFiles"],
        testDeps: [
            "PostboxTesting", "SQLite", "ValueBox", "MediaBox", "Buffers", "SwiftSignalKit", "TestVectors",
            "SignalTesting", "SecretFiles",
        ]),
    // PostboxTesting: stand-in peer, media and attribute types and temporary directories for tests and tools.
    .swift("PostboxTesting", .Postbox, deps: ["Postbox", "PostboxCoding"], tests: false),

    // Network: TL schema, runtime, generated API, MTProto.
    .swift("TLSchema", .Network, deps: ["Hashing"], testDeps: ["TestVectors"]),
    .swift("TLRuntime", .Network, deps: ["Buffers", "GZip"], testDeps: ["GZip"]),
    .swift(
        "MTProtoApi", .Network, deps: ["TLRuntime"], testDeps: ["TLRuntime", "CryptoUtils", "TestVectors"]),
    .swift(
        "TelegramApi", .Network, deps: ["TLRuntime"], testDeps: ["TLRuntime", "TLSchema", "MTProtoApi", "TestVectors"]),
    // SecretApi: the end-to-end layers of Schemas/tl/secret_api.tl (decryptedMessageLayer and what it carries),
    // generated by tl-gen; only the secret-chat module reads or writes them (the server never sees them).
    .swift("SecretApi", .Network, deps: ["TLRuntime"], tests: false),
    .swift(
        "MTProtoCore", .Network, deps: ["Buffers", "CryptoUtils", "TLRuntime", "MTProtoApi"],
        testDeps: ["CryptoUtils", "MTProtoApi", "TLRuntime", "GZip", "TestVectors"]),
    // The account's network as the managers see it (`AccountNetworking`), with its error rules and events: no NIO, so
    // what consumes it links no sockets.
    .swift(
        "AccountNetworking", .Network, deps: ["TLRuntime", "MTProtoCore", "SwiftSignalKit"], tests: false),
    .swift(
        "Network", .Network,
        deps: [
            "AccountNetworking", "MTProtoCore", "MTProtoTransport", "TelegramApi", "MTProtoApi", "TLRuntime",
            "CryptoUtils", "SwiftSignalKit", "NIOCore",
            "SecretFiles",
        ],
        testDeps: [
            "AccountNetworking", "MTProtoServer", "ServerAPI", "MTProtoApi", "MTProtoCore", "MTProtoTransport",
            "TelegramApi", "TLRuntime", "CryptoUtils", "SwiftSignalKit", "NIOCore", "NIOEmbedded", "NIOPosix",
            "ServerTestSupport", "TestVectors",
        ]),
    .swift(
        "MTProtoTransport", .Network, deps: ["NIOCore", "NIOPosix", "Hashing", "CryptoUtils"],
        testDeps: ["NIOCore", "NIOEmbedded", "NIOPosix", "TestVectors"]),

    // ChatHistory: from a Postbox history view to what the list shows.
    .swift(
        "ChatHistory", .ChatHistory, deps: ["Postbox", "SyncCore", "MergeLists", "ListView"],
        testDeps: [
            "Postbox", "PostboxTesting", "SyncCore", "SignalTesting", "SwiftSignalKit", "MergeLists", "ListView",
        ]),

    .swift("ListView", .ChatHistory, deps: ["SwiftSignalKit"], testDeps: ["SwiftSignalKit", "SignalTesting"]),
    // Client: what composes a client from the account core, the media pipeline and the chat screen's model.

    // TelegramClient: what a client command does, above TelegramCore — where the client's data lives and which server
    // each account talks to, sign-in as one flow, peers by @username / phone / id, markdown to entities, waiting for
    // an account to catch up, sending until the server has it, history, search, downloads and watching as values with
    // stable JSON, secret chats (`SecretChatting`). The `tg` app is its command line.
    .swift(
        "TelegramClient", .Client,
        deps: [
            "UpdateSequencing",
            "TelegramCore", "TextFormat", "SyncCore", "SyncCoreApi", "Postbox", "MediaBox", "AccountNetworking",
            "Network", "MTProtoTransport",
            "TelegramApi", "SwiftSignalKit",
            "CryptoUtils", "SecretFiles", "NIOCore", "NIOPosix", "SecretChats",
        ],
        testDeps: [
            "SyncCore", "Postbox", "PostboxTesting", "TestVectors", "ImageCore", "MediaTestSupport", "TelegramCore",
            "Network", "ServerTestSupport", "ServerStore", "PushNotifications", "MTProtoCore", "SwiftSignalKit",
            "MTProtoTransport",
        ]),
    // Outgoing photos (1280 px JPEG) and voice notes (Ogg/Opus, waveform) for an account; incoming images as Signals:
    // the stripped thumbnail, then the fetched size decoded, transformed and cached; stickers' first frames.
    .swift(
        "MediaResources", .Client,
        deps: [
            "ImageCore", "ImageTransform", "JPEGBinding", "PhotoSizes", "OpusBinding", "AudioWaveform",
            "VideoBinding", "SwiftSignalKit",
            "SyncCore", "TelegramCore", "Postbox", "MediaBox", "AnimatedSticker",
        ],
        testDeps: [
            "UpdateSequencing",
            "ImageCore", "ImageTransform", "JPEGBinding", "PhotoSizes", "OpusBinding", "AudioWaveform",
            "VideoBinding", "SwiftSignalKit",
            "SyncCore", "TelegramCore", "Postbox", "PostboxTesting", "MediaBox", "Network", "AnimatedSticker",
            "ServerTestSupport", "MediaTestSupport", "TestVectors", "CryptoUtils",
        ]),
    // ChatRender: a chat drawn in a terminal (ANSI) from its history entries, and as a PNG screen on TextLayout's
    // cairo Canvas with its pictures fetched through MediaResources.
    .swift(
        "ChatRender", .Client,
        deps: [
            "ChatHistory", "Postbox", "SyncCore", "AudioWaveform", "CUtf8proc", "TextLayout", "MediaResources",
            "ImageCore",
            "SwiftSignalKit",
        ],
        testDeps: [
            "ChatHistory", "Postbox", "PostboxTesting", "SyncCore", "SignalTesting", "AudioWaveform", "TextLayout",
            "MediaResources", "ImageCore", "TelegramCore", "ChatConversationFixture", "SwiftSignalKit", "TestVectors",
        ]),

    // ChatTerminal: the interactive `tg` — a pure state machine (keys and account events in, a screen model and
    // effects out) over ChatHistory's entries and ChatRender's terminal renderer, and its thin raw-terminal shell.
    .swift(
        "ChatTerminal", .Client,
        deps: [
            "ChatHistory", "ChatRender", "TelegramClient", "TelegramCore", "Postbox", "SyncCore", "SwiftSignalKit",
            "MediaResources",
        ],
        testDeps: [
            "ChatHistory", "Postbox", "PostboxTesting", "SyncCore", "SignalTesting", "SwiftSignalKit", "TelegramClient",
            "ChatRender",
        ]),

    // Server: the local MTProto server.
    .swift(
        "MTProtoServer", .Server,
        deps: [
            "MTProtoCore", "MTProtoApi", "MTProtoTransport", "TelegramApi", "TLRuntime", "CryptoUtils", "Buffers",
            "SecretFiles",
            "NIOCore", "NIOPosix", "Logging", "CoreMetrics",
        ],
        testDeps: [
            "ServerAPI", "MTProtoTransport", "MTProtoCore", "MTProtoApi", "TelegramApi", "TLRuntime", "CryptoUtils",
            "NIOCore", "NIOPosix", "TestVectors",
        ]),
    // MTProxyRelay: an MTProxy of our own (plain, dd and fake-TLS secrets) in front of tg-server's DCs.
    .swift(
        "MTProxyRelay", .Server, deps: ["MTProtoTransport", "CryptoUtils", "NIOCore", "NIOPosix"],
        testDeps: [
            "MTProtoTransport", "Network", "ServerTestSupport", "TelegramApi", "NIOCore", "NIOPosix",
        ]),
    // Test support: a tg-server backend in the test's process, for the client tests (Network, Core).
    .testSupport(
        "ServerTestSupport", .Server,
        deps: [
            "MTProtoServer", "ServerAPI", "ServerStore", "Network", "TelegramApi", "TLRuntime", "CryptoUtils",
            "NIOCore",
            "NIOPosix", "MTProtoTransport", "TestVectors",
        ]),
    // ServerLoopback: an account's network that reaches tg-server's application layer in the same process (no socket,
    // no MTProto), and the server it reaches, restartable on its storage: what LoopbackAccountTests and the simulation
    // run accounts on.
    .swift(
        "ServerLoopback", .Server,
        deps: [
            "AccountNetworking", "MTProtoServer", "ServerAPI", "MTProtoCore", "TLRuntime", "TelegramApi",
            "SwiftSignalKit", "CryptoUtils",
        ], tests: false),
    // ServerStore: tg-server's database (accounts, message boxes, dialogs, the update log) on the SQLite module.
    .swift(
        "ServerStore", .Server, deps: ["SQLite", "SecretFiles", "CryptoUtils", "Buffers", "CoreMetrics"],
        testDeps: ["SQLite"]),
    .swift(
        "ServerAPI", .Server,
        deps: [
            "MTProtoServer", "ServerStore", "TelegramApi", "TLRuntime", "CryptoUtils", "SecretFiles", "GZip",
            "ImageCore",
            "WebPBinding", "PhotoSizes", "VideoBinding", "PasswordSRP", "Logging", "MTProtoCore", "CoreMetrics",
            "NIOCore", "Hashing", "MTProtoTransport",
        ],
        testDeps: [
            "MTProtoServer", "ServerStore", "TelegramApi", "TLRuntime", "GZip", "ImageCore", "WebPBinding",
            "MTProtoCore", "PasswordSRP", "TestVectors", "Hashing", "VideoBinding",
        ]),

    // MediaPipeline: images, WebP, Opus, waveforms.
    // RGBA8 premultiplied bitmaps with stride; PNG (the only importer of CPNG).
    .swift("ImageCore", .MediaPipeline, deps: ["CPNG"], testDeps: ["MediaTestSupport"]),
    // Still and animated WebP decode/encode (the only importer of CWebP).
    .swift("WebPBinding", .MediaPipeline, deps: ["ImageCore", "CWebP"], testDeps: ["ImageCore", "MediaTestSupport"]),
    // Resize, crop, fill/fit, rounded corners, circle, blur; the (resource, arguments) transform cache; the pipeline.
    .swift(
        "ImageTransform", .MediaPipeline, deps: ["ImageCore", "WebPBinding", "Hashing", "SwiftSignalKit"],
        testDeps: ["ImageCore", "WebPBinding", "SwiftSignalKit"]),
    // JPEG decode (header caps before decompressing) and encode through TurboJPEG (the only importer of CJPEGTurbo).
    .swift(
        "JPEGBinding", .MediaPipeline, deps: ["ImageCore", "CJPEGTurbo"],
        testDeps: ["ImageCore", "MediaTestSupport", "TestVectors"]),
    // Telegram's photo sizes (s, m, x, y, w) and the stripped thumbnail from JPEG, PNG or WebP bytes.
    .swift(
        "PhotoSizes", .MediaPipeline, deps: ["ImageCore", "JPEGBinding", "ImageTransform", "WebPBinding"],
        testDeps: ["ImageCore", "JPEGBinding", "WebPBinding", "MediaTestSupport", "TestVectors"]),
    // Ogg/Opus voice notes with Telegram's settings, WAV (the only importer of COpus, COgg, COpusShims).
    .swift(
        "OpusBinding", .MediaPipeline, deps: ["COpus", "COgg", "COpusShims", "Buffers"], testDeps: ["MediaTestSupport"]),
    // VideoBinding: FFmpeg (the only importer of CFFmpeg): probe, first frame and a frame at a time to a Bitmap,
    // the first frame's thumbnails through PhotoSizes.
    .swift(
        "VideoBinding", .MediaPipeline, deps: ["ImageCore", "CFFmpeg", "PhotoSizes", "JPEGBinding"],
        testDeps: ["ImageCore", "PhotoSizes", "JPEGBinding", "MediaTestSupport", "TestVectors"]),
    // The 63-byte voice-note waveform, its decoder, ASCII and PNG renderings.
    .swift("AudioWaveform", .MediaPipeline, deps: ["GZip", "Hashing"], testDeps: ["ImageCore"]),
    // Test support for the media tests: scratch folders, running the oracle tools, PAM reading, drawn pictures.
    .testSupport(
        "MediaTestSupport", .MediaPipeline, deps: ["ImageCore", "WebPBinding", "GZip", "Hashing", "TestVectors"]),

    // StickerDecode: Lottie and sticker formats.
    // rlottie frames into bitmaps (the only importer of CRLottie).
    .swift("RLottieBinding", .StickerDecode, deps: ["CRLottie", "ImageCore"], testDeps: ["ImageCore", "TestVectors"]),
    // Format sniffing, .tgs unpacking and validation, Telegram's sticker limits (.tgs, WebP, video stickers).
    .swift(
        "StickerFormats", .StickerDecode, deps: ["GZip", "WebPBinding", "ImageCore", "VideoBinding"],
        testDeps: ["GZip", "WebPBinding", "ImageCore", "VideoBinding", "MediaTestSupport"]),
    // Frame sources (.tgs, WebP, WebM video stickers) and the zstd frame cache (the only importer of CZstd).
    .swift(
        "AnimatedSticker", .StickerDecode,
        deps: [
            "RLottieBinding", "StickerFormats", "WebPBinding", "ImageCore", "ImageTransform", "CZstd", "VideoBinding",
        ],
        testDeps: [
            "GZip", "RLottieBinding", "StickerFormats", "WebPBinding", "ImageCore", "MediaTestSupport", "VideoBinding",
        ]),

    // SyncCore: Telegram's models (users, groups, photos, files, service actions, message attributes) as PostboxCoding
    // types; no Network, so postbox-tool can read an account.
    .swift(
        "SyncCore", .Core, deps: ["Postbox", "PostboxCoding", "MediaBox", "ValueBox"],
        testDeps: ["Postbox", "PostboxCoding", "PostboxTesting"]),
    // PostboxJSONL: messages as JSON lines in SyncCore's types (postbox-tool's import-jsonl / export-jsonl mapping).
    .swift(
        "PostboxJSONL", .Core, deps: ["Postbox", "SyncCore"],
        testDeps: ["Postbox", "SyncCore", "PostboxTesting", "TestVectors"]),
    // TextFormat: text entities as Telegram clients find and type them (TDLib's rules), UTF-16 offsets.
    .swift("TextFormat", .Core, deps: ["SyncCore", "Postbox"], testDeps: ["SyncCore", "TestVectors"]),
    // SyncCoreApi: SyncCore values from the generated API types (Telegram-iOS's ApiUtils).
    .swift(
        "SyncCoreApi", .Core, deps: ["SyncCore", "Postbox", "TelegramApi", "TLRuntime"],
        testDeps: ["SyncCore", "Postbox", "PostboxTesting", "TelegramApi", "TLRuntime"]),
    // PushNotifications: encrypted pushes on the device side — each account's notification key in the accounts
    // metadata, the push file opened and checked, its message stored as Telegram's notification extension does.
    .swift(
        "PushNotifications", .Core, deps: ["Postbox", "SyncCore", "MTProtoCore", "SecretFiles"],
        testDeps: ["Postbox", "SyncCore", "MTProtoCore", "CryptoUtils", "PostboxTesting"]),
    // Core: the account layer between Postbox and Network (TelegramCore's update state machine, …).
    // SecretChats: the sans-IO core of secret chats (core.telegram.org "End-to-End Encryption, Secret Chats"): the
    // DH exchange and re-keying state machines, MTProto 2.0 end-to-end sealing, sequence numbers, layers, the key
    // visualization.
    .swift(
        "SecretChats", .Core, deps: ["SecretApi", "TLRuntime", "CryptoUtils"],
        testDeps: ["SecretApi", "TLRuntime", "CryptoUtils", "TestVectors"]),
    // UpdateSequencing: the account's update state machine (core.telegram.org "Working with updates"): pts, qts and
    // seq, gaps held for their wait, what to apply in one batch; pure, so its tests link neither network nor server.
    .swift(
        "UpdateSequencing", .Core, deps: ["TelegramApi", "SecretChats"],
        testDeps: ["TLRuntime", "TelegramApi", "TestVectors"]),
    .swift(
        "TelegramCore", .Core,
        deps: [
            "TelegramApi", "TLRuntime", "SwiftSignalKit", "SyncCore", "SyncCoreApi", "Postbox", "PostboxCoding",
            "MediaBox",
            "ValueBox", "AccountNetworking", "Network", "MTProtoCore", "MTProtoTransport", "NIOCore", "CryptoUtils",
            "PasswordSRP", "SecretFiles", "PushNotifications", "SecretChats", "SecretApi", "UpdateSequencing",
            "Hashing",
        ],
        testDeps: [
            "UpdateSequencing",
            "TelegramApi", "TLRuntime", "TestVectors", "SwiftSignalKit", "SignalTesting", "AccountNetworking",
            "Network", "NIOCore", "NIOPosix",
            "CryptoUtils", "ServerTestSupport", "ServerLoopback", "ServerAPI", "SyncCore", "SyncCoreApi", "Postbox",
            "PostboxTesting", "MediaBox",
            "ImageCore", "JPEGBinding", "MediaTestSupport", "PushNotifications", "MTProtoCore", "SecretChats",
            "SecretApi",
        ]),

    // ChatHistory: the chat screen's model under the UI.
    // MergeLists: stable diffs of two sorted lists of identified items in one walk (Telegram-iOS's MergeLists).
    .swift("MergeLists", .ChatHistory, testDeps: ["TestVectors"]),
    // TextLayout: message text and entities laid out into lines, clusters and link hit areas by Pango (the only
    // importer of CPango).
    // Its Canvas is the one cairo drawing surface (cairo comes with pangocairo): ChatRender draws chats on it.
    .swift("TextLayout", .ChatHistory, deps: ["CPango", "SyncCore"], testDeps: ["SyncCore", "ImageCore"]),

    // BuildTools: generators and checks that run at development time.
    .swift("BoundaryCheck", .BuildTools, testDeps: ["TestVectors"]),
    .swift("TLGenerator", .BuildTools, deps: ["TLSchema"], testDeps: ["TLSchema", "TestVectors"]),
    // ChatConversationFixture: a conversation made through an in-process tg-server between two of our accounts (text
    // with entities, a reply, an album, a sticker, a voice note) for ChatRenderTests, chatrender-bench and
    // `make chat-png`; test support, so no app links it.
    .testSupport(
        "ChatConversationFixture", .BuildTools,
        deps: [
            "UpdateSequencing",
            "TelegramCore", "ServerTestSupport", "Postbox", "SyncCore", "ChatHistory", "ImageCore", "JPEGBinding",
            "AudioWaveform", "SwiftSignalKit",
        ]),
    // Simulation: many TelegramCore accounts and tg-server's backend in one process over loopback networks, a
    // workload and its faults drawn from one seed, invariants checked after every step (`make simulate`).
    .swift(
        "Simulation", .BuildTools,
        deps: [
            "UpdateSequencing",
            "TelegramCore", "ServerLoopback", "AccountNetworking", "Postbox", "SyncCore", "SyncCoreApi", "TelegramApi",
            "TLRuntime", "SwiftSignalKit", "NIOPosix", "CryptoUtils", "MediaBox",
        ],
        testDeps: ["SwiftSignalKit", "TestVectors"]),
    // FuzzHarnesses: every libFuzzer harness (Fuzz/ drives them; FuzzHarnessesTests runs a fixed-seed pass).
    .swift(
        "FuzzHarnesses", .BuildTools,
        deps: [
            "TLSchema", "TLRuntime", "TelegramApi", "MTProtoApi", "MTProtoCore", "MTProtoTransport", "CryptoUtils",
            "NIOCore", "OpusBinding", "WebPBinding", "ImageCore", "StickerFormats", "AnimatedSticker", "PostboxCoding",
            "JPEGBinding", "ServerAPI", "MTProtoServer", "NIOEmbedded", "SecretChats",
        ],
        testDeps: ["TestVectors"]),
]

// MARK: - Apps

/// One executable: a thin `@main` over library modules.
struct App {
    let name: String
    let folder: Area
    let modules: [String]
    let line: Int

    /// An executable at `<folder>/<name>` linking `modules` (and what they depend on).
    static func app(_ name: String, in folder: Area = .Apps, links modules: [String], line: Int = #line) -> App {
        App(name: name, folder: folder, modules: modules, line: line)
    }

    var path: String { "\(folder.rawValue)/\(name)" }
}

let apps: [App] = [
    .app("boundary-check", in: .BuildTools, links: ["BoundaryCheck"]),
    // Media apps.
    .app(
        "sticker-tool",
        links: [
            "AnimatedSticker", "WebPBinding", "ImageCore", "CommandLineOutput",
            "ArgumentParser",
        ]),
    .app("voice-tool", links: ["OpusBinding", "AudioWaveform", "CommandLineOutput", "ArgumentParser"]),

    // Postbox apps.
    .app(
        "postbox-tool",
        links: [
            "Postbox", "SyncCore", "PostboxJSONL", "PostboxTesting", "CommandLineOutput", "ArgumentParser",
            "SwiftSignalKit",
        ]),

    // Network apps and build tools.
    .app(
        "tg-server",
        links: [
            "MTProtoServer", "ServerAPI", "Buffers", "SecretFiles", "CommandLineOutput", "NIOCore", "NIOPosix",
            "Logging", "ArgumentParser", "CoreMetrics", "Prometheus",
        ]),
    .app(
        "mtproxy",
        links: ["MTProxyRelay", "MTProtoTransport", "NIOCore", "NIOPosix", "ArgumentParser", "CommandLineOutput"]),
    .app("tl-gen", in: .BuildTools, links: ["TLSchema", "TLGenerator"]),
    .app("simulate", in: .BuildTools, links: ["Simulation", "ArgumentParser"]),

    // The client.
    .app(
        "tg",
        links: [
            "TelegramClient", "TelegramCore", "SyncCore", "Postbox", "ChatHistory", "ChatRender", "MediaResources",
            "ChatTerminal", "CommandLineOutput", "ArgumentParser", "MTProtoTransport",
        ]),
    // Core apps: the notification extension (its rule below keeps it within 24 MB).
    .app("notification-service", links: ["PushNotifications"]),

]

/// What an app's transitive closure may reach: never a listed area or module, and, when `onlyWithin` is set,
/// nothing outside those areas and modules. A pattern is an area (`Network`), a module or product (`Logging`), or
/// `Area:Module` (`Network:Network`, the module rather than the area). A rule names a built app or a planned one.
struct AppRule {
    let app: String
    let never: [String]
    let onlyWithin: [String]?
    let why: String
    let line: Int

    static func rule(
        _ app: String, never: [String] = [], onlyWithin: [String]? = nil, _ why: String, line: Int = #line
    ) -> AppRule {
        AppRule(app: app, never: never, onlyWithin: onlyWithin, why: why, line: line)
    }
}

/// Apps that are planned but not built yet: their rules wait for them. A rule naming an app that is neither built
/// nor listed here is a typo and fails evaluation; so does a planned app that exists (move it to `apps`).
let plannedApps: (names: [String], line: Int) = ([], #line)

let appRules: [AppRule] = [
    .rule(
        "notification-service", never: ["MediaPipeline", "StickerDecode", "ChatHistory", "Client", "MTProtoTransport"],
        "the notification extension lives in 24 MB: Postbox, SyncCore, MTProtoCore, TL only"),
    .rule("tg", never: ["Server"], "the client talks to a server over the network; it never links the server's code"),
    .rule("sticker-tool", never: ["Network", "Postbox", "Core", "Client", "Server"], "sticker-tool is media only"),
    .rule(
        "voice-tool", onlyWithin: ["System", "Base", "OpusBinding", "AudioWaveform", "ArgumentParser"],
        "voice-tool links only the audio modules"),
    .rule(
        "postbox-tool", never: ["Network", "Server", "MediaPipeline", "StickerDecode", "ChatHistory", "Client"],
        "postbox-tool is the Postbox area and SyncCore"),
    .rule(
        "tg-server",
        never: ["Network:Network", "Core", "StickerDecode", "ChatHistory", "Client", "OpusBinding", "AudioWaveform"],
        "the server uses Network's protocol modules, never its client module, and of the media only the image modules"),
]

// MARK: - Third-party packages

/// Products from other packages that a row may name as a dependency, with their package.
let externalProducts: [String: (package: String, url: String, from: Version)] = [
    "ArgumentParser": ("swift-argument-parser", "https://github.com/apple/swift-argument-parser", "1.8.2"),
    "Logging": ("swift-log", "https://github.com/apple/swift-log", "1.16.2"),
    "NIOCore": ("swift-nio", "https://github.com/apple/swift-nio", "2.101.2"),
    "NIOPosix": ("swift-nio", "https://github.com/apple/swift-nio", "2.101.2"),
    "NIOEmbedded": ("swift-nio", "https://github.com/apple/swift-nio", "2.101.2"),
    // The metrics API the server's libraries record through; only tg-server bootstraps a backend (Prometheus).
    "CoreMetrics": ("swift-metrics", "https://github.com/apple/swift-metrics", "2.13.0"),
    "Prometheus": ("swift-prometheus", "https://github.com/swift-server/swift-prometheus", "2.4.1"),
]

/// Modules that come with the toolchain and need no declaration.
let toolchainModules: Set<String> = [
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin",
    "Synchronization", "Testing", "XCTest", "_Concurrency", "Observation", "RegexBuilder",
]

// MARK: - Checks

/// Evaluation-time checks of the tables; a failure prints `Package.swift:<line>: error: …` and stops.
enum Layering {
    static func fail(_ line: Int, _ message: String) -> Never {
        let text = "Package.swift:\(line): error: \(message)\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        exit(1)
    }

    static let byName: [String: Module] = {
        var table: [String: Module] = [:]
        for module in modules {
            if let previous = table[module.name] {
                fail(module.line, "duplicate module '\(module.name)' (first declared at line \(previous.line))")
            }
            table[module.name] = module
        }
        return table
    }()

    /// Metrics backends: only an app (the composition root) may bootstrap one; libraries record through the
    /// swift-metrics API (`CoreMetrics`) alone.
    static let metricsBackends: Set<String> = ["Prometheus"]

    static func check() {
        for module in modules {
            if let backend = (module.deps + module.testDeps).first(where: metricsBackends.contains) {
                fail(
                    module.line,
                    "'\(module.name)' depends on metrics backend '\(backend)'; rule: libraries record through "
                        + "CoreMetrics and only an app bootstraps a backend")
            }
            for dep in module.deps + module.testDeps {
                guard let target = byName[dep] else {
                    if externalProducts[dep] == nil {
                        fail(module.line, "'\(module.name)' depends on unknown module '\(dep)'")
                    }
                    continue
                }
                // The area order binds every `deps` entry, whether or not `testDeps` names it too. A module's tests
                // may reach further (Network's run its client against the real server), so `testDeps` alone are
                // not held to it; the test-support and C-module rules below hold for both lists.
                let allowed =
                    target.area == module.area || module.area.mayDependOn.contains(target.area)
                    || layeringExceptions.contains { $0.module == module.name && $0.mayDependOn == target.area }
                if !allowed && module.deps.contains(dep) {
                    fail(
                        module.line,
                        "layering: '\(module.name)' (\(module.area)) may not depend on '\(dep)' (\(target.area)); "
                            + "rule: \(module.area) may depend only on \(describe(module.area.mayDependOn))")
                }
                if target.testSupport, !module.testSupport, module.deps.contains(dep) {
                    fail(
                        module.line,
                        "'\(module.name)' depends on test-support module '\(dep)'; rule: test-support modules are "
                            + "named only in testDeps (or by other test-support modules)")
                }
                if let wrapper = target.wrapper, target.isC, !module.isC, wrapper != module.name {
                    fail(
                        module.line,
                        "C module '\(dep)' is imported by '\(module.name)'; rule: only its wrapper '\(wrapper)' may")
                }
            }
        }
        checkCycles()
        checkRules()
        for app in apps {
            for dep in app.modules where byName[dep] == nil && externalProducts[dep] == nil {
                fail(app.line, "app '\(app.name)' links unknown module '\(dep)'")
            }
            if let wrong = app.modules.first(where: { byName[$0]?.isC == true }) {
                fail(app.line, "app '\(app.name)' links C module '\(wrong)'; rule: apps link Swift modules only")
            }
            for (name, path) in closure(app.modules).sorted(by: { $0.key < $1.key })
            where byName[name]?.testSupport == true {
                let trail = ([app.name] + path).joined(separator: " → ")
                fail(
                    app.line,
                    "app '\(app.name)' reaches test-support module '\(name)' (\(trail)); rule: apps never link test support"
                )
            }
            for rule in appRules where rule.app == app.name { checkApp(app, rule) }
        }
    }

    /// Every app rule names a built or planned app and patterns that name something; planned apps are not built.
    static func checkRules() {
        let built = Set(apps.map(\.name))
        for name in plannedApps.names where built.contains(name) {
            fail(plannedApps.line, "planned app '\(name)' is built now; rule: remove it from plannedApps")
        }
        for rule in appRules {
            if !built.contains(rule.app) && !plannedApps.names.contains(rule.app) {
                fail(
                    rule.line,
                    "app rule names unknown app '\(rule.app)' (built: \(apps.map(\.name).joined(separator: ", ")); "
                        + "planned: \(plannedApps.names.joined(separator: ", "))); rule: a rule names a built app "
                        + "or one listed in plannedApps")
            }
            for pattern in rule.never + (rule.onlyWithin ?? []) where !isKnownPattern(pattern) {
                fail(
                    rule.line,
                    "app rule for '\(rule.app)' names unknown pattern '\(pattern)'; rule: a pattern is an area, a "
                        + "module or product, or Area:Module")
            }
        }
    }

    static func isKnownPattern(_ pattern: String) -> Bool {
        let parts = pattern.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2 { return byName[parts[1]].map { $0.area.rawValue == parts[0] } ?? false }
        return Area(rawValue: pattern) != nil || byName[pattern] != nil || externalProducts[pattern] != nil
    }

    static func describe(_ areas: Set<Area>) -> String {
        areas.isEmpty ? "nothing" : Area.allCases.filter(areas.contains).map(\.rawValue).joined(separator: ", ")
    }

    static func checkCycles() {
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var stack: [String] = []
        func visit(_ name: String) {
            guard let module = byName[name] else { return }
            if state[name] == 2 { return }
            if state[name] == 1 {
                let cycle = stack[stack.lastIndex(of: name)!...] + [name]
                fail(module.line, "dependency cycle: \(cycle.joined(separator: " → "))")
            }
            state[name] = 1
            stack.append(name)
            for dep in module.deps { visit(dep) }
            stack.removeLast()
            state[name] = 2
        }
        for module in modules { visit(module.name) }
    }

    /// The closure of `roots` as paths from an app to each module it reaches.
    static func closure(_ roots: [String]) -> [String: [String]] {
        var paths: [String: [String]] = [:]
        var queue = roots.map { ($0, [$0]) }
        while !queue.isEmpty {
            let (name, path) = queue.removeFirst()
            if paths[name] != nil { continue }
            paths[name] = path
            for dep in byName[name]?.deps ?? [] { queue.append((dep, path + [dep])) }
        }
        return paths
    }

    static func matches(_ pattern: String, _ name: String) -> Bool {
        let area = byName[name]?.area.rawValue
        if pattern.contains(":") { return pattern == "\(area ?? ""):\(name)" }
        return pattern == name || pattern == area
    }

    static func checkApp(_ app: App, _ rule: AppRule) {
        for (name, path) in closure(app.modules).sorted(by: { $0.key < $1.key }) {
            let trail = ([app.name] + path).joined(separator: " → ")
            if let banned = rule.never.first(where: { matches($0, name) }) {
                fail(
                    app.line,
                    "app '\(app.name)' reaches '\(name)' (\(trail)); rule line \(rule.line): never \(banned): \(rule.why)"
                )
            }
            if let allowed = rule.onlyWithin, !allowed.contains(where: { matches($0, name) }) {
                fail(
                    app.line,
                    "app '\(app.name)' reaches '\(name)' (\(trail)); rule line \(rule.line): only \(allowed.joined(separator: ", ")): \(rule.why)"
                )
            }
        }
    }
}

// MARK: - Targets

/// Settings shared by every Swift target.
enum Settings {
    static var swift: [SwiftSetting] {
        [
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
    }

    /// Numeric inner loops that a debug build leaves unspecialised (the resampler's generic `Float(UInt8)` ran
    /// ~20× slower at `-Onone`): these modules are optimised in debug builds too, so the tests that push real-size
    /// images through them do not spend minutes of CPU. Release builds are optimised anyway.
    static let optimizedInDebug: Set<String> = ["ImageTransform"]

    static func swift(for module: String) -> [SwiftSetting] {
        guard optimizedInDebug.contains(module) else { return swift }
        return swift + [.unsafeFlags(["-O"], .when(configuration: .debug))]
    }
}

func dependency(_ name: String) -> Target.Dependency {
    if let external = externalProducts[name] { return .product(name: name, package: external.package) }
    return .target(name: name)
}

func targets(for module: Module) -> [Target] {
    switch module.kind {
    case .system(let pkgConfig, let apt, _):
        return [
            .systemLibrary(
                name: module.name, path: module.path, pkgConfig: pkgConfig,
                providers: [.apt([apt])])
        ]
    case .cShims:
        return [.target(name: module.name, dependencies: module.deps.map(dependency), path: module.path)]
    case .swift:
        var result: [Target] = [
            .target(
                name: module.name, dependencies: module.deps.map(dependency), path: module.path,
                swiftSettings: Settings.swift(for: module.name))
        ]
        if module.tests {
            result.append(
                .testTarget(
                    name: "\(module.name)Tests", dependencies: ([module.name] + module.testDeps).map(dependency),
                    path: "Tests/\(module.name)Tests", swiftSettings: Settings.swift))
        }
        return result
    }
}

Layering.check()

let usedExternals = Set(
    (modules.flatMap { $0.deps + $0.testDeps } + apps.flatMap(\.modules)).compactMap {
        externalProducts[$0]
    }.map(\.url))

let package = Package(
    name: "Telegraph",
    products: modules.filter { !$0.isC }.map { .library(name: $0.name, targets: [$0.name]) }
        + apps.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: usedExternals.sorted().map { url in
        let version = externalProducts.values.first { $0.url == url }!.from
        return .package(url: url, from: version)
    },
    targets: modules.flatMap(targets(for:))
        + apps.map {
            .executableTarget(
                name: $0.name, dependencies: $0.modules.map(dependency), path: $0.path, swiftSettings: Settings.swift)
        }
)
