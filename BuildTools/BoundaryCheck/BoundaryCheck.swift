import Foundation

/// Checks a package's module boundaries: (a) every import names a declared direct dependency or a toolchain
/// module, (b) apps stay inside their subsets, (c) C modules are imported only by their one wrapper and (d) every
/// declared direct dependency of a Swift target is imported by at least one of its files; (e) no file that ships
/// uses a construct whose compiled form depends on the checkout's path or the build time (`PathDependentCode`);
/// (f) nothing an app of `foundationEssentialsOnly` links imports full `Foundation`.
///
/// The manifest's own evaluation enforces the layering, cycles and app subsets (Package.swift `Layering.check`), so
/// (b) shows up here as a manifest failure; this type adds what the manifest cannot see: the sources.
public struct BoundaryCheck: Sendable {
    /// Modules that ship with the toolchain and need no declaration.
    public static let toolchainModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin", "Android", "Synchronization", "Testing", "XCTest",
        "_Concurrency", "_StringProcessing", "RegexBuilder", "Observation", "Distributed", "SwiftShims",
    ]

    /// Apps whose every module may import `FoundationEssentials` but not `Foundation`, and why: on Linux, full
    /// Foundation links FoundationInternationalization and ICU's data table (34 MB), and loading them costs the
    /// process megabytes before it does anything.
    public static let foundationEssentialsOnly: [String: String] = [
        "notification-service":
            "the notification service runs within 16 MB of memory, and full Foundation's ICU alone costs 2.4 MB of it"
    ]

    /// Full Foundation and the parts of it beyond `FoundationEssentials` that bring ICU or other large libraries.
    static let fullFoundation: Set<String> = [
        "Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    ]

    /// The package root.
    public let packagePath: String

    public init(packagePath: String) {
        self.packagePath = packagePath
    }

    /// What a run found.
    public struct Report: Sendable {
        public var violations: [BoundaryViolation] = []
        public var targetsChecked = 0
        public var filesChecked = 0
        public var importsChecked = 0
    }

    /// Runs every check and returns the violations (empty when the package is clean).
    public func run() -> Report {
        var report = Report()
        let graph: PackageGraph
        do {
            graph = try PackageGraph.load(packagePath: packagePath)
        } catch let violation as BoundaryViolation {
            report.violations.append(violation)
            return report
        } catch {
            report.violations.append(.manifest(["could not evaluate Package.swift: \(error)"]))
            return report
        }
        check(graph, into: &report)
        return report
    }

    /// The checks over a loaded graph and the sources on disk.
    public func check(_ graph: PackageGraph, into report: inout Report) {
        let cModules = Set(graph.targets.filter { isCModule($0) }.map(\.name))
        // (c) each C module has one Swift wrapper: the Swift target that declares it.
        var wrappers: [String: [String]] = [:]
        for target in graph.targets where !cModules.contains(target.name) && target.kind != .test {
            for dependency in target.dependencies where cModules.contains(dependency) {
                wrappers[dependency, default: []].append(target.name)
            }
        }
        // A shims target's wrapper is whoever wraps the shims.
        for target in graph.targets where cModules.contains(target.name) {
            for dependency in target.dependencies where cModules.contains(dependency) {
                if let owner = wrappers[target.name], wrappers[dependency] == nil { wrappers[dependency] = owner }
            }
        }
        for (module, targets) in wrappers.sorted(by: { $0.key < $1.key }) where Set(targets).count > 1 {
            report.violations.append(.twoWrappers(module: module, targets: targets.sorted()))
        }
        // (a) direct imports only, (c) C modules only inside their wrapper, (d) no declared dependency unused.
        let rows = ManifestRows.lines(
            in: (try? String(contentsOfFile: absolute("Package.swift"), encoding: .utf8)) ?? "")
        for target in graph.targets.sorted(by: { $0.name < $1.name }) where !cModules.contains(target.name) {
            report.targetsChecked += 1
            let declared = Set(target.dependencies)
            var imported: Set<String> = []
            for file in swiftFiles(under: target.path) {
                report.filesChecked += 1
                guard let source = try? String(contentsOfFile: absolute(file), encoding: .utf8) else { continue }
                for entry in ImportScanner.imports(in: source) {
                    report.importsChecked += 1
                    imported.insert(entry.module)
                    if entry.module == target.name || Self.toolchainModules.contains(entry.module) { continue }
                    if cModules.contains(entry.module) {
                        let wrapper = wrappers[entry.module]?.first
                        if wrapper != target.name {
                            report.violations.append(
                                .cModuleOutsideWrapper(
                                    file: file, line: entry.line, target: target.name, module: entry.module,
                                    wrapper: wrapper))
                        }
                        continue
                    }
                    if !declared.contains(entry.module) {
                        report.violations.append(
                            .undeclaredImport(file: file, line: entry.line, target: target.name, module: entry.module))
                    }
                }
            }
            for dependency in target.dependencies where !imported.contains(dependency) {
                report.violations.append(unused(dependency, of: target, rows: rows))
            }
        }
        // (e) nothing that ships in an executable makes the build depend on the checkout's path or the time.
        let shipped = shippedTargets(graph)
        for target in graph.targets.sorted(by: { $0.name < $1.name })
        where shipped.contains(target.name) && target.kind != .system {
            for file in sourceFiles(under: target.path, extensions: ["swift", "c", "h"]) {
                guard let source = try? String(contentsOfFile: absolute(file), encoding: .utf8) else { continue }
                for finding in PathDependentCode.findings(in: source, swift: file.hasSuffix(".swift")) {
                    report.violations.append(
                        .pathDependentCode(file: file, line: finding.line, construct: finding.construct))
                }
            }
        }
        // (f) the apps that must not load full Foundation.
        fullFoundationImports(graph, into: &report)
    }

    /// The executables and every target they reach through their dependencies: what a release build ships (test
    /// targets and the modules only tests use are not).
    func shippedTargets(_ graph: PackageGraph) -> Set<String> {
        closure(of: graph.targets.filter { $0.kind == .executable }.map(\.name), in: graph)
    }

    /// `roots` and every target they reach through their dependencies.
    func closure(of roots: [String], in graph: PackageGraph) -> Set<String> {
        let byName = graph.byName
        var reached: Set<String> = []
        var pending = roots
        while let name = pending.popLast() {
            guard reached.insert(name).inserted, let target = byName[name] else { continue }
            pending += target.dependencies
        }
        return reached
    }

    /// (f) Every file of every target an app of `foundationEssentialsOnly` links that imports `Foundation`.
    func fullFoundationImports(_ graph: PackageGraph, into report: inout Report) {
        let byName = graph.byName
        for (app, why) in Self.foundationEssentialsOnly.sorted(by: { $0.key < $1.key }) where byName[app] != nil {
            for name in closure(of: [app], in: graph).sorted() {
                guard let target = byName[name], target.kind != .system else { continue }
                for file in swiftFiles(under: target.path) {
                    guard let source = try? String(contentsOfFile: absolute(file), encoding: .utf8) else { continue }
                    for entry in ImportScanner.imports(in: source) where Self.fullFoundation.contains(entry.module) {
                        report.violations.append(
                            .fullFoundation(
                                file: file, line: entry.line, target: name, app: app, module: entry.module, why: why))
                    }
                }
            }
        }
    }

    /// A finding for a declared dependency no file of `target` imports, naming the manifest row that declares it:
    /// a test target `<M>Tests` is declared by the row of `M` (its `testDeps`), an executable by its app row.
    func unused(_ dependency: String, of target: PackageGraph.Target, rows: [String: Int]) -> BoundaryViolation {
        let owner =
            target.kind == .test && target.name.hasSuffix("Tests")
            ? String(target.name.dropLast("Tests".count)) : target.name
        let list: String
        switch target.kind {
        case .test: list = dependency == owner ? "the test target (its own module)" : "testDeps"
        case .executable: list = "links"
        default: list = "deps"
        }
        return .unusedDependency(row: rows[owner], target: target.name, module: dependency, list: list)
    }

    /// A C module: a `[system]` library target, or a C-language target under Modules/System.
    func isCModule(_ target: PackageGraph.Target) -> Bool {
        if target.kind == .system { return true }
        guard target.path.hasPrefix("Modules/System/") else { return false }
        return swiftFiles(under: target.path).isEmpty
    }

    func absolute(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : packagePath + "/" + relative
    }

    /// The Swift files below a target's folder, as paths relative to the package, sorted.
    func swiftFiles(under path: String) -> [String] {
        sourceFiles(under: path, extensions: ["swift"])
    }

    /// The files below a target's folder whose extension is one of `extensions`, relative to the package, sorted.
    func sourceFiles(under path: String, extensions: Set<String>) -> [String] {
        let root = absolute(path)
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let next = enumerator.nextObject() as? String {
            if let dot = next.lastIndex(of: "."), extensions.contains(String(next[next.index(after: dot)...])) {
                files.append(path + "/" + next)
            }
        }
        return files.sorted()
    }
}
