import AccountNetworking
import CryptoUtils
import Foundation
import NIOPosix
import Network
import Postbox
import PostboxTesting
import SecretApi
import SecretChats
import SyncCore
import TelegramApi
@testable import TelegramCore
import Testing

/// Updates that name a secret chat before this side can open it, in the order a running client can meet them, without
/// a server: the other side's acceptance and first messages arriving before our `requestEncryption` answer is stored
/// (kept in memory, applied when the chat is stored), and messages arriving while we still wait for the acceptance
/// (kept in the record as `early`, opened once the key is known). Nothing is dropped, everything shows in order.
@Suite struct SecretChatEarlyUpdatesTests {
    static let config = SecretChatDHConfig(g: DiffieHellman.telegramGenerator, prime: DiffieHellman.telegramPrime, version: 1)
    static let chatId: Int32 = 1001

    /// A manager over its own Postbox; its network is never used (no request is made here).
    static func manager(_ directory: TemporaryDirectory) throws -> (SecretChatManager, Postbox) {
        registerTelegramCoreTypes()
        let postbox = try Postbox.open(
            accountPath: directory.path + "/account-1",
            encryption: try PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48)),
            globalMessageIds: Namespaces.globalMessageIds)
        let network = AccountNetwork(
            datacenters: [2: .init(host: "127.0.0.1", port: 1, dcId: 2)], defaultMainDc: 2, publicKeys: [],
            store: InMemoryNetworkKeyStore(), group: MultiThreadedEventLoopGroup.singleton)
        return (SecretChatManager(accountPeerId: .user(1), postbox: postbox, network: network), postbox)
    }

    /// Our request, the other side's acceptance of it, and what it sends first (its layer notice and "hello").
    static func exchange() throws -> (SecretChatRequest, Api.EncryptedChat, [Api.EncryptedMessage]) {
        let request = try SecretChatRequest.make(config: config, serverRandom: SecureRandom.bytes(256))
        let acceptance = try SecretChatAcceptance.make(gA: request.gA, config: config, serverRandom: SecureRandom.bytes(256))
        let accepted = Api.EncryptedChat.encryptedChat(
            .init(id: chatId, accessHash: 7, date: 1, adminId: 1, participantId: 2, gAOrB: acceptance.gB,
                  keyFingerprint: acceptance.fingerprint))
        var theirs = SecretChatSession(established: acceptance.established, now: 1)
        let sealed = theirs.send(.decryptedMessage(.init(randomId: 42, ttl: 0, message: "hello")), now: 1)
        #expect(sealed.count == 2, "the layer notice, then the text")
        let messages = sealed.map {
            Api.EncryptedMessage.encryptedMessage(.init(randomId: 0, chatId: chatId, date: 1, bytes: $0.sealed, file: .encryptedFileEmpty))
        }
        return (request, accepted, messages)
    }

    static func shown(_ postbox: Postbox) throws -> [String] {
        try postbox.transactionSync { tx in
            try tx.earlierMessages(peerId: SecretChatRecord.peerId(chatId), before: nil, count: 100).filter { $0.flags.contains(.incoming) }.map(\.text)
        }
    }

    @Test func theAcceptanceAndMessagesBeforeOurAnswerIsStoredAreAppliedWhenItIs() throws {
        let directory = TemporaryDirectory(prefix: "secret-early")
        defer { directory.remove() }
        let (manager, postbox) = try Self.manager(directory)
        let (request, accepted, messages) = try Self.exchange()
        try postbox.transactionSync { tx in
            // The other side's notice, its acceptance, its text: all before our requestEncryption answer is stored.
            _ = try manager.receive(messages[0], tx: tx)
            _ = try manager.applyEncryption(accepted, tx: tx)
            _ = try manager.receive(messages[1], tx: tx)
            #expect(try SecretChatStorage.record(Self.chatId, tx: tx) == nil)
        }
        #expect(try Self.shown(postbox).isEmpty)
        // What `request` does once the answer is in.
        let applied = try postbox.transactionSync { tx in
            try SecretChatStorage.store(
                SecretChatRecord(chatId: Self.chatId, accessHash: 7, peerUserId: 2, phase: .requested(request)), tx: tx)
            return try manager.applyKeptUpdates(chatId: Self.chatId, tx: tx)
        }
        #expect(applied)
        #expect(try Self.shown(postbox) == ["hello"])
        let record = try #require(try manager.record(chatId: Self.chatId))
        #expect(record.session?.held.isEmpty == true && record.early == nil)
        #expect(manager.recentDrops.isEmpty, "\(manager.recentDrops)")
    }

    @Test func messagesBeforeTheAcceptanceAreKeptInTheRecordAndOpenedWithTheKey() throws {
        let directory = TemporaryDirectory(prefix: "secret-early")
        defer { directory.remove() }
        let (manager, postbox) = try Self.manager(directory)
        let (request, accepted, messages) = try Self.exchange()
        try postbox.transactionSync { tx in
            try SecretChatStorage.store(
                SecretChatRecord(chatId: Self.chatId, accessHash: 7, peerUserId: 2, phase: .requested(request)), tx: tx)
            for message in messages { _ = try manager.receive(message, tx: tx) }
        }
        #expect(try manager.record(chatId: Self.chatId)?.early?.count == 2)
        #expect(try Self.shown(postbox).isEmpty)
        try postbox.transactionSync { tx in _ = try manager.applyEncryption(accepted, tx: tx) }
        #expect(try Self.shown(postbox) == ["hello"])
        #expect(try manager.record(chatId: Self.chatId)?.early == nil)
        #expect(manager.recentDrops.isEmpty, "\(manager.recentDrops)")
    }
}
