import Dispatch
import Glibc
import Synchronization

/// One world's executor: the run list every task of the world's simulated queues goes through, run one at a time on
/// one thread, in the order they were enqueued (FIFO by enqueue sequence), so that no two of the world's queues ever
/// run at once and each queue's own tasks keep their order.
///
/// FIFO rather than an order drawn from the seed: tasks arrive from threads the executor does not run (Postbox's
/// writer, Swift tasks, the server), so a seeded choice among the tasks waiting would choose among a set that depends
/// on those threads as much as the arrival order does; FIFO is also the order a product queue gives its own tasks.
///
/// `Queue.sync` from a thread outside the world takes its turn in the list, as `DispatchQueue.sync` does on a serial
/// queue: the drain stops there, the caller runs its task on its own thread (as the queue's task), and draining goes
/// on after it. From a task of the world already running on this thread (a sync on another of its queues), the task
/// runs in place: waiting for a turn would wait for itself.
final class SimulationExecutor: Sendable {
    typealias Task = @Sendable () -> Void

    private enum Item {
        case task(queue: Int, origin: SimulationTaskTrace.Origin, Task)
        /// Where a `Queue.sync` from outside takes its turn.
        case syncTurn(DispatchSemaphore)
    }

    private struct State {
        var items: [Item] = []
        /// The first item not yet taken.
        var head = 0
        /// A drain is dispatched or running, or a sync call holds its turn: an enqueue then only appends.
        var draining = false
        /// The queue whose task runs now, and the thread it runs on.
        var running: (queue: Int, thread: pthread_t)?
        /// Tasks and sync turns enqueued and not finished.
        var pending = 0
        /// Tasks and sync turns enqueued so far.
        var enqueued = 0
        var queueNames: [String] = []
        var trace: SimulationTaskTrace?

        /// Appends `item`; true when no drain is under way (the caller starts one).
        mutating func append(_ item: Item) -> Bool {
            items.append(item)
            pending += 1
            enqueued += 1
            if draining { return false }
            draining = true
            return true
        }
    }

    private let state: Mutex<State>
    /// The one thread the world's tasks run on.
    private let thread = DispatchQueue(label: "simulation.executor")

    /// An executor; with `tracing`, it records the order its tasks ran in (`trace`).
    init(tracing: Bool) {
        state = Mutex(State(trace: tracing ? SimulationTaskTrace() : nil))
    }

    /// Tasks enqueued (and sync calls waiting or running) not finished yet.
    var pending: Int { state.withLock { $0.pending } }

    /// Tasks enqueued so far: unchanged across a wait means none was enqueued meanwhile.
    var enqueued: Int { state.withLock { $0.enqueued } }

    /// What ran so far, in order, if traced.
    var trace: SimulationTaskTrace? {
        state.withLock { state in
            state.trace.map {
                var trace = $0
                trace.queueNames = state.queueNames
                return trace
            }
        }
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

    /// Puts `task` of queue `queue` at the end of the run list; `byTimer` when a timer of the clock enqueues it.
    func enqueue(queue: Int, byTimer: Bool = false, _ task: @escaping Task) {
        let me = pthread_self()
        let start = state.withLock { state -> Bool in
            let origin: SimulationTaskTrace.Origin
            if let running = state.running, pthread_equal(running.thread, me) != 0 {
                origin = .queue(running.queue)
            } else {
                origin = byTimer ? .timer : .outside
            }
            return state.append(.task(queue: queue, origin: origin, task))
        }
        if start { thread.async { self.drain() } }
    }

    /// Runs `task` as a task of queue `queue` and returns when it is done: in place on a thread running a task of this
    /// world, otherwise in its turn after every task enqueued before.
    func runSynchronously(queue: Int, _ task: () -> Void) {
        let me = pthread_self()
        let outer = state.withLock { state -> Int? in
            guard let running = state.running, pthread_equal(running.thread, me) != 0 else { return nil }
            state.running = (queue, me)
            state.trace?.entries.append(.init(queue: queue, origin: .sync))
            return running.queue
        }
        if let outer {
            task()
            state.withLock { $0.running = (outer, me) }
            return
        }
        let turn = DispatchSemaphore(value: 0)
        if state.withLock({ $0.append(.syncTurn(turn)) }) { thread.async { self.drain() } }
        turn.wait()
        state.withLock { state in
            state.running = (queue, me)
            state.trace?.entries.append(.init(queue: queue, origin: .sync))
        }
        task()
        state.withLock { state in
            state.running = nil
            state.pending -= 1
        }
        // The drain stopped at this turn and left `draining` set: it goes on with what came after.
        thread.async { self.drain() }
    }

    /// Runs the list's tasks one at a time until it is empty, or until a sync call's turn (whose caller goes on).
    private func drain() {
        let me = pthread_self()
        while true {
            let next = state.withLock { state -> Item? in
                guard state.head < state.items.count else {
                    state.items.removeAll(keepingCapacity: true)
                    state.head = 0
                    state.draining = false
                    return nil
                }
                let item = state.items[state.head]
                state.head += 1
                if state.head >= 1_024 && state.head * 2 >= state.items.count {
                    state.items.removeFirst(state.head)
                    state.head = 0
                }
                if case .task(let queue, let origin, _) = item {
                    state.running = (queue, me)
                    state.trace?.entries.append(.init(queue: queue, origin: origin))
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
            case .syncTurn(let turn)?:
                turn.signal()
                return
            }
        }
    }
}
