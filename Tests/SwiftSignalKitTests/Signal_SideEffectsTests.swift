import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_SideEffectsTests {
    @Test func beforeAndAfterNextRunAroundDelivery() {
        let log = Log()
        let signal =
            sequence([1])
            |> beforeNext { log.add("before \($0)") }
            |> afterNext { log.add("after \($0)") }
        _ = signal.start(next: { log.add("next \($0)") })
        #expect(log.all == ["before 1", "next 1", "after 1"])
    }

    @Test func beforeStartedRunsPerSubscription() {
        let count = Counter()
        let signal = sequence([1]) |> beforeStarted { count.increment() }
        #expect(count.count == 0)
        _ = record(signal)
        _ = record(signal)
        #expect(count.count == 2)
    }

    @Test func completionHooksRunInOrder() {
        let log = Log()
        let signal =
            sequence([])
            |> beforeCompleted { log.add("before") }
            |> afterCompleted { log.add("after") }
        _ = signal.start(completed: { log.add("completed") })
        #expect(log.all == ["before", "completed", "after"])
    }

    @Test func completionHooksDoNotRunOnError() {
        let count = Counter()
        let recorder = record(
            sequence([], error: .failed) |> beforeCompleted { count.increment() }
                |> afterCompleted { count.increment() })
        #expect(recorder.events == [.Error(.failed)])
        #expect(count.count == 0)
    }

    @Test func afterDisposedRunsOnDisposeAndAfterTermination() {
        let count = Counter()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> afterDisposed { count.increment() })
        #expect(count.count == 0)
        recorder.dispose()
        #expect(count.count == 1)
        #expect(source.disposalCount == 1)
        _ = record(sequence([1]) |> afterDisposed { count.increment() })
        #expect(count.count == 2)
    }

    @Test func withStateGivesEachSubscriptionItsOwnState() {
        let log = Log()
        let counter = Counter()
        let signal = withState(
            sequence([1, 2]),
            { () -> Int in
                counter.increment()
                return counter.count
            }, next: { value, state in log.add("next \(value) state \(state)") },
            completed: { state in log.add("completed \(state)") }, disposed: { state in log.add("disposed \(state)") })
        #expect(record(signal).values == [1, 2])
        _ = record(signal)
        #expect(
            log.all == [
                "next 1 state 1", "next 2 state 1", "completed 1", "disposed 1",
                "next 1 state 2", "next 2 state 2", "completed 2", "disposed 2",
            ])
    }

    @Test func withStateSeesErrors() {
        let log = Log()
        let signal = withState(
            sequence([], error: .other), { 7 }, error: { error, state in log.add("\(error) \(state)") })
        #expect(record(signal).events == [.Error(.other)])
        #expect(log.all == ["other 7"])
    }
}
