import ServerStore
import TLRuntime
import TelegramApi

/// Reading a channel: `messages.getHistory`, `messages.search` and `channels.getMessages`, answered as
/// `messages.channelMessages` with the channel's pts; members, or anyone for a public channel.
extension ServerBackend {
    /// `messages.channelMessages`: a page of a channel's messages with the channel's pts.
    func channelPage(
        _ records: [ChannelMessageRecord], total: Int, access: ChannelAccess, caller: Caller, tx: StoreTransaction
    ) throws -> Api.messages.Messages {
        .channelMessages(
            .init(
                pts: Int32(truncatingIfNeeded: access.channel.pts), count: Int32(clamping: total),
                messages: try records.map { record in
                    apiChannelMessage(
                        record, viewer: caller.userId,
                        reactions: try storedReactions(
                            record, broadcast: access.channel.broadcast, viewer: caller.userId, tx: tx), tx: tx)
                }, topics: [],
                chats: [try apiChannel(access.channel, member: access.member, viewer: caller.userId, tx: tx)],
                users: try apiUsers(
                    Self.users(shownIn: records).union([caller.userId]), viewer: caller.userId, tx: tx)))
    }

    /// `messages.getHistory` of a channel: members, or anyone for a public channel.
    func channelHistory(_ call: Api.functions.messages.getHistory, caller: Caller) throws -> Api.messages.Messages {
        try store.read { tx in
            guard let access = try channelAccess(call.peer, caller: caller, need: .read, tx: tx) else {
                throw APIError.channelInvalid
            }
            let query = HistoryQuery(
                offsetId: Int64(call.offsetId), offsetDate: call.offsetDate, addOffset: Int(call.addOffset),
                limit: Self.checkedLimit(call.limit == 0 ? 20 : call.limit), maxId: Int64(call.maxId),
                minId: Int64(call.minId))
            let records = try tx.channelHistory(channelId: access.channel.id, query)
            return try channelPage(
                records, total: try tx.channelMessageCount(channelId: access.channel.id), access: access,
                caller: caller, tx: tx)
        }
    }

    /// `messages.search` in a channel.
    func searchChannel(_ call: Api.functions.messages.search, caller: Caller) throws -> Api.messages.Messages {
        try store.read { tx in
            guard let access = try channelAccess(call.peer, caller: caller, need: .read, tx: tx) else {
                throw APIError.channelInvalid
            }
            let records = try tx.searchChannel(
                channelId: access.channel.id, text: call.q, mediaKinds: MediaKind.kinds(for: call.filter),
                pinnedOnly: Self.isPinnedFilter(call.filter), offsetId: Int64(call.offsetId),
                limit: Self.checkedLimit(call.limit == 0 ? 20 : call.limit))
            return try channelPage(records, total: records.count, access: access, caller: caller, tx: tx)
        }
    }

    /// `channels.getMessages`: messages by id (or the message one replies to, or the newest pinned one).
    func getChannelMessages(_ call: Api.functions.channels.getMessages, caller: Caller) throws -> Api.messages.Messages
    {
        guard call.id.count <= 200 else { throw APIError.limitInvalid }
        return try store.read { tx in
            let access = try channelAccess(call.channel, caller: caller, need: .read, tx: tx)
            let channelId = access.channel.id
            var records: [ChannelMessageRecord] = []
            for input in call.id {
                switch input {
                case .inputMessageID(let message):
                    if let record = try tx.channelMessage(channelId: channelId, id: Int64(message.id)) {
                        records.append(record)
                    }
                case .inputMessageReplyTo(let message):
                    if let replyTo = try tx.channelMessage(channelId: channelId, id: Int64(message.id))?.replyTo,
                        let record = try tx.channelMessage(channelId: channelId, id: replyTo)
                    {
                        records.append(record)
                    }
                case .inputMessagePinned:
                    // The newest pinned message (core.telegram.org constructor `inputMessagePinned`).
                    if let pinned = try tx.topPinnedChannelMessageId(channelId: channelId),
                        let record = try tx.channelMessage(channelId: channelId, id: pinned)
                    {
                        records.append(record)
                    }
                default: continue
                }
            }
            return try channelPage(records, total: records.count, access: access, caller: caller, tx: tx)
        }
    }
}
