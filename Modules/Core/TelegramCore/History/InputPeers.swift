import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// The `InputPeer` for a stored peer (Telegram-iOS `apiInputPeer`): the account itself, a user with its access hash, or
/// a basic group; `nil` when the peer is unknown or a user has no access hash.
func apiInputPeer(_ peerId: PeerId, accountPeerId: PeerId, transaction tx: Transaction) throws -> Api.InputPeer? {
    if peerId == accountPeerId { return .inputPeerSelf }
    switch peerId.namespace {
    case Namespaces.Peer.cloudUser:
        guard let user = try tx.getPeer(peerId) as? TelegramUser, let hash = user.accessHash else { return nil }
        return .inputPeerUser(.init(userId: peerId.id.rawValue, accessHash: hash.value))
    case Namespaces.Peer.cloudGroup:
        return .inputPeerChat(.init(chatId: peerId.id.rawValue))
    default:
        return nil
    }
}

/// Stores a page of messages with their users and chats (peers first, so authors resolve).
func storeMessagePage(
    messages: [Api.Message], users: [Api.User], chats: [Api.Chat], accountPeerId: PeerId, transaction tx: Transaction
) throws -> [StoreMessage] {
    _ = try UpdateBatchApplier(accountPeerId: accountPeerId).storePeers(users: users, chats: chats, transaction: tx)
    let stored = messages.compactMap { StoreMessage(apiMessage: $0, accountPeerId: accountPeerId) }
    if !stored.isEmpty { _ = try tx.addMessages(stored) }
    return stored
}
