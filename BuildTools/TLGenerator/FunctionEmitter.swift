import TLSchema

/// Emits one TL function as a struct that serializes the call and parses its result.
struct FunctionEmitter {
    let mapping: SwiftTypeMapping
    let root: String

    func structName(_ function: TLCombinator) -> String {
        SwiftNames.escaped(SwiftNames.lowerCamel(function.shortName))
    }

    func container(_ function: TLCombinator) -> String {
        ([root, "functions"] + (function.namespace.map { [SwiftNames.escaped($0)] } ?? [])).joined(separator: ".")
    }

    func emit(_ function: TLCombinator) -> [String] {
        let fields = CombinatorFields(function, mapping: mapping)
        let name = structName(function)
        let generics = function.typeParameters.map(\.name)
        let genericClause =
            generics.isEmpty ? "" : "<" + generics.map { "\($0): TLFunction" }.joined(separator: ", ") + ">"
        let resultKind = mapping.kind(function.result, variables: fields.variables)
        let resultType: String
        let parseResult: String
        if case .typeVariable(let variable) = resultKind {
            resultType = "\(variable).Result"
            parseResult = "try \(variable).parseResult(&r)"
        } else {
            resultType = mapping.swiftType(resultKind)
            parseResult = mapping.read(resultKind)
        }
        var body: [String] = []
        body.append("public typealias Result = \(resultType)")
        body.append("")
        body += fields.storedProperties()
        body.append("")
        body += fields.initializer()
        body.append("")
        body.append("public var functionName: Swift.String { \"\(function.name)\" }")
        body.append("")
        body.append("/// Writes the constructor id and the arguments.")
        body.append("public func serialize(_ w: inout TLWriter) {")
        body.append("    w.writeUInt32(\(SwiftNames.hex(function.id)))")
        body += fields.writeStatements().map { "    " + $0 }
        body.append("}")
        body.append("")
        body.append("/// Reads the result of this call.")
        body.append("public static func parseResult(_ r: inout TLReader) throws(TLDecodingError) -> \(resultType) {")
        body.append("    \(parseResult)")
        body.append("}")
        var lines = ["extension \(container(function)) {"]
        lines.append("    /// TL function `\(function.name)#\(String(function.id, radix: 16))` → `\(function.result)`.")
        lines.append("    public struct \(name)\(genericClause): TLFunction {")
        lines += body.map { $0.isEmpty ? "" : "        " + $0 }
        lines.append("    }")
        lines.append("}")
        // Reading a call (what a server does); generic wrappers read their query as `AnyTLFunction`.
        let selfType =
            generics.isEmpty ? name : name + "<" + generics.map { _ in "AnyTLFunction" }.joined(separator: ", ") + ">"
        let whereClause =
            generics.isEmpty ? "" : " where " + generics.map { "\($0) == AnyTLFunction" }.joined(separator: ", ")
        lines.append("")
        lines.append("extension \(container(function)).\(name)\(whereClause) {")
        lines.append("    /// Reads the arguments of a call (after the constructor id).")
        lines.append(
            "    public static func parseFields(_ r: inout TLReader) throws(TLDecodingError) -> \(container(function)).\(selfType) {"
        )
        lines += fields.readStatements(construct: "\(container(function)).\(selfType)").map { "        " + $0 }
        lines.append("    }")
        lines.append("}")
        return lines
    }
}
