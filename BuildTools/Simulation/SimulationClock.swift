import SwiftSignalKit
import Synchronization
import TelegramCore

/// One seed-world's virtual clock: the time every device, the server and every account's timers read. It moves only
/// when the world moves it (`fireNext`, `advance`), so a gap wait, a retry or a secret chat's timer fires when the
/// simulation says that much time has passed, not when the machine's clock does.
///
/// What runs on it: the queues it makes (`makeQueue`: each account's state manager and pending-message manager) — a
/// task enqueued on one goes to the world's run list (`SimulationExecutor`: one thread, one task at a time, in the
/// order enqueued), a task scheduled after a delay waits for the clock —, the managers' Swift tasks (the executor is
/// `scheduling`'s task executor) and its `sleep` (the action queue's retry
/// delay, the secret chats' timers, the loopback network's flood waits). It counts the tasks enqueued and not finished
/// (`busy`) and everything that happened (`activity`), so the world can tell when nothing is left to run before it
/// moves the clock.
final class SimulationClock: Sendable {
    private struct Pending {
        let due: Double
        let sequence: Int
        let fire: @Sendable () -> Void
    }

    private struct State {
        var now: Double
        var sequence = 0
        /// Sorted by (due, sequence): among timers due at one time, the one scheduled first fires first.
        var timers: [Pending] = []
        /// Sleepers woken and not yet running again.
        var busy = 0
        var activity = 0
    }

    private let state: Mutex<State>
    /// What runs the tasks of this clock's queues.
    let executor: SimulationExecutor

    /// A clock that reads `start` (seconds since 1970); with `tracingTasks`, it records what ran on its queues
    /// (`taskTrace`).
    init(start: Double, tracingTasks: Bool = false) {
        state = Mutex(State(now: start))
        executor = SimulationExecutor(tracing: tracingTasks)
    }

    /// What ran on this clock's queues so far, in order, if the clock traces them.
    var taskTrace: SimulationTaskTrace? { executor.trace }

    /// The virtual time, seconds since 1970.
    var now: Double { state.withLock { $0.now } }

    /// Tasks enqueued on this clock's queues and not finished yet, and sleepers woken and not yet running again.
    var busy: Int { state.withLock { $0.busy } + executor.pending }

    /// How many tasks were enqueued, timers fired and events noted so far: unchanged across a wait means nothing
    /// happened meanwhile.
    var activity: Int { state.withLock { $0.activity } + executor.enqueued }

    /// Timers waiting.
    var timerCount: Int { state.withLock { $0.timers.count } }

    /// When the earliest timer is due, if any is waiting.
    var nextDue: Double? { state.withLock { $0.timers.first?.due } }

    /// What the accounts run their managers on: this clock's queues (their Postbox's writer too) and sleep, and the
    /// world's executor for their Swift tasks.
    var scheduling: AccountScheduling {
        AccountScheduling(
            makeQueue: { [self] name in makeQueue(name: name) }, sleep: { [self] in try await sleep($0) },
            taskExecutor: executor, makeWriterQueue: { [self] name in makeQueue(name: name) })
    }

    /// A serial queue whose tasks run on the world's executor and whose delayed tasks wait for this clock.
    func makeQueue(name: String) -> Queue {
        Queue(scheduler: SimulationQueue(clock: self, name: name))
    }

    /// Notes an event outside the clock's queues (a push, a call), so that a wait that saw it is not quiet.
    func noteActivity() { state.withLock { $0.activity += 1 } }

    func began() {
        state.withLock {
            $0.busy += 1; $0.activity += 1
        }
    }

    func ended() { state.withLock { $0.busy -= 1 } }

    /// Runs `fire` once the clock reaches now + `delay`; returns the timer's number, for `cancel`.
    @discardableResult
    func schedule(after delay: Double, _ fire: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state -> Int in
            state.sequence += 1
            let timer = Pending(due: state.now + max(0, delay), sequence: state.sequence, fire: fire)
            var low = 0
            var high = state.timers.count
            while low < high {
                let mid = (low + high) / 2
                let other = state.timers[mid]
                if (other.due, other.sequence) < (timer.due, timer.sequence) { low = mid + 1 } else { high = mid }
            }
            state.timers.insert(timer, at: low)
            return timer.sequence
        }
    }

    func cancel(_ sequence: Int) {
        state.withLock { state in state.timers.removeAll { $0.sequence == sequence } }
    }

    /// Moves the clock to the earliest timer due at or before `limit` and fires it; false when there is none.
    func fireNext(until limit: Double) -> Bool {
        let timer = state.withLock { state -> Pending? in
            guard let first = state.timers.first, first.due <= limit else { return nil }
            state.timers.removeFirst()
            state.now = max(state.now, first.due)
            state.activity += 1
            return first
        }
        guard let timer else { return false }
        executor.firingTimer(timer.fire)
        return true
    }

    /// Moves the clock to `time` (never back) without firing anything: the caller fired what was due before it.
    func advance(to time: Double) {
        state.withLock { $0.now = max($0.now, time) }
    }

    /// Waits `seconds` of this clock; throws `CancellationError` when the task is cancelled first.
    func sleep(_ seconds: Double) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.arm(continuation) else { return }
                // The sleeper counts as busy from its timer's firing until its task runs again (below), so the world
                // does not take the instant as quiet while the woken task waits for a thread.
                let timer = schedule(after: seconds) { [self] in
                    began()
                    if !sleeper.wake(nil).resumed { ended() }
                }
                // Cancelled between `arm` and here: the cancel found no timer to remove, so remove it now.
                if !sleeper.setTimer(timer) { cancel(timer) }
            }
        } onCancel: {
            if let timer = sleeper.wake(CancellationError()).timer { self.cancel(timer) }
        }
        // Woken by the timer (a cancelled sleep threw above): the task runs again.
        ended()
    }
}

/// One `sleep`: its continuation is resumed once, by the timer or by cancellation, whichever comes first.
final class Sleeper: Sendable {
    private enum Phase {
        case idle
        case armed(CheckedContinuation<Void, any Error>)
        case finished((any Error)?)
    }

    private let state = Mutex<(phase: Phase, timer: Int?)>((.idle, nil))

    /// Keeps the continuation; false (and resumed) when the sleep was cancelled before.
    func arm(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let finished = state.withLock { state -> (any Error)?? in
            if case .finished(let error) = state.phase { return .some(error) }
            state.phase = .armed(continuation)
            return .none
        }
        guard let finished else { return true }
        if let error = finished { continuation.resume(throwing: error) } else { continuation.resume() }
        return false
    }

    /// Keeps the sleeper's timer, for a cancel to remove; false when the sleep already ended (cancelled before its
    /// timer was kept), and the caller removes the timer itself.
    func setTimer(_ timer: Int) -> Bool {
        state.withLock { state in
            if case .finished = state.phase { return false }
            state.timer = timer
            return true
        }
    }

    /// Resumes the sleeper (with `error`, or normally) if it has not ended yet; returns whether this call resumed it,
    /// and its timer, for a cancel to remove.
    @discardableResult
    func wake(_ error: (any Error)?) -> (resumed: Bool, timer: Int?) {
        let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, Int?) in
            switch state.phase {
            case .armed(let continuation):
                state.phase = .finished(error)
                return (continuation, state.timer)
            case .idle:
                state.phase = .finished(error)
                return (nil, nil)
            case .finished:
                return (nil, nil)
            }
        }
        if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
        return (continuation != nil, timer)
    }
}

/// A serial queue on a `SimulationClock`: what is enqueued goes to the clock's executor, which runs the tasks of all
/// the world's queues one at a time on one thread in the order they were enqueued; what is scheduled after a delay is
/// enqueued when the clock reaches its time. A `sync` from outside waits for its turn in that order.
final class SimulationQueue: QueueScheduler, Sendable {
    private let clock: SimulationClock
    private let number: Int

    init(clock: SimulationClock, name: String) {
        self.clock = clock
        number = clock.executor.register(queue: name)
    }

    func isCurrent() -> Bool { clock.executor.isRunning(queue: number) }

    func enqueue(_ task: @escaping @Sendable () -> Void) {
        clock.executor.enqueue(queue: number, task)
    }

    func schedule(after delay: Double, _ task: @escaping @Sendable () -> Void) -> Disposable {
        let cancelled = CancelFlag()
        let timer = clock.schedule(after: delay) { [clock, number] in
            clock.executor.enqueue(queue: number, byTimer: true) { if !cancelled.isSet { task() } }
        }
        return ActionDisposable { [clock] in
            cancelled.set()
            clock.cancel(timer)
        }
    }

    func runSynchronously(_ task: () -> Void) {
        clock.executor.runSynchronously(queue: number, task)
    }

    var currentTime: Double { clock.now }
}

/// Set once a scheduled task is disposed: a timer that already fired must not run it.
private final class CancelFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
