import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// The `InputPeer` for a stored peer (Telegram-iOS `apiInputPeer`): the account itself, a user or a channel with its
/// access hash, or a basic group; `nil` when the peer is unknown or has no access hash.
func apiInputPeer(_ peerId: PeerId, accountPeerId: PeerId, transaction tx: Transaction) throws -> Api.InputPeer? {
    if peerId == accountPeerId { return .inputPeerSelf }
    switch peerId.namespace {
    case Namespaces.Peer.cloudUser:
        guard let user = try tx.getPeer(peerId) as? TelegramUser, let hash = user.accessHash else { return nil }
        return .inputPeerUser(.init(userId: peerId.id.rawValue, accessHash: hash.value))
    case Namespaces.Peer.cloudGroup:
        return .inputPeerChat(.init(chatId: peerId.id.rawValue))
    case Namespaces.Peer.cloudChannel:
        return (try tx.getPeer(peerId) as? TelegramChannel)?.apiInputPeer
    default:
        return nil
    }
}

/// Stores a page of messages with their users and chats (peers first, so authors resolve).
func storeMessagePage(
    messages: [Api.Message], users: [Api.User], chats: [Api.Chat], accountPeerId: PeerId, transaction tx: Transaction
) throws -> [StoreMessage] {
    _ = try UpdateBatchApplier(accountPeerId: accountPeerId).storePeers(users: users, chats: chats, transaction: tx)
    let stored = try messages.compactMap { StoreMessage(apiMessage: $0, accountPeerId: accountPeerId) }.map { message in
        guard case .id(let id) = message.id, try tx.messageIndex(id) != nil, let existing = try tx.getMessage(id) else {
            return message
        }
        return message.keepingLocalState(of: existing)
    }
    if !stored.isEmpty { _ = try tx.addMessages(stored) }
    return stored
}

extension StoreMessage {
    /// The server's copy of a message already stored here, with what only this device knows of it: the `random_id`
    /// it was sent with and its sending bookkeeping (a page fetched while the send was answered must not undo it).
    func keepingLocalState(of existing: Message) -> StoreMessage {
        var merged = self
        merged.globallyUniqueId = merged.globallyUniqueId ?? existing.globallyUniqueId
        if !merged.attributes.contains(where: { $0 is OutgoingMessageInfoAttribute }) {
            merged.attributes += existing.attributes.filter { $0 is OutgoingMessageInfoAttribute }
        }
        return merged
    }
}
