import Foundation
import ServerStore
import TLRuntime
import TelegramApi

/// Scheduled messages (core.telegram.org "Scheduled messages"): `messages.sendMessage` / `sendMedia` /
/// `sendMultiMedia` with a `schedule_date` in the future store the message among the caller's scheduled messages —
/// an id space of their own per account, as Telegram numbers them — and deliver nothing; the account's sessions get
/// `updateNewScheduledMessage`. `messages.getScheduledHistory` / `getScheduledMessages` read them (the owner's only),
/// `messages.deleteScheduledMessages` drops them and `messages.sendScheduledMessages` sends them at once. When a
/// message's date comes (`sendDueScheduledMessages`, on the backend's clock) it is sent for real: a normal message to
/// the chat, and `updateDeleteScheduledMessages` with `sent_messages` to its sender's sessions. A date that is not in
/// the future sends at once, as Telegram does (TDLib `get_message_schedule_date` treats a past date as "now").
extension ServerBackend {
    /// At most this many scheduled messages per account and chat; more answers 400 `SCHEDULE_TOO_MUCH`.
    static let scheduledPerChat = 100
    /// How far ahead a message may be scheduled (365 days); further answers 400 `SCHEDULE_DATE_TOO_LATE`.
    static let scheduleHorizon: Int64 = 365 * 86_400
    /// How many due messages one pass of `sendDueScheduledMessages` reads at a time.
    static let dueBatch = 200

    /// Stores `messages` as the caller's scheduled messages in `peer` when `scheduleDate` is in the future, and
    /// answers `updateMessageID` + `updateNewScheduledMessage` for each; `nil` when they are to be sent now.
    func schedule(
        _ messages: [Outgoing], to peer: Api.InputPeer, at scheduleDate: Int32?, caller: Caller
    ) throws -> Api.Updates? {
        let date = now
        guard let scheduleDate, scheduleDate > date else { return nil }
        guard Int64(scheduleDate) - Int64(date) <= Self.scheduleHorizon else {
            throw APIError.badRequest("SCHEDULE_DATE_TOO_LATE")
        }
        try flood.chargeSending(messages.count, userId: caller.userId, now: clock())
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let (kind, peerId) = try scheduledPeer(peer, caller: caller, tx: tx)
                let count = try tx.scheduledCount(owner: caller.userId, peerKind: kind, peerId: peerId)
                guard count + messages.count <= Self.scheduledPerChat else {
                    throw APIError.badRequest("SCHEDULE_TOO_MUCH")
                }
                var records: [ScheduledMessageRecord] = []
                for outgoing in messages {
                    let record = ScheduledMessageRecord(
                        owner: caller.userId, id: try tx.allocateScheduledId(owner: caller.userId), peerKind: kind,
                        peerId: peerId, inputPeer: peer.serialized(), date: scheduleDate, text: outgoing.text,
                        entities: Self.encodeEntities(outgoing.entities), media: outgoing.media?.serialized(),
                        mediaKind: outgoing.mediaKind, replyTo: outgoing.replyTo, silent: outgoing.silent,
                        randomId: outgoing.randomId)
                    try tx.insertScheduled(record)
                    records.append(record)
                }
                let created = records.map { Api.Update.updateNewScheduledMessage(.init(message: scheduledMessage($0))) }
                let (users, chats) = try scheduledParticipants(kind, peerId, viewer: caller.userId, tx: tx)
                pushes = [
                    Push(
                        authKeyIds: try authKeys(of: caller.userId, tx: tx),
                        updates: .updates(.init(updates: created, users: users, chats: chats, date: date, seq: 0)))
                ]
                let identified = records.map {
                    Api.Update.updateMessageID(.init(id: Int32(truncatingIfNeeded: $0.id), randomId: $0.randomId))
                }
                return .updates(.init(updates: identified + created, users: users, chats: chats, date: date, seq: 0))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// The chat a scheduled message goes to, checked as sending would check it.
    func scheduledPeer(
        _ peer: Api.InputPeer, caller: Caller, tx: StoreTransaction
    ) throws -> (ScheduledMessageRecord.PeerKind, Int64) {
        if Self.isChannel(peer) {
            guard let access = try channelAccess(peer, caller: caller, need: .read, tx: tx) else {
                throw APIError.channelInvalid
            }
            try access.checkCanPost(now: now)
            return (.channel, access.channel.id)
        }
        let resolved = try resolve(peer, caller: caller, tx: tx)
        return (resolved.kind == .user ? .user : .chat, resolved.id)
    }

    /// A scheduled message as its owner sees it: outgoing, `from_scheduled`, dated when it is to be sent.
    func scheduledMessage(_ record: ScheduledMessageRecord) -> Api.Message {
        let replyTo = record.replyTo.map {
            Api.MessageReplyHeader.messageReplyHeader(.init(replyToMsgId: Int32(truncatingIfNeeded: $0)))
        }
        return .message(
            .init(
                out: true, silent: record.silent, fromScheduled: true, id: Int32(truncatingIfNeeded: record.id),
                fromId: .peerUser(.init(userId: record.owner)),
                peerId: Self.scheduledApiPeer(record.peerKind, record.peerId),
                replyTo: replyTo, date: record.date, message: record.text,
                media: record.media.flatMap { try? Api.MessageMedia(tlBytes: $0) },
                entities: Self.decodeEntities(record.entities)))
    }

    static func scheduledApiPeer(_ kind: ScheduledMessageRecord.PeerKind, _ id: Int64) -> Api.Peer {
        switch kind {
        case .user: return .peerUser(.init(userId: id))
        case .chat: return .peerChat(.init(chatId: id))
        case .channel: return .peerChannel(.init(channelId: id))
        }
    }

    /// The users and chats an answer about scheduled messages in a chat carries.
    func scheduledParticipants(
        _ kind: ScheduledMessageRecord.PeerKind, _ peerId: Int64, viewer: Int64, tx: StoreTransaction
    ) throws -> (users: [Api.User], chats: [Api.Chat]) {
        var userIds: Set<Int64> = [viewer]
        var chats: [Api.Chat] = []
        switch kind {
        case .user: userIds.insert(peerId)
        case .chat: if let chat = try tx.chat(id: peerId) { chats.append(apiChat(chat, viewer: viewer, tx: tx)) }
        case .channel:
            if let channel = try tx.channel(id: peerId) {
                chats.append(try apiChannel(channel, viewer: viewer, tx: tx))
            }
        }
        let users = try tx.users(ids: userIds).sorted { $0.id < $1.id }.map { try apiUser($0, viewer: viewer, tx: tx) }
        return (users, chats)
    }
}
