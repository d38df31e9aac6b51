import Foundation
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
                        local: SwiftNames.localName(parameter.name),
                        kind: mapping.fieldKind(ref, field: parameter.name, variables: variables),
                        condition: nil))
            case .conditional(let field, let bit, let ref):
                fields.append(
                    Field(
                        tlName: parameter.name, swiftName: SwiftNames.fieldName(parameter.name),
                        local: SwiftNames.localName(parameter.name),
                        kind: mapping.fieldKind(ref, field: parameter.name, variables: variables),
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

    /// `public var …` (or `public let …`) declarations.
    func storedProperties(keyword: String = "var") -> [String] {
        fields.map { "public \(keyword) \($0.swiftName): \(swiftType($0))" }
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

    /// The fields that share `field`'s flag bit, including itself.
    func group(of field: Field) -> [Field] {
        guard let condition = field.condition else { return [field] }
        return fields.filter { $0.condition?.field == condition.field && $0.condition?.bit == condition.bit }
    }

    /// The value a field of `kind` takes when a sibling sharing its flag bit is present and it is not, or `nil`
    /// when the type has no such value (a boxed type without a field-less constructor).
    func zeroValue(_ kind: TLTypeKind) -> String? {
        switch kind {
        case .int, .long, .double: return "0"
        case .string: return "\"\""
        case .bytes, .vector: return "[]"
        case .int128: return "TLInt128(low: 0, high: 0)"
        case .int256: return "TLInt256(low: TLInt128(low: 0, high: 0), high: TLInt128(low: 0, high: 0))"
        case .bool, .trueFlag: return "false"
        case .boxed(let name):
            guard
                let empty = mapping.schema.constructors.first(where: { $0.result.name == name && $0.parameters.isEmpty }
                )
            else { return nil }
            return SwiftNames.typePath(name, root: mapping.root) + "." + SwiftNames.caseName(empty.shortName)
        case .bare, .typeVariable: return nil
        }
    }

    /// Statements that write the fields (and computed flag words) to `w`; `owner` prefixes field access.
    ///
    /// Fields that share one flag bit travel together (TL has no way to send one without the others). The bit is
    /// set when any of them is present and each absent one is sent as its zero value; when the group holds a boxed
    /// field with no zero value, the bit follows that field alone.
    func writeStatements(owner: String = "self.") -> [String] {
        var lines: [String] = []
        for word in flagWords {
            let users = fields.filter { $0.condition?.field == word }
            lines.append("\(users.isEmpty ? "let" : "var") \(flagLocal(word)): Swift.UInt32 = 0")
            var done: Set<Int> = []
            for field in users where !done.contains(field.condition!.bit) {
                let bit = field.condition!.bit
                done.insert(bit)
                let members = group(of: field)
                let anchors = members.filter { !$0.isTrueFlag && zeroValue($0.kind) == nil }
                let deciders = anchors.isEmpty ? members : anchors
                // `case .some = x` tests presence in place; `x != nil` copies the optional (a retain, or an outlined
                // copy of a multi-payload enum) for the generic comparison.
                let tests = deciders.map {
                    $0.isTrueFlag ? "\(owner)\($0.swiftName)" : "case .some = \(owner)\($0.swiftName)"
                }
                if anchors.isEmpty {
                    // Any member present sets the bit.
                    for test in tests { lines.append("if \(test) { \(flagLocal(word)) |= 1 << \(bit) }") }
                } else {
                    lines.append("if \(tests.joined(separator: ", ")) { \(flagLocal(word)) |= 1 << \(bit) }")
                }
            }
        }
        for parameter in combinator.parameters {
            if case .flags = parameter.type {
                lines.append("w.writeUInt32(\(flagLocal(parameter.name)))")
                continue
            }
            guard let field = fields.first(where: { $0.tlName == parameter.name }) else { continue }
            if field.isTrueFlag { continue }
            if let condition = field.condition {
                let shared = group(of: field).count > 1
                if shared, let zero = zeroValue(field.kind) {
                    lines.append("if \(flagLocal(condition.field)) & (1 << \(condition.bit)) != 0 {")
                    lines.append(
                        "    let value: \(mapping.swiftType(field.kind)) = \(owner)\(field.swiftName) ?? \(zero)")
                } else if shared {
                    lines.append(
                        "if \(flagLocal(condition.field)) & (1 << \(condition.bit)) != 0, let value = \(owner)\(field.swiftName) {"
                    )
                } else {
                    lines.append("if let value = \(owner)\(field.swiftName) {")
                }
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
        // Argument labels need no backticks (except `inout`, `var`, `let`, which TL never uses).
        let arguments = fields.map { "\($0.swiftName.replacingOccurrences(of: "`", with: "")): \($0.local)" }
            .joined(separator: ", ")
        lines.append("return \(construct)(\(arguments))")
        return lines
    }
}
