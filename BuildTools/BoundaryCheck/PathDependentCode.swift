import Foundation

/// Finds code whose compiled form depends on where the checkout lives or when it was built, which makes release
/// builds from two folders (or two days) differ even with the prefix maps of `make repro` (README "Reproducible
/// builds"):
/// - `withoutActuallyEscaping`: its escape check carries the length of the *unmapped* source path (Swift 6.3.1);
///   tg-server differed between checkout folders until `ServerStore.write` stopped using it;
/// - `#filePath` (Swift) and `__FILE__` (C): the absolute path, which the prefix maps do not reach in every case;
/// - `__DATE__`, `__TIME__`, `__TIMESTAMP__` (C): the build time.
///
/// Comments and string literals are skipped, so code may still name these in its explanations.
public enum PathDependentCode {
    /// One use of a construct the rule refuses.
    public struct Finding: Equatable, Sendable {
        public let construct: String
        public let line: Int

        public init(construct: String, line: Int) {
            self.construct = construct
            self.line = line
        }
    }

    /// The constructs refused in Swift sources.
    static let swiftConstructs = ["withoutActuallyEscaping", "#filePath"]
    /// The constructs refused in C sources and headers.
    static let cConstructs = ["__FILE__", "__DATE__", "__TIME__", "__TIMESTAMP__"]

    /// The refused constructs in `source`, a Swift file when `swift`, else a C source or header.
    public static func findings(in source: String, swift: Bool) -> [Finding] {
        // Most files name none of the constructs at all: skip the character-by-character pass for them.
        let constructs = (swift ? swiftConstructs : cConstructs).filter { source.contains($0) }
        guard !constructs.isEmpty else { return [] }
        var result: [Finding] = []
        for (index, code) in codeLines(of: source).enumerated() {
            for construct in constructs where containsToken(construct, in: code) {
                result.append(Finding(construct: construct, line: index + 1))
            }
        }
        return result
    }

    /// `token` as a whole word of `code` (not part of a longer identifier).
    static func containsToken(_ token: String, in code: String) -> Bool {
        var searchRange = code.startIndex..<code.endIndex
        while let found = code.range(of: token, range: searchRange) {
            let before = found.lowerBound == code.startIndex ? nil : code[code.index(before: found.lowerBound)]
            let after = found.upperBound == code.endIndex ? nil : code[found.upperBound]
            if !isIdentifierCharacter(before), !isIdentifierCharacter(after) { return true }
            searchRange = found.upperBound..<code.endIndex
        }
        return false
    }

    static func isIdentifierCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }

    /// Each line of `source` with comments and string literals blanked out (line numbers kept). Handles `//`, nested
    /// enough `/* */` for our sources, `"…"` with escapes, and Swift's `"""` blocks.
    static func codeLines(of source: String) -> [String] {
        var lines: [String] = []
        // Inside a block comment or a `"""` string, across lines: what ends it.
        var closing: String?
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var code = ""
            var index = rawLine.startIndex
            var inString = false
            while index < rawLine.endIndex {
                let rest = rawLine[index...]
                if let end = closing {
                    let ends = rest.hasPrefix(end)
                    if ends { closing = nil }
                    index = rawLine.index(index, offsetBy: ends ? end.count : 1)
                    continue
                }
                if inString {
                    if rest.hasPrefix("\"") { inString = false }
                    index = rawLine.index(index, offsetBy: rest.hasPrefix("\\") ? min(2, rest.count) : 1)
                    continue
                }
                if rest.hasPrefix("//") { break }
                if let opening = ["/*", "\"\"\""].first(where: { rest.hasPrefix($0) }) {
                    closing = opening == "/*" ? "*/" : opening
                    index = rawLine.index(index, offsetBy: opening.count)
                    continue
                }
                if rest.hasPrefix("\"") {
                    inString = true
                } else {
                    code.append(rawLine[index])
                }
                index = rawLine.index(after: index)
            }
            lines.append(code)
        }
        return lines
    }
}
