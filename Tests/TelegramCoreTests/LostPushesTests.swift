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

/// The update stream's first `nil` says it is listening: only then does the state manager catch up, so nothing pushed
/// before the subscription is missed. A later `nil` says pushes may have been lost (a new session, a replaced socket):
/// whatever the manager is doing then — waiting for `getState`, fetching a difference, or idle — one more
/// `updates.getDifference` follows.
@Suite struct LostPushesTests {
    /// A server whose `getState` and `getDifference` answers the test releases by hand.
    final class HeldServer: @unchecked Sendable {
        let pushes = ValuePipe<Api.Updates?>()
        let states = ValuePipe<Api.updates.State>()
        let differences = ValuePipe<Api.updates.Difference>()
        let asked = LockedValue<[UpdatesState]>([])

        var environment: AccountStateManager.Environment {
            AccountStateManager.Environment(
                updates: .single(nil) |> then(pushes.signal()),
                getState: { [states] in states.signal() |> take(1) |> castError(AccountStateManager.StateManagerError.self) },
                getDifference: { [self] state in
                    asked.withLock { $0.append(state) }
                    return differences.signal() |> take(1) |> castError(AccountStateManager.StateManagerError.self)
                },
                didResetChats: {})
        }
    }

    static func empty(date: Int32) -> Api.updates.Difference { .differenceEmpty(.init(date: date, seq: 0)) }

    @Test func aLossWhileEachRequestIsOutIsFollowedByADifference() throws {
        let harness = try AccountStateManagerTests.Harness(knowsFriend: false)
        defer { harness.directory.remove() }
        let (postbox, scheduler) = (harness.postbox, harness.scheduler)
        let server = HeldServer()
        let manager = AccountStateManager(
            accountPeerId: AccountStateManagerTests.me, postbox: postbox, environment: server.environment,
            queue: scheduler.makeQueue(), configuration: .init(gapWait: 2))
        // A stream that has not said it listens yet: nothing is asked.
        let stateAsked = LockedValue(0)
        let silent = AccountStateManager(
            accountPeerId: AccountStateManagerTests.me, postbox: postbox,
            environment: .init(
                updates: .never(), getState: { stateAsked.withLock { $0 += 1 }; return .never() }, getDifference: { _ in .never() }),
            queue: scheduler.makeQueue())
        silent.start()
        harness.advance(by: 1)
        #expect(stateAsked.withLock { $0 } == 0 && silent.statistics.differences == 0)
        silent.stop()

        manager.start()
        harness.advance(by: 0.01)

        // A new account asks getState; a loss is reported before the answer: a difference follows the answer.
        server.pushes.putNext(nil)
        harness.advance(by: 0.01)
        #expect(server.asked.withLock { $0 }.isEmpty)
        server.states.putNext(.state(.init(pts: 10, qts: 0, date: 100, seq: 0, unreadCount: 0)))
        harness.advance(by: 0.01)
        #expect(server.asked.withLock { $0 } == [UpdatesState(pts: 10, qts: 0, seq: 0, date: 100)])
        #expect(!manager.hasCaughtUp)
        server.differences.putNext(Self.empty(date: 110))
        harness.advance(by: 0.01)
        #expect(manager.hasCaughtUp)

        // Idle: a loss asks at once. Another loss while that difference is out asks once more after it.
        server.pushes.putNext(nil)
        harness.advance(by: 0.01)
        #expect(server.asked.withLock { $0.count } == 2)
        server.pushes.putNext(nil)
        server.pushes.putNext(nil)
        harness.advance(by: 0.01)
        #expect(server.asked.withLock { $0.count } == 2)
        server.differences.putNext(Self.empty(date: 120))
        harness.advance(by: 0.01)
        #expect(server.asked.withLock { $0.count } == 3, "two notices during one fetch ask once more, not twice")
        #expect(!manager.hasCaughtUp)
        server.differences.putNext(Self.empty(date: 130))
        harness.advance(by: 0.01)
        #expect(manager.hasCaughtUp)
        #expect(server.asked.withLock { $0.count } == 3)
        #expect(server.asked.withLock { $0.last?.date } == 120)
        manager.stop()
        harness.advance(by: 0.01)
    }
}
