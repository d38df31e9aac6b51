import ServerStore
import TLRuntime
import TelegramApi

/// A basic group becoming a supergroup (core.telegram.org method `messages.migrateChat`, "Channels, supergroups,
/// gigagroups and basic groups"): the supergroup takes the group's title, members (its creator stays creator) and
/// default rights, and starts with `messageActionChannelMigrateFrom`; the group ends with `messageActionChatMigrateTo`
/// in every member's box, shows `deactivated` and `migrated_to`, and takes no more writes (`CHAT_ID_INVALID`) while its
/// history stays readable. `channelFull` names it (`migrated_from_chat_id`, `migrated_from_max_id`: the newest
/// message of the viewer's own box there).
extension ServerBackend {
    /// Throws `CHAT_ID_INVALID` for a group that became a supergroup: nothing more is written there.
    static func checkNotMigrated(_ chat: ChatRecord) throws {
        if chat.migratedTo != nil { throw APIError.chatIdInvalid }
    }

    /// `messages.migrateChat`: the group's creator only (403 `CHAT_ADMIN_REQUIRED`); `CHAT_ID_INVALID` for a group
    /// the caller is not in or that already migrated; `CHANNELS_TOO_MUCH` when a member is in too many channels.
    func migrateChat(_ call: Api.functions.messages.migrateChat, caller: Caller) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        let (channelAnswer, channelId) = try store.write(
            { [self] tx throws -> (Api.Updates, Int64) in
                guard let chat = try tx.chat(id: call.chatId),
                    chat.members.contains(where: { $0.userId == caller.userId })
                else {
                    throw APIError.chatIdInvalid
                }
                try Self.checkNotMigrated(chat)
                guard chat.creator == caller.userId else { throw APIError.forbidden("CHAT_ADMIN_REQUIRED") }
                let id = Self.firstChannelId + (try tx.nextValue(of: "channel"))
                let channel = ChannelRecord(
                    id: id, title: chat.title, creator: chat.creator, date: date, broadcast: false,
                    defaultBannedRights: chat.defaultBannedRights)
                try tx.insert(channel)
                for member in chat.members {
                    guard try tx.channelDialogCount(userId: member.userId) < Self.maximumChannelsPerAccount else {
                        throw APIError.badRequest("CHANNELS_TOO_MUCH")
                    }
                    try tx.upsert(
                        ChannelMemberRecord(
                            channelId: id, userId: member.userId, inviter: member.inviter, date: member.date))
                }
                let from = Outgoing(
                    text: "", randomId: Self.randomId(),
                    action: .messageActionChannelMigrateFrom(.init(title: chat.title, chatId: chat.id)))
                let posts = try appendChannelMessages(
                    [from], channel: channel, sender: caller.userId, date: date, tx: tx)
                // Every member starts with nothing unread in the new supergroup.
                for member in chat.members {
                    _ = try tx.readChannel(channelId: id, userId: member.userId, maxId: posts.last?.message.id ?? 0)
                }
                try tx.setMigrated(chatId: chat.id, to: id)
                try tx.bumpVersion(chatId: chat.id)
                guard let stored = try tx.channel(id: id) else { throw APIError.internalError }
                let updates = { [self] (viewer: Int64) -> [Api.Update] in
                    [.updateChannel(.init(channelId: id))]
                        + posts.map { post in
                            .updateNewChannelMessage(
                                .init(
                                    message: apiChannelMessage(post.message, viewer: viewer),
                                    pts: Int32(truncatingIfNeeded: post.pts), ptsCount: 1))
                        }
                }
                pushes = try channelPushes(stored, userIds: [caller.userId], date: date, tx: tx, make: updates)
                let answer = Api.Updates.updates(
                    .init(
                        updates: updates(caller.userId),
                        users: try apiUsers([caller.userId], viewer: caller.userId, tx: tx),
                        chats: [try apiChannel(stored, viewer: caller.userId, tx: tx)], date: date, seq: 0))
                return (answer, id)
            }, then: { [self] _ in send(pushes, caller: caller) })
        // The group's last message, in every member's box: `deliver` lets this one service message through.
        let landed = try deliver(
            [
                Outgoing(
                    text: "", randomId: Self.randomId(),
                    action: .messageActionChatMigrateTo(.init(channelId: channelId)))
            ], to: .inputPeerChat(.init(chatId: call.chatId)), caller: caller)
        return Self.merged(channelAnswer, try sentUpdates(landed, caller: caller))
    }

    /// The group a supergroup came from and the newest message of `viewer`'s box there, for `channelFull`.
    func migratedFrom(channelId: Int64, viewer: Int64, tx: StoreTransaction) throws -> (chatId: Int64, maxId: Int32)? {
        guard let chatId = try tx.chatMigrated(to: channelId) else { return nil }
        let top = try tx.topMessageId(owner: viewer, chatId: chatId) ?? 0
        return (chatId, Int32(truncatingIfNeeded: top))
    }
}
