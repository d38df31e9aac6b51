/// A type expression as written in a declaration: `int`, `InputPeer`, `Vector<long>`, `vector<future_salt>`,
/// `%Message`, or a type variable `X` / `!X`.
public struct TLTypeRef: Sendable, Equatable, CustomStringConvertible {
    /// The head name (`Vector`, `messages.Messages`, `int`, `X`).
    public var name: String
    /// Type arguments (`<T>`).
    public var arguments: [TLTypeRef]
    /// Written with `%` (bare form of a boxed type).
    public var isPercentBare: Bool
    /// Written with `!` (a value of the type variable, serialized boxed: `query:!X`).
    public var isBang: Bool

    /// A type expression from its parts.
    public init(name: String, arguments: [TLTypeRef] = [], isPercentBare: Bool = false, isBang: Bool = false) {
        self.name = name
        self.arguments = arguments
        self.isPercentBare = isPercentBare
        self.isBang = isBang
    }

    /// The expression as TL writes it.
    public var description: String {
        var text = (isBang ? "!" : "") + (isPercentBare ? "%" : "") + name
        if !arguments.isEmpty { text += "<" + arguments.map(\.description).joined(separator: ",") + ">" }
        return text
    }
}

/// What a type expression means on the wire, resolved against the built-in types and the schema's names.
public indirect enum TLTypeKind: Sendable, Equatable {
    case int, long, double, string, bytes, int128, int256
    /// `Bool`: boxed as `boolTrue#997275b5` / `boolFalse#bc799737`.
    case bool
    /// `true`: carries no bytes; its presence is the flag bit.
    case trueFlag
    /// `Vector<T>` (with the `vector#1cb5c415` id) or bare `vector<T>`.
    case vector(TLTypeKind, boxed: Bool)
    /// A boxed type of the schema (`InputPeer`): constructor id, then fields.
    case boxed(String)
    /// A bare constructor (`future_salt`, `%FutureSalt`): fields only.
    case bare(constructor: String)
    /// A type variable of a generic function (`X`, `!X`).
    case typeVariable(String)

    /// Resolves `ref`; `typeVariables` are the names declared by `{X:Type}`.
    public init(_ ref: TLTypeRef, typeVariables: Set<String> = [], schema: TLSchema? = nil) {
        if typeVariables.contains(ref.name) {
            self = .typeVariable(ref.name)
            return
        }
        switch ref.name {
        case "int", "#": self = .int
        case "long": self = .long
        case "double": self = .double
        case "string": self = .string
        case "bytes": self = .bytes
        case "int128": self = .int128
        case "int256": self = .int256
        case "Bool": self = .bool
        case "true": self = .trueFlag
        case "Vector", "vector":
            let element = ref.arguments.first.map { TLTypeKind($0, typeVariables: typeVariables, schema: schema) }
            self = .vector(element ?? .int, boxed: ref.name == "Vector")
        default:
            if ref.isPercentBare {
                let single = schema?.constructors.first { $0.result.name == ref.name }
                self = .bare(constructor: single?.name ?? ref.name)
            } else if let first = ref.name.split(separator: ".").last?.first, first.isLowercase {
                self = .bare(constructor: ref.name)
            } else {
                self = .boxed(ref.name)
            }
        }
    }
}
