import SwiftSignalKit
@testable import TelegramCore
import Testing

/// `AskedAhead`: a request started before its subscriber, whose events reach that subscriber in order — those that
/// arrived before it first — and which is cancelled when dropped or disposed of.
@Suite struct AskedAheadTests {
    /// A request whose events the test puts by hand; records whether it was cancelled.
    final class ManualRequest: @unchecked Sendable {
        let subscriber = LockedValue<Subscriber<Int, String>?>(nil)
        let cancelled = LockedValue(false)

        var signal: Signal<Int, String> {
            Signal { subscriber in
                self.subscriber.withLock { $0 = subscriber }
                return ActionDisposable { self.cancelled.withLock { $0 = true } }
            }
        }

        func put(_ value: Int) { subscriber.withLock { $0 }?.putNext(value) }
        func complete() { subscriber.withLock { $0 }?.putCompletion() }
        func fail(_ error: String) { subscriber.withLock { $0 }?.putError(error) }
    }

    final class Received: @unchecked Sendable {
        let events = LockedValue<[String]>([])
        func start(_ signal: Signal<Int, String>) -> Disposable {
            signal.start(
                next: { value in self.events.withLock { $0.append("\(value)") } },
                error: { error in self.events.withLock { $0.append("error \(error)") } },
                completed: { self.events.withLock { $0.append("done") } })
        }
    }

    @Test func whatArrivedBeforeTheSubscriberComesFirstThenTheRest() {
        let request = ManualRequest()
        let ahead = AskedAhead(request.signal)
        request.put(1)
        request.put(2)
        let received = Received()
        let disposable = received.start(ahead.answer)
        #expect(received.events.withLock { $0 } == ["1", "2"])
        request.put(3)
        request.complete()
        #expect(received.events.withLock { $0 } == ["1", "2", "3", "done"])
        disposable.dispose()
    }

    @Test func anErrorThatArrivedEarlyReachesTheSubscriber() {
        let request = ManualRequest()
        let ahead = AskedAhead(request.signal)
        request.fail("FLOOD_WAIT_3")
        let received = Received()
        _ = received.start(ahead.answer)
        #expect(received.events.withLock { $0 } == ["error FLOOD_WAIT_3"])
    }

    @Test func disposingTheSubscriptionCancelsTheRequest() {
        let request = ManualRequest()
        let ahead = AskedAhead(request.signal)
        let received = Received()
        let disposable = received.start(ahead.answer)
        #expect(!request.cancelled.withLock { $0 })
        disposable.dispose()
        #expect(request.cancelled.withLock { $0 })
        request.put(1)
        #expect(received.events.withLock { $0 }.isEmpty)
    }

    @Test func droppingItUntakenCancelsTheRequest() {
        let request = ManualRequest()
        var ahead: AskedAhead<Int, String>? = AskedAhead(request.signal)
        #expect(ahead != nil && !request.cancelled.withLock { $0 })
        ahead = nil
        #expect(request.cancelled.withLock { $0 })
    }

    @Test func aSecondSubscriberGetsNothing() {
        let request = ManualRequest()
        let ahead = AskedAhead(request.signal)
        request.put(1)
        let first = Received()
        let second = Received()
        _ = first.start(ahead.answer)
        second.start(ahead.answer).dispose()
        request.put(2)
        #expect(first.events.withLock { $0 } == ["1", "2"])
        #expect(second.events.withLock { $0 } == ["done"])
    }

    /// An event that arrives while the early ones are handed over (here: put by the subscriber's own handler) comes
    /// after them, in order, and none is lost.
    @Test func whatArrivesWhileTheEarlyOnesAreHandedOverFollowsThem() {
        let request = ManualRequest()
        let ahead = AskedAhead(request.signal)
        request.put(1)
        request.put(2)
        let events = LockedValue<[Int]>([])
        _ = ahead.answer.start(next: { value in
            events.withLock { $0.append(value) }
            if value == 1 { request.put(3) }
        })
        request.put(4)
        #expect(events.withLock { $0 } == [1, 2, 3, 4])
    }
}
