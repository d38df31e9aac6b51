import MTProtoServer
import ServerStore
import TLRuntime
import TelegramApi

/// Messages in channels (core.telegram.org "Channels, supergroups, gigagroups and basic groups", "Working with
/// updates"): a message is stored once, under the channel's own id sequence (1, 2, … per channel), and moves the
/// channel's own pts by one; whatever the number of members, a post is one row, one update of the channel's log and
/// one transaction. Members' sessions that are online get it pushed (`updateNewChannelMessage`, …); the others
/// catch up with `updates.getChannelDifference`. Per member only membership and read marks are stored.
extension ServerBackend {
    /// One message stored in a channel, with the channel pts it got.
    struct ChannelPost {
        let message: ChannelMessageRecord
        let pts: Int64
    }

    /// Stores `messages` from `sender` in `channel` and logs each as `updateNewChannelMessage`; inside `tx`.
    func appendChannelMessages(
        _ messages: [Outgoing], channel: ChannelRecord, sender: Int64, date: Int32, tx: StoreTransaction
    ) throws -> [ChannelPost] {
        var posts: [ChannelPost] = []
        // A broadcast channel with signatures names the admin who posts (core.telegram.org `message.post_author`).
        let author = try channel.broadcast && channel.signatures ? tx.user(id: sender).map(Self.signature) : nil
        for outgoing in messages {
            if try tx.channelMessageId(channelId: channel.id, sender: sender, randomId: outgoing.randomId) != nil {
                throw APIError.randomIdDuplicate
            }
            let id = try tx.allocateChannelMessageId(channelId: channel.id)
            let replyTo = try outgoing.replyTo.flatMap { reply in
                try tx.channelMessage(channelId: channel.id, id: reply) == nil ? nil : reply
            }
            let record = ChannelMessageRecord(
                channelId: channel.id, id: id, fromId: sender, post: channel.broadcast, date: date,
                text: outgoing.text, entities: Self.encodeEntities(outgoing.entities),
                media: outgoing.media?.serialized(), mediaKind: outgoing.mediaKind, replyTo: replyTo,
                forward: outgoing.forward?.serialized(), groupedId: outgoing.groupedId, silent: outgoing.silent,
                action: outgoing.action?.serialized(), postAuthor: outgoing.action == nil ? author : nil)
            try tx.insert(record)
            try tx.remember(randomId: outgoing.randomId, channelId: channel.id, sender: sender, id: id)
            // The log keeps the message as nobody in particular sees it; each reader gets it again as they see it.
            let neutral = apiChannelMessage(record, viewer: 0)
            let pts = try tx.appendChannelUpdate(channelId: channel.id, ptsCount: 1, date: date) { pts in
                Api.Update.updateNewChannelMessage(
                    .init(message: neutral, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1)
                ).serialized()
            }
            _ = try tx.readChannel(channelId: channel.id, userId: sender, maxId: id)
            posts.append(ChannelPost(message: record, pts: pts))
        }
        return posts
    }

    /// The pushes of channel updates to every member with an online session: `make` gives each member's updates,
    /// the channel and `userIds` go with them as that member sees them. Members without a subscribed session get
    /// nothing now and catch up with `getChannelDifference`.
    func channelPushes(
        _ channel: ChannelRecord, userIds: Set<Int64>, also extra: [Int64] = [], date: Int32, tx: StoreTransaction,
        make: (Int64) -> [Api.Update]
    ) throws -> [Push] {
        var keys: [Int64: [Int64]] = [:]
        let entries = try tx.channelMemberKeys(channelId: channel.id)
        let online = updates.areSubscribed(entries.map(\.authKeyId))
        for (entry, isOnline) in zip(entries, online) where isOnline {
            keys[entry.userId, default: []].append(entry.authKeyId)
        }
        for userId in extra where keys[userId] == nil {
            let online = try authKeys(of: userId, tx: tx).filter { updates.subscribedSessions(authKeyId: $0) > 0 }
            if !online.isEmpty { keys[userId] = online }
        }
        guard !keys.isEmpty else { return [] }
        let users = try tx.users(ids: userIds).sorted { $0.id < $1.id }
        let participants = try tx.channelMemberCount(channelId: channel.id)
        var pushes: [Push] = []
        for (viewer, authKeyIds) in keys.sorted(by: { $0.key < $1.key }) {
            let chat = try apiChannel(
                channel, member: try tx.channelMember(channelId: channel.id, userId: viewer), viewer: viewer,
                participants: participants, tx: tx)
            pushes.append(
                Push(
                    authKeyIds: authKeyIds,
                    updates: .updates(
                        .init(
                            updates: make(viewer),
                            users: try users.map { try apiUser($0, viewer: viewer, tx: tx) },
                            chats: [chat],
                            date: date, seq: 0))))
        }
        return pushes
    }

    /// The caller's `updates` for messages it stored in a channel: `updateMessageID` for each `random_id`, then
    /// `updateNewChannelMessage`, with `extra` updates first (`updateChannel` for joins and creations).
    func channelAnswer(
        _ posts: [ChannelPost], randomIds: [Int64], extra: [Api.Update] = [], channel: ChannelRecord, caller: Caller,
        date: Int32, tx: StoreTransaction
    ) throws -> Api.Updates {
        let identified = zip(posts, randomIds).map { post, randomId in
            Api.Update.updateMessageID(.init(id: Int32(truncatingIfNeeded: post.message.id), randomId: randomId))
        }
        let new = posts.map { post in
            Api.Update.updateNewChannelMessage(
                .init(
                    message: apiChannelMessage(post.message, viewer: caller.userId, tx: tx),
                    pts: Int32(truncatingIfNeeded: post.pts), ptsCount: 1))
        }
        let users = Self.users(shownIn: posts.map(\.message)).union([caller.userId])
        return .updates(
            .init(
                updates: extra + identified + new, users: try apiUsers(users, viewer: caller.userId, tx: tx),
                chats: [try apiChannel(channel, viewer: caller.userId, tx: tx)], date: date, seq: 0))
    }

    /// Posts `messages` from the caller to the channel `peer` names (`messages.sendMessage`, `sendMedia`,
    /// `sendMultiMedia`, `forwardMessages` with `inputPeerChannel`): `CHAT_WRITE_FORBIDDEN` in a broadcast channel
    /// for anyone but admins who may post, and in a supergroup for non-members; `USER_BANNED_IN_CHANNEL` for a
    /// member restricted from sending.
    func sendToChannel(
        _ messages: [Outgoing], peer: Api.InputPeer, caller: Caller, charged: Bool = true
    ) throws -> Api.Updates {
        if charged { try flood.chargeSending(messages.count, userId: caller.userId, now: clock()) }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                guard let access = try channelAccess(peer, caller: caller, need: .read, tx: tx) else {
                    throw APIError.channelInvalid
                }
                try access.checkCanPost(now: date)
                try checkChannelSending(access, messages, date: date, tx: tx)
                let posts = try appendChannelMessages(
                    messages, channel: access.channel, sender: caller.userId, date: date, tx: tx)
                try tx.setLastPost(channelId: access.channel.id, userId: caller.userId, date: date)
                guard let channel = try tx.channel(id: access.channel.id) else { throw APIError.internalError }
                pushes = try newChannelMessagePushes(posts, channel: channel, date: date, tx: tx)
                if let cleared = try draftClearedBySending(.channel, channel.id, caller: caller, date: date, tx: tx) {
                    pushes.append(cleared)
                }
                return try channelAnswer(
                    posts, randomIds: messages.map(\.randomId), channel: channel, caller: caller, date: date, tx: tx)
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `updateNewChannelMessage` pushes of `posts` to the channel's online members (`also`: accounts that are no
    /// longer members but must see it, such as someone who just left).
    func newChannelMessagePushes(
        _ posts: [ChannelPost], channel: ChannelRecord, also: [Int64] = [], date: Int32, tx: StoreTransaction
    ) throws -> [Push] {
        guard !posts.isEmpty else { return [] }
        return try channelPushes(
            channel, userIds: Self.users(shownIn: posts.map(\.message)), also: also, date: date, tx: tx
        ) { viewer in
            posts.map { post in
                .updateNewChannelMessage(
                    .init(
                        message: apiChannelMessage(post.message, viewer: viewer, tx: tx),
                        pts: Int32(truncatingIfNeeded: post.pts), ptsCount: 1))
            }
        }
    }

    /// How a post is signed: the author's first and last name.
    static func signature(_ user: UserRecord) -> String {
        user.lastName.isEmpty ? user.firstName : "\(user.firstName) \(user.lastName)"
    }
}
