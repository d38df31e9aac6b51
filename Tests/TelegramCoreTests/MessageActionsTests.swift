import UpdateSequencing
import AccountNetworking
import Foundation
import Network
import Postbox
import PostboxTesting
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// Reading, editing and deleting against tg-server: each shows locally at once, reaches the other account through its
/// pushes, and moves the account's pts in sequence (no gap, so no difference is fetched for it).
@Suite(.serialized) struct MessageActionsTests {
    @Test func readEditAndDeleteReachTheOtherSideInSequence() async throws {
        // A gap waits 30 s here: a pts our calls put out of sequence would stay held and show in the check at the end.
        let world = try await AccountIntegrationTests.World(gapWait: 30)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622601", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622602", name: "Ben")
        let benPeer = try await AccountIntegrationTests.introduce(phone: "9996622602", name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        try ann.enqueue(["one", "two", "three"].map { EnqueueMessage(text: $0) }, to: ben.peerId)
        try await AccountIntegrationTests.wait("Ben has three") { try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 3 }
        try await AccountIntegrationTests.wait("Ann's are sent") { try ann.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty }
        let annDifferences = ann.stateManager.statistics.differences
        let benDifferences = ben.stateManager.statistics.differences
        func unread(_ account: Account, _ peer: PeerId) throws -> Int32? {
            try account.postbox.readTransactionSync { tx in try tx.getCombinedPeerReadState(peer)?.count }
        }
        #expect(try unread(ben, ann.peerId) == 3)

        // Ben reads up to the last: his count drops at once; Ann's outgoing mark follows through her pushes.
        let benLast = try #require(try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).map(\.id.id).max())
        try await ben.markRead(peerId: ann.peerId, upTo: benLast)
        #expect(try unread(ben, ann.peerId) == 0)
        let annIds = try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).map(\.id).sorted { $0.id < $1.id }
        try await AccountIntegrationTests.wait("Ann sees her messages read", explain: {
            let pts = try? ann.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state?.pts }
            return "Ann's pts \(pts.flatMap { $0 }.map(String.init) ?? "-"), \(ann.stateManager.statistics)"
        }) {
            try ann.postbox.readTransactionSync { tx in try tx.getCombinedPeerReadState(ben.peerId)?.states[Namespaces.Message.cloud]?.maxOutgoingReadId } == annIds.last?.id
        }

        // Ann edits the first: Ben's copy shows the new text.
        try await ann.editMessage(annIds[0], text: "one, edited", entities: [MessageTextEntity(range: 0..<3, type: .bold)])
        try await AccountIntegrationTests.wait("Ben sees the edit") {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).contains { $0.text == "one, edited" }
        }
        try await AccountIntegrationTests.wait("Ann's copy edited (the answer goes through her state manager's queue)") {
            try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).contains { $0.text == "one, edited" }
        }
        // The same edit again, as a transport sends it after its answer was lost: the server's MESSAGE_NOT_MODIFIED is
        // success, and nothing changes.
        try await ann.editMessage(annIds[0], text: "one, edited", entities: [MessageTextEntity(range: 0..<3, type: .bold)])
        #expect(try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).filter { $0.text == "one, edited" }.count == 1)
        await #expect(throws: MessageActionError.notSent(MessageId(peerId: ben.peerId, namespace: Namespaces.Message.local, id: 1))) {
            try await ann.editMessage(MessageId(peerId: ben.peerId, namespace: Namespaces.Message.local, id: 1), text: "x")
        }

        // Ann deletes the second for herself: gone from her Postbox at once, still at Ben's.
        try await ann.deleteMessages([annIds[1]], forEveryone: false)
        #expect(try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).map(\.text).sorted() == ["one, edited", "three"])
        let serverHistory = try await ann.network.request(
            Api.functions.messages.getHistory(peer: benPeer, offsetId: 0, offsetDate: 0, addOffset: 0, limit: 10, maxId: 0, minId: 0, hash: 0))
        guard case .messages(let page) = serverHistory else { Issue.record("unexpected \(serverHistory)"); return }
        #expect(page.messages.count == 2, "the server deleted it from Ann's box")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 3)

        // Ann deletes the third for everyone: gone from her Postbox at once, and from Ben's when the server's
        // `updateDeleteMessages` (ids without their chat) reaches him, found through Postbox's global id index.
        try await ann.deleteMessages([annIds[2]], forEveryone: true)
        #expect(try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).map(\.text) == ["one, edited"])
        try await AccountIntegrationTests.wait("Ben's copy of the third deleted") {
            try !AccountIntegrationTests.storedMessages(ben, with: ann.peerId).contains { $0.text == "three" }
        }
        #expect(try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 2)

        // Every pts those calls moved came in sequence: each account reaches the server's pts without a difference.
        for account in [ann, ben] {
            guard case .state(let server) = try await account.network.request(Api.functions.updates.getState()) else { throw CancellationError() }
            try await AccountIntegrationTests.wait("\(account.peerId)'s pts reaches the server's \(server.pts)", timeout: 10) {
                try account.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state?.pts } == server.pts
            }
        }
        #expect(ann.stateManager.statistics.differences == annDifferences)
        #expect(ben.stateManager.statistics.differences == benDifferences)
        try await world.close([ann, ben])
    }

    /// A read and a delete move the account's pts but not its date: the state's date stays the server's, even with the
    /// server's clock two hours behind the device's (the queue once stamped them with the device's clock, and the
    /// state's date, which `getDifference` sends, ran ahead of the server's).
    @Test func aReadAndADeleteLeaveTheStatesDateTheServers() async throws {
        let world = try await AccountIntegrationTests.World(serverClock: { Date().timeIntervalSince1970 - 7_200 })
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622631", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622632", name: "Ben")
        _ = try await AccountIntegrationTests.introduce(phone: "9996622632", name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        try ann.enqueue(["one", "two"].map { EnqueueMessage(text: $0) }, to: ben.peerId)
        try await AccountIntegrationTests.wait("Ben has both") { try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 2 }
        let ids = try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).map(\.id).sorted { $0.id < $1.id }
        func state(_ account: Account) throws -> (pts: Int32, date: Int32)? {
            try account.postbox.readTransactionSync { tx in
                ((try tx.getState() as? AuthorizedAccountState)?.state).map { ($0.pts, $0.date) }
            }
        }
        let before = try #require(try state(ben))
        try await ben.markRead(peerId: ann.peerId, upTo: ids[1].id)
        try await ben.deleteMessages([ids[0]], forEveryone: false)
        try await AccountIntegrationTests.wait("Ben's pts moved by the read and the delete") { try state(ben)?.pts == before.pts + 2 }
        let after = try #require(try state(ben))
        #expect(Double(after.date) < Date().timeIntervalSince1970 - 3_600, "the server's date, not the device's: \(after.date)")
        try await world.close([ann, ben])
    }

    /// Ben reads and deletes while his account is stopped: both show in his Postbox at once and are stored; a new account
    /// manager over the same folder opens the account, and the queue sends them in order, so Ann sees the read mark and
    /// loses the message.
    @Test func aReadAndADeleteMadeWhileStoppedAreSentAfterTheRestart() async throws {
        let world = try await AccountIntegrationTests.World()
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622603", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622604", name: "Ben")
        _ = try await AccountIntegrationTests.introduce(phone: "9996622604", name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        try ann.enqueue(["keep", "drop"].map { EnqueueMessage(text: $0) }, to: ben.peerId)
        try await AccountIntegrationTests.wait("Ben has two") { try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 2 }
        let received = try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).sorted { $0.id.id < $1.id.id }
        try await AccountIntegrationTests.wait("Ann's are sent") { try ann.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty }
        let sent = try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).sorted { $0.id.id < $1.id.id }
        func annsReadMark() throws -> Int32? {
            try ann.postbox.readTransactionSync { tx in
                try tx.getCombinedPeerReadState(ben.peerId)?.states[Namespaces.Message.cloud]?.maxOutgoingReadId
            }
        }
        await ben.shutdown()

        await #expect(throws: MessageActionError.network(.connectionClosed)) {
            try await ben.markRead(peerId: ann.peerId, upTo: received[1].id.id)
        }
        await #expect(throws: MessageActionError.network(.connectionClosed)) {
            try await ben.deleteMessages([received[1].id], forEveryone: true)
        }
        #expect(try ben.postbox.readTransactionSync { tx in try tx.getCombinedPeerReadState(ann.peerId)?.count } == 0)
        #expect(try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).map(\.text) == ["keep"])
        #expect(try ben.actions.pending() == [
            .readHistory(peerId: ann.peerId, maxId: received[1].id.id), .deleteMessages(ids: [received[1].id.id], forEveryone: true),
        ])
        try await Task.sleep(for: .milliseconds(300))
        #expect(try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).count == 2, "nothing reached the server yet")
        #expect(try annsReadMark() ?? 0 < sent[1].id.id)

        let restarted = try AccountManager(rootPath: world.root.path, environment: world.manager.environment)
        let again = try restarted.account(ben.id)
        again.start()
        try await AccountIntegrationTests.wait("Ann sees the read and loses the message", timeout: 30) {
            let mine = try AccountIntegrationTests.storedMessages(ann, with: ben.peerId)
            let readMark = try annsReadMark()
            return mine.map(\.text) == ["keep"] && readMark == sent[1].id.id
        }
        try await AccountIntegrationTests.wait("the queue empties") { try again.actions.pending().isEmpty }
        await again.shutdown()
        try await world.close([ann])
    }
}
