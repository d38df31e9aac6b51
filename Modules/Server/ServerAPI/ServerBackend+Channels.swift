import Foundation
import ServerStore
import TLRuntime
import TelegramApi

/// Supergroups and broadcast channels (core.telegram.org "Channels, supergroups, gigagroups and basic groups"):
/// creating, finding, renaming, describing, usernames and deletion (membership: `ServerBackend+ChannelMembership`).
/// Members get `updateChannel` pushed live for changes that carry no message (it carries no pts).
extension ServerBackend {
    /// Telegram's limit on a channel's description (`CHAT_ABOUT_TOO_LONG`).
    static let maximumChannelAbout = 255
    /// The most channels and supergroups one account may be in (`CHANNELS_TOO_MUCH`).
    static let maximumChannelsPerAccount = 500

    /// The trimmed title, or `CHAT_TITLE_EMPTY` / `CHAT_TITLE_TOO_LONG`.
    static func checkedTitle(_ title: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw APIError.badRequest("CHAT_TITLE_EMPTY") }
        try TextLimit.chatTitle.check(trimmed)
        return trimmed
    }

    static func checkedAbout(_ about: String) throws -> String {
        guard about.utf16.count <= maximumChannelAbout else { throw APIError.badRequest("CHAT_ABOUT_TOO_LONG") }
        return about
    }

    /// `channels.createChannel`: a broadcast channel, or a supergroup with `megagroup`; the caller is its creator and
    /// its first message is `messageActionChannelCreate`.
    func createChannel(_ call: Api.functions.channels.createChannel, caller: Caller) throws -> Api.Updates {
        let title = try Self.checkedTitle(call.title)
        let about = try Self.checkedAbout(call.about)
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                guard try tx.channelDialogCount(userId: caller.userId) < Self.maximumChannelsPerAccount else {
                    throw APIError.badRequest("CHANNELS_TOO_MUCH")
                }
                let id = Self.firstChannelId + (try tx.nextValue(of: "channel"))
                let channel = ChannelRecord(
                    id: id, title: title, about: about, creator: caller.userId, date: date,
                    broadcast: !call.megagroup)
                try tx.insert(channel)
                try tx.upsert(
                    ChannelMemberRecord(channelId: id, userId: caller.userId, inviter: caller.userId, date: date))
                let create = Outgoing(
                    text: "", randomId: Self.randomId(), action: .messageActionChannelCreate(.init(title: title)))
                let posts = try appendChannelMessages(
                    [create], channel: channel, sender: caller.userId, date: date, tx: tx)
                guard let stored = try tx.channel(id: id) else { throw APIError.internalError }
                pushes = try newChannelMessagePushes(posts, channel: stored, date: date, tx: tx)
                return try channelAnswer(
                    posts, randomIds: [], extra: [.updateChannel(.init(channelId: id))], channel: stored,
                    caller: caller, date: date, tx: tx)
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `channels.getChannels`: each channel as the caller sees it (`channelForbidden` if banned from it or deleted);
    /// a private channel the caller is not in as `channelForbidden`; a hash that is not the caller's
    /// `CHANNEL_INVALID`.
    func getChannels(_ call: Api.functions.channels.getChannels, caller: Caller) throws -> Api.messages.Chats {
        guard call.id.count <= 200 else { throw APIError.limitInvalid }
        return try store.read { tx in
            var chats: [Api.Chat] = []
            for input in call.id {
                guard case .inputChannel(let named) = input, let channel = try tx.channel(id: named.channelId),
                    named.accessHash == channelAccessHash(channel.id, viewer: caller.userId)
                else {
                    throw APIError.channelInvalid
                }
                let member = try tx.channelMember(channelId: channel.id, userId: caller.userId)
                if member?.status != .member, channel.username == nil, !channel.deleted {
                    chats.append(
                        .channelForbidden(
                            .init(
                                broadcast: channel.broadcast, megagroup: !channel.broadcast, id: channel.id,
                                accessHash: named.accessHash, title: channel.title)))
                } else {
                    chats.append(try apiChannel(channel, member: member, viewer: caller.userId, tx: tx))
                }
            }
            return .chats(.init(chats: chats))
        }
    }

    /// `channels.getFullChannel`: `channelFull` with the caller's read marks, unread count and the channel's pts.
    func getFullChannel(_ call: Api.functions.channels.getFullChannel, caller: Caller) throws -> Api.messages.ChatFull {
        try store.read { tx in
            let access = try channelAccess(call.channel, caller: caller, need: .read, tx: tx)
            let channel = access.channel
            let readInbox = access.member?.readInboxMax ?? 0
            let admins = try tx.channelMembers(
                channelId: channel.id, status: .member, adminsOnly: true, limit: Self.maximumChannelMembers)
            let invites = try inviteInfo(
                kind: .channel, id: channel.id, viewer: caller.userId, canManage: access.can(\.inviteUsers), tx: tx)
            let migrated = try migratedFrom(channelId: channel.id, viewer: caller.userId, tx: tx)
            let full = Api.ChatFull.channelFull(
                .init(
                    canViewParticipants: !channel.broadcast || access.isAdmin, canSetUsername: access.isCreator,
                    canDeleteChannel: access.isCreator, id: channel.id, about: channel.about,
                    participantsCount: Int32(clamping: try tx.channelMemberCount(channelId: channel.id)),
                    adminsCount: Int32(clamping: admins.count),
                    kickedCount: access.isAdmin
                        ? Int32(clamping: try tx.channelMemberCount(channelId: channel.id, status: .banned)) : nil,
                    bannedCount: access.isAdmin ? 0 : nil,
                    readInboxMaxId: Int32(truncatingIfNeeded: readInbox),
                    readOutboxMaxId: Int32(
                        truncatingIfNeeded: try tx.channelReadOutbox(channelId: channel.id, userId: caller.userId)),
                    unreadCount: access.isMember
                        ? try tx.channelUnreadCount(
                            channelId: channel.id, userId: caller.userId, readInboxMax: readInbox)
                        : 0,
                    chatPhoto: channel.photo.flatMap { try? Api.Photo(tlBytes: $0) } ?? .photoEmpty(.init(id: 0)),
                    notifySettings: try storedNotifySettings(
                        owner: caller.userId, kind: .channel, id: channel.id, tx: tx),
                    exportedInvite: invites.invite, botInfo: [],
                    migratedFromChatId: migrated?.chatId, migratedFromMaxId: migrated?.maxId,
                    pinnedMsgId: try tx.topPinnedChannelMessageId(channelId: channel.id).map {
                        Int32(truncatingIfNeeded: $0)
                    },
                    slowmodeSeconds: channel.broadcast || channel.slowmodeSeconds == 0 ? nil : channel.slowmodeSeconds,
                    slowmodeNextSendDate: try slowModeNextSendDate(access, tx: tx),
                    pts: Int32(truncatingIfNeeded: channel.pts), requestsPending: invites.pending,
                    recentRequesters: invites.recent,
                    availableReactions: Self.apiChatReactions(
                        try tx.chatReactions(peerKind: Self.chatReactionsKindChannel, peerId: channel.id)),
                    reactionsLimit: Int32(
                        try tx.chatReactions(peerKind: Self.chatReactionsKindChannel, peerId: channel.id)?
                            .reactionsLimit
                            ?? Self.reactionsUniqueMax)))
            return .chatFull(
                .init(
                    fullChat: full,
                    chats: [try apiChannel(channel, member: access.member, viewer: caller.userId, tx: tx)],
                    users: try apiUsers([caller.userId], viewer: caller.userId, tx: tx)))
        }
    }

    /// `channels.editTitle`: admins with `change_info`; a `messageActionChatEditTitle` in the channel.
    func editChannelTitle(_ call: Api.functions.channels.editTitle, caller: Caller) throws -> Api.Updates {
        let title = try Self.checkedTitle(call.title)
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.can(\.changeInfo) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                var channel = access.channel
                guard channel.title != title else { throw APIError.badRequest("CHAT_NOT_MODIFIED") }
                channel.title = title
                try tx.updateProfile(of: channel)
                let posts = try appendChannelMessages(
                    [
                        Outgoing(
                            text: "", randomId: Self.randomId(),
                            action: .messageActionChatEditTitle(.init(title: title)))
                    ], channel: channel, sender: caller.userId, date: date, tx: tx)
                guard let stored = try tx.channel(id: channel.id) else { throw APIError.internalError }
                pushes = try newChannelMessagePushes(posts, channel: stored, date: date, tx: tx)
                return try channelAnswer(posts, randomIds: [], channel: stored, caller: caller, date: date, tx: tx)
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `messages.editChatAbout` for a channel: admins with `change_info`; at most 255 characters.
    func editChannelAbout(_ call: Api.functions.messages.editChatAbout, caller: Caller) throws -> [UInt8] {
        let about = try Self.checkedAbout(call.about)
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                guard let access = try channelAccess(call.peer, caller: caller, need: .member, tx: tx) else {
                    throw APIError.peerIdInvalid
                }
                guard access.can(\.changeInfo) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                var channel = access.channel
                guard channel.about != about else { throw APIError.badRequest("CHAT_ABOUT_NOT_MODIFIED") }
                channel.about = about
                try tx.updateProfile(of: channel)
                pushes = try channelPushes(channel, userIds: [], date: date, tx: tx) { _ in
                    [.updateChannel(.init(channelId: channel.id))]
                }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }

    /// `channels.deleteChannel`: the creator only; members see it go (`updateChannel`, then `channelForbidden`).
    /// Its messages and log are deleted; its username is free again.
    func deleteChannel(_ call: Api.functions.channels.deleteChannel, caller: Caller) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.isCreator else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                var channel = access.channel
                channel.deleted = true
                channel.username = nil
                try tx.updateProfile(of: channel)
                try tx.purgeChannelContent(channelId: channel.id)
                // Members still on the list see the channel as `channelForbidden` from now on.
                let deleted = channel
                pushes = try channelPushes(deleted, userIds: [], date: date, tx: tx) { _ in
                    [.updateChannel(.init(channelId: deleted.id))]
                }
                return .updates(
                    .init(
                        updates: [.updateChannel(.init(channelId: channel.id))], users: [],
                        chats: [try apiChannel(channel, viewer: caller.userId, tx: tx)], date: date, seq: 0))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// Whether `name` is someone's or some live channel's username, other than `channelId`'s.
    func usernameTaken(_ name: String, exceptChannel channelId: Int64? = nil, tx: StoreTransaction) throws -> Bool {
        if try tx.user(username: name) != nil { return true }
        if let owner = try tx.channel(username: name), owner.id != channelId { return true }
        return false
    }

    /// `channels.checkUsername`: whether a channel (or, with `inputChannelEmpty`, a channel about to be made) may
    /// take `username`; its creator only.
    func checkChannelUsername(_ call: Api.functions.channels.checkUsername, caller: Caller) throws -> [UInt8] {
        guard Self.isValidUsername(call.username) else { throw APIError.badRequest("USERNAME_INVALID") }
        try store.read { tx in
            var channelId: Int64?
            if case .inputChannelEmpty = call.channel {
            } else {
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.isCreator else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                channelId = access.channel.id
            }
            if try usernameTaken(call.username, exceptChannel: channelId, tx: tx) {
                throw APIError.badRequest("USERNAME_OCCUPIED")
            }
        }
        return Reply.bool(true)
    }

    /// `channels.updateUsername`: the creator makes the channel public under `username`, or private with an empty
    /// one; members see `updateChannel`.
    func updateChannelUsername(_ call: Api.functions.channels.updateUsername, caller: Caller) throws -> [UInt8] {
        let name = call.username
        guard name.isEmpty || Self.isValidUsername(name) else { throw APIError.badRequest("USERNAME_INVALID") }
        let date = now
        var pushes: [Push] = []
        try store.write(
            { [self] tx throws in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.isCreator else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                var channel = access.channel
                let wanted: String? = name.isEmpty ? nil : name
                guard channel.username != wanted else { throw APIError.badRequest("USERNAME_NOT_MODIFIED") }
                if let wanted, try usernameTaken(wanted, exceptChannel: channel.id, tx: tx) {
                    throw APIError.badRequest("USERNAME_OCCUPIED")
                }
                channel.username = wanted
                try tx.updateProfile(of: channel)
                pushes = try channelPushes(channel, userIds: [], date: date, tx: tx) { _ in
                    [.updateChannel(.init(channelId: channel.id))]
                }
            }, then: { [self] _ in send(pushes, caller: caller) })
        return Reply.bool(true)
    }
}
