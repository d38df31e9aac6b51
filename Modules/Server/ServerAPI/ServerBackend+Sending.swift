import Foundation
import ServerStore
import TLRuntime
import TelegramApi

/// Sending: a message lands in every box of its conversation, each box's pts moves by one, and every other
/// session of every member gets it pushed — `updateShortMessage` / `updateShortChatMessage` for plain text as
/// Telegram sends them, `updates` with `updateNewMessage` otherwise (core.telegram.org "Working with updates").
extension ServerBackend {
    /// What a new message carries, whatever method sent it.
    struct Outgoing {
        var text: String
        var entities: [Api.MessageEntity]?
        var media: Api.MessageMedia?
        var mediaKind: Int64 = 0
        var replyTo: Int64?
        var silent = false
        var randomId: Int64
        var groupedId: Int64?
        var forward: Api.MessageFwdHeader?
        var action: Api.MessageAction?
    }

    /// One box's copy of a new message, with the pts it got.
    struct Landed {
        let message: MessageRecord
        let pts: Int64
        let authKeyIds: [Int64]
        /// The conversation was new to this box: its owner may not know the peer yet.
        let opensDialog: Bool
    }

    func sendMessage(_ call: Api.functions.messages.sendMessage, caller: Caller) throws -> Api.Updates {
        guard !call.message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw APIError.messageEmpty }
        try TextLimit.message.check(call.message)
        let entities = try storedEntities(call.entities, text: call.message, caller: caller)
        var outgoing = Outgoing(
            text: call.message, entities: entities, replyTo: Self.replyId(call.replyTo), silent: call.silent,
            randomId: call.randomId)
        // The first link's preview, unless the sender asked for none (`no_webpage`); a scheduled message gets it now
        // too (`ServerBackend+ScheduledWebPages`).
        var pendingPage: Int64?
        if !call.noWebpage {
            (outgoing.media, pendingPage) = webPageForSending(text: call.message, entities: entities, dc: caller.dc)
        }
        if let scheduled = try schedule([outgoing], to: call.peer, at: call.scheduleDate, caller: caller) {
            if let pendingPage, let link = WebPageURL.firstLink(in: call.message, entities: entities) {
                awaitScheduledWebPage(pendingPage, link: link, answer: scheduled, owner: caller.userId)
            }
            return scheduled
        }
        let link = WebPageURL.firstLink(in: call.message, entities: entities)
        if Self.isChannel(call.peer) {
            let answer = try sendToChannel([outgoing], peer: call.peer, caller: caller)
            if let pendingPage, let link, let post = Self.channelPost(in: answer) {
                awaitWebPage(pendingPage, link: link, messages: [.channel(channelId: post.channel, messageId: post.id)])
            }
            return answer
        }
        let landed = try deliver([outgoing], to: call.peer, caller: caller)
        guard let mine = landed.first?.first(where: { $0.message.owner == caller.userId }) else {
            throw APIError.internalError
        }
        if let pendingPage, let link {
            awaitWebPage(pendingPage, link: link, messages: [.box(globalId: mine.message.globalId)])
        }
        return .updateShortSentMessage(
            .init(
                out: true, id: Int32(truncatingIfNeeded: mine.message.id), pts: Int32(truncatingIfNeeded: mine.pts),
                ptsCount: 1,
                date: mine.message.date, media: outgoing.media, entities: entities))
    }

    /// The channel and id of the post an answer to a channel send carries (its `updateNewChannelMessage`).
    static func channelPost(in answer: Api.Updates) -> (channel: Int64, id: Int64)? {
        guard case .updates(let body) = answer else { return nil }
        for update in body.updates {
            if case .updateNewChannelMessage(let new) = update, case .message(let message) = new.message,
                case .peerChannel(let channel) = message.peerId
            {
                return (channel.channelId, Int64(message.id))
            }
        }
        return nil
    }

    static func replyId(_ replyTo: Api.InputReplyTo?) -> Int64? {
        if case .inputReplyToMessage(let reply) = replyTo { return Int64(reply.replyToMsgId) }
        return nil
    }

    /// Stores `messages` (sent together, e.g. an album) in every box of the conversation and pushes them; returns,
    /// per message, every box's copy. `charged` false sends without spending the sender's budget (a scheduled
    /// message spent it when it was scheduled).
    func deliver(
        _ messages: [Outgoing], to inputPeer: Api.InputPeer, caller: Caller, charged: Bool = true
    ) throws -> [[Landed]] {
        if charged { try flood.chargeSending(messages.count, userId: caller.userId, now: clock()) }
        let date = now
        var pushes: [Push] = []
        var pushFiles: [PushFiles.Pending] = []
        let landed = try store.write(
            { [self] tx throws -> [[Landed]] in
                let peer = try resolve(inputPeer, caller: caller, tx: tx)
                if peer.kind == .chat, let chat = try tx.chat(id: peer.id) {
                    // A migrated group takes only the service message that ends it.
                    if chat.migratedTo != nil {
                        for message in messages {
                            guard case .messageActionChatMigrateTo? = message.action else {
                                throw APIError.chatIdInvalid
                            }
                        }
                    }
                    // Its default rights bind everyone but its creator (service messages pass).
                    if chat.creator != caller.userId, let rights = Self.bannedRights(chat.defaultBannedRights) {
                        try Self.checkSendRights(rights, messages)
                    }
                }
                if peer.kind == .user { try checkNotBlocked(sender: caller.userId, recipient: peer.id, tx: tx) }
                let recipients = try recipients(of: peer, sender: caller.userId, tx: tx)
                var keys: [Int64: [Int64]] = [:]
                for (owner, _) in recipients { keys[owner] = try authKeys(of: owner, tx: tx) }
                var result: [[Landed]] = []
                for outgoing in messages {
                    guard try tx.messageId(owner: caller.userId, randomId: outgoing.randomId) == nil else {
                        throw APIError.randomIdDuplicate
                    }
                    let globalId = try tx.nextValue(of: "message")
                    var copies: [Landed] = []
                    for (owner, ownerPeer) in recipients {
                        let reply = try outgoing.replyTo.flatMap { id in
                            try Self.copyId(of: id, in: caller.userId, for: owner, tx: tx)
                        }
                        let opensDialog = try !tx.hasDialog(owner: owner, peer: ownerPeer)
                        let record = MessageRecord(
                            owner: owner, id: try tx.allocateMessageId(owner: owner), globalId: globalId,
                            peer: ownerPeer,
                            fromId: caller.userId, outgoing: owner == caller.userId, date: date, text: outgoing.text,
                            entities: Self.encodeEntities(outgoing.entities), media: outgoing.media?.serialized(),
                            mediaKind: outgoing.mediaKind, replyTo: reply, forward: outgoing.forward?.serialized(),
                            groupedId: outgoing.groupedId, silent: outgoing.silent,
                            action: outgoing.action?.serialized(),
                            mediaUnread: outgoing.mediaKind == MediaKind.voice.rawValue)
                        try tx.insert(record)
                        let message = apiMessage(record, tx: tx)
                        let pts = try tx.appendUpdate(owner: owner, ptsCount: 1, date: date) { pts in
                            Api.Update.updateNewMessage(
                                .init(message: message, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1)
                            ).serialized()
                        }
                        copies.append(
                            Landed(message: record, pts: pts, authKeyIds: keys[owner] ?? [], opensDialog: opensDialog))
                        if owner == caller.userId {
                            try tx.remember(randomId: outgoing.randomId, owner: owner, id: record.id)
                        }
                    }
                    result.append(copies)
                }
                pushes = try result.flatMap { copies in try copies.map { try newMessagePush($0, tx: tx) } }
                if messages.contains(where: { $0.action == nil }),
                    let cleared = try draftClearedBySending(
                        peer.kind == .user ? .user : .chat, peer.id, caller: caller, date: date, tx: tx)
                {
                    pushes.append(cleared)
                }
                pushFiles = try result.flatMap { copies in try pendingPushes(copies, sender: caller.userId, tx: tx) }
                return result
            },
            then: { [self] _ in
                send(pushes, caller: caller)
                deliverPushFiles(pushFiles)
            })
        return landed
    }

    /// The id, in `owner`'s box, of the copy of message `id` of `source`'s box.
    static func copyId(of id: Int64, in source: Int64, for owner: Int64, tx: StoreTransaction) throws -> Int64? {
        guard let original = try tx.message(owner: source, id: id) else { return nil }
        if source == owner { return original.id }
        return try tx.copies(globalId: original.globalId).first { $0.owner == owner }?.id
    }

    /// How Telegram pushes a new message to its box's owner: the short forms for plain text in a conversation the
    /// owner already has (so it knows the people in it), `updates` with the users and chats otherwise.
    func newMessagePush(_ landed: Landed, tx: StoreTransaction) throws -> Push {
        let record = landed.message
        let pts = Int32(truncatingIfNeeded: landed.pts)
        let id = Int32(truncatingIfNeeded: record.id)
        let replyTo = record.replyTo.map {
            Api.MessageReplyHeader.messageReplyHeader(.init(replyToMsgId: Int32(truncatingIfNeeded: $0)))
        }
        let entities = Self.decodeEntities(record.entities)
        let plain = record.media == nil && record.forward == nil && record.action == nil && !landed.opensDialog
        if plain, record.peer.kind == .user {
            return Push(
                authKeyIds: landed.authKeyIds,
                updates: .updateShortMessage(
                    .init(
                        out: record.outgoing, silent: record.silent, id: id, userId: record.peer.id,
                        message: record.text, pts: pts,
                        ptsCount: 1, date: record.date, replyTo: replyTo, entities: entities)))
        }
        if plain, record.peer.kind == .chat {
            return Push(
                authKeyIds: landed.authKeyIds,
                updates: .updateShortChatMessage(
                    .init(
                        out: record.outgoing, silent: record.silent, id: id, fromId: record.fromId,
                        chatId: record.peer.id,
                        message: record.text, pts: pts, ptsCount: 1, date: record.date, replyTo: replyTo,
                        entities: entities)))
        }
        let (users, chats) = try participants(of: [record], viewer: record.owner, tx: tx)
        return Push(
            authKeyIds: landed.authKeyIds,
            updates: .updates(
                .init(
                    updates: [.updateNewMessage(.init(message: apiMessage(record, tx: tx), pts: pts, ptsCount: 1))],
                    users: users, chats: chats,
                    date: record.date, seq: 0)))
    }

    /// The `updates` a caller gets back for messages it sent with media (and its other sessions get pushed).
    /// The caller's answer for messages it sent: for each, `updateMessageID` tying its `random_id` (in `randomIds`,
    /// in the order sent) to the new id, then `updateNewMessage` — so the client replaces its pending copy.
    func sentUpdates(_ landed: [[Landed]], randomIds: [Int64] = [], caller: Caller) throws -> Api.Updates {
        let mine = landed.compactMap { $0.first { $0.message.owner == caller.userId } }
        return try store.read { tx in
            let (users, chats) = try participants(of: mine.map(\.message), viewer: caller.userId, tx: tx)
            let identified = zip(mine, randomIds).map { landed, randomId in
                Api.Update.updateMessageID(.init(id: Int32(truncatingIfNeeded: landed.message.id), randomId: randomId))
            }
            let updates =
                identified
                + mine.map { landed in
                    Api.Update.updateNewMessage(
                        .init(
                            message: apiMessage(landed.message, tx: tx), pts: Int32(truncatingIfNeeded: landed.pts),
                            ptsCount: 1
                        ))
                }
            return .updates(.init(updates: updates, users: users, chats: chats, date: now, seq: 0))
        }
    }
}
