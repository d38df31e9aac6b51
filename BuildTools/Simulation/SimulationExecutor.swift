import Dispatch
import Glibc
import Synchronization

/// One world's executor: the run list every task of the world's simulated queues goes through, run one at a time by
/// one serial dispatch queue (whichever of its threads drains it), in the order they were enqueued (FIFO by enqueue
/// sequence), so that no two of the world's queues ever run at once and each queue's own tasks keep their order.
///
/// FIFO rather than an order drawn from the seed: tasks arrive from threads the executor does not run (Postbox's
/// writer, Swift tasks, the server), so a seeded choice among the tasks waiting would choose among a set that depends
/// on those threads as much as the arrival order does; FIFO is also the order a product queue gives its own tasks.
///
/// What makes the order replay is the gate (`close`): while it is closed, a task enqueued from outside — by a thread
/// that is not running one of the world's tasks — is held instead, and the world's driver admits what it holds only
/// when the world is quiet (`admit`), queue by queue in the order the queues were made: which thread got there first
/// no longer matters, only what had arrived by the time everything came to rest. A task of a queue that has tasks held
/// is held behind them, whoever enqueues it, so each queue keeps its own order. Tasks held while no driver runs are
/// admitted after `undrivenDelay` wall seconds (`undrivenAdmissions` counts them): nothing waits for a driver forever.
///
/// It is also a `TaskExecutor`: the accounts' managers start their Swift tasks preferring it
/// (`AccountScheduling.taskExecutor`), and a job of such a task (its start, or its resumption after an `await`) goes
/// on the same run list, as a task of the pseudo-queue `swiftTasksQueue`, under the same gate: held when a thread
/// outside the world enqueues it (a continuation resumed by Postbox's writer), run at once in the list's order when a
/// task of the world does (a task it starts, a continuation it resumes), or a timer of the world's clock (a sleeper
/// woken). Jobs are never held behind held jobs: they are separate tasks, with no order among them to keep.
///
/// `Queue.sync` from a thread outside the world (a step of the world's driver, a read of the invariants) runs once the
/// run list is empty — after everything in it and everything that sets off, as `DispatchQueue.sync` runs after what
/// its queue holds, and at a point that does not depend on how far the drain has got when the call comes (its queue's
/// held tasks are admitted first; the caller waits, so it is not held): the drain stops there, the caller runs its
/// task on its own thread as the queue's task, and draining goes on after it. A list that never empties fails the run
/// after `syncTimeout`. From a task of the world already running on this thread (a sync on another of its queues), the
/// task runs in place, after that queue's tasks enqueued before the call and still in the list: waiting for a turn
/// would wait for itself.
final class SimulationExecutor: TaskExecutor, Sendable {
    typealias Work = @Sendable () -> Void

    private enum Item {
        case task(queue: Int, origin: SimulationTaskTrace.Origin, Work)
        /// A job of a Swift task preferring this executor.
        case job(origin: SimulationTaskTrace.Origin, UnownedJob)
        /// The turn of a `Queue.sync` from outside, given once the list is empty (never in the list).
        case syncTurn(DispatchSemaphore)
        /// A task already run in place, by a sync on its queue from inside the world (below).
        case taken
    }

    private struct Held {
        let queue: Int
        let origin: SimulationTaskTrace.Origin
        let item: Item
    }

    private struct State {
        var items: [Item] = []
        /// The first item not yet taken.
        var head = 0
        /// How many items were dropped from the front of `items` so far: `items[i]` is the list's item `dropped + i`
        /// since the executor began (a position that stays put while the list is compacted).
        var dropped = 0
        /// A drain is dispatched or running, or a sync call holds its turn: an enqueue then only appends.
        var draining = false
        /// The queue whose task runs now, and the thread it runs on.
        var running: (queue: Int, thread: pthread_t)?
        /// The queues whose tasks the running thread is inside of, under the running one (syncs in place).
        var outer: [Int] = []
        /// `Queue.sync` calls from outside waiting for the run list to empty, in the order they came.
        var syncWaiters: [DispatchSemaphore] = []
        /// Tasks and sync turns in the list or running.
        var pending = 0
        /// Tasks and sync turns enqueued (or held) so far.
        var enqueued = 0
        var queueNames: [String] = []
        var trace: SimulationTaskTrace?
        /// While above zero, tasks from outside are held (`inbox`) until admitted.
        var gates = 0
        /// Drivers running (`beginDriving`): while none does, held tasks are admitted after a delay.
        var drivers = 0
        var inbox: [Held] = []
        var undrivenAdmissions = 0
        /// The thread firing one of the clock's timers (`firingTimer`): what it enqueues comes from the timer.
        var timerThread: pthread_t?

        /// Where an enqueue on thread `me` comes from.
        func origin(on me: pthread_t, byTimer: Bool) -> SimulationTaskTrace.Origin {
            if let running, pthread_equal(running.thread, me) != 0 { return .queue(running.queue) }
            if byTimer { return .timer }
            if let timerThread, pthread_equal(timerThread, me) != 0 { return .timer }
            return .outside
        }

        /// The position just past the list's last item (see `dropped`).
        var end: Int { dropped + items.count }

        /// Takes the first task of `queue` still in the list before position `end` (leaving `.taken` in its place), as
        /// running on `thread`.
        mutating func takeFirst(of queue: Int, before end: Int, on thread: pthread_t) -> Work? {
            let limit = min(max(end - dropped, head), items.count)
            guard
                let index = items[head..<limit].firstIndex(where: {
                    if case .task(let other, _, _) = $0 { return other == queue }
                    return false
                }), case .task(_, let origin, let task) = items[index]
            else { return nil }
            items[index] = .taken
            running = (queue, thread)
            trace?.entries.append(.init(queue: queue, origin: origin))
            return task
        }

        /// Queue `queue`'s name, for a failure.
        func name(_ queue: Int) -> String {
            if queue == SimulationExecutor.swiftTasksQueue { return "swift tasks" }
            return "q\(queue) \(queueNames.indices.contains(queue) ? queueNames[queue] : "?")"
        }

        /// What runs, waits in the list and is held, for a failure: how many tasks of each queue.
        var summary: String {
            var counts: [Int: Int] = [:]
            for item in items[head...] {
                switch item {
                case .task(let queue, _, _): counts[queue, default: 0] += 1
                case .job: counts[SimulationExecutor.swiftTasksQueue, default: 0] += 1
                case .syncTurn, .taken: break
                }
            }
            let list = counts.sorted { $0.key < $1.key }.map { "\(name($0.key)): \($0.value)" }
            return "running: \(running.map { name($0.queue) } ?? "nothing"); in the list: "
                + (list.isEmpty ? "nothing" : list.joined(separator: ", "))
                + "; held: \(inbox.count); syncs from outside waiting: \(syncWaiters.count)"
        }

        /// Appends `item`; true when no drain is under way (the caller starts one).
        mutating func append(_ item: Item) -> Bool {
            items.append(item)
            pending += 1
            enqueued += 1
            if draining { return false }
            draining = true
            return true
        }

        /// Moves what is held (of `queue` only, if given) into the run list, queue by queue in the order the queues
        /// were made, each queue's tasks in the order they arrived. Returns how many, and whether a drain must start.
        mutating func admit(queue: Int? = nil) -> (count: Int, startDrain: Bool) {
            let admitted = inbox.enumerated().filter { queue == nil || $0.element.queue == queue }
            guard !admitted.isEmpty else { return (0, false) }
            inbox.removeAll { queue == nil || $0.queue == queue }
            var startDrain = false
            for (_, held) in admitted.sorted(by: { ($0.element.queue, $0.offset) < ($1.element.queue, $1.offset) }) {
                enqueued -= 1  // Counted when it was held.
                if append(held.item) { startDrain = true }
            }
            return (admitted.count, startDrain)
        }
    }

    private let state: Mutex<State>
    /// The serial queue that drains the run list (one drain at a time; each task records the thread it runs on).
    private let thread = DispatchQueue(label: "simulation.executor")
    /// How long tasks held while no driver runs wait before they are admitted anyway.
    static let undrivenDelay = 0.5
    /// How many wall seconds a `Queue.sync` from outside waits for its turn before it fails the run: several times a
    /// settle's backstop (`Simulation.settleTimeout`), for a run list that never empties.
    static let syncTimeout = 6 * Simulation.settleTimeout

    /// The pseudo-queue the jobs of Swift tasks run as (in the trace, `isRunning`).
    static let swiftTasksQueue = SimulationTaskTrace.swiftTasks

    /// An executor; with `tracing`, it records the order its tasks ran in (`trace`).
    init(tracing: Bool) {
        state = Mutex(State(trace: tracing ? SimulationTaskTrace() : nil))
    }

    /// Tasks in the run list or running (and sync calls waiting or running), not those held.
    var pending: Int { state.withLock { $0.pending } }

    /// Tasks enqueued or held so far: unchanged across a wait means none arrived meanwhile.
    var enqueued: Int { state.withLock { $0.enqueued } }

    /// Tasks held, waiting to be admitted.
    var held: Int { state.withLock { $0.inbox.count } }

    /// How many times tasks were admitted because no driver ran (their order may depend on the threads).
    var undrivenAdmissions: Int { state.withLock { $0.undrivenAdmissions } }

    /// What ran so far, in order, if traced.
    var trace: SimulationTaskTrace? {
        state.withLock { state in
            state.trace.map {
                var trace = $0
                trace.queueNames = state.queueNames
                trace.undrivenAdmissions = state.undrivenAdmissions
                return trace
            }
        }
    }

    /// Closes the gate: tasks from outside are held until admitted. Gates nest.
    func close() { state.withLock { $0.gates += 1 } }

    /// Opens the gate once as often as it was closed, admitting what it held.
    func open() {
        let start = state.withLock { state -> Bool in
            state.gates -= 1
            return state.gates == 0 && state.admit().startDrain
        }
        if start { thread.async { self.drain() } }
    }

    /// A driver (`SimulationWorld.drive`) runs from now until `endDriving`, and admits what is held when quiet.
    func beginDriving() { state.withLock { $0.drivers += 1 } }

    func endDriving() {
        let held = state.withLock { state -> Bool in
            state.drivers -= 1
            return state.drivers == 0 && !state.inbox.isEmpty
        }
        if held { admitLaterIfUndriven() }
    }

    /// Admits everything held; returns how many tasks.
    @discardableResult
    func admit() -> Int {
        let (count, start) = state.withLock { $0.admit() }
        if start { thread.async { self.drain() } }
        return count
    }

    /// Numbers a new queue named `name` (its number in the trace).
    func register(queue name: String) -> Int {
        state.withLock {
            $0.queueNames.append(name)
            return $0.queueNames.count - 1
        }
    }

    /// Whether the caller is running a task of queue `queue`.
    func isRunning(queue: Int) -> Bool {
        let me = pthread_self()
        return state.withLock { state in
            guard let running = state.running else { return false }
            return running.queue == queue && pthread_equal(running.thread, me) != 0
        }
    }

    /// Puts `task` of queue `queue` at the end of the run list (or holds it, behind the gate); `byTimer` when a timer
    /// of the clock enqueues it.
    func enqueue(queue: Int, byTimer: Bool = false, _ task: @escaping Work) {
        let me = pthread_self()
        let (start, undriven) = state.withLock { state -> (Bool, Bool) in
            let origin = state.origin(on: me, byTimer: byTimer)
            let item = Item.task(queue: queue, origin: origin, task)
            if state.gates > 0 && (origin == .outside || state.inbox.contains { $0.queue == queue }) {
                state.inbox.append(Held(queue: queue, origin: origin, item: item))
                state.enqueued += 1
                return (false, state.drivers == 0)
            }
            return (state.append(item), false)
        }
        if start { thread.async { self.drain() } }
        if undriven { admitLaterIfUndriven() }
    }

    /// A job of a Swift task preferring this executor: at the end of the run list, or held behind the gate when a
    /// thread outside the world enqueues it.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let me = pthread_self()
        let (start, undriven) = state.withLock { state -> (Bool, Bool) in
            let origin = state.origin(on: me, byTimer: false)
            let item = Item.job(origin: origin, job)
            if state.gates > 0 && origin == .outside {
                state.inbox.append(Held(queue: Self.swiftTasksQueue, origin: origin, item: item))
                state.enqueued += 1
                return (false, state.drivers == 0)
            }
            return (state.append(item), false)
        }
        if start { thread.async { self.drain() } }
        if undriven { admitLaterIfUndriven() }
    }

    /// Runs `fire` (one of the clock's timers) on this thread; what it enqueues here comes from the timer, so it is
    /// not held: a sleeper it wakes runs in the list's order.
    func firingTimer(_ fire: () -> Void) {
        state.withLock { $0.timerThread = pthread_self() }
        fire()
        state.withLock { $0.timerThread = nil }
    }

    /// Runs `task` as a task of queue `queue` and returns when it is done: in place on a thread running a task of this
    /// world, otherwise once the run list is empty (after its queue's held tasks, admitted first).
    ///
    /// In place, the queue's tasks enqueued before (those held too) run first, here, as a serial queue's `sync` waits
    /// for them (a Postbox's `waitForWrites` relies on it) — unless this thread is already inside a task of that
    /// queue; tasks of that queue enqueued after the call came (by those it runs first, too) run later, in the list.
    func runSynchronously(queue: Int, _ task: () -> Void) {
        let me = pthread_self()
        let outer = state.withLock { state -> (queue: Int, catchUp: Bool, end: Int)? in
            guard let running = state.running, pthread_equal(running.thread, me) != 0 else { return nil }
            let inside = running.queue == queue || state.outer.contains(queue)
            state.outer.append(running.queue)
            if !inside { _ = state.admit(queue: queue) }
            // Only what the queue held when the call came: a serial queue's `sync` does not wait for tasks enqueued
            // after it (by the tasks it catches up on, or from outside), and a task that enqueues itself again would
            // otherwise keep it here for ever.
            return (running.queue, !inside, state.end)
        }
        if let outer {
            while outer.catchUp,
                let earlier = state.withLock({ $0.takeFirst(of: queue, before: outer.end, on: me) })
            {
                earlier()
                state.withLock { $0.pending -= 1 }
            }
            state.withLock { state in
                state.running = (queue, me)
                state.trace?.entries.append(.init(queue: queue, origin: .sync))
            }
            task()
            state.withLock { state in
                state.running = (outer.queue, me)
                state.outer.removeLast()
            }
            return
        }
        let turn = DispatchSemaphore(value: 0)
        let (runNow, startDrain) = state.withLock { state -> (Bool, Bool) in
            let admitted = state.admit(queue: queue).startDrain
            state.pending += 1
            state.enqueued += 1
            if state.draining {
                state.syncWaiters.append(turn)
                return (false, admitted)
            }
            state.draining = true
            return (true, false)
        }
        if startDrain { thread.async { self.drain() } }
        // Bounded: world tasks that never let the list empty (a livelock) would otherwise hang the whole run.
        if !runNow, turn.wait(timeout: .now() + Self.syncTimeout) == .timedOut {
            let summary = state.withLock { state in (state.name(queue), state.summary) }
            fatalError(
                "a sync on \(summary.0) from outside the world waited \(Int(Self.syncTimeout)) s for the run list to "
                    + "empty (\(summary.1))")
        }
        state.withLock { state in
            state.running = (queue, me)
            state.trace?.entries.append(.init(queue: queue, origin: .sync))
        }
        task()
        state.withLock { state in
            state.running = nil
            state.pending -= 1
        }
        // The drain stopped for this call (or never ran) and left `draining` set: it goes on with what came since.
        thread.async { self.drain() }
    }

    /// After `undrivenDelay`, admits what is held if no driver runs then.
    private func admitLaterIfUndriven() {
        thread.asyncAfter(deadline: .now() + Self.undrivenDelay) {
            let start = self.state.withLock { state -> Bool in
                guard state.drivers == 0, !state.inbox.isEmpty else { return false }
                state.undrivenAdmissions += 1
                return state.admit().startDrain
            }
            if start { self.drain() }
        }
    }

    /// Runs the list's tasks one at a time until it is empty; then gives a waiting sync call its turn (whose caller
    /// goes on), if any.
    private func drain() {
        let me = pthread_self()
        while true {
            let next = state.withLock { state -> Item? in
                guard state.head < state.items.count else {
                    state.dropped += state.items.count
                    state.items.removeAll(keepingCapacity: true)
                    state.head = 0
                    // The list is empty: a sync from outside runs now, on its caller's thread, and the drain goes
                    // on after it.
                    if !state.syncWaiters.isEmpty { return .syncTurn(state.syncWaiters.removeFirst()) }
                    state.draining = false
                    return nil
                }
                let item = state.items[state.head]
                state.head += 1
                if state.head >= 1_024 && state.head * 2 >= state.items.count {
                    state.dropped += state.head
                    state.items.removeFirst(state.head)
                    state.head = 0
                }
                switch item {
                case .task(let queue, let origin, _):
                    state.running = (queue, me)
                    state.trace?.entries.append(.init(queue: queue, origin: origin))
                case .job(let origin, _):
                    state.running = (Self.swiftTasksQueue, me)
                    state.trace?.entries.append(.init(queue: Self.swiftTasksQueue, origin: origin))
                case .taken, .syncTurn:
                    break
                }
                return item
            }
            switch next {
            case nil:
                return
            case .task(_, _, let task)?:
                task()
                state.withLock { state in
                    state.running = nil
                    state.pending -= 1
                }
            case .job(_, let job)?:
                job.runSynchronously(on: asUnownedTaskExecutor())
                state.withLock { state in
                    state.running = nil
                    state.pending -= 1
                }
            case .syncTurn(let turn)?:
                turn.signal()
                return
            case .taken?:
                continue
            }
        }
    }
}
