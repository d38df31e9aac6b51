import BoundaryCheck
import Foundation
import Testing

/// Copies this repository's manifest and sources to a temporary folder, plants one violation of each kind, and
/// checks that the boundary check fails with the right message — and passes on the untouched copy.
@Suite struct PlantedViolationTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh copy of the package (manifest and source folders only) in a temporary folder.
    final class Copy {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("boundary-check-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for item in ["Package.swift", "Modules", "Apps", "BuildTools", "Tests"] {
                let source = PlantedViolationTests.repositoryRoot.appendingPathComponent(item)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try FileManager.default.copyItem(at: source, to: root.appendingPathComponent(item))
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func read(_ path: String) throws -> String {
            try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        /// Replaces the first occurrence of `old` in `path`; the test fails if it is not there.
        func replace(_ old: String, with new: String, in path: String) throws {
            let text = try read(path)
            try #require(text.contains(old), "'\(old)' not found in \(path)")
            try write(path, text.replacingOccurrences(of: old, with: new, options: [], range: text.range(of: old)))
        }

        func check() -> [String] {
            BoundaryCheck(packagePath: root.path).run().violations.map(\.description)
        }
    }

    @Test func untouchedCopyIsClean() throws {
        let copy = try Copy()
        #expect(copy.check() == [])
    }

    @Test func undeclaredImportIsReportedWithFileAndLine() throws {
        let copy = try Copy()
        let file = "Modules/Base/Buffers/MemoryBuffer.swift"
        try copy.write(file, "import Hashing\n" + (try copy.read(file)))
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("\(file):1: error: 'Buffers' imports 'Hashing'") == true)
        #expect(messages.first?.contains("rule: direct imports only") == true)
    }

    @Test func cModuleImportedOutsideItsWrapperIsReported() throws {
        let copy = try Copy()
        let file = "Modules/Base/Hashing/CRC32.swift"
        try copy.write(file, "import CZlib\n" + (try copy.read(file)))
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("\(file):1: error: 'Hashing' imports C module 'CZlib'") == true)
        #expect(messages.first?.contains("rule: a C module is imported only by its wrapper") == true)
    }

    @Test func declaringACModuleOutsideItsWrapperFailsTheManifest() throws {
        let copy = try Copy()
        try copy.replace(#".swift("Hashing", .Base)"#, with: #".swift("Hashing", .Base, deps: ["CZlib"])"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("error: C module 'CZlib' is imported by 'Hashing'; rule: only its wrapper 'GZip' may") == true)
        #expect(messages.first?.hasPrefix("Package.swift:") == true)
    }

    @Test func forbiddenAppDependencyFailsTheManifest() throws {
        let copy = try Copy()
        // A Postbox-area module linked into sticker-tool, which must never reach Postbox.
        try copy.write("Modules/Postbox/PlantedStore/PlantedStore.swift", "public enum PlantedStore {}\n")
        try copy.replace(
            "// Base: bytes and hashes.\n",
            with: "// Base: bytes and hashes.\n    .swift(\"PlantedStore\", .Postbox, tests: false),\n",
            in: "Package.swift")
        if try copy.read("Package.swift").contains(#".app("sticker-tool", links: ["#) {
            try copy.replace(#".app("sticker-tool", links: ["#, with: #".app("sticker-tool", links: ["PlantedStore", "#, in: "Package.swift")
        } else {
            try copy.write("Apps/sticker-tool/Entrypoint.swift", "@main enum StickerTool { static func main() {} }\n")
            try copy.replace(
                "let apps: [App] = [\n", with: "let apps: [App] = [\n    .app(\"sticker-tool\", links: [\"PlantedStore\"]),\n",
                in: "Package.swift")
        }
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("error: app 'sticker-tool' reaches 'PlantedStore'") == true)
        #expect(messages.first?.contains("never Postbox: sticker-tool is media only") == true)
    }

    @Test func layeringViolationFailsTheManifest() throws {
        let copy = try Copy()
        try copy.write("Modules/Signal/PlantedSignal/PlantedSignal.swift", "public enum PlantedSignal {}\n")
        try copy.replace(
            "// Base: bytes and hashes.\n",
            with: "// Base: bytes and hashes.\n    .swift(\"PlantedSignal\", .Signal, tests: false),\n",
            in: "Package.swift")
        try copy.replace(#".swift("Hashing", .Base)"#, with: #".swift("Hashing", .Base, deps: ["PlantedSignal"])"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("layering: 'Hashing' (Base) may not depend on 'PlantedSignal' (Signal); rule: Base may depend only on System") == true)
    }

    @Test func appLinkingATestSupportModuleFailsTheManifest() throws {
        let copy = try Copy()
        try copy.replace(
            #".app("tl-gen", in: .BuildTools, links: ["TLSchema", "TLGenerator"])"#,
            with: #".app("tl-gen", in: .BuildTools, links: ["TLSchema", "TLGenerator", "TestVectors"])"#,
            in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(
            messages.first?.contains(
                "error: app 'tl-gen' reaches test-support module 'TestVectors' (tl-gen → TestVectors); "
                    + "rule: apps never link test support") == true)
    }

    @Test func libraryDependingOnATestSupportModuleFailsTheManifest() throws {
        let copy = try Copy()
        try copy.replace(
            #".swift("Hashing", .Base)"#, with: #".swift("Hashing", .Base, deps: ["TestVectors"])"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("error: 'Hashing' depends on test-support module 'TestVectors'") == true)
        #expect(messages.first?.hasPrefix("Package.swift:") == true)
    }

    @Test func dependencyCycleFailsTheManifest() throws {
        let copy = try Copy()
        try copy.replace(#".swift("Hashing", .Base)"#, with: #".swift("Hashing", .Base, deps: ["Buffers"])"#, in: "Package.swift")
        try copy.replace(#".swift("Buffers", .Base)"#, with: #".swift("Buffers", .Base, deps: ["Hashing"])"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("dependency cycle: Buffers → Hashing → Buffers") == true)
    }
}
