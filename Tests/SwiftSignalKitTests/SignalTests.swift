import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct SignalTests {
    @Test func signalIsColdAndRunsItsGeneratorPerSubscription() {
        let starts = Counter()
        let signal = Signal<Int, TestError> { subscriber in
            starts.increment()
            subscriber.putNext(starts.count)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        #expect(starts.count == 0)
        #expect(record(signal).events == [.Next(1), .Completion])
        #expect(record(signal).events == [.Next(2), .Completion])
    }

    @Test func nothingIsDeliveredAfterTheTerminalEvent() {
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.putNext(1)
            subscriber.putError(.failed)
            subscriber.putNext(2)
            subscriber.putCompletion()
            subscriber.putError(.other)
            return EmptyDisposable
        }
        #expect(record(signal).events == [.Next(1), .Error(.failed)])
    }

    @Test func terminalEventDisposesTheGeneratorsDisposable() {
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> map { $0 * 2 })
        source.putNext(1)
        source.putCompletion()
        source.putNext(5)
        #expect(recorder.events == [.Next(2), .Completion])
        #expect(source.disposalCount == 1)
        #expect(source.activeCount == 0)
    }

    @Test func disposeStopsDeliveryAndDisposesOnce() {
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal)
        source.putNext(1)
        recorder.dispose()
        recorder.dispose()
        source.putNext(2)
        source.putCompletion()
        #expect(recorder.events == [.Next(1)])
        #expect(source.disposalCount == 1)
    }

    @Test func disposableReturnedAfterSynchronousCompletionIsDisposedAtOnce() {
        let disposed = Counter()
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.putCompletion()
            return ActionDisposable { disposed.increment() }
        }
        _ = signal.start()
        #expect(disposed.count == 1)
    }

    @Test func disposingReleasesTheClosures() {
        final class Owner: Sendable {}
        weak var weakOwner: Owner?
        let source = TestSource<Int, NoError>()
        var disposable: Disposable?
        do {
            let owner = Owner()
            weakOwner = owner
            disposable = source.signal.start(next: { _ in withExtendedLifetime(owner) {} })
        }
        #expect(weakOwner != nil)
        disposable?.dispose()
        #expect(weakOwner == nil)
    }

    @Test func staticConstructors() {
        #expect(record(Signal<Int, TestError>.single(7)).events == [.Next(7), .Completion])
        #expect(record(Signal<Int, TestError>.fail(.failed)).events == [.Error(.failed)])
        #expect(record(Signal<Int, TestError>.complete()).events == [.Completion])
        #expect(record(Signal<Int, TestError>.never()).events == [])
    }

    @Test func pipeIsLeftAssociativeAndAppliesInOrder() {
        let result = 3 |> { $0 + 1 } |> { $0 * 10 }
        #expect(result == 40)
        let signal = sequence([1, 2, 3]) |> map { $0 + 1 } |> filter { $0 % 2 == 0 }
        #expect(record(signal).values == [2, 4])
    }

    @Test func startVariantsBehaveAlike() {
        let values = Log()
        _ = sequence([1]).startStandalone(next: { values.add("a\($0)") })
        _ = sequence([2]).startStrict(next: { values.add("b\($0)") })
        #expect(values.all == ["a1", "b2"])
    }

    @Test func keepAliveHoldsAnObjectUntilTermination() {
        let released = Counter()
        let source = TestSource<Int, NoError>()
        let recorder = record(
            Signal<Int, NoError> { subscriber in
                subscriber.keepAlive(LifetimeProbe(released))
                return source.signal.start(next: { subscriber.putNext($0) })
            })
        #expect(released.count == 0)
        recorder.dispose()
        #expect(released.count == 1)
    }

    @Test func identityReturnsItsArgument() {
        #expect(identity(5) == 5)
    }
}
