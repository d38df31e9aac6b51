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
                action: outgoing.action?.serialized())
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
        for entry in try tx.channelMemberKeys(channelId: channel.id)
        where updates.subscribedSessions(authKeyId: entry.authKeyId) > 0 {
            keys[entry.userId, default: []].append(entry.authKeyId)
        }
        for userId in extra where keys[userId] == nil {
            let online = try authKeys(of: userId, tx: tx).filter { updates.subscribedSessions(authKeyId: $0) > 0 }
            if !online.isEmpty { keys[userId] = online }
        }
        guard !keys.isEmpty else { return [] }
        let users = try tx.users(ids: userIds)
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
                            users: users.sorted { $0.id < $1.id }.map { apiUser($0, viewer: viewer) }, chats: [chat],
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
                    message: apiChannelMessage(post.message, viewer: caller.userId),
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
    func sendToChannel(_ messages: [Outgoing], peer: Api.InputPeer, caller: Caller) throws -> Api.Updates {
        try flood.chargeSending(messages.count, userId: caller.userId, now: clock())
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                guard let access = try channelAccess(peer, caller: caller, need: .read, tx: tx) else {
                    throw APIError.channelInvalid
                }
                try access.checkCanPost()
                let posts = try appendChannelMessages(
                    messages, channel: access.channel, sender: caller.userId, date: date, tx: tx)
                guard let channel = try tx.channel(id: access.channel.id) else { throw APIError.internalError }
                pushes = try newChannelMessagePushes(posts, channel: channel, date: date, tx: tx)
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
                        message: apiChannelMessage(post.message, viewer: viewer),
                        pts: Int32(truncatingIfNeeded: post.pts), ptsCount: 1))
            }
        }
    }

    /// `messages.editMessage` in a channel: the author, or in a broadcast channel an admin with `edit_messages`.
    func editChannelMessage(_ call: Api.functions.messages.editMessage, caller: Caller) throws -> Api.Updates {
        if let text = call.message { try TextLimit.message.check(text) }
        guard call.media == nil else { throw APIError.badRequest("MEDIA_NOT_MODIFIABLE") }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                guard let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) else {
                    throw APIError.channelInvalid
                }
                guard var message = try tx.channelMessage(channelId: access.channel.id, id: Int64(call.id)) else {
                    throw APIError.messageIdInvalid
                }
                let mine = message.fromId == caller.userId
                guard message.action == nil, mine || (message.post && access.can(\.editMessages)) else {
                    throw APIError.forbidden("MESSAGE_AUTHOR_REQUIRED")
                }
                let text = call.message ?? message.text
                let entities =
                    call.message == nil && call.entities == nil
                    ? message.entities
                    : Self.encodeEntities(
                        try MessageEntityRules.validated(call.entities, text: text) { input in
                            try resolve(input, caller: caller, tx: tx)?.id
                        })
                guard text != message.text || entities != message.entities else {
                    throw APIError.badRequest("MESSAGE_NOT_MODIFIED")
                }
                guard !text.isEmpty || message.media != nil else { throw APIError.messageEmpty }
                message.text = text
                message.entities = entities
                message.editDate = date
                try tx.updateContent(of: message)
                let neutral = apiChannelMessage(message, viewer: 0)
                let pts = try tx.appendChannelUpdate(channelId: access.channel.id, ptsCount: 1, date: date) { pts in
                    Api.Update.updateEditChannelMessage(
                        .init(message: neutral, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1)
                    ).serialized()
                }
                let edited = { [self] (viewer: Int64) -> [Api.Update] in
                    [
                        .updateEditChannelMessage(
                            .init(
                                message: apiChannelMessage(message, viewer: viewer),
                                pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
                    ]
                }
                let users = Self.users(shownIn: [message])
                pushes = try channelPushes(access.channel, userIds: users, date: date, tx: tx, make: edited)
                return .updates(
                    .init(
                        updates: edited(caller.userId),
                        users: try apiUsers(users.union([caller.userId]), viewer: caller.userId, tx: tx),
                        chats: [try apiChannel(access.channel, viewer: caller.userId, tx: tx)], date: date, seq: 0))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `channels.deleteMessages`: one's own messages, or anyone's with the `delete_messages` right; one
    /// `updateDeleteChannelMessages` spanning as many pts as messages went. `MESSAGE_DELETE_FORBIDDEN` when any
    /// named message may not be deleted by the caller.
    func deleteChannelMessages(
        _ call: Api.functions.channels.deleteMessages, caller: Caller
    ) throws -> Api.messages.AffectedMessages {
        guard call.id.count <= 100 else { throw APIError.limitInvalid }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.messages.AffectedMessages in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                let channel = access.channel
                let found = try tx.channelMessages(channelId: channel.id, ids: call.id.map(Int64.init))
                for message in found where !access.can(\.deleteMessages) {
                    guard message.fromId == caller.userId, message.action == nil else {
                        throw APIError.forbidden("MESSAGE_DELETE_FORBIDDEN")
                    }
                }
                let deleted = try tx.deleteChannelMessages(channelId: channel.id, ids: found.map(\.id))
                    .map { Int32(truncatingIfNeeded: $0) }
                guard !deleted.isEmpty else {
                    return .affectedMessages(.init(pts: Int32(truncatingIfNeeded: channel.pts), ptsCount: 0))
                }
                let count = Int32(deleted.count)
                let pts = try tx.appendChannelUpdate(channelId: channel.id, ptsCount: Int64(count), date: date) { pts in
                    Api.Update.updateDeleteChannelMessages(
                        .init(
                            channelId: channel.id, messages: deleted, pts: Int32(truncatingIfNeeded: pts),
                            ptsCount: count)
                    ).serialized()
                }
                pushes = try channelPushes(channel, userIds: [], date: date, tx: tx) { _ in
                    [
                        .updateDeleteChannelMessages(
                            .init(
                                channelId: channel.id, messages: deleted, pts: Int32(truncatingIfNeeded: pts),
                                ptsCount: count))
                    ]
                }
                return .affectedMessages(.init(pts: Int32(truncatingIfNeeded: pts), ptsCount: count))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// At most this many authors learn from one read that their messages were read.
    static let readOutboxAuthorsLimit = 1000

    /// `channels.readHistory`: the caller's read mark up to `max_id` (0: the newest message); their other sessions
    /// get `updateReadChannelInbox` with what is still unread, and in a supergroup the online authors of what was
    /// read get `updateReadChannelOutbox`.
    func readChannelHistory(_ call: Api.functions.channels.readHistory, caller: Caller) throws -> [UInt8] {
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                let channel = access.channel
                let top = try tx.topChannelMessage(channelId: channel.id)?.id ?? 0
                let target = min(call.maxId <= 0 ? top : Int64(call.maxId), top)
                let previous = access.member?.readInboxMax ?? 0
                guard try tx.readChannel(channelId: channel.id, userId: caller.userId, maxId: target) else { return }
                let unread = try tx.channelUnreadCount(
                    channelId: channel.id, userId: caller.userId, readInboxMax: target)
                let update = Api.Update.updateReadChannelInbox(
                    .init(
                        channelId: channel.id, maxId: Int32(truncatingIfNeeded: target), stillUnreadCount: unread,
                        pts: Int32(truncatingIfNeeded: channel.pts)))
                pushes = [
                    Push(
                        authKeyIds: try authKeys(of: caller.userId, tx: tx),
                        updates: .updateShort(.init(update: update, date: date)))
                ]
                // In a supergroup the authors of what was just read see their messages read
                // (`updateReadChannelOutbox`), when online.
                guard !channel.broadcast else { return }
                let outbox = Api.Update.updateReadChannelOutbox(
                    .init(channelId: channel.id, maxId: Int32(truncatingIfNeeded: target)))
                for author in try tx.channelAuthors(
                    channelId: channel.id, after: previous, upTo: target, except: caller.userId,
                    limit: Self.readOutboxAuthorsLimit)
                {
                    let online = try authKeys(of: author, tx: tx).filter {
                        updates.subscribedSessions(authKeyId: $0) > 0
                    }
                    if online.isEmpty { continue }
                    pushes.append(Push(authKeyIds: online, updates: .updateShort(.init(update: outbox, date: date))))
                }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }

    /// `messages.channelMessages`: a page of a channel's messages with the channel's pts.
    func channelPage(
        _ records: [ChannelMessageRecord], total: Int, access: ChannelAccess, caller: Caller, tx: StoreTransaction
    ) throws -> Api.messages.Messages {
        .channelMessages(
            .init(
                pts: Int32(truncatingIfNeeded: access.channel.pts), count: Int32(clamping: total),
                messages: records.map { apiChannelMessage($0, viewer: caller.userId) }, topics: [],
                chats: [try apiChannel(access.channel, member: access.member, viewer: caller.userId, tx: tx)],
                users: try apiUsers(
                    Self.users(shownIn: records).union([caller.userId]), viewer: caller.userId, tx: tx)))
    }

    /// `messages.getHistory` of a channel: members, or anyone for a public channel.
    func channelHistory(_ call: Api.functions.messages.getHistory, caller: Caller) throws -> Api.messages.Messages {
        try store.read { tx in
            guard let access = try channelAccess(call.peer, caller: caller, need: .read, tx: tx) else {
                throw APIError.channelInvalid
            }
            let query = HistoryQuery(
                offsetId: Int64(call.offsetId), offsetDate: call.offsetDate, addOffset: Int(call.addOffset),
                limit: Self.checkedLimit(call.limit == 0 ? 20 : call.limit), maxId: Int64(call.maxId),
                minId: Int64(call.minId))
            let records = try tx.channelHistory(channelId: access.channel.id, query)
            return try channelPage(
                records, total: try tx.channelMessageCount(channelId: access.channel.id), access: access,
                caller: caller, tx: tx)
        }
    }

    /// `messages.search` in a channel.
    func searchChannel(_ call: Api.functions.messages.search, caller: Caller) throws -> Api.messages.Messages {
        try store.read { tx in
            guard let access = try channelAccess(call.peer, caller: caller, need: .read, tx: tx) else {
                throw APIError.channelInvalid
            }
            let records = try tx.searchChannel(
                channelId: access.channel.id, text: call.q, mediaKinds: MediaKind.kinds(for: call.filter),
                offsetId: Int64(call.offsetId), limit: Self.checkedLimit(call.limit == 0 ? 20 : call.limit))
            return try channelPage(records, total: records.count, access: access, caller: caller, tx: tx)
        }
    }

    /// `channels.getMessages`: messages by id (or the message one replies to).
    func getChannelMessages(_ call: Api.functions.channels.getMessages, caller: Caller) throws -> Api.messages.Messages
    {
        guard call.id.count <= 200 else { throw APIError.limitInvalid }
        return try store.read { tx in
            let access = try channelAccess(call.channel, caller: caller, need: .read, tx: tx)
            let channelId = access.channel.id
            var records: [ChannelMessageRecord] = []
            for input in call.id {
                switch input {
                case .inputMessageID(let message):
                    if let record = try tx.channelMessage(channelId: channelId, id: Int64(message.id)) {
                        records.append(record)
                    }
                case .inputMessageReplyTo(let message):
                    if let replyTo = try tx.channelMessage(channelId: channelId, id: Int64(message.id))?.replyTo,
                        let record = try tx.channelMessage(channelId: channelId, id: replyTo)
                    {
                        records.append(record)
                    }
                default: continue
                }
            }
            return try channelPage(records, total: records.count, access: access, caller: caller, tx: tx)
        }
    }

    /// `messages.getMessagesViews`: each message's views; with `increment`, the caller is counted once per message.
    func getMessagesViews(
        _ call: Api.functions.messages.getMessagesViews, caller: Caller
    ) throws -> Api.messages.MessageViews {
        guard call.id.count <= 100 else { throw APIError.limitInvalid }
        let body = { [self] (tx: StoreTransaction) throws -> Api.messages.MessageViews in
            guard let access = try channelAccess(call.peer, caller: caller, need: .read, tx: tx) else {
                throw APIError.channelInvalid
            }
            let channelId = access.channel.id
            let views = try call.id.map { id -> Api.MessageViews in
                let count =
                    call.increment
                    ? try tx.viewChannelMessage(channelId: channelId, id: Int64(id), userId: caller.userId)
                    : try tx.channelMessage(channelId: channelId, id: Int64(id))?.views
                return .messageViews(.init(views: count.map { Int32(clamping: $0) }))
            }
            return .messageViews(
                .init(
                    views: views, chats: [try apiChannel(access.channel, viewer: caller.userId, tx: tx)], users: []))
        }
        return call.increment ? try store.write(body) : try store.read(body)
    }
}
