import SignalTesting
import SwiftSignalKit
import Testing

/// Every await here ends: the bridges honour cancellation, which the suite's time limit and `finish` use.
@Suite(.timeLimit(.minutes(1))) struct Signal_AsyncTests {
    @Test func valuesIteratesUntilCompletion() async throws {
        let collected = try await finish(
            Task {
                var collected: [Int] = []
                for try await value in sequence([1, 2, 3]).values { collected.append(value) }
                return collected
            }, "iterating the values")
        #expect(collected == [1, 2, 3])
    }

    @Test func valuesThrowsTheSignalError() async {
        var collected: [Int] = []
        await #expect(throws: TestError.failed) {
            for try await value in sequence([1], error: .failed).values { collected.append(value) }
        }
        #expect(collected == [1])
    }

    @Test func valuesWrapsNonErrorErrors() async {
        let signal = Signal<Int, String>.fail("boom")
        do {
            for try await _ in signal.values {}
            Issue.record("expected an error")
        } catch let error as SignalError<String> {
            #expect(error.error == "boom")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func breakingOutOfTheLoopDisposesTheSubscription() async throws {
        let source = TestSource<Int, NoError>()
        let task = Task {
            for try await value in source.signal.values where value == 2 { break }
        }
        try await yield(until: "the subscription") { source.activeCount > 0 }
        source.putNext(1)
        source.putNext(2)
        try await finish(task, "the loop")
        #expect(source.activeCount == 0)
    }

    @Test func cancellingTheTaskDisposesTheSubscription() async throws {
        let source = TestSource<Int, NoError>()
        let task = Task {
            for try await _ in source.signal.values {}
        }
        try await yield(until: "the subscription") { source.activeCount > 0 }
        task.cancel()
        _ = try? await finish(task, "the cancelled loop")
        #expect(source.activeCount == 0)
    }

    @Test func getReturnsTheFirstValueAndDisposes() async throws {
        let source = TestSource<Int, NoError>()
        let first = Task { try await source.signal.get() }
        try await yield(until: "the subscription") { source.activeCount > 0 }
        source.putNext(7)
        source.putNext(8)
        #expect(try await finish(first, "get()") == 7)
        #expect(source.activeCount == 0)
    }

    @Test func getThrowsForAnEmptyOrFailingSignal() async {
        await #expect(throws: SignalCompletedWithoutValue()) { try await Signal<Int, NoError>.complete().get() }
        await #expect(throws: TestError.other) { try await sequence([], error: .other).get() }
    }

    @Test func getIsCancellable() async throws {
        let source = TestSource<Int, NoError>()
        let task = Task { try await source.signal.get() }
        try await yield(until: "the subscription") { source.activeCount > 0 }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await finish(task, "the cancelled get()") }
        #expect(source.activeCount == 0)
    }

    @Test func signalFromAnAsyncOperation() async throws {
        let signal = Signal<Int, TestError>(operation: { () async throws(TestError) -> Int in 41 + 1 })
        #expect(try await signal.get() == 42)
        let failing = Signal<Int, TestError>(operation: { () async throws(TestError) -> Int in throw .failed })
        await #expect(throws: TestError.failed) { try await failing.get() }
        let plain = Signal<String, NoError>(operation: { "ok" })
        #expect(try await plain.get() == "ok")
    }

    @Test func disposingCancelsTheOperation() async throws {
        let cancelled = Counter()
        let started = Counter()
        let signal = Signal<Int, NoError>(operation: {
            started.increment()
            try? await Task.sleep(for: .seconds(30))  // ends at once when cancelled
            if Task.isCancelled { cancelled.increment() }
            return 0
        })
        let recorder = EventRecorder(signal)
        try await yield(until: "the operation's start") { started.count > 0 }
        recorder.dispose()
        try await yield(until: "the operation's cancellation") { cancelled.count > 0 }
        #expect(recorder.events == [])
    }
}
