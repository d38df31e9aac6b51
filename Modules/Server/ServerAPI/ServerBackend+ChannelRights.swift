import ServerStore
import TLRuntime
import TelegramApi

/// Admins, bans and the member list (core.telegram.org "Admin, banned, default rights", methods
/// `channels.editAdmin`, `channels.editBanned`, `channels.getParticipants`, `channels.getParticipant`).
extension ServerBackend {
    /// `channels.editAdmin`: admins with `add_admins` promote members (and may grant only rights they hold
    /// themselves, `RIGHT_FORBIDDEN`); empty rights demote. The creator cannot be edited (`USER_CREATOR`).
    func editChannelAdmin(_ call: Api.functions.channels.editAdmin, caller: Caller) throws -> Api.Updates {
        if let rank = call.rank, rank.utf16.count > 16 { throw APIError.badRequest("ADMIN_RANK_INVALID") }
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.can(\.addAdmins) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                guard let user = try resolve(call.userId, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
                guard user.id != access.channel.creator else { throw APIError.badRequest("USER_CREATOR") }
                guard var member = try tx.channelMember(channelId: access.channel.id, userId: user.id),
                    member.status == .member
                else {
                    throw APIError.badRequest("USER_NOT_PARTICIPANT")
                }
                guard case .chatAdminRights(let wanted) = call.adminRights,
                    case .chatAdminRights(let held)? = access.adminRights
                else { throw APIError.internalError }
                let granted = Self.rightFlags(wanted)
                guard access.isCreator || granted.isSubset(of: Self.rightFlags(held)) else {
                    throw APIError.forbidden("RIGHT_FORBIDDEN")
                }
                if granted.isEmpty {
                    member.adminRights = nil
                    member.promotedBy = nil
                    member.rank = nil
                } else {
                    member.adminRights = call.adminRights.serialized()
                    member.promotedBy = caller.userId
                    member.rank = call.rank
                    member.bannedRights = nil
                }
                try tx.upsert(member)
                pushes = try channelUpdatePushes(access.channel, to: [user.id], date: date, tx: tx)
                return .updates(
                    .init(
                        updates: [.updateChannel(.init(channelId: access.channel.id))],
                        users: try apiUsers([user.id], viewer: caller.userId, tx: tx),
                        chats: [try apiChannel(access.channel, member: access.member, viewer: caller.userId, tx: tx)],
                        date: date, seq: 0))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// The admin rights set in `rights`, by name.
    static func rightFlags(_ rights: Api.ChatAdminRights.Cons_chatAdminRights) -> Set<String> {
        let all: [(String, Bool)] = [
            ("change_info", rights.changeInfo), ("post_messages", rights.postMessages),
            ("edit_messages", rights.editMessages), ("delete_messages", rights.deleteMessages),
            ("ban_users", rights.banUsers), ("invite_users", rights.inviteUsers), ("pin_messages", rights.pinMessages),
            ("add_admins", rights.addAdmins), ("anonymous", rights.anonymous), ("manage_call", rights.manageCall),
            ("other", rights.other),
        ]
        return Set(all.filter(\.1).map(\.0))
    }

    /// `channels.editBanned`: admins with `ban_users` restrict a member (rights without `view_messages`), ban them
    /// (`view_messages`: they are removed, and in a supergroup a `messageActionChatDeleteUser` says so) or lift it
    /// (no rights). Admins and the creator cannot be banned (`USER_ADMIN_INVALID`).
    func editChannelBanned(_ call: Api.functions.channels.editBanned, caller: Caller) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
                guard access.can(\.banUsers) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                let peer = try resolve(call.participant, caller: caller, tx: tx)
                guard peer.kind == .user else { throw APIError.badRequest("PARTICIPANT_ID_INVALID") }
                let userId = peer.id
                guard userId != caller.userId else { throw APIError.badRequest("USER_ADMIN_INVALID") }
                let channel = access.channel
                let existing = try tx.channelMember(channelId: channel.id, userId: userId)
                let target = ChannelAccess(channel: channel, member: existing, viewer: userId)
                guard !target.isAdmin else { throw APIError.badRequest("USER_ADMIN_INVALID") }
                guard case .chatBannedRights(let rights) = call.bannedRights else { throw APIError.internalError }
                var member =
                    existing
                    ?? ChannelMemberRecord(
                        channelId: channel.id, userId: userId, status: .left, inviter: caller.userId, date: date)
                let wasMember = member.status == .member
                let restricts = Self.isRestricting(rights)
                if rights.viewMessages {
                    member.status = .banned
                    member.bannedRights = call.bannedRights.serialized()
                    member.kickedBy = caller.userId
                } else if restricts {
                    member.bannedRights = call.bannedRights.serialized()
                    member.kickedBy = caller.userId
                    if member.status == .banned { member.status = .left }
                } else {
                    member.bannedRights = nil
                    member.kickedBy = nil
                    if member.status == .banned { member.status = .left }
                }
                member.date = wasMember ? member.date : date
                try tx.upsert(member)
                if rights.viewMessages && wasMember {
                    return try membershipChange(
                        channel, action: .messageActionChatDeleteUser(.init(userId: userId)), concerned: [userId],
                        caller: caller, date: date, tx: tx, pushes: &pushes)
                }
                pushes = try channelUpdatePushes(channel, to: [userId], date: date, tx: tx)
                return .updates(
                    .init(
                        updates: [.updateChannel(.init(channelId: channel.id))],
                        users: try apiUsers([userId], viewer: caller.userId, tx: tx),
                        chats: [try apiChannel(channel, viewer: caller.userId, tx: tx)], date: date, seq: 0))
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// Whether banned rights take anything away.
    static func isRestricting(_ rights: Api.ChatBannedRights.Cons_chatBannedRights) -> Bool {
        rights.viewMessages || rights.sendMessages || rights.sendMedia || rights.sendStickers || rights.sendGifs
            || rights.sendGames || rights.sendInline || rights.embedLinks || rights.sendPolls || rights.changeInfo
            || rights.inviteUsers || rights.pinMessages || rights.sendPhotos || rights.sendVideos
            || rights.sendPlain || rights.sendDocs || rights.sendAudios || rights.sendVoices
    }

    /// A membership as `channelParticipant…`.
    func apiParticipant(_ member: ChannelMemberRecord, channel: ChannelRecord, viewer: Int64) -> Api.ChannelParticipant
    {
        if member.status == .banned || (member.status == .member && member.bannedRights != nil) {
            let rights =
                member.bannedRights.flatMap { try? Api.ChatBannedRights(tlBytes: $0) }
                ?? .chatBannedRights(.init(viewMessages: true, untilDate: Int32.max))
            return .channelParticipantBanned(
                .init(
                    left: member.status != .member, peer: .peerUser(.init(userId: member.userId)),
                    kickedBy: member.kickedBy ?? channel.creator, date: member.date, bannedRights: rights))
        }
        if member.status == .left {
            return .channelParticipantLeft(.init(peer: .peerUser(.init(userId: member.userId))))
        }
        if member.userId == channel.creator {
            return .channelParticipantCreator(.init(userId: member.userId, adminRights: Self.creatorRights))
        }
        if let bytes = member.adminRights, let rights = try? Api.ChatAdminRights(tlBytes: bytes) {
            return .channelParticipantAdmin(
                .init(
                    canEdit: viewer == channel.creator || viewer == member.promotedBy, isSelf: member.userId == viewer,
                    userId: member.userId, inviterId: member.userId == viewer ? member.inviter : nil,
                    promotedBy: member.promotedBy ?? channel.creator, date: member.date, adminRights: rights,
                    rank: member.rank))
        }
        if member.userId == viewer {
            return .channelParticipantSelf(.init(userId: member.userId, inviterId: member.inviter, date: member.date))
        }
        return .channelParticipant(.init(userId: member.userId, date: member.date))
    }

    /// `channels.getParticipants`: recent members, admins, banned (`kicked`) or restricted (`banned`) ones, or a
    /// search by name; `offset` and `limit` (at most 200) page. In a broadcast channel only admins see the list
    /// (`CHAT_ADMIN_REQUIRED`).
    func getChannelParticipants(
        _ call: Api.functions.channels.getParticipants, caller: Caller
    ) throws -> Api.channels.ChannelParticipants {
        try store.read { tx in
            let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
            let channel = access.channel
            guard !channel.broadcast || access.isAdmin else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
            let limit = min(max(Int(call.limit), 0), 200)
            let offset = max(Int(call.offset), 0)
            var members: [ChannelMemberRecord]
            var total: Int
            switch call.filter {
            case .channelParticipantsAdmins:
                members = try tx.channelMembers(
                    channelId: channel.id, status: .member, adminsOnly: true, offset: offset, limit: limit)
                total =
                    try tx.channelMembers(
                        channelId: channel.id, status: .member, adminsOnly: true, limit: Self.maximumChannelMembers
                    ).count
            case .channelParticipantsKicked(let filter):
                guard access.can(\.banUsers) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                members = try tx.channelMembers(
                    channelId: channel.id, status: .banned, query: filter.q, offset: offset, limit: limit)
                total = try tx.channelMemberCount(channelId: channel.id, status: .banned)
            case .channelParticipantsBanned(let filter):
                guard access.can(\.banUsers) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
                members = try tx.channelMembers(
                    channelId: channel.id, status: .member, query: filter.q, limit: Self.maximumChannelMembers
                ).filter { $0.bannedRights != nil }
                total = members.count
                members = Array(members.dropFirst(offset).prefix(limit))
            case .channelParticipantsSearch(let filter):
                members = try tx.channelMembers(
                    channelId: channel.id, status: .member, query: filter.q, offset: offset, limit: limit)
                total = try tx.channelMemberCount(channelId: channel.id)
            default:
                members = try tx.channelMembers(channelId: channel.id, status: .member, offset: offset, limit: limit)
                total = try tx.channelMemberCount(channelId: channel.id)
            }
            var userIds = Set(members.map(\.userId))
            for member in members {
                if let by = member.kickedBy { userIds.insert(by) }
                if let by = member.promotedBy { userIds.insert(by) }
            }
            return .channelParticipants(
                .init(
                    count: Int32(clamping: total),
                    participants: members.map { apiParticipant($0, channel: channel, viewer: caller.userId) },
                    chats: [try apiChannel(channel, member: access.member, viewer: caller.userId, tx: tx)],
                    users: try apiUsers(userIds, viewer: caller.userId, tx: tx)))
        }
    }

    /// `channels.getParticipant`: one account's membership; `USER_NOT_PARTICIPANT` when they have none.
    func getChannelParticipant(
        _ call: Api.functions.channels.getParticipant, caller: Caller
    ) throws -> Api.channels.ChannelParticipant {
        try store.read { tx in
            let access = try channelAccess(call.channel, caller: caller, need: .member, tx: tx)
            let peer = try resolve(call.participant, caller: caller, tx: tx)
            guard peer.kind == .user, let member = try tx.channelMember(channelId: access.channel.id, userId: peer.id),
                member.status == .member || access.can(\.banUsers)
            else {
                throw APIError.badRequest("USER_NOT_PARTICIPANT")
            }
            return .channelParticipant(
                .init(
                    participant: apiParticipant(member, channel: access.channel, viewer: caller.userId),
                    chats: [try apiChannel(access.channel, member: access.member, viewer: caller.userId, tx: tx)],
                    users: try apiUsers([peer.id], viewer: caller.userId, tx: tx)))
        }
    }
}
