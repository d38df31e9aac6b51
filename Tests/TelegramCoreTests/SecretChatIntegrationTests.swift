import AccountNetworking
import Foundation
import Network
import Postbox
import PostboxTesting
import SecretChats
import SyncCore
import TelegramApi
import TelegramCore
import Synchronization
import Testing

/// Two of our accounts hold a secret chat through a real tg-server on 127.0.0.1: the key exchange through
/// `updateEncryption`, 250 messages both ways with a re-key in the middle (`SecretChatRekeyPolicy.standard`: 100
/// messages), a restart of one side, a transmission dropped on the way recovered through
/// `decryptedMessageActionResend`, the messages stored and found by search like any other.
@Suite(.serialized) struct SecretChatIntegrationTests {
    typealias Support = AccountIntegrationTests

    static func texts(_ account: Account, chatId: Int32, incoming: Bool) throws -> [String] {
        try Support.storedMessages(account, with: SecretChatRecord.peerId(chatId))
            .filter { $0.flags.contains(.incoming) == incoming }
            .sorted { $0.index < $1.index }
            .map(\.text)
    }

    @Test func twoAccountsHoldASecretChatThroughTgServer() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996632001", name: "Ann")
        var ben = try await Support.signUp(world, phone: "9996632002", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        let benPeer = try await Support.introduce(phone: "9996632002", name: "Ben", to: ann)
        guard case .inputPeerUser(let benUser) = benPeer else { throw CancellationError() }

        // The key exchange: Ann asks, Ben hears of it through updateEncryption and accepts, Ann completes.
        let chatId = try await ann.secretChats.request(userId: benUser.userId, accessHash: benUser.accessHash)
        try await Support.wait("Ben has the request") {
            if case .incoming? = try ben.secretChats.record(chatId: chatId)?.phase { return true }
            return false
        }
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active") { try ann.secretChats.record(chatId: chatId)?.session != nil }
        let annView = try #require(try ann.secretChats.visualization(chatId: chatId))
        let benView = try #require(try ben.secretChats.visualization(chatId: chatId))
        #expect(annView == benView && annView.emoji.count == 4)
        let firstFingerprint = try #require(try ann.secretChats.record(chatId: chatId)?.session?.key.fingerprint)

        // 125 messages each way, Ben restarted after the first 60.
        for index in 0..<125 {
            if index == 60 {
                await ben.shutdown()
                let restarted = try AccountManager(
                    rootPath: world.root.path, environment: world.manager.environment,
                    stateConfiguration: world.manager.stateConfiguration)
                ben = try restarted.account(ben.id)
                ben.start()
            }
            try await ann.secretChats.send(text: "from Ann \(index)", chatId: chatId)
            try await ben.secretChats.send(text: "from Ben \(index)", chatId: chatId)
        }
        let benNow = ben
        try await Support.wait("Ben has Ann's 125", timeout: 60, explain: { "\((try? Self.texts(benNow, chatId: chatId, incoming: true).count) ?? -1)" }) {
            try Self.texts(benNow, chatId: chatId, incoming: true).count == 125
        }
        try await Support.wait("Ann has Ben's 125", timeout: 60, explain: { "\((try? Self.texts(ann, chatId: chatId, incoming: true).count) ?? -1)" }) {
            try Self.texts(ann, chatId: chatId, incoming: true).count == 125
        }
        #expect(try Self.texts(benNow, chatId: chatId, incoming: true) == (0..<125).map { "from Ann \($0)" })
        #expect(try Self.texts(ann, chatId: chatId, incoming: true) == (0..<125).map { "from Ben \($0)" })
        // The re-key's last step (Ann's commitKey, core.telegram.org "Perfect Forward Secrecy") may still be on its way
        // when the texts are in: on the loopback it can follow Ann's last message. Both sides end on one new key.
        try await Support.wait("both sides on the re-keyed key") {
            let keys = (
                try ann.secretChats.record(chatId: chatId)?.session?.key,
                try benNow.secretChats.record(chatId: chatId)?.session?.key
            )
            return keys.0 != nil && keys.0 == keys.1 && keys.0?.fingerprint != firstFingerprint
        }
        let annSession = try #require(try ann.secretChats.record(chatId: chatId)?.session)
        let benSession = try #require(try benNow.secretChats.record(chatId: chatId)?.session)
        #expect(annSession.rekeyCount >= 1, "re-keyed after 100 messages")
        #expect(annSession.key == benSession.key && annSession.key.fingerprint != firstFingerprint)
        #expect(annSession.visualization == annView)
        try await Support.wait("the qts queue acknowledged") { ann.secretChats.acknowledgedQts >= 125 }

        // A transmission lost between Ann and the relay (the first one after this point: the message below, or a
        // protocol message a concurrent flush sends just before it): Ben sees the gap at the next message and asks;
        // Ann sends it again.
        let once = DropOnce()
        ann.secretChats.dropTransmissions { _, _ in once.take() }
        try await ann.secretChats.send(text: "lost on the way", chatId: chatId)
        try await ann.secretChats.send(text: "after the loss", chatId: chatId)
        try await Support.wait("Ben recovered the lost message", timeout: 30) {
            try Self.texts(benNow, chatId: chatId, incoming: true).suffix(2) == ["lost on the way", "after the loss"]
        }
        #expect(ann.secretChats.resentCount >= 1, "the lost transmission came back through a resend request")

        // Secret messages are searchable like any other.
        let found = try benNow.postbox.readTransactionSync { tx in try tx.searchMessages("loss", limit: 10) }
        #expect(found.map(\.text) == ["after the loss"])
        #expect(found.first?.id.peerId == SecretChatRecord.peerId(chatId))
        try await world.close([ann, benNow])
    }

    /// A message with a 5 s TTL disappears on both sides 5 s after Ben reads it, in real time, although Ben restarts
    /// in between (the timers live in Postbox); a message without a TTL stays.
    @Test func aMessageWithATTLDisappearsOnBothSides() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996632003", name: "Ann")
        var ben = try await Support.signUp(world, phone: "9996632004", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        guard case .inputPeerUser(let benUser) = try await Support.introduce(phone: "9996632004", name: "Ben", to: ann) else {
            throw CancellationError()
        }
        let chatId = try await ann.secretChats.request(userId: benUser.userId, accessHash: benUser.accessHash)
        try await Support.wait("Ben has the request") { try ben.secretChats.record(chatId: chatId) != nil }
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active") { try ann.secretChats.record(chatId: chatId)?.session != nil }

        try await ann.secretChats.send(text: "stays", chatId: chatId)
        // The chat's TTL, set by Ann, reaches Ben's side too; the next message carries it.
        try await ann.secretChats.setMessageTTL(5, chatId: chatId)
        try await ann.secretChats.send(text: "vanishes in 5 s", chatId: chatId)
        try await Support.wait("Ben knows the chat's TTL") { try ben.secretChats.record(chatId: chatId)?.messageTTL == 5 }
        let benBefore = ben
        try await Support.wait("Ben has both") { try Self.texts(benBefore, chatId: chatId, incoming: true).count == 2 }
        try await Task.sleep(for: .seconds(1))
        #expect(try Self.texts(benBefore, chatId: chatId, incoming: true) == ["stays", "vanishes in 5 s"], "unread: no timer yet")
        let readAt = Date()
        try await ben.secretChats.markRead(chatId: chatId)
        await ben.shutdown()
        let restarted = try AccountManager(
            rootPath: world.root.path, environment: world.manager.environment, stateConfiguration: world.manager.stateConfiguration)
        ben = try restarted.account(ben.id)
        ben.start()
        let benNow = ben
        try await Support.wait("gone at Ben's", timeout: 15) { try Self.texts(benNow, chatId: chatId, incoming: true) == ["stays"] }
        try await Support.wait("gone at Ann's", timeout: 15) { try Self.texts(ann, chatId: chatId, incoming: false) == ["stays"] }
        #expect(Date().timeIntervalSince(readAt) >= 4.9, "not before its time")
        try await world.close([ann, benNow])
    }

    /// With both devices' clocks two hours ahead, a message with a 2 s TTL still disappears about 2 s after Ben reads
    /// it: the timers are dated and waited on the same (device) clock (the wait once used the wall clock, and a
    /// device set hours ahead waited hours).
    @Test func aTTLRunsOnTheDevicesClockWhereverItIsSet() async throws {
        let world = try await Support.World(deviceClock: { Date().timeIntervalSince1970 + 7_200 })
        let ann = try await Support.signUp(world, phone: "9996632013", name: "Ann")
        let ben = try await Support.signUp(world, phone: "9996632014", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        guard case .inputPeerUser(let benUser) = try await Support.introduce(phone: "9996632014", name: "Ben", to: ann) else {
            throw CancellationError()
        }
        let chatId = try await ann.secretChats.request(userId: benUser.userId, accessHash: benUser.accessHash)
        try await Support.wait("Ben has the request") { try ben.secretChats.record(chatId: chatId) != nil }
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active") { try ann.secretChats.record(chatId: chatId)?.session != nil }
        try await ann.secretChats.setMessageTTL(2, chatId: chatId)
        try await ann.secretChats.send(text: "vanishes in 2 s", chatId: chatId)
        try await Support.wait("Ben has it") { try Self.texts(ben, chatId: chatId, incoming: true) == ["vanishes in 2 s"] }
        let readAt = Date()
        try await ben.secretChats.markRead(chatId: chatId)
        try await Support.wait("gone at Ben's", timeout: 10) { try Self.texts(ben, chatId: chatId, incoming: true).isEmpty }
        #expect(Date().timeIntervalSince(readAt) >= 1.9, "not before its time")
        try await world.close([ann, ben])
    }

    /// A file each way: encrypted with its own key and IV, uploaded in parts, announced with its fingerprint, and
    /// downloaded and decrypted by the other side to the same bytes. The relay stores only ciphertext.
    @Test func aFileGoesEachWay() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996632005", name: "Ann")
        let ben = try await Support.signUp(world, phone: "9996632006", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        guard case .inputPeerUser(let benUser) = try await Support.introduce(phone: "9996632006", name: "Ben", to: ann) else {
            throw CancellationError()
        }
        let chatId = try await ann.secretChats.request(userId: benUser.userId, accessHash: benUser.accessHash)
        try await Support.wait("Ben has the request") { try ben.secretChats.record(chatId: chatId) != nil }
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active") { try ann.secretChats.record(chatId: chatId)?.session != nil }

        for (sender, receiver, size) in [(ann, ben, 700 * 1024 + 5), (ben, ann, 12_345)] {
            let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) }
            let path = world.root.path + "/send-\(size).bin"
            try Data(content).write(to: URL(fileURLWithPath: path))
            try await sender.secretChats.sendFile(path: path, name: "report-\(size).bin", mimeType: "application/octet-stream", chatId: chatId)
            try await Support.wait("the file message arrived") {
                try Self.texts(receiver, chatId: chatId, incoming: true).contains("report-\(size).bin")
            }
            let message = try #require(
                try Support.storedMessages(receiver, with: SecretChatRecord.peerId(chatId)).first { $0.text == "report-\(size).bin" })
            let randomId = try #require(message.globallyUniqueId)
            let file = try #require(try receiver.secretChats.receivedFile(chatId: chatId, randomId: randomId))
            #expect(file.size == Int64(size) && file.name == "report-\(size).bin")
            let downloaded = try await receiver.secretChats.download(file)
            #expect(downloaded == content)
            // What the server holds is not the file.
            let raw = try await receiver.network.request(
                Api.functions.upload.getFile(location: .inputEncryptedFileLocation(.init(id: file.id, accessHash: file.accessHash)), offset: 0, limit: 4096),
                dc: file.dc)
            if case .file(let body) = raw { #expect(Array(body.bytes.prefix(64)) != Array(content.prefix(64))) }
        }
        try await world.close([ann, ben])
    }

    /// What someone between the accounts could do, through the relay: a modified ciphertext, a wrong key
    /// fingerprint, a replayed message — each refused as the security guidelines require and never shown.
    @Test func tamperedReplayedAndForeignMessagesAreNeverShown() async throws {
        let world = try await Support.World()
        let ann = try await Support.signUp(world, phone: "9996632007", name: "Ann")
        let ben = try await Support.signUp(world, phone: "9996632008", name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        guard case .inputPeerUser(let benUser) = try await Support.introduce(phone: "9996632008", name: "Ben", to: ann) else {
            throw CancellationError()
        }
        let chatId = try await ann.secretChats.request(userId: benUser.userId, accessHash: benUser.accessHash)
        try await Support.wait("Ben has the request") { try ben.secretChats.record(chatId: chatId) != nil }
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active") { try ann.secretChats.record(chatId: chatId)?.session != nil }
        try await ann.secretChats.send(text: "real", chatId: chatId)
        try await Support.wait("Ben has it") { try Self.texts(ben, chatId: chatId, incoming: true) == ["real"] }

        let record = try #require(try ann.secretChats.record(chatId: chatId))
        let session = try #require(record.session)
        let delivered = try #require(try ann.postbox.readTransactionSync { tx in try tx.keychainEntryForKey("secret-chat:\(chatId):out:1") })
        let peer = Api.InputEncryptedChat.inputEncryptedChat(.init(chatId: chatId, accessHash: record.accessHash))
        var tampered = session.reseal(delivered)
        tampered[tampered.count - 20] ^= 0x04
        var foreign = session.reseal(delivered)
        foreign[3] ^= 0x10
        let replayed = session.reseal(delivered)
        for (index, data) in [tampered, foreign, replayed].enumerated() {
            _ = try await ann.network.request(Api.functions.messages.sendEncrypted(peer: peer, randomId: Int64(900 + index), data: data))
        }
        try await Support.wait("all three seen and dropped", explain: { "\(ben.secretChats.recentDrops)" }) {
            let drops = ben.secretChats.recentDrops
            return drops.contains(.crypto(.messageKeyMismatch)) && drops.contains { if case .crypto(.unknownFingerprint) = $0 { true } else { false } }
                && drops.contains { if case .duplicate = $0 { true } else { false } }
        }
        try await ann.secretChats.send(text: "after", chatId: chatId)
        try await Support.wait("the chat goes on") { try Self.texts(ben, chatId: chatId, incoming: true) == ["real", "after"] }
        try await world.close([ann, ben])
    }
}

/// True the first time only.
final class DropOnce: Sendable {
    private let done = Mutex(false)

    func take() -> Bool {
        done.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
