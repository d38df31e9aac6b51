/// How TL names become Swift names (Telegram-iOS style: `Api.messages.Messages`, case `.message`, field `fwdFrom`).
enum SwiftNames {
    /// Swift keywords that must be escaped with backticks where a TL name uses them.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol", "await", "async", "some", "any", "consume", "copy", "borrowing", "consuming", "discard", "package",
        "_",
    ]

    /// Escapes a keyword with backticks.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `snake_case` or `camelCase` → `lowerCamelCase` (`new_nonce_hash1` → `newNonceHash1`).
    static func lowerCamel(_ name: String) -> String {
        let parts = name.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = parts.first else { return "_" }
        var result = String(first.prefix(1)).lowercased() + first.dropFirst()
        for part in parts.dropFirst() { result += part.prefix(1).uppercased() + part.dropFirst() }
        return result
    }

    /// `snake_case` or `camelCase` → `UpperCamelCase` (`Server_DH_Params` → `ServerDHParams`).
    static func upperCamel(_ name: String) -> String {
        let lower = lowerCamel(name)
        return lower.prefix(1).uppercased() + lower.dropFirst()
    }

    /// The Swift path of a TL boxed type under `root`: `messages.Messages` → `Api.messages.Messages`.
    static func typePath(_ tlName: String, root: String) -> String {
        let parts = tlName.split(separator: ".").map(String.init)
        let namespaces = parts.dropLast().map { escaped($0) }
        return ([root] + namespaces + [upperCamel(parts.last ?? tlName)]).joined(separator: ".")
    }

    /// The case name of a constructor (`inputPeerUser`, `pQInnerDataDc`).
    static func caseName(_ constructorShortName: String) -> String {
        escaped(lowerCamel(constructorShortName))
    }

    /// The payload class of a constructor, nested in its type (`Cons_inputPeerUser`).
    static func consName(_ constructorShortName: String) -> String {
        "Cons_" + constructorShortName
    }

    /// A field name (`fwdFrom`), escaped when it is a keyword.
    static func fieldName(_ tlName: String) -> String {
        // A parameter named `self` would shadow `self` in the initializer.
        if tlName == "self" { return "isSelf" }
        return escaped(lowerCamel(tlName))
    }

    /// A local variable for a field while parsing (`_fwdFrom`).
    static func localName(_ tlName: String) -> String {
        "_" + lowerCamel(tlName)
    }

    /// `0x1cb5c415`.
    static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
