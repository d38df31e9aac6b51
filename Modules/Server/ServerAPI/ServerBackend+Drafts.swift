import ServerStore
import TLRuntime
import TelegramApi

/// Drafts (core.telegram.org "Message drafts": methods `messages.saveDraft`, `messages.getAllDrafts`,
/// `messages.clearAllDrafts`; constructors `draftMessage`, `draftMessageEmpty`, `updateDraftMessage`, `dialog.draft`).
/// One draft per account and chat, kept on the server so every device of the account shows it: each change is pushed
/// as `updateDraftMessage` to the account's sessions (no pts, as on Telegram: in the seq sequence,
/// `ServerBackend+Seq`), and sending to the chat clears it.
extension ServerBackend {
    /// At most this many drafts per account: saving another drops the oldest.
    static let draftsLimit = 1000

    /// Where a draft goes: the chat as the store keys it and as the wire names it, with the users and chats to send
    /// along.
    struct DraftPeer {
        let kind: DraftRecord.PeerKind
        let id: Int64
        let peer: Api.Peer
    }

    /// The chat `input` names, reachable by the caller: a private chat or basic group of its box, or a channel it can
    /// read.
    func draftPeer(_ input: Api.InputPeer, caller: Caller, tx: StoreTransaction) throws -> DraftPeer {
        if let access = try channelAccess(input, caller: caller, need: .read, tx: tx) {
            return DraftPeer(
                kind: .channel, id: access.channel.id, peer: .peerChannel(.init(channelId: access.channel.id)))
        }
        let peer = try resolve(input, caller: caller, tx: tx)
        switch peer.kind {
        case .user: return DraftPeer(kind: .user, id: peer.id, peer: apiPeer(peer))
        case .chat: return DraftPeer(kind: .chat, id: peer.id, peer: apiPeer(peer))
        }
    }

    /// A stored draft on the wire.
    func apiDraft(_ draft: DraftRecord) -> Api.DraftMessage {
        .draftMessage(
            .init(
                noWebpage: draft.noWebpage,
                replyTo: draft.replyTo.map { .inputReplyToMessage(.init(replyToMsgId: Int32(truncatingIfNeeded: $0))) },
                message: draft.text, entities: Self.decodeEntities(draft.entities), date: draft.date))
    }

    /// `owner`'s draft in a private chat or basic group, for `dialog.draft`.
    func storedDraft(owner: Int64, peer: PeerRef, tx: StoreTransaction) throws -> Api.DraftMessage? {
        let kind: DraftRecord.PeerKind = peer.kind == .user ? .user : .chat
        return try tx.draft(owner: owner, peerKind: kind, peerId: peer.id).map(apiDraft)
    }

    /// `updates` with `updateDraftMessage` for each of `changes`, and the users and chats they name, as `owner` sees
    /// them.
    func draftUpdates(
        _ changes: [(DraftPeer, Api.DraftMessage)], owner: Int64, date: Int32, tx: StoreTransaction
    ) throws -> Api.Updates {
        var userIds: Set<Int64> = [owner]
        var chats: [Api.Chat] = []
        for (peer, _) in changes {
            switch peer.kind {
            case .user: userIds.insert(peer.id)
            case .chat: if let chat = try tx.chat(id: peer.id) { chats.append(apiChat(chat, viewer: owner, tx: tx)) }
            case .channel:
                if let channel = try tx.channel(id: peer.id) {
                    chats.append(try apiChannel(channel, viewer: owner, tx: tx))
                }
            }
        }
        return .updates(
            .init(
                updates: changes.map { .updateDraftMessage(.init(peer: $0.0.peer, draft: $0.1)) },
                users: try apiUsers(userIds, viewer: owner, tx: tx), chats: chats, date: date, seq: 0))
    }

    /// `messages.saveDraft`: the caller's draft in the chat becomes `message` with its entities (checked as a
    /// message's), reply and `no_webpage`; an empty `message` clears it. `MESSAGE_TOO_LONG` past 4,096 characters;
    /// media in drafts is not kept by tg-server (`MEDIA_INVALID`). The account's sessions get
    /// `updateDraftMessage`.
    func saveDraft(_ call: Api.functions.messages.saveDraft, caller: Caller) throws -> Bool {
        guard call.media == nil, call.richMessage == nil, call.suggestedPost == nil else {
            throw APIError.badRequest("MEDIA_INVALID")
        }
        try TextLimit.message.check(call.message)
        let clearing = call.message.isEmpty
        let entities = clearing ? nil : try storedEntities(call.entities, text: call.message, caller: caller)
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let peer = try draftPeer(call.peer, caller: caller, tx: tx)
                let draft: Api.DraftMessage
                if clearing {
                    guard try tx.deleteDraft(owner: caller.userId, peerKind: peer.kind, peerId: peer.id) else { return }
                    draft = .draftMessageEmpty(.init(date: date))
                } else {
                    let record = DraftRecord(
                        owner: caller.userId, peerKind: peer.kind, peerId: peer.id, text: call.message,
                        entities: Self.encodeEntities(entities), replyTo: Self.replyId(call.replyTo),
                        noWebpage: call.noWebpage, date: date)
                    try tx.saveDraft(record)
                    if try tx.draftCount(owner: caller.userId) > Self.draftsLimit,
                        let oldest = try tx.drafts(owner: caller.userId, limit: Self.draftsLimit + 1).last
                    {
                        try tx.deleteDraft(owner: caller.userId, peerKind: oldest.peerKind, peerId: oldest.peerId)
                    }
                    draft = apiDraft(record)
                }
                let update = try draftUpdates([(peer, draft)], owner: caller.userId, date: date, tx: tx)
                if let push = try seqPush(update, owner: caller.userId, tx: tx) { pushes.append(push) }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return true
    }

    /// `messages.getAllDrafts`: every draft of the caller's, newest first, as `updateDraftMessage`s.
    func getAllDrafts(caller: Caller) throws -> Api.Updates {
        let date = now
        return try store.read { [self] tx throws -> Api.Updates in
            let changes = try tx.drafts(owner: caller.userId, limit: Self.draftsLimit).map { record in
                (draftPeer(of: record), apiDraft(record))
            }
            return try draftUpdates(changes, owner: caller.userId, date: date, tx: tx)
        }
    }

    /// `messages.clearAllDrafts`: removes every draft of the caller's; the account's sessions get a
    /// `draftMessageEmpty` for each.
    func clearAllDrafts(caller: Caller) throws -> Bool {
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let drafts = try tx.drafts(owner: caller.userId, limit: Self.draftsLimit * 2)
                guard !drafts.isEmpty else { return }
                for draft in drafts {
                    try tx.deleteDraft(owner: caller.userId, peerKind: draft.peerKind, peerId: draft.peerId)
                }
                let changes = drafts.map { (draftPeer(of: $0), Api.DraftMessage.draftMessageEmpty(.init(date: date))) }
                let update = try draftUpdates(changes, owner: caller.userId, date: date, tx: tx)
                if let push = try seqPush(update, owner: caller.userId, tx: tx) { pushes.append(push) }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return true
    }

    /// Sending to a chat clears the sender's draft there (Telegram does, whether or not the client asks with
    /// `clear_draft`): the push of `draftMessageEmpty` to the sender's sessions (seq sequence), or `nil` without a
    /// draft.
    func draftClearedBySending(
        _ kind: DraftRecord.PeerKind, _ id: Int64, caller: Caller, date: Int32, tx: StoreTransaction
    ) throws -> Push? {
        guard try tx.deleteDraft(owner: caller.userId, peerKind: kind, peerId: id) else { return nil }
        let peer = draftPeer(of: DraftRecord(owner: caller.userId, peerKind: kind, peerId: id, text: "", date: date))
        return try seqPush(
            try draftUpdates([(peer, .draftMessageEmpty(.init(date: date)))], owner: caller.userId, date: date, tx: tx),
            owner: caller.userId, tx: tx)
    }

    private func draftPeer(of record: DraftRecord) -> DraftPeer {
        switch record.peerKind {
        case .user: return DraftPeer(kind: .user, id: record.peerId, peer: .peerUser(.init(userId: record.peerId)))
        case .chat: return DraftPeer(kind: .chat, id: record.peerId, peer: .peerChat(.init(chatId: record.peerId)))
        case .channel:
            return DraftPeer(kind: .channel, id: record.peerId, peer: .peerChannel(.init(channelId: record.peerId)))
        }
    }
}
