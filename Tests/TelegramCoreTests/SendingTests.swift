import AccountNetworking
import Foundation
import Network
import Postbox
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// Sending through tg-server: enqueued messages show at once, become the server's messages in place (same stable
/// ids), reach the other side once; a refusal is a typed failure; unsent messages survive a stop and are sent once,
/// also when an earlier attempt reached the server (`RANDOM_ID_DUPLICATE`).
@Suite(.serialized) struct SendingTests {
    @Test func enqueuedMessagesAreSentOnceAndKeepTheirPlace() async throws {
        let world = try await AccountIntegrationTests.World()
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622301", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622302", name: "Ben")
        let benPeer = try await AccountIntegrationTests.introduce(phone: "9996622302", name: "Ben", to: ann)
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }

        let views = LockedValue<[[(UInt32, MessageId)]]>([])
        let view = ann.historyView(peerId: ben.peerId).start(next: { view in
            views.withLock { $0.append(view.entries.map { ($0.message.stableId, $0.message.id) }) }
        })
        defer { view.dispose() }
        let local = try ann.enqueue(
            [EnqueueMessage(text: "one", entities: [MessageTextEntity(range: 0..<3, type: .bold)]), EnqueueMessage(text: "two"), EnqueueMessage(text: "three")],
            to: ben.peerId)
        #expect(local.allSatisfy { $0.namespace == Namespaces.Message.local })
        try await AccountIntegrationTests.wait("the three sent") {
            try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).allSatisfy { $0.id.namespace == Namespaces.Message.cloud && !$0.flags.contains(.unsent) }
                && (try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).count == 3)
        }
        // The first emission with all three shows the local ids; the last shows the server's, with the same stable ids.
        let emitted = views.withLock { $0 }
        let firstFull = try #require(emitted.first { $0.count == 3 })
        let last = try #require(emitted.last)
        #expect(firstFull.map(\.1.namespace) == [1, 1, 1])
        #expect(last.map(\.1.namespace) == [0, 0, 0])
        #expect(Set(firstFull.map(\.0)) == Set(last.map(\.0)))
        let stored = try AccountIntegrationTests.storedMessages(ann, with: ben.peerId).sorted { $0.id.id < $1.id.id }
        #expect(stored.map(\.text) == ["one", "two", "three"])
        #expect((stored[0].attributes.compactMap { $0 as? TextEntitiesMessageAttribute }.first?.entities) == [MessageTextEntity(range: 0..<3, type: .bold)])
        #expect(stored.allSatisfy { ($0.attributes.compactMap { $0 as? OutgoingMessageInfoAttribute }.first?.acknowledged) == true })
        try await AccountIntegrationTests.wait("Ben has them") { try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 3 }
        #expect(try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).map(\.text).sorted() == ["one", "three", "two"])
        // Counted just after each commit that replaced a local copy: awaited, not read at once (read at once it was 2
        // in one run of fifteen). A fourth count would fail the wait too.
        try await AccountIntegrationTests.wait("the three counted as sent") { ann.pendingMessages.sentCount == 3 }

        // A refusal: an empty message is failed with its reason; the unsent table no longer holds it.
        let empty = try #require(try ann.enqueue([EnqueueMessage(text: "")], to: ben.peerId).first)
        try await AccountIntegrationTests.wait("the empty message failed") {
            try ann.postbox.readTransactionSync { tx in try tx.getMessage(empty)?.flags.contains(.failed) } == true
        }
        let failed = try #require(try ann.postbox.readTransactionSync { tx in try tx.getMessage(empty) })
        #expect(failed.attributes.compactMap { $0 as? SendFailureAttribute }.first?.reason == .messageEmpty)
        #expect(try ann.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty)

        // Offline: enqueued while stopped; one of them already reached the server (its answer was lost).
        await ann.shutdown()
        let pending = try ann.enqueue([EnqueueMessage(text: "after restart"), EnqueueMessage(text: "already there")], to: ben.peerId)
        let duplicate = try #require(try ann.postbox.readTransactionSync { tx in try tx.getMessage(pending[1])?.globallyUniqueId })
        ann.network.reopen()  // closed by the shutdown; this call stands for the earlier attempt's
        _ = try await ann.network.request(Api.functions.messages.sendMessage(peer: benPeer, message: "already there", randomId: duplicate))
        ann.start()
        try await AccountIntegrationTests.wait("Ben has both, once") {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count == 5
        }
        try await AccountIntegrationTests.wait("Ann's copies settled") {
            let mine = try AccountIntegrationTests.storedMessages(ann, with: ben.peerId)
            return mine.filter { $0.text == "after restart" || $0.text == "already there" }.count == 2
                && mine.allSatisfy { $0.id.namespace == Namespaces.Message.cloud || $0.flags.contains(.failed) }
        }
        try await Task.sleep(for: .milliseconds(300))
        let texts = try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).map(\.text)
        #expect(texts.filter { $0 == "already there" }.count == 1 && texts.filter { $0 == "after restart" }.count == 1)
        try await world.close([ann, ben])
    }

    @Test func aContactImportedByNumberCanBeWrittenTo() async throws {
        let world = try await AccountIntegrationTests.World()
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622303", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: "9996622304", name: "Ben")
        #expect(try await ann.importContact(phone: "9996622399", firstName: "Nobody") == nil)
        let benId = try #require(try await ann.importContact(phone: "9996622304", firstName: "Ben"))
        #expect(benId == ben.peerId)
        let stored = try ann.postbox.readTransactionSync { tx in try tx.getPeer(benId) as? TelegramUser }
        #expect(stored?.accessHash != nil, "the user is stored with what addressing them needs")
        ann.start()
        ben.start()
        try await AccountIntegrationTests.wait("both states") { ann.stateManager.hasCaughtUp && ben.stateManager.hasCaughtUp }
        let local = try #require(try ann.enqueue([EnqueueMessage(text: "found you")], to: benId).first)
        try await AccountIntegrationTests.wait("Ben has it", explain: {
            let message = try? ann.postbox.readTransactionSync { tx in try tx.getMessage(local) }
            return "Ann's local message: \(message.map { "\($0.flags) \($0.attributes)" } ?? "gone")"
        }) {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).contains { $0.text == "found you" }
        }
        try await world.close([ann, ben])
    }
}
