import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct PromiseTests {
    @Test func promiseReplaysTheCurrentValueThenLiveOnes() {
        let promise = Promise<Int>(1)
        let first = record(promise.get())
        promise.set(.single(2))
        let second = record(promise.get())
        promise.set(sequence([3, 4]) |> `catch` { _ in .complete() })
        #expect(first.events == [.Next(1), .Next(2), .Next(3), .Next(4)])
        #expect(second.events == [.Next(2), .Next(3), .Next(4)])
    }

    @Test func setResetsTheValueBeforeSubscribing() {
        let promise = Promise<Int>(1)
        let source = TestSource<Int, NoError>()
        promise.set(source.signal)
        #expect(record(promise.get()).events == [])
        source.putNext(5)
        #expect(record(promise.get()).events == [.Next(5)])
    }

    @Test func settingAgainDisposesThePreviousSource() {
        let promise = Promise<Int>()
        let first = TestSource<Int, NoError>()
        promise.set(first.signal)
        promise.set(.single(1))
        #expect(first.disposalCount == 1)
    }

    @Test func initializeOnFirstAccessSubscribesLazily() {
        let source = TestSource<Int, NoError>()
        let promise = Promise<Int>(initializeOnFirstAccess: source.signal)
        #expect(source.subscriptionCount == 0)
        let recorder = record(promise.get())
        #expect(source.subscriptionCount == 1)
        _ = record(promise.get())
        #expect(source.subscriptionCount == 1)
        source.putNext(9)
        #expect(recorder.values == [9])
    }

    @Test func disposingAGetStopsDeliveryToThatSubscriber() {
        let promise = Promise<Int>(0)
        let recorder = record(promise.get())
        recorder.dispose()
        promise.set(.single(1))
        #expect(recorder.values == [0])
    }

    @Test func onDeinitRuns() {
        let count = Counter()
        do {
            let promise = Promise<Int>()
            promise.onDeinit = { count.increment() }
        }
        #expect(count.count == 1)
    }

    @Test func valuePromiseExposesItsValueAndIgnoresRepeats() {
        let promise = ValuePromise(1, ignoreRepeated: true)
        let recorder = record(promise.get())
        promise.set(1)
        promise.set(2)
        promise.set(2)
        promise.set(1)
        #expect(recorder.values == [1, 2, 1])
        #expect(promise.value == 1)
    }

    @Test func valuePromiseWithoutIgnoreRepeatedDeliversEverySet() {
        let promise = ValuePromise<Int>()
        #expect(promise.value == nil)
        let recorder = record(promise.get())
        promise.set(3)
        promise.set(3)
        #expect(recorder.events == [.Next(3), .Next(3)])
        recorder.dispose()
        promise.set(4)
        #expect(recorder.values == [3, 3])
    }

    @Test func valuePipeIsHotWithoutReplay() {
        let pipe = ValuePipe<Int>()
        pipe.putNext(0)
        let first = record(pipe.signal())
        pipe.putNext(1)
        let second = record(pipe.signal())
        pipe.putNext(2)
        first.dispose()
        pipe.putNext(3)
        #expect(first.values == [1, 2])
        #expect(second.values == [2, 3])
    }

    @Test func multicastSharesOneSubscriptionPerKey() {
        let multicast = Multicast<Int>()
        let source = TestSource<Int, NoError>()
        let a = record(multicast.get(key: "k", signal: source.signal))
        let b = record(multicast.get(key: "k", signal: source.signal))
        #expect(source.subscriptionCount == 1)
        source.putNext(1)
        a.dispose()
        source.putNext(2)
        #expect(a.values == [1])
        #expect(b.values == [1, 2])
        b.dispose()
        #expect(source.disposalCount == 1)
        _ = record(multicast.get(key: "k", signal: source.signal))
        #expect(source.subscriptionCount == 2)
    }

    @Test func multicastCompletionReachesSubscribersAndResets() {
        let multicast = Multicast<Int>()
        let source = TestSource<Int, NoError>()
        let a = record(multicast.get(key: "k", signal: source.signal))
        source.putCompletion()
        #expect(a.events == [.Completion])
        _ = record(multicast.get(key: "k", signal: source.signal))
        #expect(source.subscriptionCount == 2)
    }

    @Test func multicastPromiseHoldsState() {
        let promise = MulticastPromise<Int>()
        promise.lock.locked {
            promise.value = 3
            _ = promise.subscribers.add { _ in }
        }
        #expect(promise.lock.locked { promise.value } == 3)
        #expect(promise.lock.locked { !promise.subscribers.isEmpty })
    }
}
