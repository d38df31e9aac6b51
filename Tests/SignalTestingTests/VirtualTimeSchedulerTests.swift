import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct VirtualTimeSchedulerTests {
    final class Log: Sendable {
        private let entries = LockedValue<[String]>.make([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func nothingRunsUntilTimeAdvances() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let log = Log()
        queue.justDispatch { log.add("now") }
        queue.after(1) { log.add("later") }
        #expect(log.all == [])
        #expect(scheduler.pendingTaskCount == 2)
        scheduler.advance(by: 0)
        #expect(log.all == ["now"])
        scheduler.advance(by: 1)
        #expect(log.all == ["now", "later"])
        #expect(scheduler.now == 1)
        #expect(scheduler.executedTaskCount == 2)
    }

    @Test func tasksDueAtTheSameTimeRunInFifoOrderAcrossQueues() {
        let scheduler = VirtualTimeScheduler()
        let a = scheduler.makeQueue(name: "a")
        let b = scheduler.makeQueue(name: "b")
        let log = Log()
        a.after(1) { log.add("a1") }
        b.after(1) { log.add("b1") }
        a.after(0.5) { log.add("a0.5") }
        b.justDispatch { log.add("b0") }
        scheduler.run()
        #expect(log.all == ["b0", "a0.5", "a1", "b1"])
    }

    @Test func isCurrentOnlyInsideTheQueuesTasks() {
        let scheduler = VirtualTimeScheduler()
        let a = scheduler.makeQueue()
        let b = scheduler.makeQueue()
        let log = Log()
        a.justDispatch {
            log.add("a:\(a.isCurrent()) b:\(b.isCurrent())")
            a.async { log.add("inline") }
            b.async { log.add("b later") }
            log.add("end")
        }
        #expect(!a.isCurrent())
        scheduler.run()
        #expect(log.all == ["a:true b:false", "inline", "end", "b later"])
    }

    @Test func tasksAddedWhileAdvancingRunIfDue() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let log = Log()
        queue.after(1) {
            log.add("first at \(scheduler.now)")
            queue.after(1) { log.add("second at \(scheduler.now)") }
            queue.after(5) { log.add("too late") }
        }
        scheduler.advance(by: 3)
        #expect(log.all == ["first at 1.0", "second at 2.0"])
        #expect(scheduler.now == 3)
        #expect(scheduler.pendingTaskCount == 1)
    }

    @Test func cancelledTasksNeverRun() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let log = Log()
        let disposable = queue.schedule(after: 1) { log.add("cancelled") }
        disposable.dispose()
        #expect(scheduler.pendingTaskCount == 0)
        scheduler.advance(by: 2)
        #expect(log.all == [])
    }

    @Test func syncRunsInlineAsTheQueue() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        var inside = false
        queue.sync { inside = queue.isCurrent() }
        #expect(inside)
        #expect(queue.currentTime == 0)
        #expect(queue.queue == nil)
    }

    @Test func runStopsAtTheTaskLimit() {
        let scheduler = VirtualTimeScheduler(startTime: 100)
        let queue = scheduler.makeQueue()
        let timer = SwiftSignalKit.Timer(timeout: 1, repeat: true, completion: {}, queue: queue)
        timer.start()
        #expect(scheduler.run(maxTasks: 10) == 10)
        #expect(scheduler.now == 110)
        timer.invalidate()
    }
}
