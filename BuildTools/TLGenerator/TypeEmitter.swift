import TLSchema

/// Emits one boxed TL type as a Swift enum over its constructors, each with an immutable payload class.
///
/// Payloads are final classes with `let` fields (as in Telegram-iOS) rather than structs in an `indirect` enum: a
/// `switch` then borrows one reference instead of copying the whole payload out of the enum's box (a retain and
/// release per reference-typed field), which made serializing a `message` about twice as slow.
struct TypeEmitter {
    let mapping: SwiftTypeMapping
    let root: String
    /// Types whose bare form is referenced (`vector<future_salt>`, `%T`): they get `serializeBare`.
    let bareTypes: Set<String>

    func emit(typeName: String, constructors: [TLCombinator]) -> [String] {
        let parts = typeName.split(separator: ".").map(String.init)
        let swiftName = SwiftNames.upperCamel(parts.last!)
        let path = SwiftNames.typePath(typeName, root: root)
        let container = ([root] + parts.dropLast().map { SwiftNames.escaped($0) }).joined(separator: ".")
        var lines: [String] = []
        lines.append("extension \(container) {")
        lines.append(
            "    /// TL type `\(typeName)`: "
                + constructors.map { "`\($0.name)#\(String($0.id, radix: 16))`" }
                .joined(separator: ", ") + ".")
        lines.append("    public enum \(swiftName): TLObject {")
        var body: [String] = []
        let all = constructors.map { CombinatorFields($0, mapping: mapping) }
        for fields in all {
            let name = SwiftNames.caseName(fields.combinator.shortName)
            if fields.fields.isEmpty {
                body.append("case \(name)")
            } else {
                body.append("case \(name)(\(SwiftNames.consName(fields.combinator.shortName)))")
            }
        }
        body.append("")
        // Payload classes.
        for fields in all where !fields.fields.isEmpty {
            let cons = SwiftNames.consName(fields.combinator.shortName)
            body.append("/// The fields of `\(fields.combinator.name)#\(String(fields.combinator.id, radix: 16))`.")
            body.append("public final class \(cons): Sendable {")
            var members = fields.storedProperties(keyword: "let")
            members.append("")
            members += fields.initializer()
            members.append("")
            members.append("/// Writes the fields (without the constructor id).")
            members.append("public func serializeFields(_ w: inout TLWriter) {")
            members += fields.writeStatements().map { "    " + $0 }
            members.append("}")
            members.append("")
            members.append("/// Reads the fields (after the constructor id).")
            members.append("public static func parseFields(_ r: inout TLReader) throws(TLDecodingError) -> \(cons) {")
            members += fields.readStatements(construct: cons).map { "    " + $0 }
            members.append("}")
            body += members.map { "    " + $0 }
            body.append("}")
            body.append("")
        }
        // serialize
        body.append("/// Writes the constructor id and the fields.")
        body.append("public func serialize(_ w: inout TLWriter) {")
        body.append("    switch self {")
        for fields in all {
            let name = SwiftNames.caseName(fields.combinator.shortName)
            let id = SwiftNames.hex(fields.combinator.id)
            if fields.fields.isEmpty {
                body.append("    case .\(name): w.writeUInt32(\(id))")
            } else {
                body.append("    case .\(name)(let value): w.writeUInt32(\(id)); value.serializeFields(&w)")
            }
        }
        body.append("    }")
        body.append("}")
        body.append("")
        if bareTypes.contains(typeName) {
            body.append("/// Writes the fields only (the bare form).")
            body.append("public func serializeBare(_ w: inout TLWriter) {")
            body.append("    switch self {")
            for fields in all {
                let name = SwiftNames.caseName(fields.combinator.shortName)
                if fields.fields.isEmpty {
                    body.append("    case .\(name): break")
                } else {
                    body.append("    case .\(name)(let value): value.serializeFields(&w)")
                }
            }
            body.append("    }")
            body.append("}")
            body.append("")
        }
        // parse
        body.append("/// Reads a boxed value (unpacking `gzip_packed`).")
        body.append("public static func parse(_ r: inout TLReader) throws(TLDecodingError) -> \(path) {")
        body.append("    try r.readObject(parseBody)")
        body.append("}")
        body.append("")
        body.append("/// Reads the fields of the constructor `id`.")
        body.append(
            "public static func parseBody(_ id: Swift.UInt32, _ r: inout TLReader) throws(TLDecodingError) -> \(path) {"
        )
        body.append("    switch id {")
        for fields in all {
            let name = SwiftNames.caseName(fields.combinator.shortName)
            let id = SwiftNames.hex(fields.combinator.id)
            if fields.fields.isEmpty {
                body.append("    case \(id): return .\(name)")
            } else {
                let cons = SwiftNames.consName(fields.combinator.shortName)
                body.append("    case \(id): return .\(name)(try \(cons).parseFields(&r))")
            }
        }
        body.append("    default: throw r.unknownConstructor(id)")
        body.append("    }")
        body.append("}")
        lines += body.map { $0.isEmpty ? "" : "        " + $0 }
        lines.append("    }")
        lines.append("}")
        return lines
    }
}
