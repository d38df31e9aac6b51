import ServerStore
import TLRuntime
import TelegramApi

/// Reading reactions (core.telegram.org methods `messages.getMessagesReactions`, `messages.getMessageReactionsList`).
extension ServerBackend {
    /// At most this many reactors in one `messages.getMessageReactionsList` page.
    static let reactionsListLimit = 100
    /// At most this many message ids in one `messages.getMessagesReactions`.
    static let messagesReactionsLimit = 100

    /// `messages.getMessagesReactions`: one `updateMessageReactions` for each of the ids the caller's conversation
    /// (or channel) has, an empty `results` for a message without reactions.
    func getMessagesReactions(_ call: Api.functions.messages.getMessagesReactions, caller: Caller) throws -> Api.Updates
    {
        guard call.id.count <= Self.messagesReactionsLimit else { throw APIError.limitInvalid }
        let date = now
        return try store.read { [self] tx throws -> Api.Updates in
            var updates: [Api.Update] = []
            var userIds: Set<Int64> = [caller.userId]
            var chats: [Api.Chat] = []
            if let access = try channelAccess(call.peer, caller: caller, need: .read, tx: tx) {
                let channel = access.channel
                for id in call.id {
                    guard let message = try tx.channelMessage(channelId: channel.id, id: Int64(id)) else { continue }
                    let records = try tx.reactions(on: .channel(channel.id, id: message.id))
                    if !channel.broadcast { userIds.formUnion(Self.recent(records).map(\.userId)) }
                    updates.append(
                        .updateMessageReactions(
                            .init(
                                peer: .peerChannel(.init(channelId: channel.id)), msgId: id,
                                reactions: apiReactions(records, viewer: caller.userId, canSeeList: !channel.broadcast))
                        ))
                }
                chats.append(try apiChannel(channel, member: access.member, viewer: caller.userId, tx: tx))
            } else {
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                for message in try tx.messages(owner: caller.userId, ids: call.id.map(Int64.init))
                where message.peer == peer {
                    let records = try tx.reactions(on: .shared(globalId: message.globalId))
                    userIds.formUnion(Self.recent(records).map(\.userId))
                    updates.append(
                        .updateMessageReactions(
                            .init(
                                peer: apiPeer(peer), msgId: Int32(truncatingIfNeeded: message.id),
                                reactions: apiReactions(records, viewer: caller.userId, canSeeList: true))))
                }
                switch peer.kind {
                case .user: userIds.insert(peer.id)
                case .chat:
                    if let chat = try tx.chat(id: peer.id) {
                        chats.append(apiChat(chat, viewer: caller.userId, tx: tx))
                    }
                }
            }
            return .updates(
                .init(
                    updates: updates, users: try apiUsers(userIds, viewer: caller.userId, tx: tx), chats: chats,
                    date: date, seq: 0))
        }
    }

    /// `messages.getMessageReactionsList`: who reacted to message `id` (with `reaction`, only that emoji), newest
    /// first, `limit` (1–100) a page; `next_offset` (opaque: the position reached) while more remain. A broadcast
    /// channel's list is its admins' alone on Telegram: here `BROADCAST_FORBIDDEN`.
    func getMessageReactionsList(
        _ call: Api.functions.messages.getMessageReactionsList, caller: Caller
    ) throws -> Api.messages.MessageReactionsList {
        guard call.limit >= 1, call.limit <= Self.reactionsListLimit else { throw APIError.limitInvalid }
        let filter: String?
        switch call.reaction {
        case nil: filter = nil
        case .reactionEmoji(let emoji)?: filter = emoji.emoticon
        default: throw APIError.badRequest("REACTION_INVALID")
        }
        let start: Int
        if let offset = call.offset, !offset.isEmpty {
            guard let value = Int(offset), value >= 0 else { throw APIError.badRequest("OFFSET_INVALID") }
            start = value
        } else {
            start = 0
        }
        return try store.read { [self] tx throws -> Api.messages.MessageReactionsList in
            let records: [ReactionRecord]
            if let access = try channelAccess(call.peer, caller: caller, need: .read, tx: tx) {
                guard !access.channel.broadcast else { throw APIError.badRequest("BROADCAST_FORBIDDEN") }
                guard let message = try tx.channelMessage(channelId: access.channel.id, id: Int64(call.id)) else {
                    throw APIError.messageIdInvalid
                }
                records = try tx.reactions(on: .channel(access.channel.id, id: message.id))
            } else {
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                guard let message = try tx.message(owner: caller.userId, id: Int64(call.id)), message.peer == peer
                else {
                    throw APIError.messageIdInvalid
                }
                records = try tx.reactions(on: .shared(globalId: message.globalId))
            }
            let matching = records.filter { filter == nil || $0.emoticon == filter }
                .sorted { ($0.date, $0.userId) > ($1.date, $1.userId) }
            let page = Array(matching.dropFirst(start).prefix(Int(call.limit)))
            let end = start + page.count
            return .messageReactionsList(
                .init(
                    count: Int32(clamping: matching.count),
                    reactions: page.map { apiPeerReaction($0, viewer: caller.userId) }, chats: [],
                    users: try apiUsers(page.map(\.userId), viewer: caller.userId, tx: tx),
                    nextOffset: end < matching.count ? String(end) : nil))
        }
    }
}
