import Foundation

/// Finds the modules a Swift source file imports, with their line numbers.
///
/// Recognises `import M`, `import struct M.T`, attributes (`@testable`, `@_exported`, `@preconcurrency`) and access
/// modifiers (`public import M`); skips line comments, block comments and multi-line string literals.
public enum ImportScanner {
    /// One import statement.
    public struct Import: Equatable, Sendable {
        public let module: String
        public let line: Int
    }

    static let modifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
    static let kinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The imports of `source`, in order.
    public static func imports(in source: String) -> [Import] {
        var result: [Import] = []
        var inBlockComment = false
        var inMultilineString = false
        var lineNumber = 0
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            let quotes = line.components(separatedBy: "\"\"\"").count - 1
            if inMultilineString || quotes > 0 {
                if quotes % 2 == 1 { inMultilineString.toggle() }
                continue
            }
            if inBlockComment {
                guard let end = line.range(of: "*/") else { continue }
                line = line[end.upperBound...]
                inBlockComment = false
            }
            if let start = line.range(of: "/*"), line.range(of: "*/", range: start.upperBound..<line.endIndex) == nil,
                !line[..<start.lowerBound].contains("//")
            {
                inBlockComment = true
                line = line[..<start.lowerBound]
            }
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            var path = words[1]
            if kinds.contains(path), words.count >= 3 { path = words[2] }
            let module = String(path.split(separator: ".").first ?? Substring(path))
            if module.first.map({ $0.isLetter || $0 == "_" }) == true {
                result.append(Import(module: module, line: lineNumber))
            }
        }
        return result
    }
}
