import ServerStore
import TelegramApi

/// Who made a conversation's invite links (core.telegram.org method `messages.getAdminsWithInvites`, "Invite links
/// and join requests"): what its creator needs to list every link, one admin at a time through
/// `messages.getExportedChatInvites` with `admin_id`.
extension ServerBackend {
    /// `messages.getAdminsWithInvites`: each admin with links to the group or channel and how many of them are live
    /// and revoked (`chatAdminWithInvites`), the most links first, with the admins as `users`. Its creator only
    /// (`CHAT_ADMIN_REQUIRED`), as `getExportedChatInvites` for another admin's links is.
    func getAdminsWithInvites(
        _ call: Api.functions.messages.getAdminsWithInvites, caller: Caller
    ) throws -> Api.messages.ChatAdminsWithInvites {
        try store.read { [self] tx throws -> Api.messages.ChatAdminsWithInvites in
            let target = try inviteTarget(call.peer, caller: caller, tx: tx)
            guard target.isCreator(caller.userId) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
            let admins = try tx.inviteAdmins(peerKind: target.kind, peerId: target.id)
            return .chatAdminsWithInvites(
                .init(
                    admins: admins.map {
                        .chatAdminWithInvites(
                            .init(
                                adminId: $0.adminId, invitesCount: Int32(clamping: $0.live),
                                revokedInvitesCount: Int32(clamping: $0.revoked)))
                    }, users: try apiUsers(admins.map(\.adminId), viewer: caller.userId, tx: tx)))
        }
    }
}
