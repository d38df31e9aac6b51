import Dispatch
import Foundation
import SwiftSignalKit
import Synchronization
import TestVectors
import Testing

@testable import Simulation

/// The world's executor: the tasks of all its simulated queues run one at a time (never two at once, whichever
/// dispatch thread drains the list), in the order they were enqueued; a `sync` from outside takes its turn in that order, one from inside another queue's task runs in place.
@Suite struct SimulationExecutorTests {
    @Test func tasksOfEveryQueueRunOneAtATimeInTheOrderEnqueued() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let queues = (0..<3).map { clock.makeQueue(name: "q\($0)") }
        let log = Mutex<(order: [Int], threads: Set<UInt>, running: Int, overlapped: Bool)>(([], [], 0, false))
        // Enqueued from one thread, so the order they were enqueued in is known.
        for index in 0..<300 {
            queues[index % 3].justDispatch {
                log.withLock {
                    $0.running += 1
                    if $0.running > 1 { $0.overlapped = true }
                    $0.threads.insert(UInt(pthread_self()))
                }
                usleep(index % 10 == 0 ? 200 : 0)
                log.withLock {
                    $0.order.append(index)
                    $0.running -= 1
                }
            }
        }
        try await waitUntil("every task ran") { clock.busy == 0 && log.withLock { $0.order.count } == 300 }
        let seen = log.withLock { $0 }
        #expect(seen.order == Array(0..<300))
        #expect(!seen.overlapped)
        let trace = try #require(clock.taskTrace)
        #expect(trace.entries.map(\.queue) == (0..<300).map { $0 % 3 })
        #expect(trace.entries.allSatisfy { $0.origin == .outside })
        #expect(trace.queueNames == ["q0", "q1", "q2"])
    }

    @Test func aTaskEnqueuedByATaskRunsAfterWhatWasAlreadyWaitingAndKnowsItsOrigin() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let first = clock.makeQueue(name: "first")
        let second = clock.makeQueue(name: "second")
        let order = Mutex<[String]>([])
        // The executor is held until both outside tasks are enqueued, so "second, from outside" is in the list before
        // the first task runs.
        let release = DispatchSemaphore(value: 0)
        first.justDispatch { _ = release.wait(timeout: .now() + 300) }
        first.justDispatch {
            #expect(first.isCurrent() && !second.isCurrent())
            second.justDispatch { order.withLock { $0.append("second, from first") } }
            // Inline: already on the queue.
            first.async { order.withLock { $0.append("first, inline") } }
        }
        second.justDispatch { order.withLock { $0.append("second, from outside") } }
        release.signal()
        try await waitUntil("every task ran") { clock.busy == 0 && order.withLock { $0.count } == 3 }
        #expect(order.withLock { $0 } == ["first, inline", "second, from outside", "second, from first"])
        #expect(clock.taskTrace?.entries.map(\.origin) == [.outside, .outside, .outside, .queue(0)])
        #expect(!first.isCurrent())
    }

    @Test func aSyncFromOutsideWaitsItsTurnAndOneFromInsideRunsInPlace() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let first = clock.makeQueue(name: "first")
        let second = clock.makeQueue(name: "second")
        let order = Mutex<[String]>([])
        // On threads of their own: a blocking sync must hold neither one of the cooperative pool's few threads nor
        // one of the global queues', and the waits must not depend on the pool (other suites may hold it).
        let failure = await offPool { () -> String? in
            let release = DispatchSemaphore(value: 0)
            // The executor is held by a task, with another waiting behind it.
            first.justDispatch {
                _ = release.wait(timeout: .now() + 60)
                order.withLock { $0.append("held") }
            }
            second.justDispatch { order.withLock { $0.append("waiting") } }
            let synced = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                defer { synced.signal() }
                second.sync {
                    #expect(second.isCurrent() && !first.isCurrent())
                    order.withLock { $0.append("sync") }
                    // From inside: another queue's sync runs in place (waiting for a turn would wait for itself).
                    first.sync {
                        #expect(first.isCurrent() && !second.isCurrent())
                        order.withLock { $0.append("nested") }
                    }
                    #expect(second.isCurrent())
                }
                second.justDispatch { order.withLock { $0.append("after") } }
            }
            let waited = poll { clock.busy == 3 }
            release.signal()
            guard waited else { return "the sync call did not wait its turn" }
            guard synced.wait(timeout: .now() + 30) == .success else { return "the sync call did not return" }
            guard poll({ clock.busy == 0 && order.withLock { $0.count } == 5 }) else { return "not every task ran" }
            return nil
        }
        #expect(failure == nil)
        #expect(order.withLock { $0 } == ["held", "waiting", "sync", "nested", "after"])
        #expect(clock.taskTrace?.entries.map(\.origin) == [.outside, .outside, .sync, .sync, .outside])
        #expect(clock.taskTrace?.entries.map(\.queue) == [0, 1, 1, 0, 1])
    }

    @Test func aTimersTaskRunsOnItsQueueMarkedAsATimers() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let queue = clock.makeQueue(name: "timed")
        let ran = Mutex(false)
        queue.after(1) {
            #expect(queue.isCurrent())
            ran.withLock { $0 = true }
        }
        #expect(clock.fireNext(until: 1))
        try await waitUntil("the timer's task ran") { clock.busy == 0 && ran.withLock { $0 } }
        #expect(clock.taskTrace?.entries == [.init(queue: 0, origin: .timer)])
    }

    /// Behind the closed gate, tasks from outside wait for `admit` and then run queue by queue (in the order the queues
    /// were made), each queue's in the order they arrived, whichever thread enqueued first; a task a running task
    /// enqueues, for a queue with nothing held any more, runs after what is already in the list.
    @Test func theGateAdmitsWhatArrivedQueueByQueue() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let executor = clock.executor
        let queues = (0..<3).map { clock.makeQueue(name: "q\($0)") }
        let order = Mutex<[String]>([])
        executor.close()
        executor.beginDriving()
        queues[2].justDispatch { order.withLock { $0.append("q2 first") } }
        queues[0].justDispatch {
            order.withLock { $0.append("q0") }
            // q2 has nothing held any more: runs after what is in the list now.
            queues[2].justDispatch { order.withLock { $0.append("q2 from q0") } }
        }
        queues[1].justDispatch { order.withLock { $0.append("q1") } }
        queues[2].justDispatch { order.withLock { $0.append("q2 second") } }
        try await Task.sleep(for: .milliseconds(20))
        #expect(order.withLock { $0 }.isEmpty)
        #expect(executor.held == 4 && clock.busy == 0)
        #expect(executor.admit() == 4)
        try await waitUntil("the admitted tasks ran") { clock.busy == 0 && order.withLock { $0.count } == 5 }
        #expect(order.withLock { $0 } == ["q0", "q1", "q2 first", "q2 second", "q2 from q0"])
        #expect(executor.undrivenAdmissions == 0)
        executor.endDriving()
        executor.open()
    }

    @Test func aSyncTakesItsQueuesHeldTasksAlongAndNoDriverMeansAdmissionAfterADelay() async throws {
        let clock = SimulationClock(start: 0)
        let executor = clock.executor
        let first = clock.makeQueue(name: "first")
        let second = clock.makeQueue(name: "second")
        let order = Mutex<[String]>([])
        executor.close()
        executor.beginDriving()
        first.justDispatch { order.withLock { $0.append("first, held") } }
        second.justDispatch { order.withLock { $0.append("second, held") } }
        // A sync waits for its caller's turn, never for a driver: its queue's held tasks go ahead of it, the others
        // stay held.
        let synced = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            second.sync { order.withLock { $0.append("second, sync") } }
            synced.signal()
        }
        try await waitUntil("the sync call returned") { synced.wait(timeout: .now()) == .success }
        #expect(order.withLock { $0 } == ["second, held", "second, sync"])
        #expect(executor.held == 1)
        // No driver: what is held runs after `undrivenDelay`, and is counted.
        executor.endDriving()
        try await waitUntil("the held task ran") { order.withLock { $0.count } == 3 }
        #expect(executor.undrivenAdmissions == 1)
        executor.open()
    }
}
