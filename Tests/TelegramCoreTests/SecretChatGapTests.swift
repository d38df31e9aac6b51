import Foundation
import Postbox
import PostboxTesting
import SecretChats
import Synchronization
import TelegramApi
import TelegramCore
import Testing

/// The shell's side of the gap bound (`SecretChatManager+Gaps`), through a real tg-server: a transmission lost and
/// its resend lost too (a peer that cannot resend, to the receiver) — the receiver asks, waits
/// `SecretChatSession.gapTimeout` (30 s, real time: the manager's own timer wakes it, no message arrives meanwhile),
/// then shows what it held, and the chat goes on both ways.
@Suite(.serialized) struct SecretChatGapTests {
    typealias Support = AccountIntegrationTests

    /// Ann and Ben signed up and following the server; Ann has asked Ben for a secret chat and Ben has the request.
    static func requested(_ world: Support.World, phones: (String, String)) async throws -> (Account, Account, Int32) {
        let ann = try await Support.signUp(world, phone: phones.0, name: "Ann")
        let ben = try await Support.signUp(world, phone: phones.1, name: "Ben")
        ann.start()
        ben.start()
        try await Support.wait("both first states", timeout: 60) {
            ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp
        }
        let benPeer = try await Support.introduce(phone: phones.1, name: "Ben", to: ann)
        guard case .inputPeerUser(let benUser) = benPeer else { throw CancellationError() }
        let chatId = try await ann.secretChats.request(userId: benUser.userId, accessHash: benUser.accessHash)
        try await Support.wait("Ben has the request", timeout: 60) {
            if case .incoming? = try ben.secretChats.record(chatId: chatId)?.phase { return true }
            return false
        }
        return (ann, ben, chatId)
    }

    /// A sent secret message shows at the date the server gave it (`messages.sentEncryptedMessage`), as Telegram-iOS
    /// shows it and as the other side's copy has it — not at this device's clock, which here is two hours ahead of
    /// the server's (the simulation found Ann's message listed after Ben's later answers).
    @Test func aSentMessageTakesTheServersDateOnBothSides() async throws {
        let world = try await Support.World(serverClock: { Date().timeIntervalSince1970 - 7_200 })
        let (ann, ben, chatId) = try await Self.requested(world, phones: ("9996632041", "9996632042"))
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active") { try ann.secretChats.record(chatId: chatId)?.session != nil }
        let id = try await ann.secretChats.send(text: "at the server's time", chatId: chatId)
        let peer = SecretChatRecord.peerId(chatId)
        try await Support.wait("Ben has it") {
            try Support.storedMessages(ben, with: peer).contains { $0.text == "at the server's time" }
        }
        let sent = try #require(try ann.postbox.readTransactionSync { tx in try tx.getMessage(id) })
        let received = try #require(try Support.storedMessages(ben, with: peer).first { $0.text == "at the server's time" })
        #expect(sent.timestamp == received.timestamp)
        #expect(abs(Double(sent.timestamp) - (Date().timeIntervalSince1970 - 7_200)) < 60)
        try await world.close([ann, ben])
    }

    @Test func aGapNoResendFillsIsGivenUpByTheManagersTimer() async throws {
        let world = try await Support.World()
        let (ann, ben, chatId) = try await Self.requested(world, phones: ("9996634001", "9996634002"))
        try await ben.secretChats.accept(chatId: chatId)
        try await Support.wait("Ann's chat is active", timeout: 60) {
            try ann.secretChats.record(chatId: chatId)?.session != nil
        }
        // Layers exchanged and everything delivered before the losses start.
        try await ann.secretChats.send(text: "hello", chatId: chatId)
        try await ben.secretChats.send(text: "hi", chatId: chatId)
        try await Support.wait("both first messages shown", timeout: 60) {
            try SecretChatIntegrationTests.texts(ben, chatId: chatId, incoming: true) == ["hello"]
                && SecretChatIntegrationTests.texts(ann, chatId: chatId, incoming: true) == ["hi"]
        }

        // Ann's next transmission is lost, the one after it arrives, and every later one (her resends) is lost.
        let calls = Mutex(0)
        ann.secretChats.dropTransmissions { _, _ in
            calls.withLock { count in
                defer { count += 1 }
                return count != 1
            }
        }
        try await ann.secretChats.send(text: "lost", chatId: chatId)
        try await ann.secretChats.send(text: "after the loss", chatId: chatId)
        try await Support.wait("Ben holds what came after the loss", timeout: 60) {
            try ben.secretChats.record(chatId: chatId)?.session?.gapDeadline != nil
        }
        let held = Date()
        try await Support.wait(
            "Ben shows it once the gap is given up", timeout: Double(SecretChatSession.gapTimeout) + 60,
            explain: { "\(ben.secretChats.recentDrops)" }
        ) { try SecretChatIntegrationTests.texts(ben, chatId: chatId, incoming: true) == ["hello", "after the loss"] }
        #expect(Date().timeIntervalSince(held) >= Double(SecretChatSession.gapTimeout) - 2, "not before the bound")
        #expect(ann.secretChats.resentCount >= 1, "Ben asked; Ann's resend was lost")
        #expect(ben.secretChats.recentDrops.contains { if case .gapSkipped = $0 { true } else { false } })
        let session = try #require(try ben.secretChats.record(chatId: chatId)?.session)
        #expect(session.held.isEmpty && session.gapDeadline == nil)

        // The chat goes on both ways.
        ann.secretChats.dropTransmissions(nil)
        try await ann.secretChats.send(text: "again", chatId: chatId)
        try await ben.secretChats.send(text: "back", chatId: chatId)
        try await Support.wait("the chat goes on", timeout: 60) {
            try SecretChatIntegrationTests.texts(ben, chatId: chatId, incoming: true)
                == ["hello", "after the loss", "again"]
                && SecretChatIntegrationTests.texts(ann, chatId: chatId, incoming: true) == ["hi", "back"]
        }
        try await world.close([ann, ben])
    }
    /// The accepting side may send before its acceptance reaches the one who asked — and a difference lists the
    /// encrypted messages before `updateEncryption`. Ann is offline while Ben accepts and writes; when she comes
    /// back, one difference brings both: what Ben wrote is kept until the key is known, then shown, nothing skipped.
    @Test func aMessageThatArrivesBeforeTheAcceptanceIsShownOnceTheKeyIsKnown() async throws {
        let world = try await Support.World()
        let (asking, ben, chatId) = try await Self.requested(world, phones: ("9996634003", "9996634004"))
        await asking.shutdown()
        try await ben.secretChats.accept(chatId: chatId)
        try await ben.secretChats.send(text: "written before you knew", chatId: chatId)

        let restarted = try AccountManager(
            rootPath: world.root.path, environment: world.manager.environment,
            stateConfiguration: world.manager.stateConfiguration)
        let annNow = try restarted.account(asking.id)
        annNow.start()
        try await Support.wait(
            "Ann shows Ben's first message", timeout: 20,
            explain: { "drops \(annNow.secretChats.recentDrops), phase \(String(describing: try? annNow.secretChats.record(chatId: chatId)?.phase))" }
        ) {
            try Support.storedMessages(annNow, with: SecretChatRecord.peerId(chatId)).contains { $0.text == "written before you knew" }
        }
        let session = try #require(try annNow.secretChats.record(chatId: chatId)?.session)
        #expect(session.held.isEmpty)
        #expect(try annNow.secretChats.record(chatId: chatId)?.early == nil)
        #expect(!annNow.secretChats.recentDrops.contains { if case .gapSkipped = $0 { true } else { false } })
        try await world.close([annNow, ben])
    }
}
