import ServerStore
import TLRuntime
import TelegramApi

/// Reading and dropping scheduled messages (core.telegram.org methods `messages.getScheduledHistory`,
/// `messages.getScheduledMessages`, `messages.deleteScheduledMessages`): an account sees and drops only its own.
extension ServerBackend {
    /// `messages.getScheduledHistory`: the caller's scheduled messages in the chat, latest first (at most
    /// `scheduledPerChat`, the bound on how many there can be). `hash` is not compared: the list is always sent.
    func getScheduledHistory(
        _ call: Api.functions.messages.getScheduledHistory, caller: Caller
    ) throws -> Api.messages.Messages {
        try store.read { tx in
            let (kind, peerId) = try scheduledPeer(call.peer, caller: caller, tx: tx)
            let records = try tx.scheduledMessages(owner: caller.userId, peerKind: kind, peerId: peerId)
            return try scheduledAnswer(records.reversed(), kind, peerId, caller: caller, tx: tx)
        }
    }

    /// `messages.getScheduledMessages`: the caller's scheduled messages `id` in the chat; ids that are not (any
    /// more) are left out.
    func getScheduledMessages(
        _ call: Api.functions.messages.getScheduledMessages, caller: Caller
    ) throws -> Api.messages.Messages {
        guard call.id.count <= Self.scheduledPerChat else { throw APIError.limitInvalid }
        return try store.read { tx in
            let (kind, peerId) = try scheduledPeer(call.peer, caller: caller, tx: tx)
            let records = try call.id.compactMap { id in
                try tx.scheduledMessage(owner: caller.userId, id: Int64(id)).flatMap {
                    $0.peerKind == kind && $0.peerId == peerId ? $0 : nil
                }
            }
            return try scheduledAnswer(records, kind, peerId, caller: caller, tx: tx)
        }
    }

    func scheduledAnswer(
        _ records: [ScheduledMessageRecord], _ kind: ScheduledMessageRecord.PeerKind, _ peerId: Int64, caller: Caller,
        tx: StoreTransaction
    ) throws -> Api.messages.Messages {
        let (users, chats) = try scheduledParticipants(kind, peerId, viewer: caller.userId, tx: tx)
        return .messages(
            .init(messages: records.map { scheduledMessage($0) }, topics: [], chats: chats, users: users))
    }

    /// `messages.deleteScheduledMessages`: drops the caller's scheduled messages `id` in the chat; the answer and the
    /// account's other sessions get `updateDeleteScheduledMessages` with the ids that were there.
    func deleteScheduledMessages(
        _ call: Api.functions.messages.deleteScheduledMessages, caller: Caller
    ) throws -> Api.Updates {
        guard call.id.count <= Self.scheduledPerChat else { throw APIError.limitInvalid }
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let (kind, peerId) = try scheduledPeer(call.peer, caller: caller, tx: tx)
                var deleted: [Int32] = []
                for id in call.id {
                    guard let record = try tx.scheduledMessage(owner: caller.userId, id: Int64(id)),
                        record.peerKind == kind, record.peerId == peerId
                    else { continue }
                    try tx.deleteScheduled(owner: caller.userId, id: record.id)
                    deleted.append(id)
                }
                let updates = Api.Updates.updates(
                    .init(
                        updates: deleted.isEmpty
                            ? []
                            : [
                                .updateDeleteScheduledMessages(
                                    .init(peer: Self.scheduledApiPeer(kind, peerId), messages: deleted))
                            ],
                        users: [], chats: [], date: now, seq: 0))
                if !deleted.isEmpty {
                    pushes = [Push(authKeyIds: try authKeys(of: caller.userId, tx: tx), updates: updates)]
                }
                return updates
            }, then: { [self] _ in send(pushes, caller: caller) })
    }
}
