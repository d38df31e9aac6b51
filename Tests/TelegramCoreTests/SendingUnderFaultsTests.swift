import UpdateSequencing
import Foundation
import Network
import Postbox
import PostboxTesting
import ServerAPI
import ServerTestSupport
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// The pending-message manager when the network misbehaves: 200 messages sent in a burst through a proxy that drops
/// or stalls the connection arrive exactly once each, in order; a `FLOOD_WAIT` on `messages.sendMessage` delays a
/// message and does not fail it.
@Suite(.serialized) struct SendingUnderFaultsTests {
    /// Ann (signed up directly) reopened by a second account manager whose DC 2 is `proxy`; Ben on the direct path.
    static func accounts(through mode: FaultProxy.Mode, seed: UInt64, phones: (String, String)) async throws
        -> (AccountIntegrationTests.World, FaultProxy, Account, Account)
    {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let server = try world.server
        let ann = try await AccountIntegrationTests.signUp(world, phone: phones.0, name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world, phone: phones.1, name: "Ben")
        try await AccountIntegrationTests.introduce(phone: phones.1, name: "Ben", to: ann)
        await ann.shutdown()

        let upstream = try #require(server.endpoints[2]).port
        let proxy = try await FaultProxy(upstreamPort: upstream, mode: mode, seed: seed, group: server.group)
        var endpoints = server.endpoints
        endpoints[2] = .init(host: "127.0.0.1", port: proxy.port, dcId: 2)
        // A stalled socket is given up after 3 s of silence (15 s by default), so the test spends its time sending.
        var options = DatacenterConnection.Options()
        options.silenceTimeout = 3
        let proxied = try AccountManager(
            rootPath: world.root.path,
            environment: NetworkEnvironment(
                datacenters: endpoints, defaultMainDc: 2, publicKeys: server.publicKeys, group: server.group, options: options))
        let reopened = try proxied.account(ann.id)
        return (world, proxy, reopened, ben)
    }

    @Test(arguments: [FaultProxy.Mode.drop(maximumBytes: 6_000), .stall(maximumBytes: 6_000)])
    func aBurstOfTwoHundredArrivesOnceEachInOrder(mode: FaultProxy.Mode) async throws {
        let phones = mode == .drop(maximumBytes: 6_000) ? ("9996622501", "9996622502") : ("9996622503", "9996622504")
        let (world, proxy, ann, ben) = try await Self.accounts(through: mode, seed: 26, phones: phones)
        ann.start()
        ben.start()
        // Ben's state starts where getState finds it: what arrives before that is history (holes), not updates.
        try await AccountIntegrationTests.wait("Ben's state", timeout: 60) { ben.stateManager.hasCaughtUp }
        let texts = (1...200).map { "burst \($0)" }
        try ann.enqueue(texts.map { EnqueueMessage(text: $0) }, to: ben.peerId)
        try await AccountIntegrationTests.wait("Ben has all 200", timeout: 180, explain: {
            let got = (try? AccountIntegrationTests.storedMessages(ben, with: ann.peerId)) ?? []
            let missing = Set(texts).subtracting(got.map(\.text)).sorted()
            let state = try? ben.postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state }
            return "Ben has \(got.count) (missing \(missing.prefix(3)), ids \(got.map(\.id.id).sorted().suffix(3)), pts \(state.map { "\($0.pts)" } ?? "-")), Ann sent \(ann.pendingMessages.sentCount), "
                + "faults \(proxy.faults), Ben's state \(ben.stateManager.statistics), caught up \(ben.stateManager.hasCaughtUp)"
        }) {
            try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).count >= 200
        }
        try await AccountIntegrationTests.wait("Ann's copies are the server's", timeout: 60) {
            try ann.postbox.readTransactionSync { tx in try tx.unsentMessageIds() }.isEmpty
        }
        // Once each, in the order enqueued (Ben's ids grow with the server's order of arrival).
        let received = try AccountIntegrationTests.storedMessages(ben, with: ann.peerId).sorted { $0.id.id < $1.id.id }.map(\.text)
        #expect(received == texts, "\(mode): \(received.count) received, first differences \(zip(received, texts).filter { $0 != $1 }.prefix(3))")
        let mine = try AccountIntegrationTests.storedMessages(ann, with: ben.peerId)
        #expect(mine.count == 200 && mine.allSatisfy { $0.id.namespace == Namespaces.Message.cloud && !$0.flags.contains(.failed) })
        #expect(proxy.faults > 0, "\(mode): no fault happened")
        await proxy.close()
        try await world.close([ann, ben])
    }

    @Test func aFloodWaitDelaysTheMessageAndDoesNotFailIt() async throws {
        let world = try await AccountIntegrationTests.World(flood: .init(messagesPerSecond: 0, testFloods: ["messages.sendMessage": 2]))
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622505", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's state") { ann.stateManager.hasCaughtUp }
        let flags = LockedValue<[MessageFlags]>([])
        let view = ann.historyView(peerId: ann.peerId).start(next: { view in
            if let last = view.entries.last { flags.withLock { $0.append(last.message.flags) } }
        })
        defer { view.dispose() }
        let started = Date()
        let local = try #require(try ann.enqueue([EnqueueMessage(text: "after the flood wait")], to: ann.peerId).first)
        // The local copy goes in the commit; the manager counts the send just after it: two events, both awaited.
        try await AccountIntegrationTests.wait("the message sent", timeout: 30) {
            try ann.postbox.readTransactionSync { tx in try tx.getMessage(local) } == nil && ann.pendingMessages.sentCount >= 1
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 1.9, "sent after \(elapsed) s: the FLOOD_WAIT_2 was not waited out")
        #expect(flags.withLock { $0 }.allSatisfy { !$0.contains(.failed) }, "never shown as failed")
        let stored = try AccountIntegrationTests.storedMessages(ann, with: ann.peerId)
        #expect(stored.map(\.text) == ["after the flood wait"] && stored[0].id.namespace == Namespaces.Message.cloud)
        #expect(ann.pendingMessages.failedCount == 0 && ann.pendingMessages.sentCount == 1)
        try await world.close([ann])
    }
}
