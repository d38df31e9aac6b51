public import Postbox
import SyncCore
import TelegramApi

extension Account {
    /// Creates a basic group with this account and `users` (`messages.createChat`; Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/CreateGroup.swift`), stores the group and applies its
    /// `messageActionChatCreate`. Returns the group's peer id. A basic group needs at least one other member
    /// (`USERS_TOO_FEW`).
    public func createGroup(title: String, users: [PeerId]) async throws(PeerActionError) -> PeerId {
        var inputs: [Api.InputUser] = []
        for user in users { inputs.append(try inputUser(user)) }
        let invited = try await peerActionRequest(Api.functions.messages.createChat(users: inputs, title: title))
        guard case .invitedUsers(let value) = invited,
            let group = Self.chatIds(in: value.updates).first(where: { $0.namespace == Namespaces.Peer.cloudGroup })
        else {
            throw .storage("messages.createChat returned no group")
        }
        try applyActionUpdates(value.updates)
        return group
    }
}
