public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi

extension Account {
    /// Restricts or bans `member` in the channel or supergroup `peerId` until `untilDate` (Unix seconds; 0 — or more
    /// than 366 days ahead, or less than 30 s — is for ever, core.telegram.org "chatBannedRights"): with
    /// `banReadMessages` among the flags they are removed and kept out, without it they stay with those rights taken,
    /// and with no flags the restriction is lifted (`channels.editBanned`; Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/ChannelMembers.swift`, `updateChannelMemberBannedRights`). Only
    /// admins with `ban_users` may (`CHAT_ADMIN_REQUIRED`); admins cannot be banned (`USER_ADMIN_INVALID`).
    public func setBannedRights(
        _ member: PeerId, in peerId: PeerId, flags: TelegramChatBannedRightsFlags, untilDate: Int32 = 0
    ) async throws(PeerActionError) {
        let (_, input) = try storedChannel(peerId)
        let updates = try await peerActionRequest(
            Api.functions.channels.editBanned(
                channel: input, participant: try inputUserPeer(member),
                bannedRights: TelegramChatBannedRights(flags: flags, untilDate: untilDate).apiBannedRights))
        try applyActionUpdates(updates)
    }

    /// Bans `member` from the channel or supergroup `peerId` until `untilDate` (0: for ever): removed, unable to read
    /// or come back by themselves.
    public func ban(_ member: PeerId, in peerId: PeerId, untilDate: Int32 = 0) async throws(PeerActionError) {
        try await setBannedRights(member, in: peerId, flags: [.banReadMessages], untilDate: untilDate)
    }

    /// Removes `member` without keeping them out: in a channel or supergroup a ban lifted at once (as the Bot API's
    /// `banChatMember` + `unbanChatMember` do), so they may join again; in a basic group `messages.deleteChatUser`.
    public func kick(_ member: PeerId, from peerId: PeerId) async throws(PeerActionError) {
        switch peerId.namespace {
        case Namespaces.Peer.cloudChannel:
            try await ban(member, in: peerId)
            try await setBannedRights(member, in: peerId, flags: [])
        case Namespaces.Peer.cloudGroup:
            try applyActionUpdates(
                try await peerActionRequest(
                    Api.functions.messages.deleteChatUser(chatId: peerId.id.rawValue, userId: try inputUser(member))))
        default:
            throw .unsupported("\(peerId) is not a group or channel")
        }
    }
}
