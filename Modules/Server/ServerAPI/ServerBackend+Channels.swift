import Foundation
import ServerStore
import TLRuntime
import TelegramApi

/// Supergroups and broadcast channels (core.telegram.org "Channels, supergroups, gigagroups and basic groups"):
/// creating, finding, joining, leaving, inviting, renaming, usernames and deletion. A supergroup's membership
/// changes are service messages in it (`messageActionChatAddUser`, `…DeleteUser`); a broadcast channel's are
/// silent. Whoever a change concerns gets `updateChannel` pushed live (it carries no pts).
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
                    chatPhoto: .photoEmpty(.init(id: 0)), notifySettings: Self.defaultNotifySettings, botInfo: [],
                    pts: Int32(truncatingIfNeeded: channel.pts)))
            return .chatFull(
                .init(
                    fullChat: full,
                    chats: [try apiChannel(channel, member: access.member, viewer: caller.userId, tx: tx)],
                    users: try apiUsers([caller.userId], viewer: caller.userId, tx: tx)))
        }
    }

    /// Makes `userId` a member (from `inviter`), read up to the channel's newest message so its history is not
    /// unread to them; throws `CHANNELS_TOO_MUCH` / `USERS_TOO_MUCH` past the bounds.
    private func admit(
        _ userId: Int64, to channel: ChannelRecord, inviter: Int64, date: Int32, tx: StoreTransaction
    )
        throws
    {
        guard try tx.channelDialogCount(userId: userId) < Self.maximumChannelsPerAccount else {
            throw APIError.badRequest("CHANNELS_TOO_MUCH")
        }
        guard try tx.channelMemberCount(channelId: channel.id) < Self.maximumChannelMembers else {
            throw APIError.badRequest("USERS_TOO_MUCH")
        }
        let previous = try tx.channelMember(channelId: channel.id, userId: userId)
        try tx.upsert(
            ChannelMemberRecord(
                channelId: channel.id, userId: userId, inviter: inviter, date: date,
                readInboxMax: max(previous?.readInboxMax ?? 0, channel.nextMessageId - 1)))
    }

    /// `channels.joinChannel`: a public channel (one with a username) anyone may join; a private one answers
    /// `CHANNEL_PRIVATE` (joining it takes an invite link, not served). In a supergroup the join is a
    /// `messageActionChatAddUser` naming the caller.
    func joinChannel(
        _ call: Api.functions.channels.joinChannel, caller: Caller
    ) throws
        -> Api.messages.ChatInviteJoinResult
    {
        let date = now
        var pushes: [Push] = []
        let updates = try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .known, tx: tx)
                guard !access.isMember else { throw APIError.badRequest("USER_ALREADY_PARTICIPANT") }
                guard access.channel.username != nil else { throw APIError.badRequest("CHANNEL_PRIVATE") }
                try admit(caller.userId, to: access.channel, inviter: caller.userId, date: date, tx: tx)
                return try membershipChange(
                    access.channel, action: .messageActionChatAddUser(.init(users: [caller.userId])),
                    concerned: [caller.userId], caller: caller, date: date, tx: tx, pushes: &pushes)
            }, then: { [self] _ in send(pushes, caller: caller) })
        return .chatInviteJoinResultOk(.init(updates: updates))
    }

    /// `channels.leaveChannel`: in a supergroup a `messageActionChatDeleteUser` the leaver sees too, then the
    /// caller is no longer a member.
    func leaveChannel(_ call: Api.functions.channels.leaveChannel, caller: Caller) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard var member = access.member else { throw APIError.internalError }
                let action: Api.MessageAction = .messageActionChatDeleteUser(.init(userId: caller.userId))
                member.status = .left
                member.adminRights = nil
                try tx.upsert(member)
                return try membershipChange(
                    access.channel, action: action, concerned: [caller.userId], caller: caller, date: date, tx: tx,
                    pushes: &pushes)
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `channels.inviteToChannel`: in a supergroup any member may add people, in a broadcast channel admins with
    /// `invite_users`; at most 200 a call. Accounts banned from the channel come back only when the inviter may ban
    /// (`USER_KICKED` otherwise); all of them already in: `USER_ALREADY_PARTICIPANT`.
    func inviteToChannel(
        _ call: Api.functions.channels.inviteToChannel, caller: Caller
    ) throws
        -> Api.messages.InvitedUsers
    {
        guard (1...200).contains(call.users.count) else { throw APIError.badRequest("USERS_TOO_MUCH") }
        let date = now
        var pushes: [Push] = []
        let updates = try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard !access.channel.broadcast || access.can(\.inviteUsers) else {
                    throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
                }
                var added: [Int64] = []
                for input in call.users {
                    guard let user = try resolve(input, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
                    let existing = try tx.channelMember(channelId: access.channel.id, userId: user.id)
                    if existing?.status == .member || added.contains(user.id) { continue }
                    if existing?.status == .banned, !access.can(\.banUsers) {
                        throw APIError.badRequest("USER_KICKED")
                    }
                    try admit(user.id, to: access.channel, inviter: caller.userId, date: date, tx: tx)
                    added.append(user.id)
                }
                guard !added.isEmpty else { throw APIError.badRequest("USER_ALREADY_PARTICIPANT") }
                return try membershipChange(
                    access.channel, action: .messageActionChatAddUser(.init(users: added)), concerned: added,
                    caller: caller, date: date, tx: tx, pushes: &pushes)
            }, then: { [self] _ in send(pushes, caller: caller) })
        return .invitedUsers(.init(updates: updates, missingInvitees: []))
    }

    /// After a membership change: in a supergroup the service message `action` (to members and to `concerned`, who
    /// may have just left); `updateChannel` to everyone `concerned`; the caller's `updates`.
    func membershipChange(
        _ before: ChannelRecord, action: Api.MessageAction, concerned: [Int64], caller: Caller, date: Int32,
        tx: StoreTransaction, pushes: inout [Push]
    ) throws -> Api.Updates {
        var posts: [ChannelPost] = []
        if !before.broadcast {
            posts = try appendChannelMessages(
                [Outgoing(text: "", randomId: Self.randomId(), action: action)], channel: before,
                sender: caller.userId, date: date, tx: tx)
        }
        guard let channel = try tx.channel(id: before.id) else { throw APIError.internalError }
        pushes = try newChannelMessagePushes(posts, channel: channel, also: concerned, date: date, tx: tx)
        pushes += try channelUpdatePushes(channel, to: concerned.filter { $0 != caller.userId }, date: date, tx: tx)
        return try channelAnswer(
            posts, randomIds: [], extra: [.updateChannel(.init(channelId: channel.id))], channel: channel,
            caller: caller, date: date, tx: tx)
    }

    /// `updateChannel` with the channel as each of `userIds` sees it, to their online sessions.
    func channelUpdatePushes(
        _ channel: ChannelRecord, to userIds: [Int64], date: Int32, tx: StoreTransaction
    ) throws
        -> [Push]
    {
        try userIds.map { userId in
            Push(
                authKeyIds: try authKeys(of: userId, tx: tx),
                updates: .updates(
                    .init(
                        updates: [.updateChannel(.init(channelId: channel.id))], users: [],
                        chats: [try apiChannel(channel, viewer: userId, tx: tx)], date: date, seq: 0)))
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
