import Foundation
import Postbox
import SyncCore
@testable import TelegramCore
import Testing

/// A stored action that the queue settles before its caller asks for the outcome still gives the caller its outcome.
/// The simulation found the caller of a delete waiting forever: the queue's loop, woken for another reason, took the
/// action the caller had just stored and settled it before the caller said it would wait for it.
@Suite struct MessageActionOutcomeTests {
    @Test func anOutcomeSettledBeforeTheCallerAsksIsKeptForIt() async throws {
        let world = try await AccountIntegrationTests.World()
        let ann = try await AccountIntegrationTests.signUp(world.manager, phone: "9996622321", name: "Ann")
        let ben = try await AccountIntegrationTests.signUp(world.manager, phone: "9996622322", name: "Ben")
        try await AccountIntegrationTests.introduce(phone: "9996622322", name: "Ben", to: ann)
        ann.start()
        try await AccountIntegrationTests.wait("Ann's state") { ann.stateManager.hasCaughtUp }
        let id = try ann.postbox.transactionSync { tx in
            try PendingMessageActionsEntry.append(.readHistory(peerId: ben.peerId, maxId: 0), transaction: tx)
        }
        ann.actions.wake()
        try await AccountIntegrationTests.wait("the queue settled it") { try ann.actions.pending().isEmpty }
        // Only now does the caller say it waits for it.
        ann.actions.expect(id)
        // Raced against 10 s in unstructured tasks: a wait that never ends must fail the test, not hang it.
        let (stream, continuation) = AsyncStream<Result<Void, MessageActionError>?>.makeStream()
        let waiting = Task { continuation.yield(await ann.actions.outcome(id)) }
        let timer = Task {
            try? await Task.sleep(for: .seconds(10))
            continuation.yield(nil)
        }
        var iterator = stream.makeAsyncIterator()
        let outcome = await iterator.next() ?? nil
        timer.cancel()
        _ = waiting
        #expect(outcome.map { if case .success = $0 { true } else { false } } == true)
        try await world.close([ann, ben])
    }
}
