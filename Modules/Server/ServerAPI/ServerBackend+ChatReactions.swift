import ServerStore
import TLRuntime
import TelegramApi

/// The reactions tg-server offers and the ones each chat allows (core.telegram.org "Message reactions": methods
/// `messages.getAvailableReactions`, `messages.setChatAvailableReactions`; constructors `availableReaction`,
/// `chatReactionsAll`, `chatReactionsSome`, `chatReactionsNone`).
extension ServerBackend {
    /// The standard emoji anyone may react with, in the order `messages.getAvailableReactions` lists them (a subset
    /// of Telegram's free reactions, spelled as Telegram spells them: the heart is U+2764 without a variation
    /// selector).
    static let standardReactions: [(emoticon: String, title: String)] = [
        ("👍", "Thumbs Up"), ("👎", "Thumbs Down"), ("❤", "Red Heart"), ("🔥", "Fire"), ("🥰", "Smiling Face with Hearts"),
        ("👏", "Clapping Hands"), ("😁", "Beaming Face"), ("🤔", "Thinking Face"), ("🤯", "Exploding Head"),
        ("😱", "Screaming Face"), ("😢", "Crying Face"), ("🎉", "Party Popper"), ("🤩", "Star-Struck"),
        ("🙏", "Folded Hands"), ("👌", "OK Hand"), ("😍", "Heart Eyes"), ("💯", "Hundred Points"),
        ("🤣", "Rolling on the Floor Laughing"), ("⚡", "High Voltage"), ("🏆", "Trophy"),
    ]

    /// The most distinct reactions a message may carry unless its chat sets fewer (core.telegram.org/api/config
    /// `reactions_uniq_max`, 11 on Telegram).
    static let reactionsUniqueMax: Int64 = 11

    /// The most reactions one account may put on one message (core.telegram.org/api/config
    /// `reactions_user_max_default`: 1 without Premium, which tg-server has not).
    static let reactionsPerUserMax = 1

    /// The `hash` of the standard set (core.telegram.org/api/offsets "Hash generation", the 32-bit form
    /// `acc = (acc * 20261 + x) & 0x7FFFFFFF` over each emoji's scalars).
    static let availableReactionsHash: Int32 = {
        var acc: UInt32 = 0
        for (emoticon, _) in ServerBackend.standardReactions {
            for scalar in emoticon.unicodeScalars { acc = (acc &* 20261 &+ scalar.value) & 0x7FFF_FFFF }
        }
        return Int32(bitPattern: acc)
    }()

    /// `messages.getAvailableReactions`: the standard set, or `availableReactionsNotModified` when `hash` is its
    /// hash. tg-server has no animations, so each `Document` is a `documentEmpty` (the emoji is the reaction).
    func getAvailableReactions(_ call: Api.functions.messages.getAvailableReactions) -> Api.messages.AvailableReactions
    {
        if call.hash == Self.availableReactionsHash { return .availableReactionsNotModified }
        let reactions = Self.standardReactions.enumerated().map { index, entry in
            let empty = Api.Document.documentEmpty(.init(id: Int64(index + 1)))
            return Api.AvailableReaction.availableReaction(
                .init(
                    reaction: entry.emoticon, title: entry.title, staticIcon: empty, appearAnimation: empty,
                    selectAnimation: empty, activateAnimation: empty, effectAnimation: empty))
        }
        return .availableReactions(.init(hash: Self.availableReactionsHash, reactions: reactions))
    }

    /// The emoji of a reaction list, checked: standard emoji only (`REACTION_INVALID` for anything else: custom emoji
    /// need Premium, paid reactions Stars), each once, in the order given.
    static func checkedEmoticons(_ reactions: [Api.Reaction]) throws -> [String] {
        var emoticons: [String] = []
        for reaction in reactions {
            switch reaction {
            case .reactionEmpty: continue
            case .reactionEmoji(let emoji):
                guard standardReactions.contains(where: { $0.emoticon == emoji.emoticon }) else {
                    throw APIError.badRequest("REACTION_INVALID")
                }
                if !emoticons.contains(emoji.emoticon) { emoticons.append(emoji.emoticon) }
            case .reactionCustomEmoji, .reactionPaid: throw APIError.badRequest("REACTION_INVALID")
            }
        }
        return emoticons
    }

    /// Where a chat's reaction settings are kept: 1 and the id for a basic group, 2 and the id for a channel.
    static let chatReactionsKindChat: Int64 = 1
    static let chatReactionsKindChannel: Int64 = 2

    /// The settings as `ChatReactions` (`chatFull.available_reactions`).
    static func apiChatReactions(_ record: ChatReactionsRecord?) -> Api.ChatReactions {
        switch record?.mode ?? .all {
        case .all: return .chatReactionsAll(.init())
        case .none: return .chatReactionsNone
        case .some:
            return .chatReactionsSome(
                .init(reactions: (record?.emoticons ?? []).map { .reactionEmoji(.init(emoticon: $0)) }))
        }
    }

    /// Whether `record` lets `emoticon` be added.
    static func allows(_ record: ChatReactionsRecord?, _ emoticon: String) -> Bool {
        switch record?.mode ?? .all {
        case .all: return true
        case .none: return false
        case .some: return record?.emoticons.contains(emoticon) ?? false
        }
    }

    /// `messages.setChatAvailableReactions`: who may change a chat's info may set its reactions — the creator or,
    /// unless the group's defaults forbid `change_info`, a basic group's member; a channel's admins with
    /// `change_info` (`CHAT_ADMIN_REQUIRED`). `reactions_limit` 1–11 (`REACTIONS_TOO_MANY` above the
    /// `reactions_uniq_max`, `LIMIT_INVALID` below 1); unknown emoji `REACTION_INVALID`; the same settings again
    /// `CHAT_NOT_MODIFIED`; a private chat `PEER_ID_INVALID`.
    func setChatAvailableReactions(
        _ call: Api.functions.messages.setChatAvailableReactions, caller: Caller
    ) throws -> Api.Updates {
        let limit = Int64(call.reactionsLimit ?? Int32(Self.reactionsUniqueMax))
        guard limit >= 1 else { throw APIError.limitInvalid }
        guard limit <= Self.reactionsUniqueMax else { throw APIError.badRequest("REACTIONS_TOO_MANY") }
        let record: ChatReactionsRecord
        switch call.availableReactions {
        case .chatReactionsAll: record = ChatReactionsRecord(mode: .all, reactionsLimit: limit)
        case .chatReactionsNone: record = ChatReactionsRecord(mode: .none, reactionsLimit: limit)
        case .chatReactionsSome(let some):
            record = ChatReactionsRecord(
                mode: .some, emoticons: try Self.checkedEmoticons(some.reactions), reactionsLimit: limit)
        }
        let date = now
        return try store.write { [self] tx throws -> Api.Updates in
            let kind: Int64
            let id: Int64
            let chat: Api.Chat
            if let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) {
                guard access.can(\.changeInfo) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                (kind, id) = (Self.chatReactionsKindChannel, access.channel.id)
                chat = try apiChannel(access.channel, member: access.member, viewer: caller.userId, tx: tx)
            } else {
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                guard peer.kind == .chat, let group = try tx.chat(id: peer.id) else { throw APIError.peerIdInvalid }
                try Self.checkNotMigrated(group)
                if Self.defaultForbids(group, \.changeInfo, userId: caller.userId) {
                    throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
                }
                (kind, id) = (Self.chatReactionsKindChat, group.id)
                chat = apiChat(group, viewer: caller.userId, tx: tx)
            }
            let before =
                try tx.chatReactions(peerKind: kind, peerId: id)
                ?? ChatReactionsRecord(mode: .all, reactionsLimit: Self.reactionsUniqueMax)
            guard before != record else { throw APIError.badRequest("CHAT_NOT_MODIFIED") }
            try tx.setChatReactions(record, peerKind: kind, peerId: id)
            return .updates(.init(updates: [], users: [], chats: [chat], date: date, seq: 0))
        }
    }
}
