import Hashing

extension TLCombinator {
    /// The declaration as TL writes it, without its id: `name {X:Type} field:type ... = Result`.
    public var canonicalDeclaration: String {
        var parts = [name]
        for parameter in typeParameters {
            if case .plain(let ref) = parameter.type { parts.append("{\(parameter.name):\(ref)}") }
        }
        for parameter in parameters {
            switch parameter.type {
            case .flags: parts.append("\(parameter.name):#")
            case .plain(let ref): parts.append("\(parameter.name):\(ref)")
            case .conditional(let field, let bit, let ref): parts.append("\(parameter.name):\(field).\(bit)?\(ref)")
            }
        }
        return parts.joined(separator: " ") + " = " + result.description
    }

    /// The id TL assigns a declaration written without `#id`: the CRC32 of the canonical declaration with
    /// `bytes` spelled `string`, `<`/`>` and braces dropped, and `flags.N?true` fields removed (the normalization
    /// Telethon's generator and tl-parser apply).
    public var inferredId: UInt32 {
        var text = canonicalDeclaration
        text = text.replacingAll(":bytes ", with: ":string ")
        text = text.replacingAll("?bytes ", with: "?string ")
        text = text.replacingAll("<", with: " ")
        text = text.replacingAll(">", with: "")
        text = text.replacingAll("{", with: "")
        text = text.replacingAll("}", with: "")
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        words.removeAll { word in
            guard let colon = word.firstIndex(of: ":") else { return false }
            let type = word[word.index(after: colon)...]
            guard type.hasSuffix("?true"), type.hasPrefix("flags") else { return false }
            return true
        }
        return CRC32.checksum(Array(words.joined(separator: " ").utf8))
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation in this module).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let source = Array(utf8)
        let pattern = Array(target.utf8)
        let substitute = Array(replacement.utf8)
        guard !pattern.isEmpty else { return self }
        var result: [UInt8] = []
        var index = 0
        while index < source.count {
            if index + pattern.count <= source.count, source[index..<index + pattern.count].elementsEqual(pattern) {
                result += substitute
                index += pattern.count
            } else {
                result.append(source[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
