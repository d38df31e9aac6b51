import Foundation
import Postbox
import PostboxTesting
import SQLite
import Synchronization
import Testing

/// The global message id index: ids of the declared (peer, message) namespaces find their chat; other namespaces
/// are not indexed; moves, deletes and the upgrade from version 2 keep it right.
@Suite struct GlobalMessageIdsTests {
    /// Users (0) and basic groups (1), cloud namespace 0: as TelegramCore declares them.
    static let global: Set<GlobalMessageIdsNamespace> = [
        GlobalMessageIdsNamespace(peerNamespace: .init(rawValue: 0), messageNamespace: 0),
        GlobalMessageIdsNamespace(peerNamespace: .init(rawValue: 1), messageNamespace: 0),
    ]

    static func open(_ directory: TemporaryDirectory, progress: ((Float) -> Void)? = nil) throws -> Postbox {
        try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey, globalMessageIds: global, progress: progress)
    }

    @Test func idsOfDeclaredNamespacesFindTheirChat() throws {
        registerPostboxTestTypes()
        let directory = TemporaryDirectory(prefix: "global-ids")
        defer { directory.remove() }
        let postbox = try Self.open(directory)
        let user = peer(10), group = peer(20, namespace: 1), channel = peer(30, namespace: 2)
        try postbox.transactionSync { tx in
            try tx.addMessages([
                message(user, 100), message(group, 101), message(channel, 102), message(user, 103, namespace: 1),
            ])
        }
        let found = try postbox.readTransactionSync { tx in try tx.messageIds(globalIds: [100, 101, 102, 103, 999], namespace: 0) }
        #expect(found == [MessageId(peerId: user, namespace: 0, id: 100), MessageId(peerId: group, namespace: 0, id: 101)])
        // A local message that becomes the server's (as a sent message does) is indexed under its new id.
        try postbox.transactionSync { tx in
            try tx.updateMessage(MessageId(peerId: user, namespace: 1, id: 103)) { old in
                var moved = old.toStoreMessage()
                moved.id = .id(MessageId(peerId: user, namespace: 0, id: 104))
                return moved
            }
        }
        // Deleting by global id removes the messages and their index entries.
        let deleted = try postbox.transactionSync { tx in try tx.deleteMessages(globalIds: [101, 104, 102], namespace: 0) }
        #expect(deleted == [MessageId(peerId: group, namespace: 0, id: 101), MessageId(peerId: user, namespace: 0, id: 104)])
        let (groupMessage, channelMessage, left) = try postbox.readTransactionSync { tx in
            (
                try tx.getMessage(MessageId(peerId: group, namespace: 0, id: 101)),
                try tx.getMessage(MessageId(peerId: channel, namespace: 0, id: 102)),
                try tx.messageIds(globalIds: [100, 101, 104], namespace: 0)
            )
        }
        #expect(groupMessage == nil)
        #expect(channelMessage != nil, "a channel's ids are its own")
        #expect(left == [MessageId(peerId: user, namespace: 0, id: 100)])
    }

    @Test func aPostboxOpenedWithoutNamespacesIndexesNothing() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { tx in try tx.addMessages([message(peer(10), 100)]) }
        #expect(try postbox.readTransactionSync { tx in try tx.messageIds(globalIds: [100], namespace: 0) }.isEmpty)
    }

    @Test func theUpgradeFromVersionTwoIndexesStoredMessages() throws {
        registerPostboxTestTypes()
        let directory = TemporaryDirectory(prefix: "global-ids")
        defer { directory.remove() }
        let postbox = try Self.open(directory)
        try postbox.transactionSync { tx in
            try tx.addMessages((1...2500).map { message(peer(Int64($0 % 7)), Int32($0)) })
        }
        try postbox.checkpoint(truncate: true)
        // Make it a version-2 database: no global id rows, user version 2.
        let database = try Database(path: postbox.databasePath)
        try database.applyKey(Database.CipherKey(key: testKey.key, salt: testKey.salt)!)
        try database.execute("DELETE FROM t5; UPDATE t0 SET value = x'0200000000000000' WHERE key = x'00000001'")
        #expect(try postbox.readTransactionSync { tx in try tx.messageIds(globalIds: [1], namespace: 0) }.isEmpty)
        let progress = Mutex<[Float]>([])
        let upgraded = try Self.open(directory) { value in progress.withLock { $0.append(value) } }
        #expect(try upgraded.schemaVersion() == 6)
        let found = try upgraded.readTransactionSync { tx in try tx.messageIds(globalIds: Array(1...2500), namespace: 0) }
        #expect(found.count == 2500)
        #expect(found.first == MessageId(peerId: peer(1), namespace: 0, id: 1))
        let steps = progress.withLock { $0 }
        #expect(steps.count >= 3 && steps == steps.sorted() && steps.last == 1)
    }
}
