public import Postbox
public import PostboxCoding

/// What a run of text is (Telegram-iOS `MessageTextEntityType`; the API's `MessageEntity` constructors).
public enum MessageTextEntityType: Hashable, Sendable, Codable {
    case unknown
    case mention
    case hashtag
    case botCommand
    case url
    case email
    case bold
    case italic
    case code
    case pre(language: String?)
    case textUrl(url: String)
    case textMention(peerId: PeerId)
    case phoneNumber
    case strikethrough
    case blockQuote(isCollapsed: Bool)
    case underline
    case bankCard
    case spoiler
    case customEmoji(fileId: Int64)
    case cashtag
}

/// A styled or detected run of a message's text, in UTF-16 code units as the API counts them.
public struct MessageTextEntity: Hashable, Sendable, Codable {
    /// UTF-16 offsets: `range.lowerBound` is the entity's offset, `range.count` its length.
    public var range: Range<Int>
    public var type: MessageTextEntityType

    public init(range: Range<Int>, type: MessageTextEntityType) {
        self.range = range
        self.type = type
    }
}

/// A message's entities (Telegram-iOS `TextEntitiesMessageAttribute`).
public struct TextEntitiesMessageAttribute: MessageAttribute, Hashable {
    public var entities: [MessageTextEntity]

    public init(entities: [MessageTextEntity]) {
        self.entities = entities
    }

    /// Stored as parallel arrays: a kind number, the bounds, and a string and an integer argument per entity.
    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        let kinds = decoder.decodeInt32ArrayForKey("k")
        let lower = decoder.decodeInt32ArrayForKey("l")
        let upper = decoder.decodeInt32ArrayForKey("u")
        let strings = decoder.decodeStringArrayForKey("s")
        let integers = decoder.decodeInt64ArrayForKey("n")
        let count = kinds.count
        guard lower.count == count, upper.count == count, strings.count == count, integers.count == count else {
            throw .typeMismatch(key: "k", expected: "entity arrays of one length")
        }
        var entities: [MessageTextEntity] = []
        entities.reserveCapacity(count)
        for index in 0..<count {
            guard lower[index] >= 0, upper[index] >= lower[index] else {
                throw .typeMismatch(key: "l", expected: "an entity range with 0 ≤ lower ≤ upper")
            }
            guard let type = Self.type(kind: kinds[index], string: strings[index], integer: integers[index]) else {
                throw .typeMismatch(key: "k", expected: "a known entity kind")
            }
            entities.append(MessageTextEntity(range: Int(lower[index])..<Int(upper[index]), type: type))
        }
        self.entities = entities
    }

    public func encode(_ encoder: PostboxEncoder) {
        var kinds: [Int32] = []
        var strings: [String] = []
        var integers: [Int64] = []
        for entity in entities {
            let (kind, string, integer) = Self.kind(of: entity.type)
            kinds.append(kind)
            strings.append(string)
            integers.append(integer)
        }
        encoder.encodeInt32Array(kinds, forKey: "k")
        encoder.encodeInt32Array(entities.map { Int32(clamping: $0.range.lowerBound) }, forKey: "l")
        encoder.encodeInt32Array(entities.map { Int32(clamping: $0.range.upperBound) }, forKey: "u")
        encoder.encodeStringArray(strings, forKey: "s")
        encoder.encodeInt64Array(integers, forKey: "n")
    }

    private static func kind(of type: MessageTextEntityType) -> (Int32, String, Int64) {
        switch type {
        case .unknown: return (0, "", 0)
        case .mention: return (1, "", 0)
        case .hashtag: return (2, "", 0)
        case .botCommand: return (3, "", 0)
        case .url: return (4, "", 0)
        case .email: return (5, "", 0)
        case .bold: return (6, "", 0)
        case .italic: return (7, "", 0)
        case .code: return (8, "", 0)
        case .pre(let language): return (9, language ?? "", language == nil ? 0 : 1)
        case .textUrl(let url): return (10, url, 0)
        case .textMention(let peerId): return (11, "", peerId.toInt64())
        case .phoneNumber: return (12, "", 0)
        case .strikethrough: return (13, "", 0)
        case .blockQuote(let isCollapsed): return (14, "", isCollapsed ? 1 : 0)
        case .underline: return (15, "", 0)
        case .bankCard: return (16, "", 0)
        case .spoiler: return (17, "", 0)
        case .customEmoji(let fileId): return (18, "", fileId)
        case .cashtag: return (19, "", 0)
        }
    }

    private static func type(kind: Int32, string: String, integer: Int64) -> MessageTextEntityType? {
        switch kind {
        case 0: return .unknown
        case 1: return .mention
        case 2: return .hashtag
        case 3: return .botCommand
        case 4: return .url
        case 5: return .email
        case 6: return .bold
        case 7: return .italic
        case 8: return .code
        case 9: return .pre(language: integer == 0 ? nil : string)
        case 10: return .textUrl(url: string)
        case 11: return .textMention(peerId: PeerId(integer))
        case 12: return .phoneNumber
        case 13: return .strikethrough
        case 14: return .blockQuote(isCollapsed: integer != 0)
        case 15: return .underline
        case 16: return .bankCard
        case 17: return .spoiler
        case 18: return .customEmoji(fileId: integer)
        case 19: return .cashtag
        default: return nil
        }
    }
}
