import ServerStore
import TLRuntime
import TelegramApi

/// Notify settings (core.telegram.org methods `account.updateNotifySettings`, `account.getNotifySettings`,
/// `account.resetNotifySettings`; types `InputNotifyPeer`, `PeerNotifySettings`): per account, for one chat
/// (`inputNotifyPeer`) or every chat of a kind (`inputNotifyUsers`, `inputNotifyChats`, `inputNotifyBroadcasts`).
/// They are the account's own: each change goes to its sessions as `updateNotifySettings` (no pts, as on Telegram: in
/// the seq sequence, `ServerBackend+Seq`), and they show in `dialog.notify_settings` and the full user, chat and channel. A muted chat's pushes
/// are written without `loc_key` / `loc_args`, the silent background push Telegram sends a device that did not ask
/// for `no_muted` (core.telegram.org "Handling PUSH-notifications"): nothing to show.
extension ServerBackend {
    /// At most this many rows of settings per account: setting another drops the oldest.
    static let notifySettingsLimit = 5000

    /// What `input` names, reachable by the caller, as the store keys it and as the wire names it.
    func notifyTarget(
        _ input: Api.InputNotifyPeer, caller: Caller, tx: StoreTransaction
    ) throws -> (NotifySettingsRecord.PeerKind, Int64, Api.NotifyPeer) {
        switch input {
        case .inputNotifyPeer(let target):
            let peer = try draftPeer(target.peer, caller: caller, tx: tx)
            let kind: NotifySettingsRecord.PeerKind =
                switch peer.kind {
                case .user: .user
                case .chat: .chat
                case .channel: .channel
                }
            return (kind, peer.id, .notifyPeer(.init(peer: peer.peer)))
        case .inputNotifyUsers: return (.allUsers, 0, .notifyUsers)
        case .inputNotifyChats: return (.allChats, 0, .notifyChats)
        case .inputNotifyBroadcasts: return (.allBroadcasts, 0, .notifyBroadcasts)
        case .inputNotifyForumTopic, .inputNotifyCommunity: throw APIError.badRequest("PEER_ID_INVALID")
        }
    }

    /// Stored settings on the wire; none are the defaults (every flag unset).
    static func apiNotifySettings(_ record: NotifySettingsRecord?) -> Api.PeerNotifySettings {
        guard let record else { return defaultNotifySettings }
        return .peerNotifySettings(
            .init(showPreviews: record.showPreviews, silent: record.silent, muteUntil: record.muteUntil))
    }

    /// `owner`'s settings for one chat, for dialogs and the full user, chat and channel.
    func storedNotifySettings(
        owner: Int64, kind: NotifySettingsRecord.PeerKind, id: Int64, tx: StoreTransaction
    ) throws -> Api.PeerNotifySettings {
        Self.apiNotifySettings(try tx.notifySettings(owner: owner, peerKind: kind, peerId: id))
    }

    /// `owner`'s settings for a private chat or basic group of its box.
    func storedNotifySettings(owner: Int64, peer: PeerRef, tx: StoreTransaction) throws -> Api.PeerNotifySettings {
        try storedNotifySettings(owner: owner, kind: peer.kind == .user ? .user : .chat, id: peer.id, tx: tx)
    }

    /// Whether `owner` has the chat muted at `date`: its own `mute_until`, else its kind's (Telegram-iOS
    /// `TelegramPeerNotificationSettings.isRemovedFromTotalUnreadCount` reads the same two levels).
    func isMuted(owner: Int64, peer: PeerRef, at date: Int32, tx: StoreTransaction) throws -> Bool {
        let own = try tx.notifySettings(owner: owner, peerKind: peer.kind == .user ? .user : .chat, peerId: peer.id)
        if let until = own?.muteUntil { return until > date }
        let kind = try tx.notifySettings(
            owner: owner, peerKind: peer.kind == .user ? .allUsers : .allChats, peerId: 0)
        return (kind?.muteUntil ?? 0) > date
    }

    /// `account.updateNotifySettings`: the caller's settings for the chat or kind become `settings` (an unset field is
    /// the default). The account's sessions get `updateNotifySettings`.
    func updateNotifySettings(_ call: Api.functions.account.updateNotifySettings, caller: Caller) throws -> Bool {
        let input = {
            switch call.settings {
            case .inputPeerNotifySettings(let settings): settings
            }
        }()
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let (kind, id, peer) = try notifyTarget(call.peer, caller: caller, tx: tx)
                let record = NotifySettingsRecord(
                    owner: caller.userId, peerKind: kind, peerId: id, muteUntil: input.muteUntil, silent: input.silent,
                    showPreviews: input.showPreviews, date: date)
                if record.isEmpty {
                    try tx.deleteNotifySettings(owner: caller.userId, peerKind: kind, peerId: id)
                } else {
                    try tx.saveNotifySettings(record)
                    if try tx.notifySettingsCount(owner: caller.userId) > Self.notifySettingsLimit,
                        let oldest = try tx.allNotifySettings(owner: caller.userId, limit: Self.notifySettingsLimit + 1)
                            .last
                    {
                        try tx.deleteNotifySettings(
                            owner: caller.userId, peerKind: oldest.peerKind, peerId: oldest.peerId)
                    }
                }
                let update = try notifyUpdates(
                    [(peer, Self.apiNotifySettings(record))], owner: caller.userId, date: date, tx: tx)
                if let push = try seqPush(update, owner: caller.userId, tx: tx) { pushes.append(push) }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return true
    }

    /// `account.getNotifySettings`: the caller's settings for the chat or kind (the defaults when never set).
    func getNotifySettings(
        _ call: Api.functions.account.getNotifySettings, caller: Caller
    ) throws
        -> Api.PeerNotifySettings
    {
        try store.read { [self] tx throws -> Api.PeerNotifySettings in
            let (kind, id, _) = try notifyTarget(call.peer, caller: caller, tx: tx)
            return try storedNotifySettings(owner: caller.userId, kind: kind, id: id, tx: tx)
        }
    }

    /// `account.resetNotifySettings`: every setting of the caller's back to the defaults; the sessions get an
    /// `updateNotifySettings` with the defaults for each.
    func resetNotifySettings(caller: Caller) throws -> Bool {
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let rows = try tx.allNotifySettings(owner: caller.userId, limit: Self.notifySettingsLimit * 2)
                guard !rows.isEmpty else { return }
                for row in rows {
                    try tx.deleteNotifySettings(owner: caller.userId, peerKind: row.peerKind, peerId: row.peerId)
                }
                let changes = rows.map { (Self.notifyPeer(of: $0), Self.defaultNotifySettings) }
                let update = try notifyUpdates(changes, owner: caller.userId, date: date, tx: tx)
                if let push = try seqPush(update, owner: caller.userId, tx: tx) { pushes.append(push) }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return true
    }

    /// `updates` with `updateNotifySettings` for each of `changes`, and the users and chats they name.
    func notifyUpdates(
        _ changes: [(Api.NotifyPeer, Api.PeerNotifySettings)], owner: Int64, date: Int32, tx: StoreTransaction
    ) throws -> Api.Updates {
        var userIds: Set<Int64> = [owner]
        var chats: [Api.Chat] = []
        for (peer, _) in changes {
            guard case .notifyPeer(let target) = peer else { continue }
            switch target.peer {
            case .peerUser(let user): userIds.insert(user.userId)
            case .peerChat(let chat):
                if let chat = try tx.chat(id: chat.chatId) { chats.append(apiChat(chat, viewer: owner, tx: tx)) }
            case .peerChannel(let channel):
                if let channel = try tx.channel(id: channel.channelId) {
                    chats.append(try apiChannel(channel, viewer: owner, tx: tx))
                }
            }
        }
        return .updates(
            .init(
                updates: changes.map { .updateNotifySettings(.init(peer: $0.0, notifySettings: $0.1)) },
                users: try apiUsers(userIds, viewer: owner, tx: tx), chats: chats, date: date, seq: 0))
    }

    private static func notifyPeer(of record: NotifySettingsRecord) -> Api.NotifyPeer {
        switch record.peerKind {
        case .user: return .notifyPeer(.init(peer: .peerUser(.init(userId: record.peerId))))
        case .chat: return .notifyPeer(.init(peer: .peerChat(.init(chatId: record.peerId))))
        case .channel: return .notifyPeer(.init(peer: .peerChannel(.init(channelId: record.peerId))))
        case .allUsers: return .notifyUsers
        case .allChats: return .notifyChats
        case .allBroadcasts: return .notifyBroadcasts
        }
    }
}
