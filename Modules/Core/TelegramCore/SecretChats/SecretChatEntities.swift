import Postbox
public import SecretApi
public import SyncCore

/// A message's entities as the secret layer carries them (`decryptedMessage.entities`, layer 45 and later —
/// core.telegram.org `/api/end-to-end`; Telegram-iOS `TelegramCore/Sources/State/ManagedSecretChatOutgoingOperations.swift`
/// and `State/ProcessSecretChatIncomingDecryptedOperations.swift`), to and from the `MessageTextEntity`s a message
/// stores.
public enum SecretChatEntities {
    /// The entities for `decryptedMessage.entities`; nil when there are none. A mention of a user by name carries
    /// the user's 32-bit id in this layer and is left out when the id does not fit (as Telegram-iOS does).
    public static func secretEntities(_ entities: [MessageTextEntity]) -> [SecretApi.MessageEntity]? {
        let result = entities.compactMap(secretEntity)
        return result.isEmpty ? nil : result
    }

    /// The stored form of received entities; entities with a negative offset or length, or running past the text's
    /// UTF-16 length, are dropped (a received message's entities are untrusted).
    public static func messageEntities(_ entities: [SecretApi.MessageEntity]?, text: String) -> [MessageTextEntity] {
        let limit = text.utf16.count
        return (entities ?? []).compactMap(messageEntity).filter { $0.range.upperBound <= limit }
    }

    static func secretEntity(_ entity: MessageTextEntity) -> SecretApi.MessageEntity? {
        let offset = Int32(clamping: entity.range.lowerBound)
        let length = Int32(clamping: entity.range.count)
        switch entity.type {
        case .unknown: return .messageEntityUnknown(.init(offset: offset, length: length))
        case .mention: return .messageEntityMention(.init(offset: offset, length: length))
        case .hashtag: return .messageEntityHashtag(.init(offset: offset, length: length))
        case .botCommand: return .messageEntityBotCommand(.init(offset: offset, length: length))
        case .url: return .messageEntityUrl(.init(offset: offset, length: length))
        case .email: return .messageEntityEmail(.init(offset: offset, length: length))
        case .bold: return .messageEntityBold(.init(offset: offset, length: length))
        case .italic: return .messageEntityItalic(.init(offset: offset, length: length))
        case .code: return .messageEntityCode(.init(offset: offset, length: length))
        case .pre(let language):
            return .messageEntityPre(.init(offset: offset, length: length, language: language ?? ""))
        case .textUrl(let url): return .messageEntityTextUrl(.init(offset: offset, length: length, url: url))
        case .textMention(let peerId):
            guard let userId = Int32(exactly: peerId.id.rawValue) else { return nil }
            return .messageEntityMentionName(.init(offset: offset, length: length, userId: userId))
        case .phoneNumber: return .messageEntityPhone(.init(offset: offset, length: length))
        case .strikethrough: return .messageEntityStrike(.init(offset: offset, length: length))
        case .blockQuote: return .messageEntityBlockquote(.init(offset: offset, length: length))
        case .underline: return .messageEntityUnderline(.init(offset: offset, length: length))
        case .bankCard: return .messageEntityBankCard(.init(offset: offset, length: length))
        case .spoiler: return .messageEntitySpoiler(.init(offset: offset, length: length))
        case .customEmoji(let fileId):
            return .messageEntityCustomEmoji(.init(offset: offset, length: length, documentId: fileId))
        case .cashtag: return .messageEntityCashtag(.init(offset: offset, length: length))
        }
    }

    static func messageEntity(_ entity: SecretApi.MessageEntity) -> MessageTextEntity? {
        func make(_ offset: Int32, _ length: Int32, _ type: MessageTextEntityType) -> MessageTextEntity? {
            guard offset >= 0, length >= 0, Int(offset) + Int(length) <= Int(Int32.max) else { return nil }
            return MessageTextEntity(range: Int(offset)..<(Int(offset) + Int(length)), type: type)
        }
        switch entity {
        case .messageEntityUnknown(let e): return make(e.offset, e.length, .unknown)
        case .messageEntityMention(let e): return make(e.offset, e.length, .mention)
        case .messageEntityHashtag(let e): return make(e.offset, e.length, .hashtag)
        case .messageEntityBotCommand(let e): return make(e.offset, e.length, .botCommand)
        case .messageEntityUrl(let e): return make(e.offset, e.length, .url)
        case .messageEntityEmail(let e): return make(e.offset, e.length, .email)
        case .messageEntityBold(let e): return make(e.offset, e.length, .bold)
        case .messageEntityItalic(let e): return make(e.offset, e.length, .italic)
        case .messageEntityCode(let e): return make(e.offset, e.length, .code)
        case .messageEntityPre(let e):
            return make(e.offset, e.length, .pre(language: e.language.isEmpty ? nil : e.language))
        case .messageEntityTextUrl(let e): return make(e.offset, e.length, .textUrl(url: e.url))
        case .messageEntityMentionName(let e):
            return make(e.offset, e.length, .textMention(peerId: .user(Int64(e.userId))))
        case .messageEntityPhone(let e): return make(e.offset, e.length, .phoneNumber)
        case .messageEntityCashtag(let e): return make(e.offset, e.length, .cashtag)
        case .messageEntityBankCard(let e): return make(e.offset, e.length, .bankCard)
        case .messageEntityUnderline(let e): return make(e.offset, e.length, .underline)
        case .messageEntityStrike(let e): return make(e.offset, e.length, .strikethrough)
        case .messageEntityBlockquote(let e): return make(e.offset, e.length, .blockQuote(isCollapsed: false))
        case .messageEntitySpoiler(let e): return make(e.offset, e.length, .spoiler)
        case .messageEntityCustomEmoji(let e): return make(e.offset, e.length, .customEmoji(fileId: e.documentId))
        }
    }
}
