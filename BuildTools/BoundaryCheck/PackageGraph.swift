public import Foundation

/// The targets of a package as its manifest declares them, read from `swift package dump-package`.
public struct PackageGraph: Sendable {
    /// One target: where its sources are and what it declares as direct dependencies.
    public struct Target: Sendable {
        public enum Kind: String, Sendable { case regular, test, executable, system, plugin, macro, binary }
        public let name: String
        public let kind: Kind
        public let path: String
        /// Target and product names declared as direct dependencies.
        public let dependencies: [String]
    }

    public let targets: [Target]

    /// Targets by name.
    public var byName: [String: Target] { Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }) }

    /// Evaluates the manifest at `packagePath`; a manifest that fails evaluation (a layering, cycle, app-subset or
    /// C-wrapper rule of Package.swift) throws with the manifest's own messages.
    public static func load(packagePath: String) throws -> PackageGraph {
        let manifest = try? String(contentsOfFile: packagePath + "/Package.swift", encoding: .utf8)
        if let manifest, let known = evaluated.result(for: manifest) { return try known.get() }
        let result = Result { try evaluate(packagePath: packagePath) }
        if let manifest { evaluated.store(result, for: manifest) }
        return try result.get()
    }

    /// Manifests already evaluated in this process, by their text. Package.swift reads nothing but itself (no file
    /// system, no environment), so the same text gives the same graph; the boundary check's tests evaluate one
    /// manifest in many planted copies of the package.
    private static let evaluated = EvaluatedManifests()

    private final class EvaluatedManifests: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [String: Result<PackageGraph, any Error>] = [:]

        func result(for manifest: String) -> Result<PackageGraph, any Error>? { lock.withLock { results[manifest] } }
        func store(_ result: Result<PackageGraph, any Error>, for manifest: String) {
            lock.withLock { results[manifest] = result }
        }
    }

    private static func evaluate(packagePath: String) throws -> PackageGraph {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "dump-package", "--package-path", packagePath]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes before waiting so a large manifest dump cannot block on a full pipe.
        let errorReader = Thread.detachNewThreadWithResult { errors.fileHandleForReading.readDataToEndOfFile() }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: errorReader.value(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BoundaryViolation.manifest(Self.manifestMessages(errorText))
        }
        return try parse(data)
    }

    /// Keeps the lines a failing manifest printed about itself, dropping SwiftPM's compiler command line.
    static func manifestMessages(_ text: String) -> [String] {
        let lines = text.split(separator: "\n").map(String.init)
        let own = lines.filter { $0.hasPrefix("Package.swift:") }
        if !own.isEmpty { return own }
        return lines.filter { !$0.contains("compiled with:") && !$0.isEmpty }
    }

    /// Parses the JSON of `swift package dump-package`.
    public static func parse(_ data: Data) throws -> PackageGraph {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let targets = root["targets"] as? [[String: Any]]
        else { throw BoundaryViolation.manifest(["dump-package printed no targets"]) }
        return PackageGraph(targets: targets.compactMap(target))
    }

    private static func target(_ json: [String: Any]) -> Target? {
        guard let name = json["name"] as? String else { return nil }
        let kind = Target.Kind(rawValue: json["type"] as? String ?? "") ?? .regular
        let path = json["path"] as? String ?? "Sources/\(name)"
        var dependencies: [String] = []
        for dependency in json["dependencies"] as? [[String: Any]] ?? [] {
            for key in ["target", "product", "byName"] {
                if let fields = dependency[key] as? [Any], let first = fields.first as? String {
                    dependencies.append(first)
                }
            }
        }
        return Target(name: name, kind: kind, path: path, dependencies: dependencies)
    }
}

extension Thread {
    /// Runs `body` on a new thread; `value()` waits for its result.
    static func detachNewThreadWithResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(body()) }
        return result
    }
}

/// A value produced on another thread; `value()` blocks until it is there.
/// `@unchecked Sendable`: the stored value is written once under `condition` and read under it.
final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: T?

    func set(_ value: T) {
        condition.lock()
        stored = value
        condition.signal()
        condition.unlock()
    }

    func value() -> T {
        condition.lock()
        defer { condition.unlock() }
        while stored == nil { condition.wait() }
        return stored!
    }
}
