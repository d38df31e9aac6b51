import Postbox
import PostboxTesting
import SyncCore
import TelegramApi
@testable import TelegramCore
import Testing

/// A history page (a hole filled, the chat list's top messages) that brings a message this device already stores
/// keeps what only this device knows of it: the `random_id` it was sent with and its acknowledged send. Without that,
/// a page answered while a send was being answered turned a sent message back into one never acknowledged.
@Suite struct HistoryPageTests {
    @Test func aPageKeepsTheLocalStateOfAMessageAlreadyStored() throws {
        let directory = TemporaryDirectory(prefix: "history-page")
        registerTelegramCoreTypes()
        let postbox = try Postbox.open(
            accountPath: directory.path + "/account-1",
            encryption: try PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48)),
            globalMessageIds: Namespaces.globalMessageIds)
        let me = PeerId.user(1)
        let friend = PeerId.user(2)
        let sent = MessageId(peerId: friend, namespace: Namespaces.Message.cloud, id: 11)
        try postbox.transactionSync { tx in
            _ = try tx.addMessages([
                StoreMessage(
                    id: .id(sent), globallyUniqueId: 77, timestamp: 1, authorId: me, text: "hi",
                    attributes: [OutgoingMessageInfoAttribute(uniqueId: 77, acknowledged: true)])
            ])
        }
        let page = [
            Api.Message.message(.init(out: true, id: 11, peerId: .peerUser(.init(userId: 2)), date: 1, message: "hi")),
            Api.Message.message(.init(id: 12, peerId: .peerUser(.init(userId: 2)), date: 2, message: "new")),
        ]
        try postbox.transactionSync { tx in
            _ = try storeMessagePage(messages: page, users: [], chats: [], accountPeerId: me, transaction: tx)
        }
        try postbox.transactionSync { tx in
            let stored = try #require(try tx.getMessage(sent))
            #expect(stored.globallyUniqueId == 77)
            #expect(stored.attributes.compactMap { $0 as? OutgoingMessageInfoAttribute }.map(\.acknowledged) == [true])
            let fresh = try #require(try tx.getMessage(MessageId(peerId: friend, namespace: Namespaces.Message.cloud, id: 12)))
            #expect(fresh.globallyUniqueId == nil && fresh.attributes.allSatisfy { !($0 is OutgoingMessageInfoAttribute) })
        }
    }
}
