public import Postbox
import SyncCore
import TelegramApi

extension Account {
    /// Renames the channel, supergroup or basic group `peerId`: `channels.editTitle` (admins with `change_info`) or
    /// `messages.editChatTitle` (Telegram-iOS `TelegramCore/Sources/TelegramEngine/Peers/UpdateGroupTitle.swift`);
    /// the new title and its service message are applied from the server's updates.
    public func rename(_ peerId: PeerId, title: String) async throws(PeerActionError) {
        switch peerId.namespace {
        case Namespaces.Peer.cloudChannel:
            let (_, input) = try storedChannel(peerId)
            try applyActionUpdates(
                try await peerActionRequest(Api.functions.channels.editTitle(channel: input, title: title)))
        case Namespaces.Peer.cloudGroup:
            try applyActionUpdates(
                try await peerActionRequest(
                    Api.functions.messages.editChatTitle(chatId: peerId.id.rawValue, title: title)))
        default:
            throw .unsupported("\(peerId) is not a group or channel")
        }
    }
}
