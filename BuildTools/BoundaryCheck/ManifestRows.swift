import Foundation

/// Where Package.swift declares each module and app, so that a finding about a target can name its row.
///
/// The manifest's tables are rows like `.swift("Name", .Area, deps: […])` or `.app("name", links: […])`, the name
/// being the first string literal after the row's constructor (on the same line or a later one).
public enum ManifestRows {
    /// The row constructors of the module and app tables.
    static let constructors = [".swift(", ".testSupport(", ".system(", ".cShims(", ".app("]

    /// The line of each declared module or app, by name (the first row wins if a name repeats).
    public static func lines(in manifest: String) -> [String: Int] {
        var result: [String: Int] = [:]
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
        var pending: Int?  // a row whose name has not been seen yet
        for (index, text) in lines.enumerated() {
            var rest = Substring(text)
            if let comment = rest.range(of: "//") { rest = rest[..<comment.lowerBound] }
            if pending == nil,
                let start = constructors.compactMap({ rest.range(of: $0) }).min(by: {
                    $0.lowerBound < $1.lowerBound
                })
            {
                pending = index + 1
                rest = rest[start.upperBound...]
            }
            guard let row = pending else { continue }
            // The name comes first: only white space (and line breaks) between the constructor and its quote.
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { continue }
            pending = nil
            guard rest.first == "\"" else { continue }
            let name = String(rest.dropFirst().prefix { $0 != "\"" })
            if result[name] == nil { result[name] = row }
        }
        return result
    }
}
