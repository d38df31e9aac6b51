import BoundaryCheck
import Foundation
import Testing

/// The manifest's own rules, each broken once in a copy of the package: layering for a dependency that `testDeps`
/// also names, app rules naming an unknown app or pattern, a planned app that exists, and declared dependencies
/// no file imports (reported by the lint at the manifest row).
@Suite struct PlantedManifestRuleTests {
    /// Adds a module row (and its source file) at the top of the module table; returns the row's line.
    @discardableResult
    static func plant(_ row: String, source: (path: String, text: String), in copy: PlantedCopy) throws -> Int {
        try copy.write(source.path, source.text)
        try copy.replace("// Base: bytes and hashes.\n", with: "// Base: bytes and hashes.\n    \(row)\n", in: "Package.swift")
        return try copy.line(of: row, in: "Package.swift")
    }

    static let plantedSignal = (
        row: #".swift("PlantedSignal", .Signal, tests: false),"#,
        source: (path: "Modules/Signal/PlantedSignal/PlantedSignal.swift", text: "public enum PlantedSignal {}\n")
    )

    @Test func layeringHoldsForADependencyAlsoListedInTestDeps() throws {
        let copy = try PlantedCopy()
        try Self.plant(Self.plantedSignal.row, source: Self.plantedSignal.source, in: copy)
        try Self.plant(
            #".swift("PlantedBase", .Base, deps: ["PlantedSignal"], tests: false, testDeps: ["PlantedSignal"]),"#,
            source: ("Modules/Base/PlantedBase/PlantedBase.swift", "import PlantedSignal\n"), in: copy)
        let message = try copy.onlyMessage()
        #expect(
            message.contains(
                "layering: 'PlantedBase' (Base) may not depend on 'PlantedSignal' (Signal); rule: Base may depend "
                    + "only on System"))
    }

    @Test func testDepsAloneMayReachAHigherArea() throws {
        // The other half of the rule: a module's tests may depend on more than the module may.
        let copy = try PlantedCopy()
        try Self.plant(Self.plantedSignal.row, source: Self.plantedSignal.source, in: copy)
        try Self.plant(
            #".swift("PlantedBase", .Base, testDeps: ["PlantedSignal"]),"#,
            source: ("Modules/Base/PlantedBase/PlantedBase.swift", "public enum PlantedBase {}\n"), in: copy)
        try copy.write("Tests/PlantedBaseTests/PlantedBaseTests.swift", "import PlantedBase\nimport PlantedSignal\n")
        #expect(copy.check() == [])
    }

    @Test func appRuleNamingAnUnknownAppFailsTheManifest() throws {
        let copy = try PlantedCopy()
        try copy.replace(#".rule("sticker-tool","#, with: #".rule("sticker-tol","#, in: "Package.swift")
        let line = try copy.line(of: #".rule("sticker-tol","#, in: "Package.swift")
        let message = try copy.onlyMessage()
        #expect(message.hasPrefix("Package.swift:\(line): error: app rule names unknown app 'sticker-tol'"))
        #expect(message.contains("rule: a rule names a built app or one listed in plannedApps"))
    }

    @Test func appRuleNamingAnUnknownPatternFailsTheManifest() throws {
        let copy = try PlantedCopy()
        try copy.replace(#".rule("sticker-tool", never: ["#, with: #".rule("sticker-tool", never: ["Postbx", "#, in: "Package.swift")
        let message = try copy.onlyMessage()
        #expect(
            message.contains(
                "error: app rule for 'sticker-tool' names unknown pattern 'Postbx'; rule: a pattern is an area, a "
                    + "module or product, or Area:Module"))
    }

    @Test func areaQualifiedPatternMustNameTheModulesArea() throws {
        let copy = try PlantedCopy()
        try copy.replace(#"never: ["Network:Network","#, with: #"never: ["Core:Network","#, in: "Package.swift")
        let message = try copy.onlyMessage()
        #expect(message.contains("error: app rule for 'tg-server' names unknown pattern 'Core:Network'"))
    }

    @Test func plannedAppThatIsBuiltFailsTheManifest() throws {
        let copy = try PlantedCopy()
        // Every app the manifest plans exists today, so the test plans one and then builds it.
        try copy.replace(
            "let plannedApps: (names: [String], line: Int) = ([], #line)",
            with: "let plannedApps: (names: [String], line: Int) = ([\"planned-tool\"], #line)", in: "Package.swift")
        try copy.write("Apps/planned-tool/Entrypoint.swift", "@main enum Tool { static func main() {} }\n")
        try copy.replace("let apps: [App] = [\n", with: "let apps: [App] = [\n    .app(\"planned-tool\", links: []),\n", in: "Package.swift")
        let message = try copy.onlyMessage()
        #expect(message.contains("error: planned app 'planned-tool' is built now; rule: remove it from plannedApps"))
    }

    @Test func unusedDependenciesAreReportedAtTheirManifestRow() throws {
        let copy = try PlantedCopy()
        // A library's deps, its test target's testDeps and an app's links, each naming a module nothing imports.
        let row = try Self.plant(
            #".swift("PlantedBase", .Base, deps: ["Buffers"], testDeps: ["Hashing"]),"#,
            source: ("Modules/Base/PlantedBase/PlantedBase.swift", "public enum PlantedBase {}\n"), in: copy)
        try copy.write("Tests/PlantedBaseTests/PlantedBaseTests.swift", "import PlantedBase\n")
        try copy.write("Apps/planted-tool/Entrypoint.swift", "import PlantedBase\n@main enum Tool { static func main() {} }\n")
        try copy.replace(
            "let apps: [App] = [\n", with: "let apps: [App] = [\n    .app(\"planted-tool\", links: [\"PlantedBase\", \"Hashing\"]),\n",
            in: "Package.swift")
        let app = try copy.line(of: #".app("planted-tool""#, in: "Package.swift")
        let messages = copy.check()
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains {
            $0.hasPrefix("Package.swift:\(row): error: 'PlantedBase' declares 'Buffers' in deps, but none of its files "
                + "imports it (rule: declare only the direct dependencies a target imports")
        }, "\(messages)")
        #expect(messages.contains {
            $0.hasPrefix("Package.swift:\(row): error: 'PlantedBaseTests' declares 'Hashing' in testDeps")
        }, "\(messages)")
        #expect(messages.contains {
            $0.hasPrefix("Package.swift:\(app): error: 'planted-tool' declares 'Hashing' in links")
        }, "\(messages)")
    }
}
