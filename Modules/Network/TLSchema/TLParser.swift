/// A recursive-descent parser over `TLLexer` tokens (TL §Syntax, the subset the Telegram schemas use).
struct TLParser {
    private var lexer: TLLexer
    private var token: TLToken
    private var pending: TLSchemaError?

    init(text: String) {
        lexer = TLLexer(text: text)
        token = TLToken(kind: .end, location: TLSourceLocation(line: 1, column: 1))
    }

    private mutating func advance() throws(TLSchemaError) {
        token = try lexer.next()
    }

    private func fail(_ message: String, at location: TLSourceLocation? = nil) -> TLSchemaError {
        TLSchemaError(location: location ?? token.location, message: message)
    }

    private func describe(_ kind: TLToken.Kind) -> String {
        switch kind {
        case .identifier(let name): return "'\(name)'"
        case .hexId(let id): return "'#\(String(id, radix: 16))'"
        case .hash: return "'#'"
        case .number(let n): return "'\(n)'"
        case .section(let functions): return functions ? "'---functions---'" : "'---types---'"
        case .punctuation(let c): return "'\(String(decoding: [c], as: UTF8.self))'"
        case .end: return "end of text"
        }
    }

    private mutating func expect(_ c: Character) throws(TLSchemaError) {
        guard case .punctuation(let p) = token.kind, p == c.asciiValue! else {
            throw fail("expected '\(c)', found \(describe(token.kind))")
        }
        try advance()
    }

    private mutating func identifier(_ what: String) throws(TLSchemaError) -> String {
        guard case .identifier(let name) = token.kind else {
            throw fail("expected \(what), found \(describe(token.kind))")
        }
        try advance()
        return name
    }

    private func isPunctuation(_ c: Character) -> Bool {
        if case .punctuation(let p) = token.kind { return p == c.asciiValue! }
        return false
    }

    mutating func parseSchema() throws(TLSchemaError) -> TLSchema {
        try advance()
        var constructors: [TLCombinator] = []
        var functions: [TLCombinator] = []
        var inFunctions = false
        while true {
            switch token.kind {
            case .end:
                return TLSchema(layer: lexer.layer, constructors: constructors, functions: functions)
            case .section(let isFunctions):
                inFunctions = isFunctions
                try advance()
            case .identifier:
                guard let combinator = try parseCombinator(isFunction: inFunctions) else { continue }
                if inFunctions { functions.append(combinator) } else { constructors.append(combinator) }
            default:
                throw fail("expected a declaration, found \(describe(token.kind))")
            }
        }
    }

    /// Skips to the end of the declaration (`;`).
    private mutating func skipDeclaration() throws(TLSchemaError) {
        while !isPunctuation(";") {
            if case .end = token.kind { throw fail("expected ';' before the end of the text") }
            try advance()
        }
        try advance()
    }

    /// A declaration, or `nil` for the built-in ones TL files may restate (`int ? = Int;`,
    /// `vector {t:Type} # [ t ] = Vector t;`, `bytes = Bytes;`), which the parser knows already.
    private mutating func parseCombinator(isFunction: Bool) throws(TLSchemaError) -> TLCombinator? {
        let location = token.location
        let name = try identifier("a combinator name")
        guard name.first.map({ $0.isLetter }) == true, !name.hasSuffix("."), !name.contains("..") else {
            throw fail("invalid combinator name '\(name)'", at: location)
        }
        if isPunctuation("?") || ["int", "long", "double", "string", "bytes", "int128", "int256"].contains(name) {
            try skipDeclaration()
            return nil
        }
        var explicitId: UInt32?
        if case .hexId(let id) = token.kind {
            explicitId = id
            try advance()
        }
        var typeParameters: [TLParameter] = []
        var parameters: [TLParameter] = []
        var flagFields: Set<String> = []
        var seen: Set<String> = []
        while !isPunctuation("=") {
            if case .hash = token.kind {  // `vector {t:Type} # [ t ] = Vector t;`: the built-in vector
                try skipDeclaration()
                return nil
            }
            if isPunctuation("{") {
                try advance()
                let variable = try identifier("a type variable name")
                try expect(":")
                let kind = try identifier("'Type'")
                try expect("}")
                typeParameters.append(TLParameter(name: variable, type: .plain(TLTypeRef(name: kind))))
                continue
            }
            let fieldLocation = token.location
            let field = try identifier("a field name or '='")
            guard !seen.contains(field) else { throw fail("duplicate field '\(field)'", at: fieldLocation) }
            seen.insert(field)
            try expect(":")
            let type = try parseParameterType(flagFields: flagFields)
            if case .flags = type { flagFields.insert(field) }
            parameters.append(TLParameter(name: field, type: type))
        }
        try advance()
        let resultLocation = token.location
        let result = try parseTypeRef()
        guard !result.isBang, !result.isPercentBare else {
            throw fail("a result type cannot be '!' or '%'", at: resultLocation)
        }
        // Old-style type arguments after the result (`= Vector t`) are accepted and ignored.
        while case .identifier = token.kind { try advance() }
        try expect(";")
        let variables = Set(typeParameters.map(\.name))
        for parameter in parameters {
            if case .plain(let ref) = parameter.type, ref.isBang, !variables.contains(ref.name) {
                throw fail("'!\(ref.name)' in '\(name)' names no type variable", at: location)
            }
        }
        var combinator = TLCombinator(
            name: name, id: explicitId ?? 0, hasExplicitId: explicitId != nil, typeParameters: typeParameters,
            parameters: parameters, result: result, isFunction: isFunction, location: location)
        if explicitId == nil { combinator.id = combinator.inferredId }
        return combinator
    }

    private mutating func parseParameterType(flagFields: Set<String>) throws(TLSchemaError) -> TLParameterType {
        if case .hash = token.kind {
            try advance()
            return .flags
        }
        if case .identifier(let name) = token.kind, let dot = name.lastIndex(of: ".") {
            let location = token.location
            // `flags.3?T`: the lexer reads `flags.3` as one name; split it when a '?' follows.
            let field = String(name[..<dot])
            let bitText = name[name.index(after: dot)...]
            if let bit = Int(bitText) {
                try advance()
                guard isPunctuation("?") else { throw fail("expected '?' after '\(name)'") }
                try advance()
                guard flagFields.contains(field) else {
                    throw fail("'\(field)' is not a flags field ('#') declared earlier", at: location)
                }
                guard bit >= 0, bit < 32 else { throw fail("flag bit \(bit) is outside 0...31", at: location) }
                return .conditional(field: field, bit: bit, try parseTypeRef())
            }
        }
        return .plain(try parseTypeRef())
    }

    private mutating func parseTypeRef(depth: Int = 0) throws(TLSchemaError) -> TLTypeRef {
        guard depth < 16 else { throw fail("type nested too deeply") }
        var bang = false
        var percent = false
        if isPunctuation("!") {
            bang = true
            try advance()
        }
        if isPunctuation("%") {
            percent = true
            try advance()
        }
        let name: String
        if case .hash = token.kind {
            name = "#"
            try advance()
        } else {
            name = try identifier("a type name")
        }
        var arguments: [TLTypeRef] = []
        if isPunctuation("<") {
            try advance()
            arguments.append(try parseTypeRef(depth: depth + 1))
            while isPunctuation(",") {
                try advance()
                arguments.append(try parseTypeRef(depth: depth + 1))
            }
            try expect(">")
        }
        return TLTypeRef(name: name, arguments: arguments, isPercentBare: percent, isBang: bang)
    }
}
