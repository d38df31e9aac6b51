import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_CatchTests {
    @Test func catchContinuesWithTheRecoverySignal() {
        let signal =
            sequence([1], error: .failed)
            |> `catch` { (error: TestError) -> Signal<Int, String> in
                error == .failed ? .single(99) : .fail("unexpected")
            }
        #expect(record(signal).events == [.Next(1), .Next(99), .Completion])
        let failing = sequence([], error: .other) |> `catch` { (_: TestError) in Signal<Int, String>.fail("again") }
        #expect(record(failing).events == [.Error("again")])
    }

    @Test func catchWithoutErrorPassesThrough() {
        let signal = sequence([1, 2]) |> `catch` { _ in Signal<Int, NoError>.single(0) }
        #expect(record(signal).events == [.Next(1), .Next(2), .Completion])
    }

    @Test func catchDisposesTheRecoverySignal() {
        let recovery = TestSource<Int, NoError>()
        let recorder = record(sequence([], error: .failed) |> `catch` { _ in recovery.signal })
        #expect(recovery.activeCount == 1)
        recorder.dispose()
        #expect(recovery.activeCount == 0)
    }

    @Test func restartResubscribesOnCompletion() {
        let runs = Counter()
        let signal = Signal<Int, TestError> { subscriber in
            runs.increment()
            subscriber.putNext(runs.count)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let recorder = record(signal |> restart |> take(1000))
        #expect(recorder.values == Array(1...1000))
        #expect(recorder.events.last == .Completion)
    }

    @Test func restartPassesErrorsAndStopsOnDispose() {
        #expect(record(sequence([1], error: .failed) |> restart).events == [.Next(1), .Error(.failed)])
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> restart)
        source.putCompletion()
        #expect(source.subscriptionCount == 2)
        recorder.dispose()
        #expect(source.activeCount == 0)
        source.putCompletion()
        #expect(source.subscriptionCount == 2)
    }

    @Test func recurseRestartsLikeTelegram() {
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> recurse(nil))
        source.putNext(1)
        source.putCompletion()
        source.putNext(2)
        #expect(recorder.values == [1, 2])
        #expect(source.subscriptionCount == 2)
    }

    @Test func retryWaitsLongerEachTimeInVirtualTime() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let attempts = Counter()
        let times = Log()
        let signal = Signal<Int, TestError> { subscriber in
            attempts.increment()
            times.add("\(scheduler.now)")
            if attempts.count < 4 {
                subscriber.putError(.failed)
            } else {
                subscriber.putNext(attempts.count)
                subscriber.putCompletion()
            }
            return EmptyDisposable
        }
        let recorder = record(signal |> retry(1.0, maxDelay: 2.5, onQueue: queue), scheduler: scheduler)
        scheduler.advance(by: 10)
        #expect(times.all == ["0.0", "1.0", "3.0", "5.5"])
        #expect(recorder.timedEvents == [RecordedEvent(5.5, .Next(4)), RecordedEvent(5.5, .Completion)])
    }

    @Test func retryIsCancelledByDispose() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let attempts = Counter()
        let signal = Signal<Int, TestError> { subscriber in
            attempts.increment()
            subscriber.putError(.failed)
            return EmptyDisposable
        }
        let recorder = record(signal |> retry(1.0, maxDelay: 1.0, onQueue: queue), scheduler: scheduler)
        scheduler.advance(by: 2.5)
        #expect(attempts.count == 3)
        recorder.dispose()
        scheduler.advance(by: 10)
        #expect(attempts.count == 3)
        #expect(scheduler.pendingTaskCount == 0)
    }

    @Test func retryWithConditionAndLimit() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let attempts = Counter()
        let alwaysFailing = Signal<Int, TestError> { subscriber in
            attempts.increment()
            subscriber.putError(.failed)
            return EmptyDisposable
        }
        let limited = record(
            alwaysFailing
                |> retry(
                    retryOnError: { $0 == .failed }, delayIncrement: 0.5, maxDelay: 1, maxRetries: 2, onQueue: queue),
            scheduler: scheduler)
        scheduler.advance(by: 10)
        #expect(attempts.count == 3)
        #expect(limited.timedEvents == [RecordedEvent(1.5, .Error(.failed))])
        let notRetried = record(
            sequence([], error: .other)
                |> retry(retryOnError: { $0 == .failed }, delayIncrement: 1, maxDelay: 1, maxRetries: 5, onQueue: queue)
        )
        #expect(notRetried.events == [.Error(.other)])
    }

    @Test func restartIfErrorResubscribesUntilCompletion() {
        let attempts = Counter()
        let signal = Signal<Int, TestError> { subscriber in
            attempts.increment()
            if attempts.count < 3 {
                subscriber.putError(.failed)
            } else {
                subscriber.putNext(7)
                subscriber.putCompletion()
            }
            return EmptyDisposable
        }
        #expect(record(signal |> restartIfError).events == [.Next(7), .Completion])
        #expect(attempts.count == 3)
    }

    @Test func restartOrMapErrorDecidesPerError() {
        let attempts = Counter()
        let signal = Signal<Int, TestError> { subscriber in
            attempts.increment()
            subscriber.putNext(attempts.count)
            subscriber.putError(attempts.count < 2 ? .failed : .other)
            return EmptyDisposable
        }
        let recorder = record(
            signal
                |> restartOrMapError { (error: TestError) -> RestartOrMapErrorCondition<String> in
                    error == .failed ? .restart : .error("gave up")
                })
        #expect(recorder.events == [.Next(1), .Next(2), .Error("gave up")])
        let completing = record(sequence([5]) |> restartOrMapError { _ in RestartOrMapErrorCondition<String>.restart })
        #expect(completing.events == [.Next(5), .Completion])
    }
}
