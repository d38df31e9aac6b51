/// A parsed TL schema: the constructors and functions of one `.tl` file, in declaration order.
///
/// TL is described at core.telegram.org/mtproto/TL; this parser accepts the subset that api.tl, mtproto.tl and
/// secret_api.tl use (TL §Syntax: combinator declarations, `---types---`/`---functions---`, `flags.N?T`, `#`,
/// `{X:Type}` and `!X`, `%T` and bare `vector<T>`, comments and the `// LAYER N` line).
public struct TLSchema: Sendable {
    /// The number of the `// LAYER N` comment, when the file has one.
    public var layer: Int?
    /// Constructors (declarations in `---types---` sections), in file order.
    public var constructors: [TLCombinator]
    /// Functions (declarations in `---functions---` sections), in file order.
    public var functions: [TLCombinator]

    /// A schema from its parts.
    public init(layer: Int?, constructors: [TLCombinator], functions: [TLCombinator]) {
        self.layer = layer
        self.constructors = constructors
        self.functions = functions
    }

    /// Parses TL text; a malformed declaration throws a `TLSchemaError` with its line and column.
    public init(parsing text: String) throws(TLSchemaError) {
        var parser = TLParser(text: text)
        self = try parser.parseSchema()
    }

    /// Boxed type names (`InputPeer`, `messages.Messages`) with their constructors, in first-declaration order.
    public var types: [(name: String, constructors: [TLCombinator])] {
        var order: [String] = []
        var table: [String: [TLCombinator]] = [:]
        for constructor in constructors {
            let name = constructor.result.name
            if table[name] == nil { order.append(name) }
            table[name, default: []].append(constructor)
        }
        return order.map { ($0, table[$0]!) }
    }

    /// The constructor named `name` (for bare references such as `vector<future_salt>`).
    public func constructor(named name: String) -> TLCombinator? {
        constructors.first { $0.name == name }
    }
}
