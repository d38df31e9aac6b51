import AccountNetworking
import Foundation
import Network
public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

extension Account {
    /// Searches every chat on the server (`messages.searchGlobal`, Telegram-iOS `searchMessages` with no peer). The
    /// users and chats of the page are stored (so results name their authors and chats); the messages are not, since a
    /// lone message stored in a chat whose history was never loaded would hide the hole the rest must come from.
    /// Returns the found messages newest first; throws the `NetworkError` or the Postbox error. Local search (no
    /// server) is Postbox's `searchMessages`.
    public func searchMessagesOnServer(_ query: String, limit: Int32 = 50) async throws -> [Message] {
        let answer = try await network.request(
            Api.functions.messages.searchGlobal(
                q: query, filter: .inputMessagesFilterEmpty, minDate: 0, maxDate: 0, offsetRate: 0,
                offsetPeer: .inputPeerEmpty, offsetId: 0, limit: limit),
            timeout: 30)
        let (messages, users, chats) = HistoryHoleFetcher.contents(answer)
        let accountPeerId = peerId
        return try postbox.transactionSync { tx in
            _ = try UpdateBatchApplier(accountPeerId: accountPeerId).storePeers(
                users: users, chats: chats, transaction: tx)
            return try messages.compactMap { StoreMessage(apiMessage: $0, accountPeerId: accountPeerId) }.compactMap {
                stored -> Message? in
                guard case .id(let id) = stored.id else { return nil }
                let author = try stored.authorId.flatMap { try tx.getPeer($0) }
                return Message(
                    stableId: 0, stableVersion: 0, id: id, globallyUniqueId: stored.globallyUniqueId,
                    groupingKey: stored.groupingKey,
                    threadId: stored.threadId, timestamp: stored.timestamp, flags: stored.flags, tags: stored.tags,
                    authorId: stored.authorId, author: author, text: stored.text, attributes: stored.attributes,
                    media: stored.media)
            }
            .sorted { $0.index > $1.index }
        }
    }
}
