import Dispatch
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import TelegramApi
import TelegramCore
import Testing
import UpdateSequencing

/// The state manager's group commit (`StateWrites`): the batches it releases while Postbox's writer is busy are stored
/// together in the writer's next transaction, in order, and what must come after them — "caught up", "updating" —
/// waits for that commit. The writer is held busy by a closure on its own queue, so what waits is seen waiting.
@Suite struct GroupCommitTests {
    typealias Harness = AccountStateManagerTests.Harness

    /// Blocks Postbox's writer queue until `release()`.
    final class HeldWriter: Sendable {
        private let gate = DispatchSemaphore(value: 0)

        init(_ postbox: Postbox) {
            postbox.writerQueueAsync { [gate] in _ = gate.wait(timeout: .now() + 30) }
        }

        func release() { gate.signal() }
    }

    @Test func batchesReleasedWhileTheWriterIsBusyAreStoredInOneTransactionInOrder() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let summaries = LockedValue<[UpdateBatchApplier.Summary]>([])
        let subscription = manager.appliedBatches.start(next: { summary in summaries.withLock { $0.append(summary) } })
        defer { subscription.dispose() }
        manager.start()
        harness.advance(by: 0.01)
        #expect(manager.statistics.writeTransactions == 0)

        let writer = HeldWriter(harness.postbox)
        for id in Int32(1)...5 {
            harness.server.pipe.putNext(AccountStateManagerTests.message(id, pts: 10 + id))
            harness.scheduler.advance(by: 0.01)
        }
        // Five batches released, none stored: the manager did not wait for the writer.
        #expect(try harness.storedIds() == [])
        #expect(manager.statistics.batches == 0)
        writer.release()
        harness.postbox.waitForWrites()

        #expect(try harness.storedIds() == [1, 2, 3, 4, 5])
        #expect(try harness.storedState()?.pts == 15)
        #expect(manager.statistics.batches == 5)
        #expect(manager.statistics.writeTransactions == 1)
        #expect(manager.statistics.storedMessages == 5)
        // Each batch is still reported on its own, in order.
        #expect(summaries.withLock { $0 }.map { $0.added.map(\.id) } == [[1], [2], [3], [4], [5]])

        // With the writer free, a push is stored in a transaction of its own.
        harness.server.pipe.putNext(AccountStateManagerTests.message(6, pts: 16))
        harness.advance(by: 0.01)
        #expect(manager.statistics.writeTransactions == 2)
        #expect(try harness.storedIds() == [1, 2, 3, 4, 5, 6])
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// A manager over a stored state of pts 10 (so its start asks for the difference from it) whose `getDifference`
    /// answers are put in by the test through `answers`; the pts of every ask goes to `asked`.
    static func managerAnsweredByTheTest(
        _ harness: Harness, answers: ValuePipe<Api.updates.Difference>, asked: LockedValue<[Int32]>
    ) throws -> AccountStateManager {
        let scripted = harness.server.environment
        let environment = AccountStateManager.Environment(
            updates: scripted.updates, getState: scripted.getState,
            getDifference: { state in
                asked.withLock { $0.append(state.pts) }
                return answers.signal() |> take(1) |> castError(AccountStateManager.StateManagerError.self)
            })
        try harness.postbox.transactionSync { tx in
            try tx.setState(
                AuthorizedAccountState(
                    peerId: AccountStateManagerTests.me, state: UpdatesState(pts: 10, qts: 0, seq: 0, date: 100)))
        }
        return AccountStateManager(
            accountPeerId: AccountStateManagerTests.me, postbox: harness.postbox, environment: environment,
            queue: harness.scheduler.makeQueue(), configuration: .init(gapWait: 2))
    }

    /// A difference's slices handed while the writer is busy are stored together, in order, in its next
    /// transaction; a fetch that then fails leaves what came before it stored.
    @Test func aDifferencesSlicesHandedWhileTheWriterIsBusyAreStoredTogether() throws {
        typealias Tests = AccountStateManagerTests
        let harness = try Harness()
        defer { harness.directory.remove() }
        let slice = { (ids: ClosedRange<Int32>, pts: Int32) -> Api.updates.Difference in
            .differenceSlice(
                .init(
                    newMessages: ids.map(Tests.apiMessage), newEncryptedMessages: [], otherUpdates: [], chats: [],
                    users: [], intermediateState: Tests.state(pts)))
        }
        let answers = ValuePipe<Api.updates.Difference>()
        var manager = try Self.managerAnsweredByTheTest(harness, answers: answers, asked: LockedValue([]))
        manager.start()
        harness.advance(by: 0.01)
        // Three slices answered while the writer is held: none waits for a write, and the next is asked at once.
        let writer = HeldWriter(harness.postbox)
        for (index, ids) in [Int32(1)...3, 4...6, 7...9].enumerated() {
            answers.putNext(slice(ids, Int32(13 + 3 * index)))
            harness.scheduler.advance(by: 0.01)
        }
        #expect(manager.statistics.batches == 0 && manager.statistics.writeTransactions == 0)
        writer.release()
        harness.postbox.waitForWrites()
        #expect(try harness.storedIds() == Array(1...9))
        #expect(try harness.storedState()?.pts == 19)
        #expect(manager.statistics.batches == 3)
        #expect(manager.statistics.writeTransactions == 1)
        answers.putNext(
            .difference(
                .init(
                    newMessages: [], newEncryptedMessages: [], otherUpdates: [], chats: [], users: [],
                    state: Tests.state(19))))
        harness.advance(by: 0.01)
        #expect(manager.hasCaughtUp)
        manager.stop()
        harness.advance(by: 0.01)

        // The server has two more slices but answers only the first: the second ask fails, and the first is stored
        // all the same.
        harness.server.differences = [slice(10...12, 22)]
        manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        #expect(harness.server.asked.map(\.pts) == [19, 22])
        #expect(manager.statistics.failures == 1)
        #expect(try harness.storedIds() == Array(1...12))
        #expect(try harness.storedState()?.pts == 22)
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// Nothing waits for company: a slice that reaches an idle writer is stored at once, though its difference goes
    /// on (the writer is not left idle while the next slices gather).
    @Test func aSliceReachingAnIdleWriterIsStoredBeforeItsDifferenceEnds() throws {
        typealias Tests = AccountStateManagerTests
        let harness = try Harness()
        defer { harness.directory.remove() }
        let asked = LockedValue<[Int32]>([])
        let answers = ValuePipe<Api.updates.Difference>()
        let manager = try Self.managerAnsweredByTheTest(harness, answers: answers, asked: asked)
        manager.start()
        harness.advance(by: 0.01)
        #expect(asked.withLock { $0 } == [10])
        answers.putNext(
            .differenceSlice(
                .init(
                    newMessages: (1...3).map(Tests.apiMessage), newEncryptedMessages: [], otherUpdates: [],
                    chats: [], users: [], intermediateState: Tests.state(13))))
        harness.advance(by: 0.01)
        #expect(asked.withLock { $0 } == [10, 13])
        #expect(try harness.storedIds() == [1, 2, 3])
        #expect(manager.statistics.writeTransactions == 1)
        #expect(!manager.hasCaughtUp)
        answers.putNext(
            .difference(
                .init(
                    newMessages: (4...6).map(Tests.apiMessage), newEncryptedMessages: [], otherUpdates: [],
                    chats: [], users: [], state: Tests.state(16))))
        harness.advance(by: 0.01)
        #expect(try harness.storedIds() == Array(1...6))
        #expect(manager.statistics.writeTransactions == 2)
        #expect(manager.hasCaughtUp)
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// A push that also says a channel is too long (a channel this account cannot ask about: no
    /// `getChannelDifference`) is stored at once.
    @Test func aPushThatAlsoAsksForAChannelIsNotHeld() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        harness.server.pipe.putNext(
            .updates(
                .init(
                    updates: [
                        .updateNewMessage(
                            .init(message: AccountStateManagerTests.apiMessage(1), pts: 11, ptsCount: 1)),
                        .updateChannelTooLong(.init(channelId: 77, pts: 5)),
                    ], users: [], chats: [], date: 200, seq: 0)))
        harness.advance(by: 0.01)
        #expect(try harness.storedIds() == [1])
        #expect(try harness.storedState()?.pts == 11)
        manager.stop()
        harness.advance(by: 0.01)
    }

    /// A difference is fetched and handed to the writer at once; the account is "caught up" and no longer "updating"
    /// only when it is stored, so whoever waits for either can read it.
    @Test func caughtUpAndUpdatingWaitForTheDifferenceToBeStored() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        let updating = LockedValue<[Bool]>([])
        let subscription = manager.isUpdating.start(next: { value in updating.withLock { $0.append(value) } })
        defer { subscription.dispose() }
        manager.start()
        harness.advance(by: 0.01)
        #expect(manager.hasCaughtUp)

        // pts 12 comes before 11: after the gap's wait the difference brings 11 and 12, while the writer is held.
        harness.server.differences = [
            .difference(
                .init(
                    newMessages: [AccountStateManagerTests.apiMessage(11), AccountStateManagerTests.apiMessage(12)],
                    newEncryptedMessages: [], otherUpdates: [], chats: [], users: [],
                    state: AccountStateManagerTests.state(12)))
        ]
        harness.server.pipe.putNext(AccountStateManagerTests.message(12, pts: 12))
        harness.advance(by: 0.01)
        let writer = HeldWriter(harness.postbox)
        harness.scheduler.advance(by: 2.5)
        #expect(harness.server.asked.count == 1)
        #expect(try harness.storedIds() == [])
        #expect(!manager.hasCaughtUp)
        #expect(updating.withLock { $0.last } == true)

        writer.release()
        harness.postbox.waitForWrites()
        #expect(try harness.storedIds() == [11, 12])
        #expect(manager.hasCaughtUp)
        #expect(updating.withLock { $0.last } == false)
        manager.stop()
        harness.advance(by: 0.01)
    }
}
