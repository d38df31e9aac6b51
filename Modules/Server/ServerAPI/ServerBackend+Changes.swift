import ServerStore
import TLRuntime
import TelegramApi

/// Changing what was sent: edits, deletions, read receipts, typing. Each change to a box moves its pts and is
/// pushed to the box owner's other sessions.
extension ServerBackend {
    func editMessage(_ call: Api.functions.messages.editMessage, caller: Caller) throws -> Api.Updates {
        if call.scheduleDate != nil { return try editScheduledMessage(call, caller: caller) }
        if Self.isChannel(call.peer) { return try editChannelMessage(call, caller: caller) }
        if let text = call.message { try TextLimit.message.check(text) }
        let date = now
        var pushes: [Push] = []
        var waiting: (page: Int64, link: WebPageURL, globalId: Int64)?
        let answer = try store.write(
            { [self] tx throws -> Api.Updates in
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                guard let original = try tx.message(owner: caller.userId, id: Int64(call.id)), original.peer == peer
                else {
                    throw APIError.messageIdInvalid
                }
                guard original.fromId == caller.userId, original.action == nil else {
                    throw APIError.forbidden("MESSAGE_AUTHOR_REQUIRED")
                }
                let media = try editedMedia(
                    call.media, stored: original.media, sentAt: original.date, caller: caller, tx: tx)
                let (text, entities) = try editedContent(
                    call, text: original.text, entities: original.entities,
                    hasMedia: media != nil || Self.carriesMedia(original.media), otherChange: media != nil,
                    caller: caller, tx: tx)
                let preview = editedWebPage(call, stored: original.media, dc: caller.dc)
                if let pending = preview?.pending { waiting = (pending.id, pending.link, original.globalId) }
                var result: Api.Updates?
                for var copy in try tx.copies(globalId: original.globalId) {
                    copy.text = text
                    copy.entities = entities
                    if let media {
                        copy.media = media
                    } else if let preview {
                        copy.media = preview.media
                    }
                    copy.editDate = date
                    try tx.updateContent(of: copy)
                    // The edit carries the message whole, its reactions with it (a client replaces what it stored).
                    let message = apiMessage(copy, reactions: try storedReactions(copy, tx: tx), tx: tx)
                    let pts = try tx.appendUpdate(owner: copy.owner, ptsCount: 1, date: date) { pts in
                        Api.Update.updateEditMessage(
                            .init(message: message, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1)
                        ).serialized()
                    }
                    let (users, chats) = try participants(of: [copy], viewer: copy.owner, tx: tx)
                    let updates = Api.Updates.updates(
                        .init(
                            updates: [
                                .updateEditMessage(
                                    .init(message: message, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
                            ], users: users,
                            chats: chats, date: date, seq: 0))
                    pushes.append(Push(authKeyIds: try authKeys(of: copy.owner, tx: tx), updates: updates))
                    if copy.owner == caller.userId { result = updates }
                }
                guard let result else { throw APIError.internalError }
                return result
            }, then: { [self] _ in send(pushes, caller: caller) })
        if let waiting { awaitWebPage(waiting.page, link: waiting.link, messages: [.box(globalId: waiting.globalId)]) }
        return answer
    }

    func deleteMessages(
        _ call: Api.functions.messages.deleteMessages, caller: Caller
    ) throws -> Api.messages.AffectedMessages {
        guard call.id.count <= 100 else { throw APIError.limitInvalid }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.messages.AffectedMessages in
                let mine = try tx.messages(owner: caller.userId, ids: call.id.map(Int64.init))
                // Per box, the ids to delete there: always the caller's copy; with `revoke`, every copy (in private
                // chats anyone may revoke; in basic groups the sender or the group's creator).
                var perBox: [Int64: [Int64]] = [caller.userId: mine.map(\.id)]
                if call.revoke {
                    for message in mine {
                        if message.peer.kind == .chat, message.fromId != caller.userId,
                            try tx.chat(id: message.peer.id)?.creator != caller.userId
                        {
                            continue
                        }
                        for copy in try tx.copies(globalId: message.globalId) where copy.owner != caller.userId {
                            perBox[copy.owner, default: []].append(copy.id)
                        }
                    }
                }
                var affected: Api.messages.AffectedMessages?
                for (owner, ids) in perBox.sorted(by: { $0.key < $1.key }) {
                    let deleted = try tx.deleteMessages(owner: owner, ids: ids).map { Int32(truncatingIfNeeded: $0.id) }
                    guard !deleted.isEmpty else {
                        if owner == caller.userId, let state = try tx.updateState(userId: owner) {
                            affected = .affectedMessages(.init(pts: Int32(truncatingIfNeeded: state.pts), ptsCount: 0))
                        }
                        continue
                    }
                    let count = Int32(deleted.count)
                    let pts = try tx.appendUpdate(owner: owner, ptsCount: Int64(count), date: date) { pts in
                        Api.Update.updateDeleteMessages(
                            .init(messages: deleted, pts: Int32(truncatingIfNeeded: pts), ptsCount: count)
                        ).serialized()
                    }
                    let update = Api.Update.updateDeleteMessages(
                        .init(messages: deleted, pts: Int32(truncatingIfNeeded: pts), ptsCount: count))
                    pushes.append(
                        Push(
                            authKeyIds: try authKeys(of: owner, tx: tx),
                            updates: .updateShort(.init(update: update, date: date))))
                    if owner == caller.userId {
                        affected = .affectedMessages(.init(pts: Int32(truncatingIfNeeded: pts), ptsCount: count))
                    }
                }
                // Reactions go with the last copy of a message (core.telegram.org: a deleted message has none).
                for message in mine where try tx.copies(globalId: message.globalId).isEmpty {
                    try tx.deleteReactions(on: .shared(globalId: message.globalId))
                }
                guard let affected else { throw APIError.internalError }
                return affected
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `messages.readHistory`: the caller's inbox up to `max_id`, and in a private chat the sender's outbox up to
    /// the same message (`updateReadHistoryInbox` / `updateReadHistoryOutbox`).
    func readHistory(_ call: Api.functions.messages.readHistory, caller: Caller) throws -> Api.messages.AffectedMessages
    {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.messages.AffectedMessages in
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                guard let state = try tx.updateState(userId: caller.userId) else { throw APIError.authKeyUnregistered }
                guard let readTo = try tx.readInbox(owner: caller.userId, peer: peer, maxId: Int64(call.maxId)) else {
                    return .affectedMessages(.init(pts: Int32(truncatingIfNeeded: state.pts), ptsCount: 0))
                }
                let unread = try tx.dialog(owner: caller.userId, peer: peer)?.unreadCount ?? 0
                let inbox = { (pts: Int64) in
                    Api.Update.updateReadHistoryInbox(
                        .init(
                            peer: self.apiPeer(peer), maxId: Int32(truncatingIfNeeded: readTo),
                            stillUnreadCount: unread,
                            pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
                }
                let pts = try tx.appendUpdate(owner: caller.userId, ptsCount: 1, date: date) { inbox($0).serialized() }
                pushes.append(
                    Push(
                        authKeyIds: try authKeys(of: caller.userId, tx: tx),
                        updates: .updateShort(.init(update: inbox(pts), date: date))))
                for (owner, ownerPeer) in try recipients(of: peer, sender: caller.userId, tx: tx)
                where owner != caller.userId {
                    // The newest message of `owner` that the caller has now read.
                    guard let reader = try tx.message(owner: caller.userId, id: readTo),
                        let outboxTo = try tx.lastOutgoing(
                            owner: owner, peer: ownerPeer, upToGlobalId: reader.globalId),
                        let moved = try tx.readOutbox(owner: owner, peer: ownerPeer, maxId: outboxTo)
                    else { continue }
                    let outbox = { (pts: Int64) in
                        Api.Update.updateReadHistoryOutbox(
                            .init(
                                peer: self.apiPeer(ownerPeer), maxId: Int32(truncatingIfNeeded: moved),
                                pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
                    }
                    let ownerPts = try tx.appendUpdate(owner: owner, ptsCount: 1, date: date) {
                        outbox($0).serialized()
                    }
                    pushes.append(
                        Push(
                            authKeyIds: try authKeys(of: owner, tx: tx),
                            updates: .updateShort(.init(update: outbox(ownerPts), date: date))))
                }
                return .affectedMessages(.init(pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `messages.setTyping`: pushed to the other side at once, never stored (no pts).
    func setTyping(_ call: Api.functions.messages.setTyping, caller: Caller) throws -> [UInt8] {
        if Self.isChannel(call.peer) { return try setChannelTyping(call, caller: caller) }
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let peer = try resolve(call.peer, caller: caller, tx: tx)
                for (owner, _) in try recipients(of: peer, sender: caller.userId, tx: tx)
                where try owner != caller.userId && !tx.isBlocked(owner: owner, userId: caller.userId) {
                    let update: Api.Update =
                        peer.kind == .chat
                        ? .updateChatUserTyping(
                            .init(chatId: peer.id, fromId: .peerUser(.init(userId: caller.userId)), action: call.action)
                        )
                        : .updateUserTyping(.init(userId: caller.userId, action: call.action))
                    pushes.append(
                        Push(
                            authKeyIds: try authKeys(of: owner, tx: tx),
                            updates: .updateShort(.init(update: update, date: date))))
                }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }
}

extension ServerBackend {
    /// The text and entities `call` gives a message that says `text` with `entities` now (what the call leaves out
    /// stays), checked as Telegram checks an edit: its entities validated, `MESSAGE_NOT_MODIFIED` when nothing
    /// changes, `MESSAGE_EMPTY` when a message without media would lose its text. Private chats, groups and channels
    /// share it.
    func editedContent(
        _ call: Api.functions.messages.editMessage, text current: String, entities currentEntities: [UInt8]?,
        hasMedia: Bool, otherChange: Bool = false, caller: Caller, tx: StoreTransaction
    ) throws -> (text: String, entities: [UInt8]?) {
        let text = call.message ?? current
        let entities =
            call.message == nil && call.entities == nil
            ? currentEntities
            : Self.encodeEntities(
                try MessageEntityRules.validated(call.entities, text: text) { input in
                    try resolve(input, caller: caller, tx: tx)?.id
                })
        guard text != current || entities != currentEntities || otherChange else {
            throw APIError.badRequest("MESSAGE_NOT_MODIFIED")
        }
        guard !text.isEmpty || hasMedia else { throw APIError.messageEmpty }
        return (text, entities)
    }
}
