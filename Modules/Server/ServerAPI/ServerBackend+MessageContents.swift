import ServerStore
import TLRuntime
import TelegramApi

/// Voice notes listened to (core.telegram.org method `messages.readMessageContents`, constructor
/// `updateReadMessagesContents`; Telegram-iOS `markMessageContentAsConsumedInteractively`).
extension ServerBackend {
    /// `messages.readMessageContents`: the caller has listened to the voice notes `id` names in its box. Only
    /// incoming messages count (the sender listening to its own note changes nothing). Each such message's
    /// `media_unread` is cleared on every copy — the caller's and the sender's (each member's in a basic group) — and
    /// every box whose copies changed gets one `updateReadMessagesContents` with its own ids and a pts; the
    /// caller's is the answer's `affectedMessages`. Ids that are not the caller's, or already listened to, change
    /// nothing (`pts_count` 0).
    func readMessageContents(
        _ call: Api.functions.messages.readMessageContents, caller: Caller
    ) throws -> Api.messages.AffectedMessages {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.messages.AffectedMessages in
                guard let state = try tx.updateState(userId: caller.userId) else { throw APIError.authKeyUnregistered }
                var changed: [Int64: [Int32]] = [:]
                for message in try tx.messages(owner: caller.userId, ids: call.id.map(Int64.init))
                where !message.outgoing && message.mediaUnread {
                    for copy in try tx.copies(globalId: message.globalId) {
                        if try tx.clearMediaUnread(owner: copy.owner, id: copy.id) {
                            changed[copy.owner, default: []].append(Int32(truncatingIfNeeded: copy.id))
                        }
                    }
                }
                var answer = Api.messages.AffectedMessages.affectedMessages(
                    .init(pts: Int32(truncatingIfNeeded: state.pts), ptsCount: 0))
                for (owner, ids) in changed.sorted(by: { $0.key < $1.key }) {
                    let update = { (pts: Int64) in
                        Api.Update.updateReadMessagesContents(
                            .init(messages: ids, pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
                    }
                    let pts = try tx.appendUpdate(owner: owner, ptsCount: 1, date: date) { update($0).serialized() }
                    pushes.append(
                        Push(
                            authKeyIds: try authKeys(of: owner, tx: tx),
                            updates: .updateShort(.init(update: update(pts), date: date))))
                    if owner == caller.userId {
                        answer = .affectedMessages(.init(pts: Int32(truncatingIfNeeded: pts), ptsCount: 1))
                    }
                }
                return answer
            }, then: { [self] _ in send(pushes, caller: caller) })
    }
}
