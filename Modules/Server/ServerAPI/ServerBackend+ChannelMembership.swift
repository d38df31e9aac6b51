import ServerStore
import TLRuntime
import TelegramApi

/// Joining, leaving and inviting (core.telegram.org "Channels, supergroups, gigagroups and basic groups"): in a
/// supergroup each change is a service message (`messageActionChatAddUser`, `…DeleteUser`), in a broadcast channel it
/// is silent; whoever a change concerns gets `updateChannel` pushed live.
extension ServerBackend {
    /// Makes `userId` a member (from `inviter`), read up to the channel's newest message so its history is not
    /// unread to them, keeping restrictions they had (not a ban: only an admin who may ban lets them back in);
    /// throws `CHANNELS_TOO_MUCH` / `USERS_TOO_MUCH` past the bounds.
    func admit(
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
        // Restrictions outlive leaving and coming back; a ban is lifted by the admin who lets them in again.
        let keepsRestrictions = previous?.status != .banned
        try tx.upsert(
            ChannelMemberRecord(
                channelId: channel.id, userId: userId, inviter: inviter, date: date,
                bannedRights: keepsRestrictions ? previous?.bannedRights : nil,
                kickedBy: keepsRestrictions ? previous?.kickedBy : nil,
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
                guard
                    access.can(\.inviteUsers)
                        || (!access.channel.broadcast && !Self.defaultForbids(access.channel, \.inviteUsers))
                else {
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

    /// After a membership change: in a supergroup the service message `action` from `sender` (the caller unless
    /// given; to members and to `concerned`, who may have just left); `updateChannel` to everyone `concerned`; the
    /// caller's `updates`.
    func membershipChange(
        _ before: ChannelRecord, action: Api.MessageAction, concerned: [Int64], caller: Caller, sender: Int64? = nil,
        date: Int32, tx: StoreTransaction, pushes: inout [Push]
    ) throws -> Api.Updates {
        var posts: [ChannelPost] = []
        if !before.broadcast {
            posts = try appendChannelMessages(
                [Outgoing(text: "", randomId: Self.randomId(), action: action)], channel: before,
                sender: sender ?? caller.userId, date: date, tx: tx)
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
}
