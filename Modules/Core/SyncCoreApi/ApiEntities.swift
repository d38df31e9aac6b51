public import Postbox
public import SyncCore
public import TelegramApi

extension MessageTextEntity {
    /// An entity from the API; `nil` for constructors the client must not store (`inputMessageEntityMentionName`)
    /// and for negative offsets or lengths.
    public init?(_ entity: Api.MessageEntity) {
        func make(_ offset: Int32, _ length: Int32, _ type: MessageTextEntityType) -> MessageTextEntity? {
            guard offset >= 0, length >= 0 else { return nil }
            return MessageTextEntity(range: Int(offset)..<(Int(offset) + Int(length)), type: type)
        }
        let result: MessageTextEntity?
        switch entity {
        case .messageEntityUnknown(let e): result = make(e.offset, e.length, .unknown)
        case .messageEntityMention(let e): result = make(e.offset, e.length, .mention)
        case .messageEntityHashtag(let e): result = make(e.offset, e.length, .hashtag)
        case .messageEntityBotCommand(let e): result = make(e.offset, e.length, .botCommand)
        case .messageEntityUrl(let e): result = make(e.offset, e.length, .url)
        case .messageEntityEmail(let e): result = make(e.offset, e.length, .email)
        case .messageEntityBold(let e): result = make(e.offset, e.length, .bold)
        case .messageEntityItalic(let e): result = make(e.offset, e.length, .italic)
        case .messageEntityCode(let e): result = make(e.offset, e.length, .code)
        case .messageEntityPre(let e):
            result = make(e.offset, e.length, .pre(language: e.language.isEmpty ? nil : e.language))
        case .messageEntityTextUrl(let e): result = make(e.offset, e.length, .textUrl(url: e.url))
        case .messageEntityMentionName(let e): result = make(e.offset, e.length, .textMention(peerId: .user(e.userId)))
        case .messageEntityPhone(let e): result = make(e.offset, e.length, .phoneNumber)
        case .messageEntityCashtag(let e): result = make(e.offset, e.length, .cashtag)
        case .messageEntityUnderline(let e): result = make(e.offset, e.length, .underline)
        case .messageEntityStrike(let e): result = make(e.offset, e.length, .strikethrough)
        case .messageEntityBankCard(let e): result = make(e.offset, e.length, .bankCard)
        case .messageEntitySpoiler(let e): result = make(e.offset, e.length, .spoiler)
        case .messageEntityCustomEmoji(let e): result = make(e.offset, e.length, .customEmoji(fileId: e.documentId))
        case .messageEntityBlockquote(let e): result = make(e.offset, e.length, .blockQuote(isCollapsed: e.collapsed))
        default: result = nil
        }
        guard let result else { return nil }
        self = result
    }

    /// The entity as the API sends it; `textMention` needs the user's access hash (`inputMessageEntityMentionName`),
    /// which `inputUser` supplies, and is dropped when it has none.
    public func apiEntity(inputUser: (PeerId) -> Api.InputUser? = { _ in nil }) -> Api.MessageEntity? {
        let offset = Int32(clamping: range.lowerBound)
        let length = Int32(clamping: range.count)
        switch type {
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
            guard let user = inputUser(peerId) else { return nil }
            return .inputMessageEntityMentionName(.init(offset: offset, length: length, userId: user))
        case .phoneNumber: return .messageEntityPhone(.init(offset: offset, length: length))
        case .strikethrough: return .messageEntityStrike(.init(offset: offset, length: length))
        case .blockQuote(let collapsed):
            return .messageEntityBlockquote(.init(collapsed: collapsed, offset: offset, length: length))
        case .underline: return .messageEntityUnderline(.init(offset: offset, length: length))
        case .bankCard: return .messageEntityBankCard(.init(offset: offset, length: length))
        case .spoiler: return .messageEntitySpoiler(.init(offset: offset, length: length))
        case .customEmoji(let fileId):
            return .messageEntityCustomEmoji(.init(offset: offset, length: length, documentId: fileId))
        case .cashtag: return .messageEntityCashtag(.init(offset: offset, length: length))
        }
    }
}
