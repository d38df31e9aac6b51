import SyncCore

extension TextLayout {
    /// The look of an entity type (Telegram-iOS `TextFormat/StringWithAppliedEntities.swift`: bold, italic, code and
    /// pre monospaced, strikethrough, underline, and every tappable type in the link colour).
    static func styles(of type: MessageTextEntityType) -> TextStyle {
        switch type {
        case .bold: return .bold
        case .italic: return .italic
        case .code, .pre: return .monospace
        case .strikethrough: return .strikethrough
        case .underline: return .underline
        case .url, .textUrl, .email, .mention, .textMention, .hashtag, .cashtag, .botCommand, .phoneNumber, .bankCard:
            return .link
        case .unknown, .blockQuote, .spoiler, .customEmoji: return []
        }
    }

    /// The entities that fall inside the text: each range clamped to `0..<utf16Count` with its edges moved to a
    /// scalar's start; entities left empty are dropped.
    static func resolve(_ entities: [MessageTextEntity], _ offsets: TextOffsets) -> [StyledEntity] {
        entities.compactMap { entity in
            offsets.clampedUTF16(entity.range).map {
                StyledEntity(entity: entity, range: $0, styles: styles(of: entity.type))
            }
        }
    }
}
