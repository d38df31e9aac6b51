import UpdateSequencing
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore
import Testing

/// The state manager's shell on virtual time over a real Postbox, with a scripted server: pushes land in Postbox once,
/// a gap waits and is closed by the difference, slices are applied one by one, `differenceTooLong` marks holes, and a
/// restart continues from the stored state.
@Suite struct AccountStateManagerTests {
    static let me = PeerId.user(1)
    static let friend = PeerId.user(2)

    /// A scripted server: listening at once, pushes through `pipe`, `getState` answers `start`, `getDifference` pops `differences`.
    final class ScriptedServer: @unchecked Sendable {
        let pipe = ValuePipe<Api.Updates?>()
        let lock = NSLock()
        var start = UpdatesState(pts: 10, qts: 0, seq: 0, date: 100)
        var differences: [Api.updates.Difference] = []
        var asked: [UpdatesState] = []
        var resets = 0

        var environment: AccountStateManager.Environment {
            AccountStateManager.Environment(
                updates: .single(nil) |> then(pipe.signal()),
                getState: { [self] in
                    let state = lock.withLock { start }
                    return .single(.state(.init(pts: state.pts, qts: state.qts, date: state.date, seq: state.seq, unreadCount: 0)))
                },
                getDifference: { [self] state in
                    lock.withLock {
                        asked.append(state)
                        guard !differences.isEmpty else { return .fail(.network("no difference scripted")) }
                        return .single(differences.removeFirst())
                    }
                },
                didResetChats: { [self] in lock.withLock { resets += 1 } })
        }
    }

    static func message(_ id: Int32, pts: Int32, text: String? = nil) -> Api.Updates {
        .updateShortMessage(.init(id: id, userId: 2, message: text ?? "m\(id)", pts: pts, ptsCount: 1, date: 100 + id))
    }

    static func apiMessage(_ id: Int32) -> Api.Message {
        .message(.init(id: id, peerId: .peerUser(.init(userId: 2)), date: 100 + id, message: "m\(id)"))
    }

    static func state(_ pts: Int32) -> Api.updates.State { .state(.init(pts: pts, qts: 0, date: 500, seq: 0, unreadCount: 0)) }

    struct Harness {
        let directory = TemporaryDirectory(prefix: "state-manager")
        let postbox: Postbox
        let scheduler = VirtualTimeScheduler()
        let server = ScriptedServer()

        /// A Postbox that knows the friend (short messages from an unknown user go through the difference instead).
        init(knowsFriend: Bool = true) throws {
            registerTelegramCoreTypes()
            postbox = try Postbox.open(
                accountPath: directory.path + "/account-1",
                encryption: try PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48)),
                globalMessageIds: Namespaces.globalMessageIds)
            if knowsFriend {
                try postbox.transactionSync { tx in
                    try tx.updatePeers([
                        TelegramUser(id: AccountStateManagerTests.friend, accessHash: .personal(2), firstName: "Friend", lastName: nil, username: nil, phone: nil)
                    ])
                }
            }
        }

        func manager() -> AccountStateManager {
            AccountStateManager(
                accountPeerId: AccountStateManagerTests.me, postbox: postbox, environment: server.environment,
                queue: scheduler.makeQueue(), configuration: .init(gapWait: 2))
        }

        /// Runs the manager's queue `seconds` of virtual time on, then waits for what it handed Postbox's writer (the
        /// group commit stores released batches off the manager's queue).
        func advance(by seconds: Double) {
            scheduler.advance(by: seconds)
            postbox.waitForWrites()
        }

        func storedIds() throws -> [Int32] {
            try postbox.readTransactionSync { tx in
                try tx.earlierMessages(peerId: AccountStateManagerTests.friend, before: nil, count: 10_000).map(\.id.id)
            }.sorted()
        }

        func storedState() throws -> UpdatesState? {
            try postbox.readTransactionSync { tx in (try tx.getState() as? AuthorizedAccountState)?.state }
        }
    }

    @Test func pushesLandOnceAndGapsCloseThroughTheDifference() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        #expect(try harness.storedState() == UpdatesState(pts: 10, qts: 0, seq: 0, date: 100))

        harness.server.pipe.putNext(Self.message(1, pts: 11))
        harness.server.pipe.putNext(Self.message(1, pts: 11))  // a repeat is skipped
        harness.advance(by: 0.01)
        #expect(try harness.storedIds() == [1])
        #expect(try harness.storedState()?.pts == 11)

        // pts 13 arrives before 12: held; 12 never comes, so after the wait the difference brings it.
        harness.server.pipe.putNext(Self.message(3, pts: 13))
        harness.advance(by: 1.9)
        #expect(try harness.storedIds() == [1])
        #expect(harness.server.asked.isEmpty)
        harness.server.differences = [
            .difference(.init(newMessages: [Self.apiMessage(2), Self.apiMessage(3)], newEncryptedMessages: [], otherUpdates: [], chats: [], users: [], state: Self.state(13)))
        ]
        harness.advance(by: 0.2)
        #expect(harness.server.asked == [UpdatesState(pts: 11, qts: 0, seq: 0, date: 101)])
        #expect(try harness.storedIds() == [1, 2, 3])
        #expect(try harness.storedState()?.pts == 13)
        #expect(manager.statistics.differences == 1)
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// `isCaughtUp` says what `hasCaughtUp` says, as it changes: false until the first state is stored, false again
    /// while a difference is fetched.
    @Test func isCaughtUpFollowsTheFirstStateAndEachDifference() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let seen = LockedValue<[Bool]>([])
        let subscription = manager.isCaughtUp.start(next: { value in seen.withLock { $0.append(value) } })
        defer { subscription.dispose() }
        #expect(seen.withLock { $0 } == [false])
        manager.start()
        harness.advance(by: 0.01)
        #expect(seen.withLock { $0 } == [false, true])
        #expect(manager.hasCaughtUp)

        // pts 13 after 10: a gap, closed by the difference after the wait.
        harness.server.differences = [
            .difference(.init(newMessages: [Self.apiMessage(3)], newEncryptedMessages: [], otherUpdates: [], chats: [], users: [], state: Self.state(13)))
        ]
        harness.server.pipe.putNext(Self.message(3, pts: 13))
        harness.advance(by: 2.5)
        #expect(harness.server.asked.count == 1)
        #expect(seen.withLock { $0 } == [false, true, false, true])
        #expect(manager.hasCaughtUp)
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// A short message names its sender by id only: from a user this account has not stored it is not applied but
    /// fetched through the difference, which brings the user with it.
    @Test func aShortMessageFromAnUnknownUserIsFetchedWithItsUser() throws {
        let harness = try Harness(knowsFriend: false)
        defer { harness.directory.remove() }
        let manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        harness.server.differences = [
            .difference(.init(
                newMessages: [Self.apiMessage(1)], newEncryptedMessages: [], otherUpdates: [], chats: [],
                users: [.user(.init(id: 2, accessHash: 22, firstName: "Friend"))], state: Self.state(11)))
        ]
        harness.server.pipe.putNext(Self.message(1, pts: 11))
        harness.advance(by: 0.01)
        #expect(harness.server.asked == [UpdatesState(pts: 10, qts: 0, seq: 0, date: 100)], "asked at once, from before the message")
        #expect(try harness.storedIds() == [1])
        let friend = try harness.postbox.readTransactionSync { tx in try tx.getPeer(Self.friend) } as? TelegramUser
        #expect(friend?.firstName == "Friend")
        #expect(manager.statistics.unknownPeers == 1)
        // Known now: the next short message applies directly.
        harness.server.pipe.putNext(Self.message(2, pts: 12))
        harness.advance(by: 0.01)
        #expect(try harness.storedIds() == [1, 2])
        #expect(manager.statistics.differences == 1)

        // A server that keeps failing is asked again only after the retry delay, not in a loop.
        harness.server.pipe.putNext(.updatesTooLong)
        harness.advance(by: 0.01)
        #expect(manager.statistics.differences == 2)
        harness.advance(by: 1.9)
        #expect(manager.statistics.differences == 2)
        harness.advance(by: 0.2)
        #expect(manager.statistics.differences == 3)
        manager.stop()
        harness.advance(by: 0.01)
    }

    @Test func slicesApplyOneByOneAndARestartContinuesFromTheStoredState() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        var manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        manager.stop()
        harness.advance(by: 0.01)

        // Offline: the server moved to pts 16. The next start asks for the difference from pts 10, in two slices.
        harness.server.differences = [
            .differenceSlice(.init(newMessages: (1...3).map(Self.apiMessage), newEncryptedMessages: [], otherUpdates: [], chats: [], users: [], intermediateState: Self.state(13))),
            .difference(.init(newMessages: (4...6).map(Self.apiMessage), newEncryptedMessages: [], otherUpdates: [], chats: [], users: [], state: Self.state(16))),
        ]
        manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        #expect(harness.server.asked.map(\.pts) == [10, 13])
        #expect(try harness.storedIds() == [1, 2, 3, 4, 5, 6])
        let reached = try harness.storedState()
        #expect(reached?.pts == 16, "\(String(describing: reached))")
        #expect(manager.statistics.batches == 2)
        manager.stop()
        harness.advance(by: 0.01)
    }

    @Test func differenceTooLongMarksHoles() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        harness.server.pipe.putNext(Self.message(5, pts: 11))
        harness.advance(by: 0.01)
        harness.server.differences = [
            .differenceTooLong(.init(pts: 5_000)),
            .difference(.init(newMessages: [], newEncryptedMessages: [], otherUpdates: [], chats: [], users: [], state: Self.state(5_000))),
        ]
        harness.server.pipe.putNext(.updatesTooLong)
        harness.advance(by: 0.01)
        let holes = try harness.postbox.readTransactionSync { tx in try tx.getHoles(peerId: Self.friend, namespace: 0) }
        #expect(holes == [1...4, 6...(Int32.max - 1)])
        #expect(harness.server.resets == 1)
        #expect(try harness.storedState()?.pts == 5_000)
        manager.stop()
        harness.advance(by: 0.01)
    }

    @Test func aBatchIsOneViewUpdate() async throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        let emissions = LockedValue<[Int]>([])
        let view = harness.postbox.aroundMessageHistoryViewForLocation(peerId: Self.friend, anchor: .upperBound, count: 50)
            .start(next: { view in emissions.withLock { $0.append(view.entries.count) } })
        defer { view.dispose() }
        try await waitUntil { emissions.withLock { $0.count } == 1 }
        // Five updates in one container: one batch, one transaction, one emission.
        let updates = (1...5).map { id in
            Api.Update.updateNewMessage(.init(message: Self.apiMessage(Int32(id)), pts: 10 + Int32(id), ptsCount: 1))
        }
        harness.server.pipe.putNext(.updates(.init(updates: updates, users: [], chats: [], date: 200, seq: 0)))
        harness.advance(by: 0.01)
        try await waitUntil { emissions.withLock { $0.count } == 2 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(emissions.withLock { $0 } == [0, 5])
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// `appliedBatches` says what each committed batch changed: the messages it stored, edited and deleted and the
    /// read marks it moved, once the transaction is done (what `tg watch` prints).
    @Test func appliedBatchesNameWhatEachBatchChanged() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let summaries = LockedValue<[UpdateBatchApplier.Summary]>([])
        let stored = LockedValue<[Bool]>([])
        let postbox = harness.postbox
        let subscription = manager.appliedBatches.start(next: { summary in
            summaries.withLock { $0.append(summary) }
            // Committed: what the batch names can be read already.
            let readable = summary.added.allSatisfy { id in (try? postbox.readTransactionSync { try $0.getMessage(id) }) != nil }
            stored.withLock { $0.append(readable) }
        })
        defer { subscription.dispose() }
        manager.start()
        harness.advance(by: 0.01)
        harness.server.pipe.putNext(Self.message(1, pts: 11))
        harness.server.pipe.putNext(Self.message(2, pts: 12))
        harness.advance(by: 0.01)
        let edited = Api.Message.message(.init(id: 1, peerId: .peerUser(.init(userId: 2)), date: 101, message: "m1, edited"))
        let updates: [Api.Update] = [
            .updateEditMessage(.init(message: edited, pts: 13, ptsCount: 1)),
            .updateReadHistoryOutbox(.init(peer: .peerUser(.init(userId: 2)), maxId: 2, pts: 14, ptsCount: 1)),
            .updateDeleteMessages(.init(messages: [2], pts: 15, ptsCount: 1)),
        ]
        harness.server.pipe.putNext(.updates(.init(updates: updates, users: [], chats: [], date: 200, seq: 0)))
        harness.advance(by: 0.01)
        let all = summaries.withLock { $0 }
        let id = { (value: Int32) in MessageId(peerId: Self.friend, namespace: Namespaces.Message.cloud, id: value) }
        #expect(all.flatMap(\.added) == [id(1), id(2)])
        #expect(all.flatMap(\.edited) == [id(1)])
        #expect(all.flatMap(\.readOutbox) == [id(2)] && all.flatMap(\.readInbox).isEmpty)
        #expect(all.flatMap(\.deleted) == [id(2)])
        #expect(stored.withLock { $0 }.allSatisfy { $0 } && !all.isEmpty)
        #expect(try harness.storedIds() == [1])
        manager.stop()
        harness.advance(by: 0.01)
    }
}

/// Polls `condition` every 10 ms for up to `timeout` seconds.
func waitUntil(timeout: Double = 10, _ condition: @escaping @Sendable () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else {
            Issue.record("condition not met within \(timeout) s")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
