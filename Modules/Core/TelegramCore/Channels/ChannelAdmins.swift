public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi

extension Account {
    /// Makes `user` an admin of the channel or supergroup `peerId` with `rights` and an optional title `rank` (at most
    /// 16 characters), or — with no rights — takes their admin rights away (`channels.editAdmin`; Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/ChannelAdmins.swift`, `updateChannelAdminRights`). Only admins with
    /// `add_admins` may, and only with rights they hold themselves (`RIGHT_FORBIDDEN`); the user must be a member
    /// (`USER_NOT_PARTICIPANT`).
    public func setAdmin(
        _ user: PeerId, in peerId: PeerId, rights: TelegramChatAdminRightsFlags, rank: String? = nil
    ) async throws(PeerActionError) {
        let (_, input) = try storedChannel(peerId)
        let updates = try await peerActionRequest(
            Api.functions.channels.editAdmin(
                channel: input, userId: try inputUser(user),
                adminRights: TelegramChatAdminRights(rights: rights).apiAdminRights, rank: rights.isEmpty ? nil : rank))
        try applyActionUpdates(updates)
    }
}
