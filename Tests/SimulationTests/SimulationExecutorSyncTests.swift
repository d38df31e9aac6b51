import Dispatch
import Foundation
import SwiftSignalKit
import Synchronization
import TestVectors
import Testing

@testable import Simulation

/// Where a `Queue.sync` runs among the world's tasks: one from outside once the run list is empty (after what the
/// tasks before it set off, however far the drain had got when it came), one from a task of the world in place, after
/// its queue's tasks still waiting in the list (as a serial queue's sync waits for them) and before those enqueued
/// after it came.
@Suite struct SimulationExecutorSyncTests {
    @Test func aSyncFromOutsideRunsAfterWhatTheTasksBeforeItSetOff() async throws {
        let clock = SimulationClock(start: 0)
        let first = clock.makeQueue(name: "first")
        let second = clock.makeQueue(name: "second")
        let order = Mutex<[String]>([])
        // On threads of their own (`offPool`): the waits must not depend on the cooperative pool.
        let failure = await offPool { () -> String? in
            let release = DispatchSemaphore(value: 0)
            first.justDispatch {
                // Bounded: if the scenario gives up first, the order below shows it.
                if release.wait(timeout: .now() + 60) == .timedOut { order.withLock { $0.append("not released") } }
                second.justDispatch { order.withLock { $0.append("set off") } }
            }
            let synced = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                second.sync { order.withLock { $0.append("sync") } }
                synced.signal()
            }
            // The sync is waiting (counted as busy) before the first task enqueues anything.
            let waited = poll { clock.busy == 2 }
            release.signal()
            guard waited else { return "the sync call did not wait" }
            guard synced.wait(timeout: .now() + 30) == .success else { return "the sync call did not return" }
            guard poll({ clock.busy == 0 }) else { return "something was left" }
            return nil
        }
        #expect(failure == nil)
        #expect(order.withLock { $0 } == ["set off", "sync"])
    }

    @Test func aSyncInPlaceRunsItsQueuesWaitingTasksFirst() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let writer = clock.makeQueue(name: "writer")
        let other = clock.makeQueue(name: "other")
        let order = Mutex<[String]>([])
        other.justDispatch {
            writer.justDispatch { order.withLock { $0.append("written") } }
            writer.sync { order.withLock { $0.append("waited for the write") } }
            // Nothing waits any more: a second sync runs at once.
            writer.sync { order.withLock { $0.append("again") } }
        }
        try await waitUntil("every task ran") { clock.busy == 0 && order.withLock { $0.count } == 3 }
        #expect(order.withLock { $0 } == ["written", "waited for the write", "again"])
        // The write ran once, in place, with the origin it was enqueued from; nothing was left in the list for later.
        #expect(
            clock.taskTrace?.entries == [
                .init(queue: 1, origin: .outside), .init(queue: 0, origin: .queue(1)), .init(queue: 0, origin: .sync),
                .init(queue: 0, origin: .sync),
            ])
    }

    @Test func aSyncInPlaceDoesNotRunWhatItsCaughtUpTasksEnqueue() async throws {
        let clock = SimulationClock(start: 0)
        let writer = clock.makeQueue(name: "writer")
        let other = clock.makeQueue(name: "other")
        let order = Mutex<[String]>([])
        other.justDispatch {
            writer.justDispatch {
                order.withLock { $0.append("written") }
                // Enqueued after the sync came: a serial queue's sync returns before it runs.
                writer.justDispatch { order.withLock { $0.append("enqueued by the write") } }
            }
            writer.sync { order.withLock { $0.append("sync") } }
            order.withLock { $0.append("after the sync") }
        }
        try await waitUntil("every task ran") { clock.busy == 0 && order.withLock { $0.count } == 4 }
        #expect(order.withLock { $0 } == ["written", "sync", "after the sync", "enqueued by the write"])
    }
}
