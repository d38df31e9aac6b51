import Dispatch

/// The FIFO in front of a serial `Queue`: tasks are appended under a lock and one drain block runs them in batches.
///
/// A `DispatchQueue.async` per task costs a block allocation and, when the queue is idle, a thread wake-up; with the
/// list only the first task of a burst dispatches. Every task of a `Queue` goes through its list (including `sync`),
/// so FIFO order among them is what callers see. One drain runs one batch and re-dispatches if more arrived, so
/// blocks submitted to the underlying `DispatchQueue` directly are not starved.
final class SerialTaskList: Sendable {
    typealias Task = @Sendable () -> Void

    /// A queued item: a task, or the point where a `sync` call takes its turn.
    private enum Item {
        case task(Task)
        case syncTurn(DispatchSemaphore)
    }

    private struct State {
        var tasks: [Item] = []
        /// Whether a drain is dispatched or running, or a `sync` call holds its turn: `add` then only appends.
        var scheduled = false
    }

    private let state = LockedValue.make(State())
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func add(_ task: @escaping Task) {
        enqueue(.task(task))
    }

    private func enqueue(_ item: Item) {
        let schedule = state.withLock { state -> Bool in
            state.tasks.append(item)
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        if schedule {
            queue.async { self.drain() }
        }
    }

    /// Runs `f` on the queue after every task added before this call and before every task added after it, as
    /// `DispatchQueue.sync` would: when the drain reaches this call's turn it stops and hands the queue over; `f`
    /// then runs on the queue through `DispatchQueue.sync` and draining resumes after it.
    func sync(_ f: () -> Void) {
        let turn = DispatchSemaphore(value: 0)
        enqueue(.syncTurn(turn))
        turn.wait()
        queue.sync(execute: f)
        resume()
    }

    private func drain() {
        var batch = state.withLock { state -> [Item] in
            var batch: [Item] = []
            Swift.swap(&batch, &state.tasks)
            return batch
        }
        for (position, item) in batch.enumerated() {
            switch item {
            case .task(let task):
                task()
            case .syncTurn(let turn):
                // Later tasks wait for the sync call: put them back in front and leave `scheduled` set.
                let rest = batch[(position + 1)...]
                state.withLock { state in state.tasks.insert(contentsOf: rest, at: 0) }
                batch.removeAll()
                turn.signal()
                return
            }
        }
        batch.removeAll()
        resume()
    }

    /// Items waiting (not yet taken by a drain); for tests.
    var waitingCount: Int { state.withLock { $0.tasks.count } }

    /// Ends a drain or a sync turn: dispatches the next drain if tasks are waiting.
    private func resume() {
        let again = state.withLock { state -> Bool in
            if state.tasks.isEmpty {
                state.scheduled = false
                return false
            }
            return true
        }
        if again {
            queue.async { self.drain() }
        }
    }
}
