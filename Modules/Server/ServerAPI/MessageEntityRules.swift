import ServerStore
import TelegramApi

/// What the server makes of the entities a client sends with a text (core.telegram.org "Styled text with message
/// entities"), before anything is stored or delivered:
/// - at most `maximumCount` entities (`ENTITIES_TOO_LONG`);
/// - offsets and lengths are UTF-16 code units; a negative offset or length, or an entity starting at or past the
///   end of the text, is refused (`ENTITY_BOUNDS_INVALID`); one running past the end is clipped to it; an empty one
///   is dropped;
/// - `inputMessageEntityMentionName` is an input form: its `InputUser` must resolve (access hash checked), and it is
///   stored as `messageEntityMentionName` with the user's id; `messageEntityMentionName` itself is the stored form
///   and names a user without proof the sender may reach them, so a client may not send it
///   (`ENTITY_MENTION_USER_INVALID` for both);
/// - the rest are kept as sent, in the order sent (`ServerBackend.storedEntities` applies these rules).
enum MessageEntityRules {
    /// The most entities one text may carry.
    static let maximumCount = 100

    /// The entities to store for `text`, or the error Telegram answers. `resolveMention` maps an
    /// `inputMessageEntityMentionName`'s user to its id (nil when the caller may not name that user).
    static func validated(
        _ entities: [Api.MessageEntity]?, text: String, resolveMention: (Api.InputUser) throws -> Int64?
    ) throws -> [Api.MessageEntity]? {
        guard let entities, !entities.isEmpty else { return entities }
        guard entities.count <= maximumCount else { throw APIError.badRequest("ENTITIES_TOO_LONG") }
        let textLength = text.utf16.count
        var result: [Api.MessageEntity] = []
        result.reserveCapacity(entities.count)
        for entity in entities {
            let (offset, length) = bounds(of: entity)
            guard offset >= 0, length >= 0 else { throw APIError.badRequest("ENTITY_BOUNDS_INVALID") }
            if length == 0 { continue }
            guard Int(offset) < textLength else { throw APIError.badRequest("ENTITY_BOUNDS_INVALID") }
            let clippedLength = Int32(min(Int(length), textLength - Int(offset)))
            switch entity {
            case .inputMessageEntityMentionName(let mention):
                guard let userId = try resolveMention(mention.userId) else {
                    throw APIError.badRequest("ENTITY_MENTION_USER_INVALID")
                }
                result.append(.messageEntityMentionName(.init(offset: offset, length: clippedLength, userId: userId)))
            case .messageEntityMentionName:
                throw APIError.badRequest("ENTITY_MENTION_USER_INVALID")
            default:
                if clippedLength == length {
                    result.append(entity)
                } else {
                    guard let clipped = withLength(entity, clippedLength) else {
                        throw APIError.badRequest("ENTITY_BOUNDS_INVALID")
                    }
                    result.append(clipped)
                }
            }
        }
        return result
    }

    /// Every entity's offset and length.
    static func bounds(of entity: Api.MessageEntity) -> (offset: Int32, length: Int32) {
        switch entity {
        case .messageEntityUnknown(let e): (e.offset, e.length)
        case .messageEntityMention(let e): (e.offset, e.length)
        case .messageEntityHashtag(let e): (e.offset, e.length)
        case .messageEntityBotCommand(let e): (e.offset, e.length)
        case .messageEntityUrl(let e): (e.offset, e.length)
        case .messageEntityEmail(let e): (e.offset, e.length)
        case .messageEntityBold(let e): (e.offset, e.length)
        case .messageEntityItalic(let e): (e.offset, e.length)
        case .messageEntityCode(let e): (e.offset, e.length)
        case .messageEntityPre(let e): (e.offset, e.length)
        case .messageEntityTextUrl(let e): (e.offset, e.length)
        case .messageEntityMentionName(let e): (e.offset, e.length)
        case .inputMessageEntityMentionName(let e): (e.offset, e.length)
        case .messageEntityPhone(let e): (e.offset, e.length)
        case .messageEntityCashtag(let e): (e.offset, e.length)
        case .messageEntityUnderline(let e): (e.offset, e.length)
        case .messageEntityStrike(let e): (e.offset, e.length)
        case .messageEntityBankCard(let e): (e.offset, e.length)
        case .messageEntitySpoiler(let e): (e.offset, e.length)
        case .messageEntityCustomEmoji(let e): (e.offset, e.length)
        case .messageEntityBlockquote(let e): (e.offset, e.length)
        case .messageEntityFormattedDate(let e): (e.offset, e.length)
        case .messageEntityDiffInsert(let e): (e.offset, e.length)
        case .messageEntityDiffReplace(let e): (e.offset, e.length)
        case .messageEntityDiffDelete(let e): (e.offset, e.length)
        }
    }

    /// The entity with its length clipped, for the kinds a client sends; `nil` for the rest (service-made kinds such
    /// as dates and diffs, refused when they run past the end).
    static func withLength(_ entity: Api.MessageEntity, _ length: Int32) -> Api.MessageEntity? {
        switch entity {
        case .messageEntityUnknown(let e): .messageEntityUnknown(.init(offset: e.offset, length: length))
        case .messageEntityMention(let e): .messageEntityMention(.init(offset: e.offset, length: length))
        case .messageEntityHashtag(let e): .messageEntityHashtag(.init(offset: e.offset, length: length))
        case .messageEntityBotCommand(let e): .messageEntityBotCommand(.init(offset: e.offset, length: length))
        case .messageEntityUrl(let e): .messageEntityUrl(.init(offset: e.offset, length: length))
        case .messageEntityEmail(let e): .messageEntityEmail(.init(offset: e.offset, length: length))
        case .messageEntityBold(let e): .messageEntityBold(.init(offset: e.offset, length: length))
        case .messageEntityItalic(let e): .messageEntityItalic(.init(offset: e.offset, length: length))
        case .messageEntityCode(let e): .messageEntityCode(.init(offset: e.offset, length: length))
        case .messageEntityPre(let e): .messageEntityPre(.init(offset: e.offset, length: length, language: e.language))
        case .messageEntityTextUrl(let e): .messageEntityTextUrl(.init(offset: e.offset, length: length, url: e.url))
        case .messageEntityPhone(let e): .messageEntityPhone(.init(offset: e.offset, length: length))
        case .messageEntityCashtag(let e): .messageEntityCashtag(.init(offset: e.offset, length: length))
        case .messageEntityUnderline(let e): .messageEntityUnderline(.init(offset: e.offset, length: length))
        case .messageEntityStrike(let e): .messageEntityStrike(.init(offset: e.offset, length: length))
        case .messageEntityBankCard(let e): .messageEntityBankCard(.init(offset: e.offset, length: length))
        case .messageEntitySpoiler(let e): .messageEntitySpoiler(.init(offset: e.offset, length: length))
        case .messageEntityCustomEmoji(let e):
            .messageEntityCustomEmoji(.init(offset: e.offset, length: length, documentId: e.documentId))
        case .messageEntityBlockquote(let e):
            .messageEntityBlockquote(.init(collapsed: e.collapsed, offset: e.offset, length: length))
        default: nil
        }
    }
}

extension ServerBackend {
    /// The entities to store with `text` as `caller` sent them (`MessageEntityRules`); mentions resolve as the caller
    /// may name users (access hashes checked).
    func storedEntities(_ entities: [Api.MessageEntity]?, text: String, caller: Caller) throws -> [Api.MessageEntity]? {
        try MessageEntityRules.validated(entities, text: text) { input in
            try store.read { tx in try resolve(input, caller: caller, tx: tx)?.id }
        }
    }
}
