import SyncCore

/// An entity while markdown is parsed, with TDLib's type order, priorities and classes (td/telegram/MessageEntity.h
/// and MessageEntity.cpp: splittable, continuous, pre and blockquote entities); offsets and lengths in UTF-16 units.
struct FormattingEntity: Equatable {
    enum Kind: Int {
        case mention, hashtag, botCommand, url, email, bold, italic, code, pre, preCode, textUrl, mentionName, cashtag
        case phoneNumber, underline, strikethrough, blockQuote, bankCard, mediaTimestamp, spoiler, customEmoji
        case expandableBlockQuote

        /// TDLib's priority for entities with the same range (lower first).
        var priority: Int {
            switch self {
            case .bold: return 90
            case .italic: return 91
            case .underline: return 92
            case .strikethrough: return 93
            case .spoiler: return 94
            case .code: return 20
            case .pre: return 11
            case .preCode: return 10
            case .textUrl, .mentionName: return 49
            case .blockQuote, .expandableBlockQuote: return 0
            case .customEmoji: return 99
            default: return 50
            }
        }

        var isSplittable: Bool { [.bold, .italic, .underline, .strikethrough, .spoiler].contains(self) }
        var isBlockquote: Bool { self == .blockQuote || self == .expandableBlockQuote }
        var isPre: Bool { self == .pre || self == .code || self == .preCode }
        var isContinuous: Bool { !isSplittable && !isBlockquote && !isPre }

        /// The slot of a splittable type (bold, italic, underline, strikethrough, spoiler).
        var splittableIndex: Int {
            switch self {
            case .bold: return 0
            case .italic: return 1
            case .underline: return 2
            case .strikethrough: return 3
            default: return 4
            }
        }
    }

    var kind: Kind
    var offset: Int
    var length: Int
    /// A text URL's link or a pre block's language.
    var argument: String = ""

    var end: Int { offset + length }

    /// TDLib's order: offset, the longer first, then by priority.
    static func precedes(_ lhs: FormattingEntity, _ rhs: FormattingEntity) -> Bool {
        if lhs.offset != rhs.offset { return lhs.offset < rhs.offset }
        if lhs.length != rhs.length { return lhs.length > rhs.length }
        return lhs.kind.priority < rhs.kind.priority
    }

    /// The entity as SyncCore's.
    var messageTextEntity: MessageTextEntity {
        let type: MessageTextEntityType
        switch kind {
        case .mention: type = .mention
        case .hashtag: type = .hashtag
        case .botCommand: type = .botCommand
        case .url: type = .url
        case .email: type = .email
        case .bold: type = .bold
        case .italic: type = .italic
        case .code: type = .code
        case .pre: type = .pre(language: nil)
        case .preCode: type = .pre(language: argument)
        case .textUrl: type = .textUrl(url: argument)
        case .mentionName: type = .textMention(peerId: .user(Int64(argument) ?? 0))
        case .cashtag: type = .cashtag
        case .phoneNumber: type = .phoneNumber
        case .underline: type = .underline
        case .strikethrough: type = .strikethrough
        case .blockQuote: type = .blockQuote(isCollapsed: false)
        case .expandableBlockQuote: type = .blockQuote(isCollapsed: true)
        case .bankCard: type = .bankCard
        case .spoiler: type = .spoiler
        case .customEmoji: type = .customEmoji(fileId: Int64(argument) ?? 0)
        case .mediaTimestamp: type = .unknown
        }
        return MessageTextEntity(range: offset..<end, type: type)
    }
}

/// UTF-16 lengths of UTF-8 text as TDLib counts them: every character-starting byte is one unit, two for a 4-byte one.
enum UTF16Count {
    static func isCharacterStart(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }

    static func length<C: Collection>(_ bytes: C) -> Int where C.Element == UInt8 {
        var count = 0
        for byte in bytes where isCharacterStart(byte) { count += byte >= 0xF0 ? 2 : 1 }
        return count
    }

    /// The byte length of the prefix of `bytes` that is `units` UTF-16 units long (TDLib's `utf8_utf16_substr`).
    static func prefixBytes(_ bytes: ArraySlice<UInt8>, units: Int) -> Int {
        var count = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if isCharacterStart(byte) {
                if count >= units { break }
                count += byte >= 0xF0 ? 2 : 1
            }
            index += 1
        }
        return index - bytes.startIndex
    }
}
