import ServerStore
import TelegramApi

/// Blocking (core.telegram.org methods `contacts.block`, `contacts.unblock`, `contacts.getBlocked`; update
/// `updatePeerBlocked`): users only. A blocked user's private messages to the blocker are refused with 400
/// `USER_IS_BLOCKED` and the blocker's own to them with 400 `YOU_BLOCKED_USER` (the errors core.telegram.org lists
/// for `messages.sendMessage` and Telegram's error list carries, e.g. Telethon 1.45's `UserIsBlockedError`,
/// `YouBlockedUserError`; Telegram's servers have also been seen to accept such a message and never deliver it, which
/// a client cannot tell from a slow delivery — the error is the behaviour a client can act on). The blocked user sees
/// the blocker never online (`userStatusEmpty`), without a photo, and is not told of their status; typing does not
/// reach the blocker. `my_stories_from` names the stories block list, which tg-server has no use for (no stories):
/// accepted, it changes nothing, and that list is empty.
extension ServerBackend {
    /// The most users one account may block (Telegram publishes no limit; this bounds the table).
    static let blockListLimit = 10_000
    /// The most entries one `contacts.getBlocked` answers.
    static let blockedPageLimit = 100

    func block(_ call: Api.functions.contacts.block, caller: Caller) throws -> [UInt8] {
        try setBlocked(true, call.id, storiesOnly: call.myStoriesFrom, caller: caller)
    }

    func unblock(_ call: Api.functions.contacts.unblock, caller: Caller) throws -> [UInt8] {
        try setBlocked(false, call.id, storiesOnly: call.myStoriesFrom, caller: caller)
    }

    /// The user `input` names for blocking: not the caller (`CONTACT_ID_INVALID`), not a group or channel
    /// (`PEER_ID_INVALID`).
    private func blockable(_ input: Api.InputPeer, caller: Caller, tx: StoreTransaction) throws -> UserRecord {
        switch input {
        case .inputPeerUser, .inputPeerUserFromMessage:
            let peer = try resolve(input, caller: caller, tx: tx)
            guard peer.id != caller.userId else { throw APIError.badRequest("CONTACT_ID_INVALID") }
            guard let user = try tx.user(id: peer.id) else { throw APIError.peerIdInvalid }
            return user
        case .inputPeerSelf: throw APIError.badRequest("CONTACT_ID_INVALID")
        default: throw APIError.peerIdInvalid
        }
    }

    /// Blocks or unblocks; a change goes to the caller's sessions as `updatePeerBlocked` in the seq sequence.
    private func setBlocked(
        _ blocked: Bool, _ input: Api.InputPeer, storiesOnly: Bool, caller: Caller
    ) throws
        -> [UInt8]
    {
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let user = try blockable(input, caller: caller, tx: tx)
                guard !storiesOnly else { return }
                let changed =
                    blocked
                    ? try tx.block(owner: caller.userId, userId: user.id, date: date)
                    : try tx.unblock(owner: caller.userId, userId: user.id)
                guard changed else { return }
                if blocked, try tx.blockedCount(owner: caller.userId) > Self.blockListLimit {
                    throw APIError.limitInvalid
                }
                let update = Api.Updates.updates(
                    .init(
                        updates: [
                            .updatePeerBlocked(.init(blocked: blocked, peerId: .peerUser(.init(userId: user.id))))
                        ],
                        users: [try apiUser(user, viewer: caller.userId, tx: tx)], chats: [], date: date, seq: 0))
                if let push = try seqPush(update, owner: caller.userId, tx: tx) { pushes.append(push) }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }

    /// `contacts.getBlocked`: newest first, `offset` and `limit` (at most `blockedPageLimit`); `contacts.blocked`
    /// when the page is the whole list, else `contacts.blockedSlice` with the total.
    func getBlocked(_ call: Api.functions.contacts.getBlocked, caller: Caller) throws -> Api.contacts.Blocked {
        let offset = Int(max(0, call.offset))
        let limit = min(Int(max(0, call.limit)), Self.blockedPageLimit)
        return try store.read { tx in
            let total = call.myStoriesFrom ? 0 : try tx.blockedCount(owner: caller.userId)
            let page = call.myStoriesFrom ? [] : try tx.blocked(owner: caller.userId, offset: offset, limit: limit)
            let blocked = page.map {
                Api.PeerBlocked.peerBlocked(.init(peerId: .peerUser(.init(userId: $0.userId)), date: $0.date))
            }
            let users = try apiUsers(page.map(\.userId), viewer: caller.userId, tx: tx)
            if offset == 0 && page.count == total {
                return .blocked(.init(blocked: blocked, chats: [], users: users))
            }
            return .blockedSlice(.init(count: Int32(clamping: total), blocked: blocked, chats: [], users: users))
        }
    }

    /// Refuses a private message between `sender` and `recipient` when either blocked the other.
    func checkNotBlocked(sender: Int64, recipient: Int64, tx: StoreTransaction) throws {
        guard sender != recipient else { return }
        if try tx.isBlocked(owner: sender, userId: recipient) { throw APIError.badRequest("YOU_BLOCKED_USER") }
        if try tx.isBlocked(owner: recipient, userId: sender) { throw APIError.badRequest("USER_IS_BLOCKED") }
    }
}
