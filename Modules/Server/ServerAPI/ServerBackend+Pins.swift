import ServerStore
import TLRuntime
import TelegramApi

/// Pinned messages (core.telegram.org methods `messages.updatePinnedMessage`, `messages.unpinAllMessages`; "Working
/// with updates"). In private chats and basic groups a pin is a flag on each box's copy and an
/// `updatePinnedMessages` in each owner's own pts sequence; in a channel it is a flag on the one stored message and an
/// `updatePinnedChannelMessages` in the channel's pts log. Pinning for everyone adds a `messageActionPinMessage`
/// service message replying to the pinned one (marked `silent` when the pin is); unpinning, pinning one-sidedly
/// (`pm_oneside`), pinning in Saved Messages and pinning what is already pinned add none, as Telethon's `pin_message`
/// documents Telegram's behaviour.
extension ServerBackend {
    /// At most this many messages are unpinned by one `messages.unpinAllMessages`; `offset` 1 asks for another call.
    static let unpinAllBatch = 1000

    /// `messages.updatePinnedMessage`: `MESSAGE_ID_INVALID` for a message the caller's conversation does not have
    /// (or a service message); in channels `CHAT_ADMIN_REQUIRED` without the right to pin.
    func updatePinnedMessage(_ call: Api.functions.messages.updatePinnedMessage, caller: Caller) throws -> Api.Updates {
        if Self.isChannel(call.peer) { return try pinChannelMessage(call, caller: caller) }
        let date = now
        var pushes: [Push] = []
        let (answer, changed) = try store.write(
            { [self] tx throws -> (Api.Updates, Bool) in
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                if peer.kind == .chat, let chat = try tx.chat(id: peer.id) {
                    try Self.checkNotMigrated(chat)
                    if Self.defaultForbids(chat, \.pinMessages, userId: caller.userId) {
                        throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
                    }
                }
                guard let message = try tx.message(owner: caller.userId, id: Int64(call.id)), message.peer == peer,
                    message.action == nil
                else {
                    throw APIError.messageIdInvalid
                }
                let oneSide = call.pmOneside && peer.kind == .user
                let owners = oneSide ? [caller.userId: peer] : try boxesSharing(peer, caller: caller, tx: tx)
                var answer = Api.Updates.updates(.init(updates: [], users: [], chats: [], date: date, seq: 0))
                var changed = false
                for copy in try tx.copies(globalId: message.globalId) {
                    guard let ownerPeer = owners[copy.owner],
                        try tx.setPinned(owner: copy.owner, id: copy.id, pinned: !call.unpin)
                    else { continue }
                    let updates = try logPinned(
                        [copy.id], pinned: !call.unpin, owner: copy.owner, peer: ownerPeer, date: date, tx: tx)
                    pushes.append(Push(authKeyIds: try authKeys(of: copy.owner, tx: tx), updates: updates))
                    if copy.owner == caller.userId {
                        answer = updates
                        changed = true
                    }
                }
                return (answer, changed)
            }, then: { [self] _ in send(pushes, caller: caller) })
        guard changed, !call.unpin, !call.pmOneside || call.peer.isChat, !isSavedMessages(call.peer, caller: caller)
        else { return answer }
        let service = Outgoing(
            text: "", replyTo: Int64(call.id), silent: call.silent, randomId: Self.randomId(),
            action: .messageActionPinMessage)
        let landed = try deliver([service], to: call.peer, caller: caller)
        return Self.merged(answer, try sentUpdates(landed, caller: caller))
    }

    /// `messages.unpinAllMessages`: every pinned message of the conversation, for everyone in it, one
    /// `updatePinnedMessages` per box; up to `unpinAllBatch` a call (`offset` 1 while more remain).
    func unpinAllMessages(
        _ call: Api.functions.messages.unpinAllMessages, caller: Caller
    ) throws -> Api.messages.AffectedHistory {
        guard call.topMsgId == nil, call.savedPeerId == nil else { throw APIError.badRequest("TOPIC_ID_INVALID") }
        if Self.isChannel(call.peer) { return try unpinAllChannelMessages(call, caller: caller) }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.messages.AffectedHistory in
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                let owners = try boxesSharing(peer, caller: caller, tx: tx)
                let pinned = try tx.pinnedMessageIds(owner: caller.userId, peer: peer, limit: Self.unpinAllBatch + 1)
                var perOwner: [Int64: [Int64]] = [:]
                for id in pinned.prefix(Self.unpinAllBatch) {
                    guard let message = try tx.message(owner: caller.userId, id: id) else { continue }
                    for copy in try tx.copies(globalId: message.globalId) where owners[copy.owner] != nil {
                        if try tx.setPinned(owner: copy.owner, id: copy.id, pinned: false) {
                            perOwner[copy.owner, default: []].append(copy.id)
                        }
                    }
                }
                let offset: Int32 = pinned.count > Self.unpinAllBatch ? 1 : 0
                var affected = Api.messages.AffectedHistory.affectedHistory(
                    .init(
                        pts: Int32(truncatingIfNeeded: try tx.updateState(userId: caller.userId)?.pts ?? 0),
                        ptsCount: 0, offset: offset))
                for (owner, ids) in perOwner.sorted(by: { $0.key < $1.key }) {
                    guard let ownerPeer = owners[owner] else { continue }
                    let updates = try logPinned(
                        ids.sorted(), pinned: false, owner: owner, peer: ownerPeer, date: date, tx: tx)
                    pushes.append(Push(authKeyIds: try authKeys(of: owner, tx: tx), updates: updates))
                    if owner == caller.userId, let pts = try tx.updateState(userId: owner)?.pts {
                        affected = .affectedHistory(
                            .init(pts: Int32(truncatingIfNeeded: pts), ptsCount: 1, offset: offset))
                    }
                }
                return affected
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// The boxes a pin in the caller's conversation with `peer` reaches, each with the peer as that box files it: a
    /// private chat's two sides (one in Saved Messages), a basic group's current members.
    private func boxesSharing(_ peer: PeerRef, caller: Caller, tx: StoreTransaction) throws -> [Int64: PeerRef] {
        var owners: [Int64: PeerRef] = [:]
        for (owner, ownerPeer) in try recipients(of: peer, sender: caller.userId, tx: tx) { owners[owner] = ownerPeer }
        return owners
    }

    /// Logs `updatePinnedMessages` for `ids` of `owner`'s conversation with `peer` (one pts) and returns it as the
    /// `updates` that owner gets, with the conversation's users and chats.
    private func logPinned(
        _ ids: [Int64], pinned: Bool, owner: Int64, peer: PeerRef, date: Int32, tx: StoreTransaction
    ) throws -> Api.Updates {
        let messages = ids.map { Int32(truncatingIfNeeded: $0) }
        let update = { [self] (pts: Int64) in
            Api.Update.updatePinnedMessages(
                .init(
                    pinned: pinned, peer: apiPeer(peer), messages: messages, pts: Int32(truncatingIfNeeded: pts),
                    ptsCount: 1))
        }
        let pts = try tx.appendUpdate(owner: owner, ptsCount: 1, date: date) { update($0).serialized() }
        var userIds: Set<Int64> = [owner]
        var chats: [Api.Chat] = []
        switch peer.kind {
        case .user: userIds.insert(peer.id)
        case .chat: if let chat = try tx.chat(id: peer.id) { chats.append(apiChat(chat, viewer: owner, tx: tx)) }
        }
        return .updates(
            .init(
                updates: [update(pts)], users: try apiUsers(userIds, viewer: owner, tx: tx), chats: chats, date: date,
                seq: 0))
    }

    private func isSavedMessages(_ peer: Api.InputPeer, caller: Caller) -> Bool {
        switch peer {
        case .inputPeerSelf: return true
        case .inputPeerUser(let user): return user.userId == caller.userId
        default: return false
        }
    }

    /// `first`'s updates, then `second`'s, with the users and chats of both (each once).
    static func merged(_ first: Api.Updates, _ second: Api.Updates) -> Api.Updates {
        guard case .updates(let a) = first, case .updates(let b) = second else { return second }
        var seenUsers = Set<Int64>()
        let users = (a.users + b.users).filter { user in
            guard case .user(let body) = user else { return true }
            return seenUsers.insert(body.id).inserted
        }
        var seenChats = Set<Int64>()
        let chats = (a.chats + b.chats).filter { chat in
            switch chat {
            case .chat(let body): return seenChats.insert(body.id).inserted
            case .channel(let body): return seenChats.insert(body.id).inserted
            default: return true
            }
        }
        return .updates(.init(updates: a.updates + b.updates, users: users, chats: chats, date: b.date, seq: 0))
    }

    // MARK: - Channels

    /// Whether the caller may pin in the channel: in a broadcast channel admins with `pin_messages` or
    /// `edit_messages` (TDLib's `can_pin_messages` for channels); in a supergroup admins with `pin_messages`, and
    /// members whose own restriction does not take the right away.
    private func checkCanPin(_ access: ChannelAccess) throws {
        if access.channel.broadcast {
            guard access.can(\.pinMessages) || access.can(\.editMessages) else {
                throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
            }
            return
        }
        if access.isAdmin {
            guard access.can(\.pinMessages) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
            return
        }
        if case .chatBannedRights(let banned)? = access.bannedRights, banned.pinMessages {
            throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
        }
        if Self.defaultForbids(access.channel, \.pinMessages) { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
    }

    /// `messages.updatePinnedMessage` in a channel: one `updatePinnedChannelMessages` in its log, then (pinning)
    /// the `messageActionPinMessage` service message; both pushed to the members online, in one transaction.
    private func pinChannelMessage(
        _ call: Api.functions.messages.updatePinnedMessage, caller: Caller
    ) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                guard let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) else {
                    throw APIError.channelInvalid
                }
                try checkCanPin(access)
                let channelId = access.channel.id
                guard let message = try tx.channelMessage(channelId: channelId, id: Int64(call.id)),
                    message.action == nil
                else {
                    throw APIError.messageIdInvalid
                }
                guard try tx.setChannelMessagePinned(channelId: channelId, id: message.id, pinned: !call.unpin) else {
                    return .updates(
                        .init(
                            updates: [], users: [],
                            chats: [try apiChannel(access.channel, viewer: caller.userId, tx: tx)], date: date,
                            seq: 0))
                }
                let pin = try logChannelPinned(
                    [message.id], pinned: !call.unpin, channelId: channelId, date: date, tx: tx)
                var posts: [ChannelPost] = []
                if !call.unpin {
                    let service = Outgoing(
                        text: "", replyTo: message.id, silent: call.silent, randomId: Self.randomId(),
                        action: .messageActionPinMessage)
                    posts = try appendChannelMessages(
                        [service], channel: access.channel, sender: caller.userId, date: date, tx: tx)
                }
                guard let channel = try tx.channel(id: channelId) else { throw APIError.internalError }
                let updates = { [self] (viewer: Int64) -> [Api.Update] in
                    [pin]
                        + posts.map { post in
                            .updateNewChannelMessage(
                                .init(
                                    message: apiChannelMessage(post.message, viewer: viewer),
                                    pts: Int32(truncatingIfNeeded: post.pts), ptsCount: 1))
                        }
                }
                let users = Self.users(shownIn: posts.map(\.message))
                pushes = try channelPushes(channel, userIds: users, date: date, tx: tx, make: updates)
                return .updates(
                    .init(
                        updates: updates(caller.userId),
                        users: try apiUsers(users.union([caller.userId]), viewer: caller.userId, tx: tx),
                        chats: [try apiChannel(channel, viewer: caller.userId, tx: tx)], date: date, seq: 0))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `messages.unpinAllMessages` in a channel: one `updatePinnedChannelMessages` for everything unpinned.
    private func unpinAllChannelMessages(
        _ call: Api.functions.messages.unpinAllMessages, caller: Caller
    ) throws -> Api.messages.AffectedHistory {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.messages.AffectedHistory in
                guard let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) else {
                    throw APIError.channelInvalid
                }
                try checkCanPin(access)
                let channelId = access.channel.id
                let pinned = try tx.pinnedChannelMessageIds(channelId: channelId, limit: Self.unpinAllBatch + 1)
                let offset: Int32 = pinned.count > Self.unpinAllBatch ? 1 : 0
                var ids: [Int64] = []
                for id in pinned.prefix(Self.unpinAllBatch)
                where try tx.setChannelMessagePinned(channelId: channelId, id: id, pinned: false) {
                    ids.append(id)
                }
                guard !ids.isEmpty else {
                    return .affectedHistory(
                        .init(pts: Int32(truncatingIfNeeded: access.channel.pts), ptsCount: 0, offset: 0))
                }
                let update = try logChannelPinned(
                    ids.sorted(), pinned: false, channelId: channelId, date: date, tx: tx)
                pushes = try channelPushes(access.channel, userIds: [], date: date, tx: tx) { _ in [update] }
                guard case .updatePinnedChannelMessages(let logged) = update else { throw APIError.internalError }
                return .affectedHistory(.init(pts: logged.pts, ptsCount: 1, offset: offset))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// Logs `updatePinnedChannelMessages` for `ids` in channel `channelId`'s pts log (one pts) and returns it.
    private func logChannelPinned(
        _ ids: [Int64], pinned: Bool, channelId: Int64, date: Int32, tx: StoreTransaction
    ) throws -> Api.Update {
        let messages = ids.map { Int32(truncatingIfNeeded: $0) }
        let update = { (pts: Int64) in
            Api.Update.updatePinnedChannelMessages(
                .init(
                    pinned: pinned, channelId: channelId, messages: messages, pts: Int32(truncatingIfNeeded: pts),
                    ptsCount: 1))
        }
        let pts = try tx.appendChannelUpdate(channelId: channelId, ptsCount: 1, date: date) { update($0).serialized() }
        return update(pts)
    }
}

extension Api.InputPeer {
    /// Whether this names a basic group.
    fileprivate var isChat: Bool {
        if case .inputPeerChat = self { return true }
        return false
    }
}
