/// What a preview shows of a page, read from its HTML: the Open Graph tags (ogp.me: `og:title`, `og:description`,
/// `og:site_name`, `og:image`), else `<title>` and `<meta name="description">`. A byte scanner over untrusted bytes: it
/// never traps, reads each byte a bounded number of times, and keeps each field to a few hundred characters.
struct WebPageHTML: Equatable, Sendable {
    var title: String?
    var description: String?
    var siteName: String?
    /// `og:image`, kept as the page says it (`WebPagePreviews` resolves it against the page and fetches it when the
    /// rules allow); a link the scanner had to cut short is dropped, as it would name another resource.
    var imageURL: String?

    /// The longest title and site name kept (in characters), and the longest description and image link.
    static let maximumTitle = 256
    static let maximumDescription = 1024

    /// Whether the page said anything a preview can show.
    var isEmpty: Bool { title == nil && description == nil && siteName == nil }

    /// The preview fields of `bytes` (read as UTF-8, invalid sequences replaced).
    init(parsing bytes: [UInt8]) {
        var ogTitle: String?, ogDescription: String?, titleTag: String?, metaDescription: String?
        var titleSeen = false
        var index = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let nameStart = index + 1
            var nameEnd = nameStart
            while nameEnd < count, Self.isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let name = Self.lowercased(bytes[nameStart..<nameEnd])
            // Comments and scripts hold no tags to read.
            if bytes[nameStart..<min(count, nameStart + 3)].elementsEqual("!--".utf8) {
                index = Self.find(Array("-->".utf8), in: bytes, from: nameStart).map { $0 + 3 } ?? count
                continue
            }
            let tagEnd = Self.tagEnd(bytes, from: nameEnd)
            switch name {
            case "meta":
                let attributes = Self.attributes(bytes[nameEnd..<tagEnd])
                let key = (attributes["property"] ?? attributes["name"])?.lowercased()
                let content = attributes["content"].map { Self.clean($0, limit: Self.maximumDescription) }
                guard let key, let content, !content.isEmpty else { break }
                switch key {
                case "og:title": ogTitle = ogTitle ?? String(content.prefix(Self.maximumTitle))
                case "og:description": ogDescription = ogDescription ?? content
                case "og:site_name": siteName = siteName ?? String(content.prefix(Self.maximumTitle))
                case "og:image": imageURL = imageURL ?? (content.count < Self.maximumDescription ? content : nil)
                case "description": metaDescription = metaDescription ?? content
                default: break
                }
            case "title" where !titleSeen:
                // Only the first `<title>` is read, so hostile input cannot make the scan quadratic.
                titleSeen = true
                let textStart = min(count, tagEnd + 1)
                let close = Self.find(Array("</".utf8), in: bytes, from: textStart) ?? count
                let text = Self.clean(
                    String(decoding: bytes[textStart..<close], as: UTF8.self), limit: Self.maximumTitle)
                if !text.isEmpty { titleTag = text }
            case "script", "style":
                let close = Self.find(Array("</\(name)".utf8), in: bytes, from: tagEnd, ignoringCase: true) ?? count
                index = close + 2
                continue
            default:
                break
            }
            index = max(tagEnd, index + 1)
        }
        title = ogTitle ?? titleTag
        description = ogDescription ?? metaDescription
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "-")
    }

    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The index of the `>` that ends the tag whose attributes start at `start` (quotes respected), or the end.
    private static func tagEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return bytes.count
    }

    /// The first index of `needle` in `bytes` at or after `start`.
    private static func find(
        _ needle: [UInt8], in bytes: [UInt8], from start: Int, ignoringCase: Bool = false
    ) -> Int? {
        guard !needle.isEmpty, start >= 0, bytes.count >= needle.count, start <= bytes.count - needle.count else {
            return nil
        }
        let fold: (UInt8) -> UInt8 = { ignoringCase && $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let wanted = needle.map(fold)
        var index = start
        while index <= bytes.count - needle.count {
            if fold(bytes[index]) == wanted[0] {
                var offset = 1
                while offset < wanted.count, fold(bytes[index + offset]) == wanted[offset] { offset += 1 }
                if offset == wanted.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// A tag's attributes (`name="value"`, `name='value'`, `name=value`, `name`), names lower-cased, the first of a
    /// name kept.
    static func attributes(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        var index = bytes.startIndex
        let end = bytes.endIndex
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x2F
        }
        while index < end, result.count < 32 {
            while index < end, isSpace(bytes[index]) { index += 1 }
            let nameStart = index
            while index < end, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "=") { index += 1 }
            guard index > nameStart else {
                index += 1
                continue
            }
            let name = lowercased(bytes[nameStart..<index])
            while index < end, isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < end, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < end, isSpace(bytes[index]), bytes[index] != 0x2F { index += 1 }
                if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    let valueStart = index + 1
                    index = valueStart
                    while index < end, bytes[index] != quote { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    index = min(end, index + 1)
                } else {
                    let valueStart = index
                    while index < end, !isSpace(bytes[index]) || bytes[index] == 0x2F { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
            }
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// `text` with its character references decoded, runs of white space made one space, trimmed, and cut to
    /// `limit` characters.
    static func clean(_ text: String, limit: Int) -> String {
        var output = ""
        var pendingSpace = false
        var characters = 0
        var rest = Substring(text)
        while let first = rest.first, characters < limit {
            var character = first
            var consumed = 1
            if first == "&", let semicolon = rest.prefix(12).firstIndex(of: ";") {
                let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
                if let decoded = decodeEntity(entity) {
                    character = decoded
                    consumed = entity.count + 2
                }
            }
            rest = rest.dropFirst(consumed)
            if character.isWhitespace {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace {
                output.append(" ")
                characters += 1
                pendingSpace = false
            }
            output.append(character)
            characters += 1
        }
        return output
    }

    private static func decodeEntity(_ entity: Substring) -> Character? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default: break
        }
        guard entity.hasPrefix("#") else { return nil }
        let digits = entity.dropFirst()
        let value: UInt32?
        if digits.hasPrefix("x") || digits.hasPrefix("X") {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return Character(scalar)
    }
}
