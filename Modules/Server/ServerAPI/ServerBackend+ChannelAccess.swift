import CryptoUtils
import ServerStore
import TLRuntime
import TelegramApi

/// Who may see and do what in a channel (core.telegram.org "Channels, supergroups, gigagroups and basic groups",
/// "Admin, banned, default rights"), and how channels and their messages look to each viewer.
///
/// Access hashes differ per viewer: a channel's hash for an account is SHA-256 over the server's secret
/// (`server_secrets`), the channel's id and the account's id, so a hash one account shows another is useless to it,
/// and nobody can make one for a channel nobody showed them. A hash that is not the caller's answers
/// `CHANNEL_INVALID` whether or not the channel exists; the right hash of a private channel the caller is not in
/// (they left, or were banned) answers `CHANNEL_PRIVATE`.
extension ServerBackend {
    /// What the caller is to a channel, resolved inside a transaction.
    struct ChannelAccess {
        let channel: ChannelRecord
        let member: ChannelMemberRecord?
        let viewer: Int64

        var isMember: Bool { member?.status == .member }
        var isCreator: Bool { isMember && channel.creator == viewer }
        var adminRights: Api.ChatAdminRights? {
            guard isMember else { return nil }
            if isCreator { return ServerBackend.creatorRights }
            return member?.adminRights.flatMap { try? Api.ChatAdminRights(tlBytes: $0) }
        }
        var isAdmin: Bool { adminRights != nil }
        var bannedRights: Api.ChatBannedRights? {
            member?.bannedRights.flatMap { try? Api.ChatBannedRights(tlBytes: $0) }
        }

        /// Whether the caller holds an admin right (the creator holds them all).
        func can(_ right: KeyPath<Api.ChatAdminRights.Cons_chatAdminRights, Bool>) -> Bool {
            guard case .chatAdminRights(let rights)? = adminRights else { return false }
            return rights[keyPath: right]
        }

        /// Throws unless the caller may post at `now`: in a broadcast channel admins with `post_messages`; in a
        /// supergroup members not restricted from sending (a restriction's `until_date`, when set, ends it:
        /// core.telegram.org "Admin, banned, default rights", 0 meaning for ever).
        func checkCanPost(now: Int32) throws(APIError) {
            if channel.broadcast {
                guard can(\.postMessages) else { throw .forbidden("CHAT_WRITE_FORBIDDEN") }
                return
            }
            guard isMember else { throw .forbidden("CHAT_WRITE_FORBIDDEN") }
            if !isAdmin, case .chatBannedRights(let banned)? = bannedRights, banned.sendMessages,
                banned.untilDate == 0 || banned.untilDate > now
            {
                throw .badRequest("USER_BANNED_IN_CHANNEL")
            }
        }
    }

    /// What `channelAccess` requires of the caller.
    enum ChannelNeed {
        /// The channel exists and the hash is the caller's; a banned account is still refused.
        case known
        /// Reading: a member, or anyone for a public channel.
        case read
        /// A member.
        case member
    }

    /// Every right, as the creator holds them.
    static let creatorRights = Api.ChatAdminRights.chatAdminRights(
        .init(
            changeInfo: true, postMessages: true, editMessages: true, deleteMessages: true, banUsers: true,
            inviteUsers: true, pinMessages: true, addAdmins: true, manageCall: true, other: true))

    /// The largest supergroup (Telegram's `megagroup_size_max`).
    static let maximumChannelMembers = 200_000

    /// Channel ids start here, far from basic groups' (core.telegram.org: peers of each kind have their own ids).
    static let firstChannelId: Int64 = 1_000_000_000

    /// The access hash of channel `channelId` for `viewer`.
    func channelAccessHash(_ channelId: Int64, viewer: Int64) -> Int64 {
        let digest = Digest.sha256(
            channelHashKey, [0x43], withUnsafeBytes(of: channelId.littleEndian, Array.init),
            withUnsafeBytes(of: viewer.littleEndian, Array.init))
        var value: Int64 = 0
        for byte in digest.prefix(8) { value = (value << 8) | Int64(byte) }
        return value
    }

    /// The channel `channelId` with `accessHash`, as the caller may reach it.
    func channelAccess(
        _ channelId: Int64, accessHash: Int64, caller: Caller, need: ChannelNeed = .read, tx: StoreTransaction
    ) throws -> ChannelAccess {
        guard let channel = try tx.channel(id: channelId), !channel.deleted,
            ConstantTime.equals(
                withUnsafeBytes(of: accessHash, Array.init),
                withUnsafeBytes(of: channelAccessHash(channelId, viewer: caller.userId), Array.init))
        else {
            throw APIError.channelInvalid
        }
        let access = ChannelAccess(
            channel: channel, member: try tx.channelMember(channelId: channelId, userId: caller.userId),
            viewer: caller.userId)
        if access.member?.status == .banned { throw APIError.badRequest("CHANNEL_PRIVATE") }
        switch need {
        case .known: break
        case .read:
            guard access.isMember || channel.username != nil else { throw APIError.badRequest("CHANNEL_PRIVATE") }
        case .member:
            guard access.isMember else {
                throw APIError.badRequest(channel.username != nil ? "USER_NOT_PARTICIPANT" : "CHANNEL_PRIVATE")
            }
        }
        return access
    }

    /// The channel an `InputChannel` names.
    func channelAccess(
        _ input: Api.InputChannel, caller: Caller, need: ChannelNeed = .read, tx: StoreTransaction
    ) throws -> ChannelAccess {
        guard case .inputChannel(let channel) = input else { throw APIError.channelInvalid }
        return try channelAccess(channel.channelId, accessHash: channel.accessHash, caller: caller, need: need, tx: tx)
    }

    /// The channel an `InputPeer` names, or `nil` when it names no channel.
    func channelAccess(
        _ input: Api.InputPeer, caller: Caller, need: ChannelNeed = .read, tx: StoreTransaction
    ) throws -> ChannelAccess? {
        switch input {
        case .inputPeerChannel(let channel):
            return try channelAccess(
                channel.channelId, accessHash: channel.accessHash, caller: caller, need: need, tx: tx)
        case .inputPeerChannelFromMessage: throw APIError.channelInvalid
        default: return nil
        }
    }

    /// Whether `input` names a channel (such calls go to the channel services).
    static func isChannel(_ input: Api.InputPeer) -> Bool {
        switch input {
        case .inputPeerChannel, .inputPeerChannelFromMessage: return true
        default: return false
        }
    }

    /// The channel as `viewer` sees it: `channelForbidden` once deleted or for someone banned from it, else
    /// `channel` with the viewer's access hash, `left` unless a member, and their rights.
    /// `participants`, when the caller already counted them, saves the count query (a push to every member).
    func apiChannel(
        _ channel: ChannelRecord, member: ChannelMemberRecord?, viewer: Int64, participants: Int? = nil,
        tx: StoreTransaction
    ) throws -> Api.Chat {
        let hash = channelAccessHash(channel.id, viewer: viewer)
        if channel.deleted || member?.status == .banned {
            return .channelForbidden(
                .init(
                    broadcast: channel.broadcast, megagroup: !channel.broadcast, id: channel.id, accessHash: hash,
                    title: channel.title))
        }
        let access = ChannelAccess(channel: channel, member: member, viewer: viewer)
        return .channel(
            .init(
                creator: access.isCreator, left: !access.isMember, broadcast: channel.broadcast,
                megagroup: !channel.broadcast, signatures: channel.broadcast && channel.signatures,
                slowmodeEnabled: !channel.broadcast && channel.slowmodeSeconds > 0, id: channel.id, accessHash: hash,
                title: channel.title,
                username: channel.username, photo: Self.chatPhoto(channel.photo),
                date: access.isMember ? (member?.date ?? channel.date) : channel.date,
                adminRights: access.adminRights, bannedRights: access.isAdmin ? nil : access.bannedRights,
                defaultBannedRights: channel.broadcast ? nil : Self.apiBannedRights(channel.defaultBannedRights),
                participantsCount: Int32(clamping: try participants ?? tx.channelMemberCount(channelId: channel.id))))
    }

    /// `apiChannel` for `viewer`, reading their membership.
    func apiChannel(_ channel: ChannelRecord, viewer: Int64, tx: StoreTransaction) throws -> Api.Chat {
        try apiChannel(
            channel, member: try tx.channelMember(channelId: channel.id, userId: viewer), viewer: viewer, tx: tx)
    }

    /// A channel message as `viewer` sees it: `out` on their own; a broadcast post without its author, with views.
    /// `reactions`, when given, is `message.reactions`.
    func apiChannelMessage(
        _ message: ChannelMessageRecord, viewer: Int64, reactions: Api.MessageReactions? = nil,
        tx: StoreTransaction? = nil
    ) -> Api.Message {
        let replyTo = message.replyTo.map {
            Api.MessageReplyHeader.messageReplyHeader(.init(replyToMsgId: Int32(truncatingIfNeeded: $0)))
        }
        let peer = Api.Peer.peerChannel(.init(channelId: message.channelId))
        let from: Api.Peer? = message.post ? nil : .peerUser(.init(userId: message.fromId))
        let id = Int32(truncatingIfNeeded: message.id)
        if let action = message.action, let parsed = try? Api.MessageAction(tlBytes: action) {
            return .messageService(
                .init(
                    out: message.fromId == viewer, silent: message.silent, post: message.post, id: id, fromId: from,
                    peerId: peer,
                    replyTo: replyTo, date: message.date, action: parsed))
        }
        return .message(
            .init(
                out: message.fromId == viewer, silent: message.silent, post: message.post, pinned: message.pinned,
                id: id, fromId: from,
                peerId: peer, fwdFrom: message.forward.flatMap { try? Api.MessageFwdHeader(tlBytes: $0) },
                replyTo: replyTo, date: message.date, message: message.text,
                media: viewedMedia(message.media, viewer: viewer, tx: tx),
                entities: Self.decodeEntities(message.entities),
                views: message.post ? Int32(clamping: message.views) : nil, forwards: message.post ? 0 : nil,
                editDate: message.editDate, postAuthor: message.postAuthor, groupedId: message.groupedId,
                reactions: reactions))
    }

    /// The accounts channel messages show: their authors (not of posts), a forward's first author and the members
    /// their actions name.
    static func users(shownIn messages: [ChannelMessageRecord]) -> Set<Int64> {
        var users: Set<Int64> = []
        for message in messages {
            if !message.post { users.insert(message.fromId) }
            if let bytes = message.forward,
                case .messageFwdHeader(let header)? = try? Api.MessageFwdHeader(tlBytes: bytes),
                case .peerUser(let from)? = header.fromId
            {
                users.insert(from.userId)
            }
            if let bytes = message.action, let action = try? Api.MessageAction(tlBytes: bytes) {
                switch action {
                case .messageActionChatAddUser(let add): users.formUnion(add.users)
                case .messageActionChatDeleteUser(let delete): users.insert(delete.userId)
                case .messageActionChatJoinedByLink(let link): users.insert(link.inviterId)
                default: break
                }
            }
        }
        return users
    }

    /// The `users` vector for `ids`, as `viewer` sees them.
    func apiUsers(_ ids: some Sequence<Int64>, viewer: Int64, tx: StoreTransaction) throws -> [Api.User] {
        try tx.users(ids: ids).sorted { $0.id < $1.id }.map { try apiUser($0, viewer: viewer, tx: tx) }
    }

    /// A stored photo as a chat shows it (`chatPhoto`: its id, DC and stripped thumbnail), `chatPhotoEmpty` without.
    static func chatPhoto(_ bytes: [UInt8]?) -> Api.ChatPhoto {
        guard let bytes, case .photo(let photo)? = try? Api.Photo(tlBytes: bytes) else { return .chatPhotoEmpty }
        let stripped = photo.sizes.compactMap { size -> [UInt8]? in
            if case .photoStrippedSize(let s) = size { return s.bytes }
            return nil
        }.first
        return .chatPhoto(.init(photoId: photo.id, strippedThumb: stripped, dcId: photo.dcId))
    }
}
