import MTProtoServer
import ServerStore
import TLRuntime
import TelegramApi

/// Changing what a channel holds and what a member has seen (core.telegram.org "Channels, supergroups, gigagroups and
/// basic groups"): edits and deletions, each one entry of the channel's pts log; read marks; views.
extension ServerBackend {
    /// `messages.editMessage` in a channel: the author, or in a broadcast channel an admin with `edit_messages`.
    func editChannelMessage(_ call: Api.functions.messages.editMessage, caller: Caller) throws -> Api.Updates {
        if let text = call.message { try TextLimit.message.check(text) }
        let date = now
        var pushes: [Push] = []
        var waiting: (page: Int64, link: WebPageURL, channelId: Int64)?
        let answer = try store.write(
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
                let media = try editedMedia(
                    call.media, stored: message.media, sentAt: message.date, caller: caller, tx: tx)
                let (text, entities) = try editedContent(
                    call, text: message.text, entities: message.entities,
                    hasMedia: media != nil || Self.carriesMedia(message.media), otherChange: media != nil,
                    caller: caller, tx: tx)
                message.text = text
                message.entities = entities
                if let media {
                    message.media = media
                } else if let preview = editedWebPage(call, stored: message.media, dc: caller.dc) {
                    message.media = preview.media
                    if let pending = preview.pending { waiting = (pending.id, pending.link, access.channel.id) }
                }
                message.editDate = date
                try tx.updateContent(of: message)
                let neutral = apiChannelMessage(message, viewer: 0)
                let pts = try tx.appendChannelUpdate(channelId: access.channel.id, ptsCount: 1, date: date) { pts in
                    Api.Update.updateEditChannelMessage(
                        .init(message: neutral, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1)
                    ).serialized()
                }
                let reactions = try tx.reactions(on: .channel(access.channel.id, id: message.id))
                let edited = { [self] (viewer: Int64) -> [Api.Update] in
                    [
                        .updateEditChannelMessage(
                            .init(
                                message: apiChannelMessage(
                                    message, viewer: viewer,
                                    reactions: reactions.isEmpty
                                        ? nil
                                        : apiReactions(
                                            reactions, viewer: viewer, canSeeList: !access.channel.broadcast),
                                    tx: tx),
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
        if let waiting {
            awaitWebPage(
                waiting.page, link: waiting.link,
                messages: [.channel(channelId: waiting.channelId, messageId: Int64(call.id))])
        }
        return answer
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
                for id in deleted { try tx.deleteReactions(on: .channel(channel.id, id: Int64(id))) }
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

    /// `messages.setTyping` in a supergroup: `updateChannelUserTyping` to the members online, never stored; in a
    /// broadcast channel nobody is told (its readers see posts, not their authors).
    func setChannelTyping(_ call: Api.functions.messages.setTyping, caller: Caller) throws -> [UInt8] {
        let date = now
        let pushes = try store.read { [self] tx throws -> [Push] in
            guard let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) else {
                throw APIError.channelInvalid
            }
            guard !access.channel.broadcast else { return [] }
            return try channelPushes(access.channel, userIds: [caller.userId], date: date, tx: tx) { viewer in
                viewer == caller.userId
                    ? []
                    : [
                        .updateChannelUserTyping(
                            .init(
                                channelId: access.channel.id, fromId: .peerUser(.init(userId: caller.userId)),
                                action: call.action))
                    ]
            }.filter {
                guard case .updates(let body) = $0.updates else { return true }
                return !body.updates.isEmpty
            }
        }
        send(pushes, caller: caller)
        return Reply.bool(true)
    }
}
