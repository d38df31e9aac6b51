public import Postbox
import SyncCore
import TelegramApi

extension Account {
    /// Joins the public channel or supergroup `peerId` (`channels.joinChannel`; Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/JoinChannel.swift`) and applies what the server returns: the channel
    /// as a member sees it and, in a supergroup, the join's service message; then its dialog (`refreshDialog`: the
    /// read state, the newest message, the pts), best effort — the join stands if that fails. A private channel
    /// answers `CHANNEL_PRIVATE` (it takes an invite link).
    public func joinChannel(_ peerId: PeerId) async throws(PeerActionError) {
        let (_, input) = try storedChannel(peerId)
        let result = try await peerActionRequest(Api.functions.channels.joinChannel(channel: input))
        guard case .chatInviteJoinResultOk(let value) = result else {
            throw .storage("channels.joinChannel answered with \(result)")
        }
        try applyActionUpdates(value.updates)
        try? await refreshDialog(peerId)
    }

    /// Joins the public channel or supergroup with the username `name`: `contacts.resolveUsername`, then
    /// `channels.joinChannel`. Returns the channel's peer id; a username of a user is `.unsupported`.
    public func joinChannel(username name: String) async throws(PeerActionError) -> PeerId {
        let peerId = try await resolvePeer(username: name)
        guard peerId.namespace == Namespaces.Peer.cloudChannel else {
            throw .unsupported("@\(name) is not a channel or supergroup")
        }
        try await joinChannel(peerId)
        return peerId
    }

    /// Leaves the channel, supergroup or basic group `peerId`: `channels.leaveChannel`, or for a basic group
    /// `messages.deleteChatUser` naming oneself (Telegram-iOS `TelegramCore/Sources/TelegramEngine/Peers/
    /// RemovePeerChat.swift`). The creator of a channel stays its owner after leaving, as in Telegram.
    public func leave(_ peerId: PeerId) async throws(PeerActionError) {
        switch peerId.namespace {
        case Namespaces.Peer.cloudChannel:
            let (_, input) = try storedChannel(peerId)
            try applyActionUpdates(try await peerActionRequest(Api.functions.channels.leaveChannel(channel: input)))
        case Namespaces.Peer.cloudGroup:
            try applyActionUpdates(
                try await peerActionRequest(
                    Api.functions.messages.deleteChatUser(chatId: peerId.id.rawValue, userId: .inputUserSelf)))
        default:
            throw .unsupported("\(peerId) is not a group or channel")
        }
    }
}
