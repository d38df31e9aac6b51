public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi

/// One member of a group or channel as the server lists it (Telegram-iOS `RenderedChannelParticipant`).
public struct ChatMember: Equatable, Sendable {
    /// What the member may do.
    public enum Role: Equatable, Sendable {
        case creator
        /// An admin with these rights and an optional title (`rank`).
        case admin(TelegramChatAdminRightsFlags, rank: String?)
        case member
        /// A member with some rights taken away, until the date (0: for ever).
        case restricted(TelegramChatBannedRights)
        /// Removed and kept out, until the date (0: for ever).
        case banned(TelegramChatBannedRights)
        /// Someone who left.
        case left
    }

    public var peerId: PeerId
    public var role: Role
    /// When they joined (or were promoted, restricted, banned), Unix seconds; `nil` when the server does not say.
    public var date: Int32?
    /// Who added, promoted or banned them.
    public var inviter: PeerId?

    public init(peerId: PeerId, role: Role, date: Int32? = nil, inviter: PeerId? = nil) {
        self.peerId = peerId
        self.role = role
        self.date = date
        self.inviter = inviter
    }
}

/// Which members `members(of:)` lists.
public enum ChatMemberFilter: Sendable, Equatable {
    /// Everyone, the newest first (`channelParticipantsRecent`).
    case recent
    /// The creator and the admins (`channelParticipantsAdmins`).
    case admins
    /// Those banned (`channelParticipantsKicked`; admins with the right to ban only).
    case banned
}

/// A list of members and how many the chat has (for the filter) in all.
public struct ChatMembers: Equatable, Sendable {
    public var members: [ChatMember]
    public var total: Int
}

extension Account {
    /// The most members one `channels.getParticipants` page carries (the server's limit, as Telegram's).
    public static let membersPageSize = 200

    /// At most `limit` members of the channel, supergroup or basic group `peerId`, stored with their users so they can
    /// be named. A channel is read in pages of `channels.getParticipants` with a growing `offset` until `limit` or
    /// the end (Telegram-iOS `ChannelMembers.swift`); a basic group's members come whole in `messages.getFullChat`.
    /// In a broadcast channel only admins may list members (`CHAT_ADMIN_REQUIRED`).
    public func members(
        of peerId: PeerId, filter: ChatMemberFilter = .recent, limit: Int = 200
    ) async throws(PeerActionError) -> ChatMembers {
        switch peerId.namespace {
        case Namespaces.Peer.cloudChannel:
            return try await channelMembers(peerId, filter: filter, limit: limit)
        case Namespaces.Peer.cloudGroup:
            let full = try await peerActionRequest(Api.functions.messages.getFullChat(chatId: peerId.id.rawValue))
            guard case .chatFull(let value) = full, case .chatFull(let chat) = value.fullChat else {
                throw .storage("messages.getFullChat answered with \(full)")
            }
            try storeListedPeers(users: value.users, chats: value.chats)
            guard case .chatParticipants(let list) = chat.participants else {
                return ChatMembers(members: [], total: 0)
            }
            let all = list.participants.compactMap { Self.member($0) }.filter { member in
                switch filter {
                case .recent: return true
                case .admins: if case .member = member.role { return false } else { return true }
                case .banned: return false
                }
            }
            return ChatMembers(members: Array(all.prefix(limit)), total: all.count)
        default:
            throw .unsupported("\(peerId) is not a group or channel")
        }
    }

    private func channelMembers(
        _ peerId: PeerId, filter: ChatMemberFilter, limit: Int
    ) async throws(PeerActionError) -> ChatMembers {
        let (_, input) = try storedChannel(peerId)
        let apiFilter: Api.ChannelParticipantsFilter
        switch filter {
        case .recent: apiFilter = .channelParticipantsRecent
        case .admins: apiFilter = .channelParticipantsAdmins
        case .banned: apiFilter = .channelParticipantsKicked(.init(q: ""))
        }
        var members: [ChatMember] = []
        var total = 0
        while members.count < limit {
            let page = try await peerActionRequest(
                Api.functions.channels.getParticipants(
                    channel: input, filter: apiFilter, offset: Int32(clamping: members.count),
                    limit: Int32(clamping: min(Self.membersPageSize, limit - members.count)), hash: 0))
            guard case .channelParticipants(let value) = page else { break }
            try storeListedPeers(users: value.users, chats: value.chats)
            total = Int(value.count)
            members += value.participants.map { Self.member($0) }
            if value.participants.isEmpty || members.count >= total { break }
        }
        return ChatMembers(members: Array(members.prefix(limit)), total: total)
    }

    private func storeListedPeers(users: [Api.User], chats: [Api.Chat]) throws(PeerActionError) {
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(
                    users: users, chats: chats, transaction: tx)
            }
        } catch {
            throw .storage("storing the members: \(error)")
        }
    }

    static func member(_ participant: Api.ChannelParticipant) -> ChatMember {
        switch participant {
        case .channelParticipant(let value):
            return ChatMember(peerId: .user(value.userId), role: .member, date: value.date)
        case .channelParticipantSelf(let value):
            return ChatMember(
                peerId: .user(value.userId), role: .member, date: value.date, inviter: .user(value.inviterId))
        case .channelParticipantCreator(let value):
            return ChatMember(peerId: .user(value.userId), role: .creator)
        case .channelParticipantAdmin(let value):
            return ChatMember(
                peerId: .user(value.userId),
                role: .admin(TelegramChatAdminRights(value.adminRights).rights, rank: value.rank), date: value.date,
                inviter: .user(value.promotedBy))
        case .channelParticipantBanned(let value):
            let rights = TelegramChatBannedRights(value.bannedRights)
            return ChatMember(
                peerId: memberPeerId(value.peer),
                role: rights.flags.contains(.banReadMessages) ? .banned(rights) : .restricted(rights),
                date: value.date, inviter: .user(value.kickedBy))
        case .channelParticipantLeft(let value):
            return ChatMember(peerId: memberPeerId(value.peer), role: .left)
        }
    }

    static func member(_ participant: Api.ChatParticipant) -> ChatMember? {
        switch participant {
        case .chatParticipant(let value):
            return ChatMember(
                peerId: .user(value.userId), role: .member, date: value.date, inviter: .user(value.inviterId))
        case .chatParticipantCreator(let value):
            return ChatMember(peerId: .user(value.userId), role: .creator)
        case .chatParticipantAdmin(let value):
            return ChatMember(
                peerId: .user(value.userId), role: .admin([], rank: value.rank), date: value.date,
                inviter: .user(value.inviterId))
        }
    }

    private static func memberPeerId(_ peer: Api.Peer) -> PeerId {
        switch peer {
        case .peerUser(let value): return .user(value.userId)
        case .peerChat(let value): return .group(value.chatId)
        case .peerChannel(let value): return .channel(value.channelId)
        }
    }
}
