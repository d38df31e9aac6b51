import TLSchema

/// Turns TL type kinds into Swift types and into the statements that write and read them.
struct SwiftTypeMapping {
    let schema: TLSchema
    let root: String
    /// Boxed type name for each constructor name (for bare references).
    let typeOfConstructor: [String: String]
    /// Known boxed type names.
    let boxedTypes: Set<String>

    /// When set, TL `string` fields become `[UInt8]` except those named in `textFields` (mtproto.tl writes binary
    /// data such as `pq`, `dh_prime` and `g_a` as `string`).
    let stringsAsBytes: Bool
    let textFields: Set<String>

    init(schema: TLSchema, root: String, stringsAsBytes: Bool = false, textFields: Set<String> = []) {
        self.schema = schema
        self.root = root
        self.stringsAsBytes = stringsAsBytes
        self.textFields = textFields
        var table: [String: String] = [:]
        for constructor in schema.constructors { table[constructor.name] = constructor.result.name }
        typeOfConstructor = table
        boxedTypes = Set(schema.constructors.map(\.result.name))
    }

    func kind(_ ref: TLTypeRef, variables: Set<String>) -> TLTypeKind {
        TLTypeKind(ref, typeVariables: variables, schema: schema)
    }

    /// The kind of a field, with `string` read as `bytes` where the options say so.
    func fieldKind(_ ref: TLTypeRef, field: String, variables: Set<String>) -> TLTypeKind {
        let base = kind(ref, variables: variables)
        guard stringsAsBytes, !textFields.contains(field) else { return base }
        func convert(_ kind: TLTypeKind) -> TLTypeKind {
            switch kind {
            case .string: return .bytes
            case .vector(let element, let boxed): return .vector(convert(element), boxed: boxed)
            default: return kind
            }
        }
        return convert(base)
    }

    /// Checks that every name a kind refers to exists; returns a message otherwise.
    func unresolved(_ kind: TLTypeKind) -> String? {
        switch kind {
        case .vector(let element, _): return unresolved(element)
        case .boxed(let name): return boxedTypes.contains(name) ? nil : "unknown type '\(name)'"
        case .bare(let constructor):
            return typeOfConstructor[constructor] == nil ? "unknown constructor '\(constructor)'" : nil
        default: return nil
        }
    }

    /// The Swift type of a value of `kind`.
    func swiftType(_ kind: TLTypeKind) -> String {
        switch kind {
        case .int: return "Swift.Int32"
        case .long: return "Swift.Int64"
        case .double: return "Swift.Double"
        case .string: return "Swift.String"
        case .bytes: return "[Swift.UInt8]"
        case .int128: return "TLInt128"
        case .int256: return "TLInt256"
        case .bool, .trueFlag: return "Swift.Bool"
        case .vector(let element, _): return "[\(swiftType(element))]"
        case .boxed(let name): return SwiftNames.typePath(name, root: root)
        case .bare(let constructor):
            return SwiftNames.typePath(typeOfConstructor[constructor] ?? constructor, root: root)
        case .typeVariable(let name): return name
        }
    }

    /// The least number of bytes a value of `kind` takes (bounds vector counts before allocating).
    func minimumSize(_ kind: TLTypeKind, depth: Int = 0) -> Int {
        switch kind {
        case .int, .string, .bytes, .bool, .boxed, .typeVariable: return 4
        case .long, .double: return 8
        case .int128: return 16
        case .int256: return 32
        case .trueFlag: return 0
        case .vector(_, let boxed): return boxed ? 8 : 4
        case .bare(let constructor):
            guard depth < 8, let combinator = schema.constructor(named: constructor) else { return 1 }
            var size = 0
            for parameter in combinator.parameters {
                switch parameter.type {
                case .flags: size += 4
                case .plain(let ref): size += minimumSize(self.kind(ref, variables: []), depth: depth + 1)
                case .conditional: break
                }
            }
            return max(size, 1)
        }
    }

    /// Statements that append `expression` (of `kind`) to the writer `w`.
    func write(_ kind: TLTypeKind, _ expression: String, depth: Int = 0) -> [String] {
        switch kind {
        case .int: return ["w.writeInt32(\(expression))"]
        case .long: return ["w.writeInt64(\(expression))"]
        case .double: return ["w.writeDouble(\(expression))"]
        case .string: return ["w.writeString(\(expression))"]
        case .bytes: return ["w.writeBytes(\(expression))"]
        case .int128: return ["w.writeInt128(\(expression))"]
        case .int256: return ["w.writeInt256(\(expression))"]
        case .bool: return ["w.writeBool(\(expression))"]
        case .trueFlag: return []
        case .boxed, .typeVariable: return ["\(expression).serialize(&w)"]
        case .bare: return ["\(expression).serializeBare(&w)"]
        case .vector(let element, let boxed):
            let item = "item\(depth)"
            var lines = [
                boxed
                    ? "w.writeVectorHeader(count: \(expression).count)"
                    : "w.writeInt32(Swift.Int32(truncatingIfNeeded: \(expression).count))",
                "for \(item) in \(expression) {",
            ]
            lines += write(element, item, depth: depth + 1).map { "    " + $0 }
            lines.append("}")
            return lines
        }
    }

    /// An expression that reads a value of `kind` from the reader `r`.
    func read(_ kind: TLTypeKind) -> String {
        switch kind {
        case .int: return "try r.readInt32()"
        case .long: return "try r.readInt64()"
        case .double: return "try r.readDouble()"
        case .string: return "try r.readString()"
        case .bytes: return "try r.readBytes()"
        case .int128: return "try r.readInt128()"
        case .int256: return "try r.readInt256()"
        case .bool: return "try r.readBool()"
        case .trueFlag: return "true"
        case .boxed(let name): return "try \(SwiftNames.typePath(name, root: root)).parse(&r)"
        case .typeVariable: return "AnyTLFunction(try \(root).functions.parse(&r))"
        case .bare(let constructor):
            let id = schema.constructor(named: constructor).map { SwiftNames.hex($0.id) } ?? "0"
            return "try r.readBare(\(id), \(swiftType(kind)).parseBody)"
        case .vector(let element, let boxed):
            let size = minimumSize(element)
            return "try r.readVector(boxed: \(boxed), minElementSize: \(size), \(elementParser(element)))"
        }
    }

    /// A function `(inout TLReader) throws(TLDecodingError) -> T` that reads one element of `kind`.
    func elementParser(_ kind: TLTypeKind) -> String {
        switch kind {
        case .int: return "TLParse.int32"
        case .long: return "TLParse.int64"
        case .double: return "TLParse.double"
        case .string: return "TLParse.string"
        case .bytes: return "TLParse.bytes"
        case .int128: return "TLParse.int128"
        case .int256: return "TLParse.int256"
        case .bool: return "TLParse.bool"
        case .boxed(let name): return "\(SwiftNames.typePath(name, root: root)).parse"
        default:
            return "{ (r: inout TLReader) throws(TLDecodingError) -> \(swiftType(kind)) in \(read(kind)) }"
        }
    }
}
