import ServerStore
import TLRuntime
import TelegramApi

/// Message reactions (core.telegram.org "Message reactions": methods `messages.sendReaction`,
/// `messages.getMessagesReactions`, `messages.getMessageReactionsList`; constructor `updateMessageReactions`, which
/// carries no pts and is pushed to every session of everyone who sees the message, as Telegram does).
extension ServerBackend {
    /// At most this many recent reactors go in `messageReactions.recent_reactions`.
    static let recentReactionsLimit = 5

    /// `messages.sendReaction`: the caller's reactions to message `msg_id` become `reaction` (none or an empty list
    /// removes them). `MESSAGE_ID_INVALID` for a message the caller's conversation does not have or a service
    /// message; `REACTION_INVALID` for anything but a standard emoji the chat allows; `REACTIONS_TOO_MANY` for more
    /// than `reactionsPerUserMax`, or a new emoji past the chat's `reactions_limit` distinct ones. The answer and every
    /// push carry `updateMessageReactions` with the message as that viewer's box numbers it.
    func sendReaction(_ call: Api.functions.messages.sendReaction, caller: Caller) throws -> Api.Updates {
        let emoticons = try Self.checkedEmoticons(call.reaction ?? [])
        guard emoticons.count <= Self.reactionsPerUserMax else { throw APIError.badRequest("REACTIONS_TOO_MANY") }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                if let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) {
                    return try sendChannelReaction(
                        emoticons, big: call.big, msgId: call.msgId, access: access, caller: caller, date: date,
                        tx: tx, pushes: &pushes)
                }
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                guard let message = try tx.message(owner: caller.userId, id: Int64(call.msgId)), message.peer == peer,
                    message.action == nil
                else { throw APIError.messageIdInvalid }
                var settings: ChatReactionsRecord?
                if peer.kind == .chat, let chat = try tx.chat(id: peer.id) {
                    try Self.checkNotMigrated(chat)
                    settings = try tx.chatReactions(peerKind: Self.chatReactionsKindChat, peerId: chat.id)
                }
                let target = ReactionTarget.shared(globalId: message.globalId)
                let records = try react(
                    emoticons, big: call.big, target: target, settings: settings, caller: caller, date: date, tx: tx)
                var answer = Api.Updates.updates(.init(updates: [], users: [], chats: [], date: date, seq: 0))
                for copy in try tx.copies(globalId: message.globalId) {
                    let updates = try reactionUpdates(
                        records, peer: copy.peer, msgId: copy.id, viewer: copy.owner, canSeeList: true, date: date,
                        tx: tx)
                    pushes.append(Push(authKeyIds: try authKeys(of: copy.owner, tx: tx), updates: updates))
                    if copy.owner == caller.userId { answer = updates }
                }
                return answer
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// Checks `emoticons` against the chat and the message's reactions and stores them as the caller's; returns the
    /// message's reactions after.
    private func react(
        _ emoticons: [String], big: Bool, target: ReactionTarget, settings: ChatReactionsRecord?, caller: Caller,
        date: Int32, tx: StoreTransaction
    ) throws -> [ReactionRecord] {
        let before = try tx.reactions(on: target)
        let mine = Set(before.filter { $0.userId == caller.userId }.map(\.emoticon))
        // Keeping a reaction the chat no longer allows is fine; adding one is not.
        for emoticon in emoticons where !mine.contains(emoticon) && !Self.allows(settings, emoticon) {
            throw APIError.badRequest("REACTION_INVALID")
        }
        let others = Set(before.filter { $0.userId != caller.userId }.map(\.emoticon))
        let limit = settings?.reactionsLimit ?? Self.reactionsUniqueMax
        if Int64(others.union(emoticons).count) > limit, !Set(emoticons).isSubset(of: others.union(mine)) {
            throw APIError.badRequest("REACTIONS_TOO_MANY")
        }
        try tx.setReactions(emoticons, by: caller.userId, on: target, big: big, date: date)
        return try tx.reactions(on: target)
    }

    /// `sendReaction` in a channel: members only; pushed to each member online.
    private func sendChannelReaction(
        _ emoticons: [String], big: Bool, msgId: Int32, access: ChannelAccess, caller: Caller, date: Int32,
        tx: StoreTransaction, pushes: inout [Push]
    ) throws -> Api.Updates {
        let channel = access.channel
        guard let message = try tx.channelMessage(channelId: channel.id, id: Int64(msgId)), message.action == nil else {
            throw APIError.messageIdInvalid
        }
        let settings = try tx.chatReactions(peerKind: Self.chatReactionsKindChannel, peerId: channel.id)
        let records = try react(
            emoticons, big: big, target: .channel(channel.id, id: message.id), settings: settings, caller: caller,
            date: date, tx: tx)
        let update = { [self] (viewer: Int64) -> Api.Update in
            .updateMessageReactions(
                .init(
                    peer: .peerChannel(.init(channelId: channel.id)), msgId: msgId,
                    reactions: apiReactions(records, viewer: viewer, canSeeList: !channel.broadcast)))
        }
        let users = channel.broadcast ? [] : Set(Self.recent(records).map(\.userId))
        pushes = try channelPushes(channel, userIds: users, date: date, tx: tx) { [update($0)] }
        return .updates(
            .init(
                updates: [update(caller.userId)],
                users: try apiUsers(users.union([caller.userId]), viewer: caller.userId, tx: tx),
                chats: [try apiChannel(channel, member: access.member, viewer: caller.userId, tx: tx)], date: date,
                seq: 0))
    }

    /// `updateMessageReactions` for message `msgId` of `viewer`'s conversation with `peer`, as `updates` with the
    /// recent reactors and the group.
    private func reactionUpdates(
        _ records: [ReactionRecord], peer: PeerRef, msgId: Int64, viewer: Int64, canSeeList: Bool, date: Int32,
        tx: StoreTransaction
    ) throws -> Api.Updates {
        let update = Api.Update.updateMessageReactions(
            .init(
                peer: apiPeer(peer), msgId: Int32(truncatingIfNeeded: msgId),
                reactions: apiReactions(records, viewer: viewer, canSeeList: canSeeList)))
        var userIds = Set(Self.recent(records).map(\.userId)).union([viewer])
        var chats: [Api.Chat] = []
        switch peer.kind {
        case .user: userIds.insert(peer.id)
        case .chat: if let chat = try tx.chat(id: peer.id) { chats.append(apiChat(chat, viewer: viewer, tx: tx)) }
        }
        return .updates(
            .init(
                updates: [update], users: try apiUsers(userIds, viewer: viewer, tx: tx), chats: chats, date: date,
                seq: 0))
    }

    /// The newest reactions first, at most `recentReactionsLimit`.
    static func recent(_ records: [ReactionRecord]) -> [ReactionRecord] {
        Array(records.sorted { ($0.date, $0.userId) > ($1.date, $1.userId) }.prefix(recentReactionsLimit))
    }

    /// A message's reactions as `viewer` sees them: each emoji with its count (most first, then the earliest), the
    /// viewer's own with `chosen_order`; the recent reactors (`my` on the viewer's) unless `canSeeList` is off, as in
    /// a broadcast channel.
    func apiReactions(_ records: [ReactionRecord], viewer: Int64, canSeeList: Bool) -> Api.MessageReactions {
        var order: [String] = []
        var counts: [String: Int32] = [:]
        for record in records {
            if counts[record.emoticon] == nil { order.append(record.emoticon) }
            counts[record.emoticon, default: 0] += 1
        }
        let ranked = order.enumerated().sorted { a, b in
            let (countA, countB) = (counts[a.element] ?? 0, counts[b.element] ?? 0)
            return countA != countB ? countA > countB : a.offset < b.offset
        }
        let results = ranked.map { _, emoticon in
            Api.ReactionCount.reactionCount(
                .init(
                    chosenOrder: records.first { $0.userId == viewer && $0.emoticon == emoticon }
                        .map { Int32(truncatingIfNeeded: $0.chosenOrder) },
                    reaction: .reactionEmoji(.init(emoticon: emoticon)), count: counts[emoticon] ?? 0))
        }
        let recent = canSeeList ? Self.recent(records).map { apiPeerReaction($0, viewer: viewer) } : nil
        return .messageReactions(.init(canSeeList: canSeeList, results: results, recentReactions: recent))
    }

    func apiPeerReaction(_ record: ReactionRecord, viewer: Int64) -> Api.MessagePeerReaction {
        .messagePeerReaction(
            .init(
                big: record.big, my: record.userId == viewer, peerId: .peerUser(.init(userId: record.userId)),
                date: record.date, reaction: .reactionEmoji(.init(emoticon: record.emoticon))))
    }

    /// `message.reactions` of a box's message for its owner, `nil` when it has none.
    func storedReactions(_ message: MessageRecord, tx: StoreTransaction) throws -> Api.MessageReactions? {
        let records = try tx.reactions(on: .shared(globalId: message.globalId))
        return records.isEmpty ? nil : apiReactions(records, viewer: message.owner, canSeeList: true)
    }

    /// `message.reactions` of a channel message for `viewer`, `nil` when it has none.
    func storedReactions(
        _ message: ChannelMessageRecord, broadcast: Bool, viewer: Int64, tx: StoreTransaction
    ) throws -> Api.MessageReactions? {
        let records = try tx.reactions(on: .channel(message.channelId, id: message.id))
        return records.isEmpty ? nil : apiReactions(records, viewer: viewer, canSeeList: !broadcast)
    }
}
