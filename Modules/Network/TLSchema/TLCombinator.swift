/// One TL declaration: a constructor (`name#id params = Type;`) or a function (`name#id params = Result;`).
public struct TLCombinator: Sendable {
    /// The full name with its namespace, e.g. `messages.getHistory`.
    public var name: String
    /// The 32-bit constructor id: the explicit `#id`, or the CRC32 of the normalized declaration.
    public var id: UInt32
    /// Whether the id was written in the source (`false`: computed by `TLCombinator.inferredId`).
    public var hasExplicitId: Bool
    /// Type parameters `{X:Type}` of generic functions such as `invokeWithLayer`.
    public var typeParameters: [TLParameter]
    /// The fields, in wire order.
    public var parameters: [TLParameter]
    /// The boxed result type.
    public var result: TLTypeRef
    /// Whether the declaration sits in a `---functions---` section.
    public var isFunction: Bool
    /// Where the declaration starts in the source.
    public var location: TLSourceLocation

    /// A combinator from its parts.
    public init(
        name: String, id: UInt32, hasExplicitId: Bool, typeParameters: [TLParameter], parameters: [TLParameter],
        result: TLTypeRef, isFunction: Bool, location: TLSourceLocation
    ) {
        self.name = name
        self.id = id
        self.hasExplicitId = hasExplicitId
        self.typeParameters = typeParameters
        self.parameters = parameters
        self.result = result
        self.isFunction = isFunction
        self.location = location
    }

    /// The namespace before the last dot (`messages` for `messages.getHistory`), or `nil`.
    public var namespace: String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return String(name[..<dot])
    }

    /// The name after the namespace (`getHistory`).
    public var shortName: String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }
}

/// One field `name:type` of a combinator, or a type parameter `{X:Type}`.
public struct TLParameter: Sendable {
    /// The field name as written (`access_hash`).
    public var name: String
    /// What the field holds.
    public var type: TLParameterType

    /// A parameter from its parts.
    public init(name: String, type: TLParameterType) {
        self.name = name
        self.type = type
    }
}

/// The type of a field: a flags word, a plain value, or a value present only when a flag bit is set.
public enum TLParameterType: Sendable {
    /// `#`: a 32-bit flags word that later `flags.N?T` fields refer to.
    case flags
    /// A value that is always present.
    case plain(TLTypeRef)
    /// `field.bit?T`: present when bit `bit` of the flags word `field` is set (`true` carries no data).
    case conditional(field: String, bit: Int, TLTypeRef)
}

/// Line and column (both from 1) in the schema text.
public struct TLSourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
