import Dispatch
import Foundation
import SwiftSignalKit
import Synchronization
import Testing

@testable import Simulation

/// The world's executor: the tasks of all its simulated queues run one at a time on one thread, in the order they were
/// enqueued; a `sync` from outside takes its turn in that order, one from inside another queue's task runs in place.
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
        #expect(seen.threads.count == 1)
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
        first.justDispatch {
            #expect(first.isCurrent() && !second.isCurrent())
            second.justDispatch { order.withLock { $0.append("second, from first") } }
            // Inline: already on the queue.
            first.async { order.withLock { $0.append("first, inline") } }
        }
        second.justDispatch { order.withLock { $0.append("second, from outside") } }
        try await waitUntil("every task ran") { clock.busy == 0 && order.withLock { $0.count } == 3 }
        #expect(order.withLock { $0 } == ["first, inline", "second, from outside", "second, from first"])
        #expect(clock.taskTrace?.entries.map(\.origin) == [.outside, .outside, .queue(0)])
        #expect(!first.isCurrent())
    }

    @Test func aSyncFromOutsideWaitsItsTurnAndOneFromInsideRunsInPlace() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let first = clock.makeQueue(name: "first")
        let second = clock.makeQueue(name: "second")
        let order = Mutex<[String]>([])
        let release = DispatchSemaphore(value: 0)
        // The executor is held by a task, with another waiting behind it.
        first.justDispatch {
            release.wait()
            order.withLock { $0.append("held") }
        }
        second.justDispatch { order.withLock { $0.append("waiting") } }
        let synced = Task.detached {
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
        try await waitUntil("the sync call waits its turn") { clock.busy == 3 }
        release.signal()
        await synced.value
        try await waitUntil("every task ran") { clock.busy == 0 && order.withLock { $0.count } == 5 }
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

    private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("\(what): not within 5 s")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
