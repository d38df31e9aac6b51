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

    /// The imports of `source`, in order. Works on the UTF-8 bytes line by line (the check reads every source of the
    /// package, and `Character` iteration made it the slowest part of `make lint`).
    public static func imports(in source: String) -> [Import] {
        var result: [Import] = []
        var inBlockComment = false
        var inMultilineString = false
        var lineNumber = 0
        let bytes = Array(source.utf8)
        var lineStart = 0
        while lineStart <= bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            var line = bytes[lineStart..<lineEnd]
            let quotes = occurrences(of: tripleQuote, in: line)
            if inMultilineString || quotes > 0 {
                if quotes % 2 == 1 { inMultilineString.toggle() }
                continue
            }
            if inBlockComment {
                guard let end = firstRange(of: blockEnd, in: line) else { continue }
                line = line[end.upperBound...]
                inBlockComment = false
            }
            if let start = firstRange(of: blockStart, in: line),
                firstRange(of: blockEnd, in: line[start.upperBound...]) == nil,
                firstRange(of: lineComment, in: line[..<start.lowerBound]) == nil
            {
                inBlockComment = true
                line = line[..<start.lowerBound]
            }
            if let comment = firstRange(of: lineComment, in: line) { line = line[..<comment.lowerBound] }
            // Only a line that names `import` can hold one; the rest need no words.
            guard firstRange(of: importWord, in: line) != nil else { continue }
            var words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
                .map { String(decoding: $0, as: UTF8.self) }
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

    static let tripleQuote = Array("\"\"\"".utf8)
    static let blockStart = Array("/*".utf8)
    static let blockEnd = Array("*/".utf8)
    static let lineComment = Array("//".utf8)
    static let importWord = Array("import".utf8)

    /// The first place `needle` occurs in `haystack`.
    static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                return index..<index + needle.count
            }
            index += 1
        }
        return nil
    }

    /// How many times `needle` occurs in `haystack`, without overlaps.
    static func occurrences(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int {
        var count = 0
        var rest = haystack
        while let found = firstRange(of: needle, in: rest) {
            count += 1
            rest = rest[found.upperBound...]
        }
        return count
    }
}
