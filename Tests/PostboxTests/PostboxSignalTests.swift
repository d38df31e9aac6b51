import Dispatch
import Postbox
import PostboxTesting
import SwiftSignalKit
import Synchronization
import Testing

/// Collects one signal's events and lets the test wait for its end.
final class Collector<T: Sendable, E: Sendable>: Sendable {
    let values = Mutex<[T]>([])
    let errors = Mutex<[E]>([])
    let finished = DispatchSemaphore(value: 0)

    func start(_ signal: Signal<T, E>) -> Disposable {
        signal.start(
            next: { value in self.values.withLock { $0.append(value) } },
            error: { error in
                self.errors.withLock { $0.append(error) }
                self.finished.signal()
            },
            completed: { self.finished.signal() })
    }

    func wait() -> Bool { finished.wait(timeout: .now() + 10) == .success }
}

@Suite struct PostboxSignalTests {
    @Test func transactionSignalsAreColdAndDeliverTheResult() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let runs = Atomic<Int>(0)
        let signal = postbox.transaction { tx -> Int in
            runs.add(1, ordering: .relaxed)
            return (try? tx.addMessages([message(peer(1), 1)]).count) ?? -1
        }
        // Nothing runs before a subscription.
        try postbox.transactionSync { _ in }
        #expect(runs.load(ordering: .relaxed) == 0)
        let collector = Collector<Int, NoError>()
        _ = collector.start(signal)
        #expect(collector.wait())
        #expect(collector.values.withLock { $0 } == [1])
        // Each subscription runs the work again.
        let second = Collector<Int, NoError>()
        _ = second.start(signal)
        #expect(second.wait())
        #expect(runs.load(ordering: .relaxed) == 2)
    }

    @Test func throwingTransactionsRollBackAndDeliverTheError() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let collector = Collector<Int, PostboxError>()
        _ = collector.start(
            postbox.transaction { tx throws -> Int in
                try tx.addMessages([message(peer(1), 1)])
                throw PostboxError.messageNotFound(MessageId(peerId: peer(1), namespace: 0, id: 9))
            })
        #expect(collector.wait())
        #expect(collector.errors.withLock { $0 } == [.messageNotFound(MessageId(peerId: peer(1), namespace: 0, id: 9))])
        #expect(
            try postbox.readTransactionSync { try $0.getMessage(MessageId(peerId: peer(1), namespace: 0, id: 1)) }
                == nil)
    }

    @Test func disposingBeforeTheWorkStartsSkipsIt() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        // Hold the writer queue busy until the subscription has been disposed.
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? postbox.transactionSync { _ in
                entered.signal()
                gate.wait()
            }
        }
        entered.wait()
        let runs = Atomic<Int>(0)
        let disposable = postbox.transaction { _ in runs.add(1, ordering: .relaxed) }.start()
        disposable.dispose()
        gate.signal()
        try postbox.transactionSync { _ in }  // queued after the disposed work
        #expect(runs.load(ordering: .relaxed) == 0)
    }
}
