import Dispatch
import Glibc
import SignalTesting
@testable import SwiftSignalKit
import Testing

@Suite struct QueueTests {
    @Test func asyncRunsInlineWhenAlreadyOnTheQueue() {
        let queue = Queue(name: "test")
        let log = Log()
        queue.sync {
            #expect(queue.isCurrent())
            queue.async { log.add("inline") }
            log.add("after")
            queue.justDispatch { log.add("dispatched") }
            log.add("end")
        }
        queue.sync {}
        #expect(log.all == ["inline", "after", "end", "dispatched"])
        #expect(!queue.isCurrent())
    }

    @Test func tasksRunInFifoOrder() {
        let queue = Queue(name: "fifo")
        let log = Log()
        for index in 0..<1000 { queue.async { log.add("\(index)") } }
        queue.sync { log.add("sync") }
        #expect(log.all == (0..<1000).map { "\($0)" } + ["sync"])
    }

    @Test func syncTakesItsTurnBeforeTasksAddedAfterIt() throws {
        let queue = Queue(name: "turn")
        guard case .serial(_, let list) = queue.backend else { throw QueueTestError.notSerial }
        let log = Log()
        let gate = DispatchSemaphore(value: 0)
        // However the test ends, the queue is let go (a second signal is harmless).
        defer { gate.signal() }
        let started = DispatchSemaphore(value: 0)
        queue.async {
            started.signal()
            // Hold the queue so the next items wait in the list, in one batch, until the test lets it go: longer
            // than the test waits for the sync call's turn, so a slow machine fails the wait instead of draining
            // the list early (which once made the turn never come).
            _ = gate.wait(timeout: .now() + 120)
            log.add("first")
        }
        try wait(for: started, "the first task")
        queue.async { log.add("before sync") }
        let finished = DispatchSemaphore(value: 0)
        Thread.detach {
            queue.sync { log.add("sync") }
            finished.signal()
        }
        // The sync call's turn is queued once the list holds two items.
        try spin(until: "the sync call's turn in the list") { list.waitingCount >= 2 }
        queue.async { log.add("after sync") }
        gate.signal()
        try wait(for: finished, "the sync call")
        queue.sync {}
        #expect(log.all == ["first", "before sync", "sync", "after sync"])
    }

    @Test func queueOverAnExistingDispatchQueue() throws {
        let dispatchQueue = DispatchQueue(label: "wrapped")
        let queue = Queue(queue: dispatchQueue)
        #expect(queue.queue === dispatchQueue)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            #expect(queue.isCurrent())
            done.signal()
        }
        try wait(for: done, "the task on the wrapped queue")
        queue.justDispatchWithQoS(qos: .background) { done.signal() }
        try wait(for: done, "the background-QoS task")
    }

    @Test func sharedQueuesExist() throws {
        #expect(Queue.mainQueue() === Queue.mainQueue())
        #expect(!Queue.concurrentDefaultQueue().isCurrent())
        let done = DispatchSemaphore(value: 0)
        Queue.concurrentBackgroundQueue().async { done.signal() }
        try wait(for: done, "the task on the background queue")
    }

    @Test func afterRunsInVirtualTime() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let log = Log()
        queue.after(2) { log.add("2s") }
        queue.after(1) { log.add("1s") }
        scheduler.advance(by: 1.5)
        #expect(log.all == ["1s"])
        scheduler.advance(by: 1)
        #expect(log.all == ["1s", "2s"])
    }

    @Test func afterRunsOnARealQueue() throws {
        let queue = Queue(name: "after")
        let done = DispatchSemaphore(value: 0)
        queue.after(0.001) {
            #expect(queue.isCurrent())
            done.signal()
        }
        try wait(for: done, "the delayed task")
    }

    @Test func timerFiresOnceOrRepeatsUntilInvalidated() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let once = Counter()
        let repeating = Counter()
        let single = Timer(timeout: 1, repeat: false, completion: { once.increment() }, queue: queue)
        let periodic = Timer(timeout: 0.5, repeat: true, completion: { repeating.increment() }, queue: queue)
        single.start()
        periodic.start()
        scheduler.advance(by: 2.1)
        #expect(once.count == 1)
        #expect(repeating.count == 4)
        periodic.invalidate()
        scheduler.advance(by: 5)
        #expect(repeating.count == 4)
    }

    @Test func timerInvalidatedBeforeFiringNeverFires() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let count = Counter()
        let timer = Timer(timeout: 1, repeat: false, completion: { (_: Timer) in count.increment() }, queue: queue)
        timer.start()
        timer.invalidate()
        scheduler.advance(by: 2)
        #expect(count.count == 0)
    }

    @Test func timerOnARealQueue() throws {
        let queue = Queue(name: "timer")
        let done = DispatchSemaphore(value: 0)
        let fired = Log()
        let timeout = 0.05
        let timer = Timer(
            timeout: timeout, repeat: false,
            completion: {
                fired.add("on queue: \(queue.isCurrent())")
                done.signal()
            }, queue: queue)
        let start = DispatchTime.now()
        timer.start()
        try wait(for: done, "the timer")
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(elapsed >= timeout, "fired after \(elapsed) s")
        #expect(fired.all == ["on queue: true"])
        // A one-shot timer fires once.
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
        #expect(fired.all.count == 1)
        withExtendedLifetime(timer) {}
    }

    @Test func queueLocalObjectConfinesItsObject() {
        final class Impl {
            var value = 0
        }
        let queue = Queue(name: "local")
        let local = QueueLocalObject(queue: queue, generate: { Impl() })
        local.with { $0.value += 1 }
        #expect(local.syncWith { $0.value } == 1)
        let recorder = record(
            local.signalWith { (impl: Impl, subscriber: Subscriber<Int, NoError>) in
                subscriber.putNext(impl.value)
                subscriber.putCompletion()
                return EmptyDisposable
            })
        queue.sync {}
        #expect(recorder.events == [.Next(1), .Completion])
        queue.sync { #expect(local.unsafeGet()?.value == 1) }
    }

    @Test func threadPoolRunsLanesInOrder() throws {
        let pool = ThreadPool(threadCount: 2, threadPriority: 0.5)
        defer { pool.stop() }
        let lane = pool.nextQueue()
        let log = Log()
        let done = DispatchSemaphore(value: 0)
        for index in 0..<100 {
            lane.addTask(
                ThreadPoolTask { _ in
                    #expect(pool.isCurrentThreadInPool())
                    log.add("\(index)")
                    if index == 99 { done.signal() }
                })
        }
        try wait(for: done, "the hundredth task")
        #expect(log.all == (0..<100).map { "\($0)" })
        #expect(!pool.isCurrentThreadInPool())
    }

    @Test func cancelledThreadPoolTaskDoesNotRun() throws {
        let pool = ThreadPool(threadCount: 1, threadPriority: 0.5)
        defer { pool.stop() }
        let lane = pool.nextQueue()
        let ran = Counter()
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        lane.addTask(ThreadPoolTask { _ in _ = gate.wait(timeout: .now() + 10) })
        let cancelled = ThreadPoolTask { _ in ran.increment() }
        lane.addTask(cancelled)
        lane.addTask(ThreadPoolTask { _ in done.signal() })
        cancelled.cancel()
        gate.signal()
        try wait(for: done, "the task after the cancelled one")
        #expect(ran.count == 0)
    }
}

enum QueueTestError: Error { case notSerial }

/// A detached thread (Foundation's Thread is not linked by these tests).
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}
