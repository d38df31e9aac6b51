import Dispatch
import SignalTesting
import SwiftSignalKit
import Testing

/// The guard's value path (`Subscriber.deliveries`): when the value closure is released, and that it never is while it
/// runs.
@Suite struct SubscriberGuardTests {
    /// A source that keeps its subscriber, so a test can send to it at any time.
    final class KeptSubscriber: Sendable {
        let subscriber = LockedValue<Subscriber<Int, NoError>?>.make(nil)

        var signal: Signal<Int, NoError> {
            Signal { subscriber in
                self.subscriber.withLock { $0 = subscriber }
                return EmptyDisposable
            }
        }
    }

    @Test func theValueClosureIsReleasedAtTheTerminalEvent() throws {
        let deinits = Counter()
        let source = KeptSubscriber()
        var probe: LifetimeProbe? = LifetimeProbe(deinits)
        let disposable = source.signal.start(next: { [probe] _ in probe?.touch() })
        probe = nil
        let subscriber = try #require(source.subscriber.withLock { $0 })
        subscriber.putNext(1)
        #expect(deinits.count == 0)
        subscriber.putCompletion()
        #expect(deinits.count == 1)
        subscriber.putNext(2)
        disposable.dispose()
        #expect(deinits.count == 1)
    }

    @Test func aHandlerThatDisposesItsOwnSubscriptionIsNotReleasedWhileItRuns() throws {
        let deinits = Counter()
        let seenDuringCall = LockedValue<[Int]>.make([])
        let source = KeptSubscriber()
        let subscription = LockedValue<Disposable?>.make(nil)
        var probe: LifetimeProbe? = LifetimeProbe(deinits)
        let disposable = source.signal.start(next: { [probe] _ in
            subscription.withLock { $0 }?.dispose()
            // Released here, the closure's context would already have let the probe go.
            seenDuringCall.withLock { $0.append(deinits.count) }
            probe?.touch()
        })
        probe = nil
        subscription.withLock { $0 = disposable }
        let subscriber = try #require(source.subscriber.withLock { $0 })
        subscriber.putNext(1)
        subscriber.putNext(2)
        #expect(seenDuringCall.withLock { $0 } == [0])
        #expect(deinits.count == 1)
    }

    @Test func aSubscriberDroppedWithoutTerminatingReleasesItsValueClosure() {
        let deinits = Counter()
        do {
            let probe = LifetimeProbe(deinits)
            _ = Signal<Int, NoError>.never().start(next: { _ in probe.touch() })
        }
        #expect(deinits.count == 1)
    }

    @Test func disposingWhileManyThreadsDeliverReleasesTheClosureOnceAndStopsDelivery() throws {
        for _ in 0..<20 {
            let deinits = Counter()
            let delivered = Counter()
            let deliveries = DispatchSemaphore(value: 0)
            let source = KeptSubscriber()
            var probe: LifetimeProbe? = LifetimeProbe(deinits)
            let disposable = source.signal.start(next: { [probe] _ in
                probe?.touch()
                delivered.increment()
                deliveries.signal()
            })
            probe = nil
            let subscriber = try #require(source.subscriber.withLock { $0 })
            let group = DispatchGroup()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    for value in 0..<2_000 { subscriber.putNext(value) }
                }
            }
            // Dispose while values are being delivered, not before the first one. A blocking wait, not a spin: a
            // spinning thread looks busy to the dispatch pool, which then starts no worker for the senders.
            try #require(deliveries.wait(timeout: .now() + 60) == .success, "no value was delivered within 60 s")
            disposable.dispose()
            try #require(group.wait(timeout: .now() + 60) == .success, "the senders did not finish within 60 s")
            let afterSenders = delivered.count
            subscriber.putNext(0)
            #expect(delivered.count == afterSenders)
            #expect(deinits.count == 1)
        }
    }
}
