import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_MetaTests {
    @Test func switchToLatestDisposesThePreviousInner() {
        let outer = TestSource<Signal<Int, TestError>, TestError>()
        let first = TestSource<Int, TestError>()
        let second = TestSource<Int, TestError>()
        let recorder = record(outer.signal |> switchToLatest)
        outer.putNext(first.signal)
        first.putNext(1)
        outer.putNext(second.signal)
        #expect(first.activeCount == 0)
        first.putNext(2)
        second.putNext(3)
        outer.putCompletion()
        #expect(recorder.events == [.Next(1), .Next(3)])
        second.putCompletion()
        #expect(recorder.events == [.Next(1), .Next(3), .Completion])
    }

    @Test func switchToLatestCompletesWhenOuterCompletesWithNoInnerRunning() {
        let recorder = record(Signal<Signal<Int, TestError>, TestError>.single(sequence([1, 2])) |> switchToLatest)
        #expect(recorder.events == [.Next(1), .Next(2), .Completion])
        let failing = record(
            Signal<Signal<Int, TestError>, TestError>.single(sequence([], error: .failed)) |> switchToLatest)
        #expect(failing.events == [.Error(.failed)])
    }

    @Test func queueRunsInnerSignalsOneAfterAnother() {
        let outer = TestSource<Signal<Int, TestError>, TestError>()
        let first = TestSource<Int, TestError>()
        let recorder = record(outer.signal |> queue)
        outer.putNext(first.signal)
        outer.putNext(sequence([10, 11]))
        outer.putNext(sequence([20]))
        outer.putCompletion()
        first.putNext(1)
        #expect(recorder.events == [.Next(1)])
        first.putCompletion()
        #expect(recorder.events == [.Next(1), .Next(10), .Next(11), .Next(20), .Completion])
    }

    @Test func queueOfManySynchronousSignalsDoesNotRecurse() {
        let outer = Signal<Signal<Int, TestError>, TestError> { subscriber in
            for index in 0..<20_000 { subscriber.putNext(.single(index)) }
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let recorder = record(outer |> queue)
        #expect(recorder.values.count == 20_000)
        #expect(recorder.events.last == .Completion)
    }

    @Test func throttledKeepsOnlyTheNewestWaitingSignal() {
        let outer = TestSource<Signal<Int, TestError>, TestError>()
        let first = TestSource<Int, TestError>()
        let recorder = record(outer.signal |> throttled)
        outer.putNext(first.signal)
        outer.putNext(sequence([2]))
        outer.putNext(sequence([3]))
        outer.putNext(sequence([4]))
        first.putCompletion()
        #expect(recorder.values == [4])
    }

    @Test func mapToSignalFollowsTheLatest() {
        let source = TestSource<Int, TestError>()
        let inner = TestSource<String, TestError>()
        let recorder = record(
            source.signal
                |> mapToSignal { value -> Signal<String, TestError> in
                    value == 1 ? inner.signal : .single("v\(value)")
                })
        source.putNext(1)
        inner.putNext("a")
        source.putNext(2)
        inner.putNext("b")
        #expect(recorder.values == ["a", "v2"])
        #expect(inner.activeCount == 0)
    }

    @Test func mapToSignalPromotingErrorFailsWithTheInnerError() {
        let source = Signal<Int, NoError>.single(1)
        let recorder = record(source |> mapToSignalPromotingError { _ in Signal<Int, TestError>.fail(.other) })
        #expect(recorder.events == [.Error(.other)])
    }

    @Test func mapToQueueAndMapToThrottled() {
        let queued = record(sequence([1, 2]) |> mapToQueue { sequence([$0, $0 * 10]) })
        #expect(queued.events == [.Next(1), .Next(10), .Next(2), .Next(20), .Completion])
        let source = TestSource<Int, TestError>()
        let slow = TestSource<Int, TestError>()
        let throttledRecorder = record(
            source.signal |> mapToThrottled { value in value == 0 ? slow.signal : .single(value) })
        source.putNext(0)
        source.putNext(1)
        source.putNext(2)
        slow.putCompletion()
        #expect(throttledRecorder.values == [2])
    }

    @Test func ignoreValuesKeepsTheTerminalEvent() {
        let recorder = record(sequence([1, 2]) |> ignoreValues)
        #expect(recorder.events.count == 1)
        #expect(recorder.isTerminated)
        let failing = record(sequence([1], error: .failed) |> ignoreValues)
        if case .Error(let error) = failing.events.first { #expect(error == .failed) } else { Issue.record("no error") }
    }

    @Test func thenContinuesAfterCompletionOnly() {
        #expect(record(sequence([1]) |> then(sequence([2]))).events == [.Next(1), .Next(2), .Completion])
        #expect(record(sequence([1], error: .failed) |> then(sequence([2]))).events == [.Next(1), .Error(.failed)])
        let second = TestSource<Int, TestError>()
        let recorder = record(sequence([]) |> then(second.signal))
        recorder.dispose()
        #expect(second.activeCount == 0)
    }

    @Test func deferredBuildsTheSignalPerSubscription() {
        let count = Counter()
        let signal = deferred { () -> Signal<Int, TestError> in
            count.increment()
            return .single(count.count)
        }
        #expect(count.count == 0)
        #expect(record(signal).values == [1])
        #expect(record(signal).values == [2])
    }

    @Test func disposingSwitchToLatestDisposesOuterAndInner() {
        let outer = TestSource<Signal<Int, TestError>, TestError>()
        let inner = TestSource<Int, TestError>()
        let recorder = record(outer.signal |> switchToLatest)
        outer.putNext(inner.signal)
        recorder.dispose()
        #expect(outer.activeCount == 0)
        #expect(inner.activeCount == 0)
    }

    @Test func measureTimeToFirstEventPassesEventsThrough() {
        #expect(record(sequence([1]) |> debug_measureTimeToFirstEvent(label: "test")).values == [1])
    }
}
