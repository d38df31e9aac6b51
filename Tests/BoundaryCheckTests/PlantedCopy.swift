import BoundaryCheck
import Foundation
import TestVectors
import Testing

/// A fresh copy of the package (manifest and source folders only) in a temporary folder, to plant violations in. The
/// files are hard links, not copies (a copy of every source folder held both of the cooperative pool's threads for
/// about a minute, starving every other test of the process): `write` replaces a file atomically (a new file renamed
/// over the link), so the repository's own files are never changed.
final class PlantedCopy {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("boundary-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for item in ["Package.swift", "Modules", "Apps", "BuildTools", "Tests"] {
            let source = Fixtures.repositoryRoot.appendingPathComponent(item)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let target = root.appendingPathComponent(item)
            do {
                try FileManager.default.linkItem(at: source, to: target)
            } catch {
                // Another file system (no hard links across them): a copy.
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: source, to: target)
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Replaces the first occurrence of `old` in `path`; the test fails if it is not there.
    func replace(_ old: String, with new: String, in path: String) throws {
        let text = try read(path)
        try #require(text.contains(old), "'\(old)' not found in \(path)")
        try write(path, text.replacingOccurrences(of: old, with: new, options: [], range: text.range(of: old)))
    }

    /// The 1-based line of the first line of `path` that contains `text`.
    func line(of text: String, in path: String) throws -> Int {
        let lines = try read(path).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }, "'\(text)' not found in \(path)") + 1
    }

    func check() -> [String] {
        BoundaryCheck(packagePath: root.path).run().violations.map(\.description)
    }

    /// The one violation the check reports; the test fails if there is not exactly one.
    func onlyMessage(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let messages = check()
        try #require(messages.count == 1, "\(messages)", sourceLocation: sourceLocation)
        return messages[0]
    }
}
