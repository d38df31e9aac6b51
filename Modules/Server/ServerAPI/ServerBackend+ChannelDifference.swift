import ServerStore
import TLRuntime
import TelegramApi

/// `updates.getChannelDifference` (core.telegram.org "Working with updates", channels): what changed in one channel
/// since the client's pts, from the channel's own log.
extension ServerBackend {
    /// The most updates one `channelDifference` carries, whatever `limit` asks.
    static let channelDifferenceLimit = 1000
    /// A gap larger than this answers `channelDifferenceTooLong` (the dialog and the newest messages) instead of the
    /// updates, unless the server is configured otherwise (`channelDifferenceTooLongGap`). Telegram's "channel gaps"
    /// for user accounts are small (TDLib's maintainers speak of about 100 missed updates); 1,000 here.
    public static let defaultChannelDifferenceGap: Int64 = 1000
    /// How many of the newest messages a `channelDifferenceTooLong` carries.
    static let channelDifferenceTooLongMessages = 100
    /// The `timeout` every answer carries: seconds before the client should ask again when it hears nothing.
    static let channelDifferenceTimeout: Int32 = 30

    func getChannelDifference(
        _ call: Api.functions.updates.getChannelDifference, caller: Caller
    ) throws -> Api.updates.ChannelDifference {
        try store.read { tx in
            let access = try channelAccess(call.channel, caller: caller, need: .read, tx: tx)
            let channel = access.channel
            guard call.pts > 0 else { throw APIError.badRequest("PERSISTENT_TIMESTAMP_EMPTY") }
            let from = Int64(call.pts)
            guard from <= channel.pts else { throw APIError.badRequest("PERSISTENT_TIMESTAMP_INVALID") }
            let timeout = Self.channelDifferenceTimeout
            if from == channel.pts {
                return .channelDifferenceEmpty(
                    .init(final: true, pts: Int32(truncatingIfNeeded: channel.pts), timeout: timeout))
            }
            if channel.pts - from > channelDifferenceTooLongGap {
                return try channelDifferenceTooLong(access, caller: caller, tx: tx)
            }
            let limit = min(max(Int(call.limit), 1), Self.channelDifferenceLimit)
            let records = try tx.channelUpdates(channelId: channel.id, after: from, limit: limit)
            let updates = records.compactMap { try? Api.Update(tlBytes: $0.body) }
            // The messages these updates name, read together (one range query for a run of new messages).
            let stored = try tx.channelMessagesById(
                channelId: channel.id,
                ids: updates.compactMap { update in
                    switch update {
                    case .updateNewChannelMessage(let new): Self.messageId(of: new.message)
                    case .updateEditChannelMessage(let edit): Self.messageId(of: edit.message)
                    default: nil
                    }
                })
            var newMessages: [Api.Message] = []
            var others: [Api.Update] = []
            var shown: [ChannelMessageRecord] = []
            for update in updates {
                switch update {
                case .updateNewChannelMessage(let new):
                    // The message as it is now, as this reader sees it; gone if deleted since (its deletion follows).
                    guard let id = Self.messageId(of: new.message), let message = stored[id] else { continue }
                    shown.append(message)
                    newMessages.append(apiChannelMessage(message, viewer: caller.userId, tx: tx))
                case .updateEditChannelMessage(let edit):
                    guard let id = Self.messageId(of: edit.message), let message = stored[id] else { continue }
                    shown.append(message)
                    others.append(
                        .updateEditChannelMessage(
                            .init(
                                message: apiChannelMessage(message, viewer: caller.userId, tx: tx), pts: edit.pts,
                                ptsCount: edit.ptsCount)))
                default:
                    others.append(update)
                }
            }
            let reached = records.last?.pts ?? channel.pts
            return .channelDifference(
                .init(
                    final: reached >= channel.pts, pts: Int32(truncatingIfNeeded: reached), timeout: timeout,
                    newMessages: newMessages, otherUpdates: others,
                    chats: [try apiChannel(channel, member: access.member, viewer: caller.userId, tx: tx)],
                    users: try apiUsers(
                        Self.users(shownIn: shown).union([caller.userId]), viewer: caller.userId, tx: tx)))
        }
    }

    /// `channelDifferenceTooLong`: the caller's dialog of the channel (with its pts) and its newest messages; the
    /// client drops what it had and starts again from there.
    private func channelDifferenceTooLong(
        _ access: ChannelAccess, caller: Caller, tx: StoreTransaction
    ) throws -> Api.updates.ChannelDifference {
        let channel = access.channel
        let messages = try tx.channelHistory(
            channelId: channel.id, HistoryQuery(limit: Self.channelDifferenceTooLongMessages))
        return .channelDifferenceTooLong(
            .init(
                final: true, timeout: Self.channelDifferenceTimeout,
                dialog: try apiChannelDialog(access, top: messages.first, tx: tx),
                messages: messages.map { apiChannelMessage($0, viewer: caller.userId, tx: tx) },
                chats: [try apiChannel(channel, member: access.member, viewer: caller.userId, tx: tx)],
                users: try apiUsers(
                    Self.users(shownIn: messages).union([caller.userId]), viewer: caller.userId, tx: tx)))
    }

    static func messageId(of message: Api.Message) -> Int64? {
        switch message {
        case .message(let m): return Int64(m.id)
        case .messageService(let m): return Int64(m.id)
        case .messageEmpty: return nil
        }
    }

    /// The caller's dialog of a channel: its newest message, read marks, unread count and the channel's pts.
    func apiChannelDialog(
        _ access: ChannelAccess, top: ChannelMessageRecord?, pinned: Bool = false, tx: StoreTransaction
    )
        throws -> Api.Dialog
    {
        let channel = access.channel
        let readInbox = access.member?.readInboxMax ?? 0
        return .dialog(
            .init(
                pinned: pinned, peer: .peerChannel(.init(channelId: channel.id)),
                topMessage: Int32(truncatingIfNeeded: top?.id ?? 0),
                readInboxMaxId: Int32(truncatingIfNeeded: readInbox),
                readOutboxMaxId: Int32(
                    truncatingIfNeeded: try tx.channelReadOutbox(channelId: channel.id, userId: access.viewer)),
                unreadCount: access.isMember
                    ? try tx.channelUnreadCount(channelId: channel.id, userId: access.viewer, readInboxMax: readInbox)
                    : 0,
                unreadMentionsCount: 0, unreadReactionsCount: 0, unreadPollVotesCount: 0,
                notifySettings: try storedNotifySettings(owner: access.viewer, kind: .channel, id: channel.id, tx: tx),
                pts: Int32(truncatingIfNeeded: channel.pts),
                draft: try tx.draft(owner: access.viewer, peerKind: .channel, peerId: channel.id).map(apiDraft)))
    }
}
