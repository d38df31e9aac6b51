public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

extension Account {
    /// Counts this account as having seen the channel posts `ids` (one channel's) and stores the counts the server
    /// returns: `messages.getMessagesViews` with `increment`, as Telegram-iOS does for the posts a chat shows
    /// (`AccountViewTracker.updateViewCountForMessageIds`); the server counts each viewer once per post. Posts without
    /// a view count (a supergroup's messages) are skipped; nothing is asked when none is left.
    public func viewChannelPosts(_ ids: [MessageId]) async throws(PeerActionError) {
        guard let peerId = ids.first?.peerId, peerId.namespace == Namespaces.Peer.cloudChannel else { return }
        let counted: [MessageId]
        do {
            counted = try postbox.readTransactionSync { tx in
                try ids.filter { id in
                    guard id.peerId == peerId, id.namespace == Namespaces.Message.cloud else { return false }
                    return try tx.getMessage(id)?.attributes.contains { $0 is ViewCountMessageAttribute } == true
                }
            }
        } catch {
            throw .storage("reading the posts: \(error)")
        }
        guard !counted.isEmpty else { return }
        let (channel, _) = try storedChannel(peerId)
        guard let input = channel.apiInputPeer else { return }
        let answer = try await peerActionRequest(
            Api.functions.messages.getMessagesViews(peer: input, id: counted.map(\.id), increment: true))
        guard case .messageViews(let value) = answer else { return }
        do {
            try postbox.transactionSync { tx in
                for (id, views) in zip(counted, value.views) {
                    guard case .messageViews(let count) = views, let count = count.views else { continue }
                    try ChannelHistory.setViews(count, of: id, transaction: tx)
                }
            }
        } catch {
            throw .storage("storing the view counts: \(error)")
        }
    }
}
