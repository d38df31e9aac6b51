import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import TestVectors
import Testing

/// Blocking (core.telegram.org `contacts.block`, `contacts.unblock`, `contacts.getBlocked`, `updatePeerBlocked`):
/// another device's block lands in `BlockedPeers`; and Telethon 1.45 on a real tg-server and our account block each
/// other.
@Suite(.serialized) struct BlockingTests {
    /// `updatePeerBlocked` through the state manager records the peer blocked, then unblocked, and is not unhandled.
    @Test func updatePeerBlockedIsStored() throws {
        let harness = try AccountStateManagerTests.Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let friend = AccountStateManagerTests.friend
        let summaries = LockedValue<[UpdateBatchApplier.Summary]>([])
        let watch = manager.appliedBatches.start(next: { summary in summaries.withLock { $0.append(summary) } })
        manager.start()
        harness.advance(by: 0.01)
        func push(_ blocked: Bool) {
            harness.server.pipe.putNext(
                .updateShort(
                    .init(
                        update: .updatePeerBlocked(
                            .init(blocked: blocked, peerId: .peerUser(.init(userId: friend.id.rawValue)))),
                        date: 200)))
            harness.advance(by: 0.01)
        }
        func stored() throws -> Bool {
            try harness.postbox.readTransactionSync { tx in try BlockedPeers.isBlocked(friend, transaction: tx) }
        }
        push(true)
        #expect(try stored())
        push(false)
        #expect(try !stored())
        #expect(
            summaries.withLock { $0.flatMap(\.blocked) }
                == [BlockedChange(peerId: friend, blocked: true), BlockedChange(peerId: friend, blocked: false)])
        #expect(summaries.withLock { $0.flatMap(\.unhandled) }.isEmpty)
        watch.dispose()
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// Telethon blocks our account: its list names us, and our message to it fails with `USER_IS_BLOCKED` (the
    /// pending-message manager's `.blocked`). We block it back: it sees us never online (`UserStatusEmpty`), and
    /// after it unblocks us its message is refused (`UserIsBlockedError`); our block list names it.
    @Test func telethonAndOurAccountBlockEachOther() async throws {
        let world = try await AccountIntegrationTests.World(transport: .sockets)
        let ann = try await AccountIntegrationTests.signUp(world, phone: "9996622181", name: "Ann")
        ann.start()
        try await AccountIntegrationTests.wait("Ann's first state") { ann.stateManager.hasCaughtUp }
        let (peer, firstLine) = try await TelethonCatchUpTests.startTelethonPeer(
            world, script: "block_peer.py", ["--phone", "9996622182", "--target-phone", "9996622181", "--wait", "30"])
        struct First: Decodable {
            let user_id: Int64
            let blocked: [Int64]
        }
        let first = try JSONDecoder().decode(First.self, from: Data(firstLine.utf8))
        #expect(first.blocked == [ann.peerId.id.rawValue])
        let bo = PeerId.user(first.user_id)
        try await AccountIntegrationTests.wait("Bo's hi stored", timeout: 30) {
            try AccountIntegrationTests.storedMessages(ann, with: bo).contains { $0.text == "hi" }
        }
        _ = try ann.postbox.transactionSync { tx in
            try enqueueMessages(
                transaction: tx, accountPeerId: ann.peerId, peerId: bo, messages: [EnqueueMessage(text: "hello?")],
                now: Int32(Date().timeIntervalSince1970))
        }
        try await AccountIntegrationTests.wait("Ann's message refused", timeout: 30) {
            try AccountIntegrationTests.storedMessages(ann, with: bo).contains { message in
                message.text == "hello?" && message.flags.contains(.failed)
                    && message.attributes.contains {
                        ($0 as? SendFailureAttribute).map { $0.reason == .blocked && $0.detail == "USER_IS_BLOCKED" }
                            ?? false
                    }
            }
        }
        try await ann.block(bo)
        #expect(try ann.isBlocked(bo))
        let result = await peer.waitOffPool(timeout: 60)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        struct Report: Decodable {
            let status: String
            let send_error: String?
            let unblocked: [Int64]
        }
        let lastLine = try #require(result.output.split(separator: "\n").last)
        let report = try JSONDecoder().decode(Report.self, from: Data(lastLine.utf8))
        #expect(report.status == "UserStatusEmpty")
        #expect(report.send_error == "UserIsBlockedError")
        #expect(report.unblocked.isEmpty)
        let page = try await ann.blockedUsers()
        #expect(page.total == 1 && page.users.map(\.peerId) == [bo])
        try await ann.unblock(bo)
        #expect(try !ann.isBlocked(bo))
        #expect(try await ann.blockedUsers().total == 0)
        try await world.close([ann])
    }
}
