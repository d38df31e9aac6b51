public import Foundation

/// A module folder holding `GENERATED-<Root>*.swift` files, compared with or replaced by fresh output.
public struct GeneratedFolder {
    public let url: URL
    public let root: String

    public init(url: URL, root: String) {
        self.url = url
        self.root = root
    }

    /// The generated files now in the folder: name → contents.
    public func current() throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        var table: [String: String] = [:]
        for name in names where isGenerated(name) {
            table[name] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
        }
        return table
    }

    private func isGenerated(_ name: String) -> Bool {
        (name == "GENERATED-\(root).swift" || name.hasPrefix("GENERATED-\(root)-")) && name.hasSuffix(".swift")
    }

    /// The differences between the folder and `files` (one line each); when `write`, also makes the folder match.
    @discardableResult
    public func sync(_ files: [(name: String, contents: String)], write: Bool) throws -> [String] {
        let existing = try current()
        var differences: [String] = []
        let wanted = Set(files.map(\.name))
        for (name, contents) in files {
            guard existing[name] != contents else { continue }
            differences.append(existing[name] == nil ? "missing \(name)" : "differs \(name)")
            if write { try contents.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        }
        for name in existing.keys.sorted() where !wanted.contains(name) {
            differences.append("stale \(name)")
            if write { try FileManager.default.removeItem(at: url.appendingPathComponent(name)) }
        }
        return differences
    }
}
