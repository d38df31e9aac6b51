import Foundation
import SwiftSignalKit
import Synchronization
import Testing

@testable import Simulation

/// The simulation's virtual clock: what is enqueued on its queues runs at once, what is scheduled or slept waits until
/// the clock is moved to it, timers fire in time order, and a cancelled sleep ends at once.
@Suite struct SimulationClockTests {
    @Test func aDelayedTaskWaitsForTheClockAndAnImmediateOneDoesNot() async throws {
        let clock = SimulationClock(start: 1_000)
        let queue = clock.makeQueue(name: "test")
        let ran = Mutex<[String]>([])
        queue.after(5) { ran.withLock { $0.append("after 5 s at \(queue.currentTime)") } }
        queue.async { ran.withLock { $0.append("at once") } }
        try await waitUntil("the immediate task ran") { ran.withLock { $0 } == ["at once"] && clock.busy == 0 }
        #expect(clock.nextDue == 1_005)
        #expect(!clock.fireNext(until: 1_004.9))
        #expect(clock.now == 1_000)
        #expect(clock.fireNext(until: 1_005))
        try await waitUntil("the delayed task ran") { ran.withLock { $0.count } == 2 && clock.busy == 0 }
        #expect(ran.withLock { $0 } == ["at once", "after 5 s at 1005.0"])
        #expect(clock.nextDue == nil)
    }

    @Test func timersFireInTimeOrderAndADisposedOneNever() async throws {
        let clock = SimulationClock(start: 0)
        let fired = Mutex<[Int]>([])
        clock.schedule(after: 2) { fired.withLock { $0.append(2) } }
        clock.schedule(after: 1) { fired.withLock { $0.append(1) } }
        clock.schedule(after: 1) { fired.withLock { $0.append(11) } }
        let queue = clock.makeQueue(name: "test")
        let disposed = queue.schedule(after: 1.5) { fired.withLock { $0.append(15) } }
        disposed.dispose()
        while clock.fireNext(until: 10) {}
        try await waitUntil("every queue task ran") { clock.busy == 0 }
        #expect(fired.withLock { $0 } == [1, 11, 2])
        #expect(clock.now == 2)
        clock.advance(to: 10)
        #expect(clock.now == 10)
        clock.advance(to: 3)
        #expect(clock.now == 10)
    }

    @Test func aSleepEndsWhenTheClockReachesItOrAtOnceWhenCancelled() async throws {
        let clock = SimulationClock(start: 0)
        let woke = Mutex<Double?>(nil)
        let sleeper = Task {
            try await clock.sleep(30)
            woke.withLock { $0 = clock.now }
        }
        try await waitUntil("the sleep's timer is set") { clock.nextDue == 30 }
        #expect(woke.withLock { $0 } == nil)
        #expect(clock.fireNext(until: 30))
        try await sleeper.value
        #expect(woke.withLock { $0 } == 30)

        let cancelled = Task { try await clock.sleep(60) }
        try await waitUntil("the second sleep's timer is set") { clock.nextDue == 90 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.nextDue == nil)
        #expect(clock.now == 30)
    }

    /// Sleeps cancelled at every moment of their start — before, while and after their timer is set — leave no timer
    /// behind (one left would hold the clock's next instant and be fired later, moving the clock for nothing), and a
    /// woken sleeper counts as busy only until its task runs again.
    @Test func cancelledSleepsLeaveNoTimerAndWokenOnesNoBusyCount() async throws {
        let clock = SimulationClock(start: 0)
        for round in 0..<500 {
            let sleeper = Task { try await clock.sleep(10) }
            if round % 2 == 1 { await Task.yield() }
            sleeper.cancel()
            _ = try? await sleeper.value
        }
        #expect(clock.nextDue == nil)
        let woken = (0..<20).map { _ in Task { try await clock.sleep(1) } }
        try await waitUntil("every sleep's timer is set") { clock.timerCount == 20 }
        while clock.fireNext(until: 1) {}
        for task in woken { try await task.value }
        #expect(clock.busy == 0)
        #expect(clock.now == 1)
    }

    /// The race the accounting must survive, played in order: a sleep armed, then cancelled before its timer is kept.
    /// Keeping the timer afterwards is refused, so the sleep removes it instead of leaving it on the clock.
    @Test func aTimerKeptAfterTheSleepWasCancelledIsRefused() async {
        let sleeper = Sleeper()
        let woke: Void? = try? await withCheckedThrowingContinuation { continuation in
            #expect(sleeper.arm(continuation))
            let cancelled = sleeper.wake(CancellationError())
            #expect(cancelled.resumed && cancelled.timer == nil)
            #expect(!sleeper.setTimer(7))
            // The timer firing late finds the sleep over: it does not resume it twice.
            #expect(!sleeper.wake(nil).resumed)
        }
        #expect(woke == nil)
        // In the usual order the timer is kept, and a cancel gets it back to remove.
        let kept = Sleeper()
        let cancelledAfter: Void? = try? await withCheckedThrowingContinuation { continuation in
            #expect(kept.arm(continuation))
            #expect(kept.setTimer(8))
            #expect(kept.wake(CancellationError()).timer == 8)
        }
        #expect(cancelledAfter == nil)
    }
}
