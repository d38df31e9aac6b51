import Dispatch
import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_DispatchTests {
    @Test func deliverOnHopsToTheQueueInOrder() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let onQueue = Log()
        let recorder = record(
            sequence([1, 2]) |> deliverOn(queue) |> beforeNext { _ in onQueue.add("\(queue.isCurrent())") })
        #expect(recorder.events == [])
        scheduler.run()
        #expect(recorder.events == [.Next(1), .Next(2), .Completion])
        #expect(onQueue.all == ["true", "true"])
        let failing = record(sequence([], error: .failed) |> deliverOn(queue))
        scheduler.run()
        #expect(failing.events == [.Error(.failed)])
    }

    @Test func deliverOnARealSerialQueue() async throws {
        let queue = Queue(name: "deliver")
        let values = try await collect(
            (Signal<Int, TestError> { subscriber in
                for index in 0..<1000 { subscriber.putNext(index) }
                subscriber.putCompletion()
                return EmptyDisposable
            } |> deliverOn(queue) |> beforeNext { _ in precondition(queue.isCurrent()) }))
        #expect(values == Array(0..<1000))
    }

    @Test func disposeBeforeDeliveryDropsTheEvents() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = record(sequence([1]) |> deliverOn(queue))
        recorder.dispose()
        scheduler.run()
        #expect(recorder.events == [])
    }

    @Test func deliverOnMainQueueSchedulesOnMain() throws {
        let delivered = Log()
        let done = DispatchSemaphore(value: 0)
        let disposable = (sequence([1, 2]) |> deliverOnMainQueue).start(
            next: { delivered.add("\($0) on main: \(Queue.mainQueue().isCurrent())") },
            completed: {
                delivered.add("completed on main: \(Queue.mainQueue().isCurrent())")
                done.signal()
            })
        try wait(for: done, "delivery on the main queue")
        #expect(delivered.all == ["1 on main: true", "2 on main: true", "completed on main: true"])
        disposable.dispose()
    }

    @Test func deliverOnThreadPoolKeepsOrder() async throws {
        let pool = ThreadPool(threadCount: 2, threadPriority: 0.5)
        defer { pool.stop() }
        let values = try await collect(
            sequence(Array(0..<200)) |> deliverOn(pool)
                |> beforeNext { _ in precondition(pool.isCurrentThreadInPool()) })
        #expect(values == Array(0..<200))
    }

    @Test func runOnStartsOnTheQueue() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let started = Log()
        let signal = Signal<Int, TestError> { subscriber in
            started.add("\(queue.isCurrent())")
            subscriber.putNext(1)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let recorder = record(signal |> runOn(queue))
        #expect(started.all == [])
        scheduler.run()
        #expect(started.all == ["true"])
        #expect(recorder.events == [.Next(1), .Completion])
        let cancelled = record(signal |> runOn(queue))
        cancelled.dispose()
        scheduler.run()
        #expect(started.all == ["true"])
    }

    @Test func runOnStartsSynchronouslyWhenAlreadyOnTheQueue() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = EventRecorder<Int, TestError>()
        queue.justDispatch { recorder.start(sequence([5]) |> runOn(queue)) }
        scheduler.advance(by: 0)
        #expect(recorder.events == [.Next(5), .Completion])
    }

    @Test func runOnThreadPool() async throws {
        let pool = ThreadPool(threadCount: 1, threadPriority: 0.5)
        defer { pool.stop() }
        let signal = Signal<Bool, TestError> { subscriber in
            subscriber.putNext(pool.isCurrentThreadInPool())
            subscriber.putCompletion()
            return EmptyDisposable
        }
        #expect(try await collect(signal |> runOn(pool)) == [true])
    }

    @Test func boundedDeliveryDropOldestKeepsTheNewestValues() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = record(sequence(Array(1...10)) |> deliverOn(queue, bufferLimit: 3, policy: .dropOldest))
        scheduler.run()
        #expect(recorder.events == [.Next(8), .Next(9), .Next(10), .Completion])
    }

    @Test func boundedDeliveryKeepLatestReplacesTheNewestWaiting() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = record(sequence(Array(1...10)) |> deliverOn(queue, bufferLimit: 3, policy: .keepLatest))
        scheduler.run()
        #expect(recorder.events == [.Next(1), .Next(2), .Next(10), .Completion])
        let latestOnly = record(
            sequence(Array(1...10), error: .failed) |> deliverOn(queue, bufferLimit: 1, policy: .keepLatest))
        scheduler.run()
        #expect(latestOnly.events == [.Next(10), .Error(.failed)])
    }

    @Test func boundedDeliveryDeliversEverythingWhenTheConsumerKeepsUp() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> deliverOn(queue, bufferLimit: 1, policy: .dropOldest))
        for value in 1...5 {
            source.putNext(value)
            scheduler.run()
        }
        source.putCompletion()
        scheduler.run()
        #expect(recorder.events == [.Next(1), .Next(2), .Next(3), .Next(4), .Next(5), .Completion])
        #expect(source.activeCount == 0)
    }

    /// Collects the values of a signal that completes, waiting without polling (at most 10 s).
    private func collect<T: Sendable>(_ signal: Signal<T, TestError>) async throws -> [T] {
        try await finish(
            Task {
                var result: [T] = []
                for try await value in signal.values { result.append(value) }
                return result
            }, "the signal's completion")
    }
}
