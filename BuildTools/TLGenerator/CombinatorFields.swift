import TLSchema

/// The Swift members that hold, write and read the fields of one combinator (constructor or function).
struct CombinatorFields {
    struct Field {
        let tlName: String
        let swiftName: String
        let local: String
        let kind: TLTypeKind
        /// `(flags field, bit)` for `flags.N?T`.
        let condition: (field: String, bit: Int)?

        var isTrueFlag: Bool { condition != nil && kind == .trueFlag }
    }

    let combinator: TLCombinator
    let mapping: SwiftTypeMapping
    /// Stored fields (everything but the `#` words), in wire order.
    let fields: [Field]
    /// The `#` words, in wire order.
    let flagWords: [String]
    let variables: Set<String>

    init(_ combinator: TLCombinator, mapping: SwiftTypeMapping) {
        self.combinator = combinator
        self.mapping = mapping
        let variables = Set(combinator.typeParameters.map(\.name))
        self.variables = variables
        var fields: [Field] = []
        var words: [String] = []
        for parameter in combinator.parameters {
            switch parameter.type {
            case .flags:
                words.append(parameter.name)
            case .plain(let ref):
                fields.append(
                    Field(
                        tlName: parameter.name, swiftName: SwiftNames.fieldName(parameter.name),
                        local: SwiftNames.localName(parameter.name), kind: mapping.fieldKind(ref, field: parameter.name, variables: variables),
                        condition: nil))
            case .conditional(let field, let bit, let ref):
                fields.append(
                    Field(
                        tlName: parameter.name, swiftName: SwiftNames.fieldName(parameter.name),
                        local: SwiftNames.localName(parameter.name), kind: mapping.fieldKind(ref, field: parameter.name, variables: variables),
                        condition: (field, bit)))
            }
        }
        self.fields = fields
        flagWords = words
    }

    func swiftType(_ field: Field) -> String {
        let base = mapping.swiftType(field.kind)
        if field.isTrueFlag || field.condition == nil { return base }
        return base + "?"
    }

    /// `public var …` declarations.
    func storedProperties() -> [String] {
        fields.map { "public var \($0.swiftName): \(swiftType($0))" }
    }

    /// The memberwise initializer (optional fields default to `nil`, `true` flags to `false`).
    func initializer() -> [String] {
        guard !fields.isEmpty else { return ["public init() {}"] }
        let arguments = fields.map { field -> String in
            var text = "\(field.swiftName): \(swiftType(field))"
            if field.isTrueFlag { text += " = false" } else if field.condition != nil { text += " = nil" }
            return text
        }
        var lines = ["public init(" + arguments.joined(separator: ", ") + ") {"]
        for field in fields { lines.append("    self.\(field.swiftName) = \(field.swiftName)") }
        lines.append("}")
        return lines
    }

    private func flagLocal(_ word: String) -> String { "_flags_" + word }

    /// Statements that write the fields (and computed flag words) to `w`; `owner` prefixes field access.
    func writeStatements(owner: String = "self.") -> [String] {
        var lines: [String] = []
        for word in flagWords {
            let users = fields.filter { $0.condition?.field == word }
            lines.append("\(users.isEmpty ? "let" : "var") \(flagLocal(word)): Swift.UInt32 = 0")
            for field in users {
                let test = field.isTrueFlag ? "\(owner)\(field.swiftName)" : "\(owner)\(field.swiftName) != nil"
                lines.append("if \(test) { \(flagLocal(word)) |= 1 << \(field.condition!.bit) }")
            }
        }
        for parameter in combinator.parameters {
            if case .flags = parameter.type {
                lines.append("w.writeUInt32(\(flagLocal(parameter.name)))")
                continue
            }
            guard let field = fields.first(where: { $0.tlName == parameter.name }) else { continue }
            if field.isTrueFlag { continue }
            if field.condition != nil {
                lines.append("if let value = \(owner)\(field.swiftName) {")
                lines += mapping.write(field.kind, "value").map { "    " + $0 }
                lines.append("}")
            } else {
                lines += mapping.write(field.kind, "\(owner)\(field.swiftName)")
            }
        }
        return lines
    }

    /// Statements that read every field from `r` into locals, then `return <construct>(field: _local, …)`.
    func readStatements(construct: String) -> [String] {
        var lines: [String] = []
        for parameter in combinator.parameters {
            if case .flags = parameter.type {
                let used = fields.contains { $0.condition?.field == parameter.name }
                lines.append(used ? "let \(flagLocal(parameter.name)) = try r.readUInt32()" : "_ = try r.readUInt32()")
                continue
            }
            guard let field = fields.first(where: { $0.tlName == parameter.name }) else { continue }
            if let condition = field.condition {
                let test = "\(flagLocal(condition.field)) & (1 << \(condition.bit)) != 0"
                if field.isTrueFlag {
                    lines.append("let \(field.local) = \(test)")
                } else {
                    lines.append("var \(field.local): \(swiftType(field)) = nil")
                    lines.append("if \(test) { \(field.local) = \(mapping.read(field.kind)) }")
                }
            } else {
                lines.append("let \(field.local) = \(mapping.read(field.kind))")
            }
        }
        let arguments = fields.map { "\($0.swiftName): \($0.local)" }.joined(separator: ", ")
        lines.append("return \(construct)(\(arguments))")
        return lines
    }
}
