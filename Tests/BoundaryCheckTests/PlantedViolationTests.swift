import BoundaryCheck
import Foundation
import Testing

/// Copies this repository's manifest and sources to a temporary folder (`PlantedCopy`), plants one violation of each
/// kind, and checks that the boundary check fails with the right message — and passes on the untouched copy.
@Suite struct PlantedViolationTests {
    @Test func untouchedCopyIsClean() throws {
        let copy = try PlantedCopy()
        #expect(copy.check() == [])
    }

    @Test func undeclaredImportIsReportedWithFileAndLine() throws {
        let copy = try PlantedCopy()
        let file = "Modules/Base/Buffers/MemoryBuffer.swift"
        try copy.write(file, "import Hashing\n" + (try copy.read(file)))
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("\(file):1: error: 'Buffers' imports 'Hashing'") == true)
        #expect(messages.first?.contains("rule: direct imports only") == true)
    }

    @Test func fullFoundationInTheNotificationServicesClosureIsReported() throws {
        let copy = try PlantedCopy()
        // MTProtoCore is linked by the notification service through PushNotifications.
        let file = "Modules/Network/MTProtoCore/SimpleConfig/SimpleConfigEnvelope.swift"
        try copy.replace("import FoundationEssentials\n", with: "import Foundation\n", in: file)
        let line = try copy.line(of: "import Foundation", in: file)
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(
            messages.first?.hasPrefix(
                "\(file):\(line): error: 'MTProtoCore', which 'notification-service' links, imports Foundation") == true)
        #expect(messages.first?.contains("rule: notification-service uses FoundationEssentials only") == true)
    }

    @Test func foundationInternationalizationInTheNotificationServicesClosureIsReported() throws {
        let copy = try PlantedCopy()
        // ICU comes with FoundationInternationalization too, imported beside FoundationEssentials.
        let file = "Modules/Network/MTProtoCore/SimpleConfig/SimpleConfigEnvelope.swift"
        try copy.replace(
            "import FoundationEssentials\n", with: "import FoundationEssentials\nimport FoundationInternationalization\n",
            in: file)
        let line = try copy.line(of: "import FoundationInternationalization", in: file)
        let message = try copy.onlyMessage()
        #expect(
            message.hasPrefix(
                "\(file):\(line): error: 'MTProtoCore', which 'notification-service' links, imports "
                    + "FoundationInternationalization"))
    }

    @Test func cModuleImportedOutsideItsWrapperIsReported() throws {
        let copy = try PlantedCopy()
        let file = "Modules/Base/Hashing/CRC32.swift"
        try copy.write(file, "import CZlib\n" + (try copy.read(file)))
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("\(file):1: error: 'Hashing' imports C module 'CZlib'") == true)
        #expect(messages.first?.contains("rule: a C module is imported only by its wrapper") == true)
    }

    @Test func declaringACModuleOutsideItsWrapperFailsTheManifest() throws {
        let copy = try PlantedCopy()
        try copy.replace(#".swift("Hashing", .Base"#, with: #".swift("Hashing", .Base, deps: ["CZlib"]"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("error: C module 'CZlib' is imported by 'Hashing'; rule: only its wrapper 'GZip' may") == true)
        #expect(messages.first?.hasPrefix("Package.swift:") == true)
    }

    @Test func forbiddenAppDependencyFailsTheManifest() throws {
        let copy = try PlantedCopy()
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
        let copy = try PlantedCopy()
        try copy.write("Modules/Signal/PlantedSignal/PlantedSignal.swift", "public enum PlantedSignal {}\n")
        try copy.replace(
            "// Base: bytes and hashes.\n",
            with: "// Base: bytes and hashes.\n    .swift(\"PlantedSignal\", .Signal, tests: false),\n",
            in: "Package.swift")
        try copy.replace(#".swift("Hashing", .Base"#, with: #".swift("Hashing", .Base, deps: ["PlantedSignal"]"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("layering: 'Hashing' (Base) may not depend on 'PlantedSignal' (Signal); rule: Base may depend only on System") == true)
    }

    @Test func appLinkingATestSupportModuleFailsTheManifest() throws {
        let copy = try PlantedCopy()
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
        let copy = try PlantedCopy()
        try copy.replace(
            #".swift("Hashing", .Base"#, with: #".swift("Hashing", .Base, deps: ["TestVectors"]"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("error: 'Hashing' depends on test-support module 'TestVectors'") == true)
        #expect(messages.first?.hasPrefix("Package.swift:") == true)
    }

    @Test func dependencyCycleFailsTheManifest() throws {
        let copy = try PlantedCopy()
        try copy.replace(#".swift("Hashing", .Base"#, with: #".swift("Hashing", .Base, deps: ["Buffers"]"#, in: "Package.swift")
        try copy.replace(#".swift("Buffers", .Base"#, with: #".swift("Buffers", .Base, deps: ["Hashing"]"#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("dependency cycle: Buffers → Hashing → Buffers") == true)
    }

    @Test func pathDependentCodeInAShippedModuleIsReported() throws {
        let copy = try PlantedCopy()
        let file = "Modules/Base/Hashing/CRC32.swift"
        try copy.write(file, (try copy.read(file)) + "\nfunc planted(_ f: () -> Void) { withoutActuallyEscaping(f) { $0() } }\n")
        let messages = copy.check()
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("\(file):") == true)
        #expect(messages.first?.contains("error: 'withoutActuallyEscaping' makes the compiled code depend on the checkout's path") == true)
    }
}
