// swift-tools-version:6.0
// libFuzzer harnesses for the TL toolchain: the schema parser and the runtime/generated decoders. Kept out of the
// main package because they only link under `-sanitize=fuzzer` (libFuzzer supplies `main`). Run with `make fuzz`.
import PackageDescription

let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "TelegraphFuzz",
    dependencies: [.package(name: "Telegraph", path: "..")],
    targets: [
        // TL schema text → TLSchema (or a TLSchemaError).
        .executableTarget(
            name: "tl-schema-fuzz", dependencies: [.product(name: "TLSchema", package: "Telegraph")],
            path: "Sources/tl-schema-fuzz", swiftSettings: harness),
        // Wire bytes → TLReader primitives, Api.parseObject, Api.functions.parse, MTProto.parseObject.
        .executableTarget(
            name: "tl-decoder-fuzz",
            dependencies: [
                .product(name: "TLRuntime", package: "Telegraph"), .product(name: "TelegramApi", package: "Telegraph"),
                .product(name: "MTProtoApi", package: "Telegraph"),
            ],
            path: "Sources/tl-decoder-fuzz", swiftSettings: harness),
    ]
)
