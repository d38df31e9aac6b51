/// A token of TL text with the place it starts.
struct TLToken: Equatable {
    enum Kind: Equatable {
        /// A name: letters, digits, `_` and `.` (`messages.getHistory`, `flags2`, `int128`).
        case identifier(String)
        /// `#` followed by hex digits: an explicit constructor id.
        case hexId(UInt32)
        /// A bare `#` (the flags type).
        case hash
        /// An unsigned decimal number (the bit of `flags.N?T`).
        case number(Int)
        /// `---types---` or `---functions---`.
        case section(isFunctions: Bool)
        /// One of `{ } : ? = < > ! % ; , [ ] ( ) *`.
        case punctuation(UInt8)
        case end
    }

    var kind: Kind
    var location: TLSourceLocation
}

/// Splits TL text into tokens, dropping `//` and `/* */` comments but remembering `// LAYER N`.
struct TLLexer {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// The number of the last `// LAYER N` comment seen.
    private(set) var layer: Int?

    init(text: String) {
        bytes = Array(text.utf8)
    }

    private var location: TLSourceLocation { TLSourceLocation(line: line, column: index - lineStart + 1) }

    private func error(_ message: String) -> TLSchemaError {
        TLSchemaError(location: location, message: message)
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2e
    }

    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x61...0x66: return UInt32(c - 0x61 + 10)
        case 0x41...0x46: return UInt32(c - 0x41 + 10)
        default: return nil
        }
    }

    private mutating func skipSpaceAndComments() throws(TLSchemaError) {
        while index < bytes.count {
            let c = bytes[index]
            if c == 0x0a {
                index += 1
                line += 1
                lineStart = index
            } else if c == 0x20 || c == 0x09 || c == 0x0d {
                index += 1
            } else if c == 0x2f, index + 1 < bytes.count, bytes[index + 1] == 0x2f {
                let start = index + 2
                while index < bytes.count, bytes[index] != 0x0a { index += 1 }
                noteLayerComment(bytes[start..<index])
            } else if c == 0x2f, index + 1 < bytes.count, bytes[index + 1] == 0x2a {
                let opened = location
                index += 2
                while true {
                    guard index + 1 < bytes.count else {
                        throw TLSchemaError(location: opened, message: "unterminated /* comment")
                    }
                    if bytes[index] == 0x2a, bytes[index + 1] == 0x2f {
                        index += 2
                        break
                    }
                    if bytes[index] == 0x0a {
                        line += 1
                        lineStart = index + 1
                    }
                    index += 1
                }
            } else {
                return
            }
        }
    }

    private mutating func noteLayerComment(_ comment: ArraySlice<UInt8>) {
        let text = String(decoding: comment, as: UTF8.self).trimmingSpaces()
        guard text.hasPrefix("LAYER") else { return }
        let digits = text.dropFirst(5).trimmingSpaces()
        if let value = Int(digits), value >= 0 { layer = value }
    }

    /// The next token; `.end` at the end of the text.
    mutating func next() throws(TLSchemaError) -> TLToken {
        try skipSpaceAndComments()
        let start = location
        guard index < bytes.count else { return TLToken(kind: .end, location: start) }
        let c = bytes[index]
        if c == 0x2d {  // '-': a section marker ---types--- / ---functions---
            var end = index
            while end < bytes.count, bytes[end] != 0x0a, bytes[end] != 0x20 { end += 1 }
            let word = String(decoding: bytes[index..<end], as: UTF8.self)
            switch word {
            case "---types---": index = end; return TLToken(kind: .section(isFunctions: false), location: start)
            case "---functions---": index = end; return TLToken(kind: .section(isFunctions: true), location: start)
            default: throw error("unknown section marker '\(word)'")
            }
        }
        if c == 0x23 {  // '#'
            index += 1
            var value: UInt32 = 0
            var digits = 0
            while index < bytes.count, let digit = Self.hexValue(bytes[index]) {
                guard digits < 8 else { throw error("constructor id has more than 8 hex digits") }
                value = value << 4 | digit
                digits += 1
                index += 1
            }
            if digits == 0 { return TLToken(kind: .hash, location: start) }
            if index < bytes.count, Self.isNameByte(bytes[index]) {
                throw error("constructor id contains a non-hex character")
            }
            return TLToken(kind: .hexId(value), location: start)
        }
        if c >= 0x30 && c <= 0x39 {
            var value = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                guard value < 1_000_000 else { throw error("number too large") }
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            return TLToken(kind: .number(value), location: start)
        }
        if Self.isNameByte(c) {
            let begin = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            return TLToken(kind: .identifier(String(decoding: bytes[begin..<index], as: UTF8.self)), location: start)
        }
        if Array("{}:?=<>!%;,[]()*".utf8).contains(c) {
            index += 1
            return TLToken(kind: .punctuation(c), location: start)
        }
        throw error("unexpected character '\(String(decoding: [c], as: UTF8.self))'")
    }
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" })!
        return String(scalars[first...last])
    }
}

extension Substring {
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}
