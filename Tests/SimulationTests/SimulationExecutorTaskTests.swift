import Dispatch
import Foundation
import SwiftSignalKit
import Synchronization
import Testing

@testable import Simulation

/// The world's executor as a `TaskExecutor`: a Swift task preferring it runs its jobs on the run list, one at a time
/// with the queues' tasks; a job resumed from outside waits behind the closed gate for `admit`, one woken by a timer
/// of the clock does not.
@Suite struct SimulationExecutorTaskTests {
    @Test func aTasksJobsRunOnTheListAndAResumptionFromOutsideWaitsForTheGate() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let executor = clock.executor
        let queue = clock.makeQueue(name: "q0")
        let steps = Mutex<[String]>([])
        let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
        executor.close()
        executor.beginDriving()
        defer {
            executor.endDriving()
            executor.open()
        }
        let finished = Mutex(false)
        // Started from outside the world: held like a queue's task from outside.
        Task(executorPreference: executor) {
            let onList = executor.isRunning(queue: SimulationExecutor.swiftTasksQueue)
            steps.withLock { $0.append("started, on the list: \(onList)") }
            await withCheckedContinuation { continuation in parked.withLock { $0 = continuation } }
            steps.withLock {
                $0.append("resumed, on the list: \(executor.isRunning(queue: SimulationExecutor.swiftTasksQueue))")
            }
            // A queue's task the job enqueues runs after it, in the list.
            queue.justDispatch { steps.withLock { $0.append("q0, from the task") } }
            finished.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(20))
        #expect(steps.withLock { $0 }.isEmpty && executor.held == 1)
        #expect(executor.admit() == 1)
        try await waitUntil("the task parked") { parked.withLock { $0 != nil } && clock.busy == 0 }
        // Resumed by a thread outside the world: held until admitted.
        Thread.detachNewThread { parked.withLock { $0 }?.resume() }
        try await waitUntil("the resumption is held") { executor.held == 1 }
        try await Task.sleep(for: .milliseconds(20))
        #expect(steps.withLock { $0.count } == 1)
        #expect(executor.admit() == 1)
        // Not `task.value`: a job the gate wrongly held would hang the test instead of failing it.
        try await waitUntil("the task finished") { finished.withLock { $0 } }
        try await waitUntil("every task ran") { clock.busy == 0 && steps.withLock { $0.count } == 3 }
        #expect(
            steps.withLock { $0 } == ["started, on the list: true", "resumed, on the list: true", "q0, from the task"])
        let trace = try #require(clock.taskTrace)
        let tasks = SimulationExecutor.swiftTasksQueue
        #expect(
            trace.entries == [
                .init(queue: tasks, origin: .outside), .init(queue: tasks, origin: .outside),
                .init(queue: 0, origin: .queue(tasks)),
            ])
        #expect(trace.lines.last == "3 q0 q0 ← swift tasks")
    }

    @Test func aSleeperWokenByTheClocksTimerRunsBehindTheClosedGate() async throws {
        let clock = SimulationClock(start: 0, tracingTasks: true)
        let executor = clock.executor
        executor.close()
        executor.beginDriving()
        defer {
            executor.endDriving()
            executor.open()
        }
        // Whether the woken sleeper ran on the list; nil until it ran.
        let woke = Mutex<Bool?>(nil)
        Task(executorPreference: executor) {
            try? await clock.sleep(5)
            woke.withLock { $0 = executor.isRunning(queue: SimulationExecutor.swiftTasksQueue) }
        }
        #expect(executor.admit() == 1)
        try await waitUntil("the task sleeps") { clock.timerCount == 1 && clock.busy == 0 && executor.held == 0 }
        #expect(clock.fireNext(until: 5))
        #expect(executor.held == 0)
        // Not `task.value`: a sleeper the gate wrongly held would hang the test instead of failing it.
        try await waitUntil("the sleeper woke") { woke.withLock { $0 } != nil }
        #expect(woke.withLock { $0 } == true)
        try await waitUntil("the sleeper ran") { clock.busy == 0 }
        #expect(clock.taskTrace?.entries.last?.origin == .timer)
    }
}
