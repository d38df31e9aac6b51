import Dispatch

/// The FIFO in front of a serial `Queue`: tasks are appended under a lock and one drain block runs them in batches.
///
/// A `DispatchQueue.async` per task costs a block allocation and, when the queue is idle, a thread wake-up; with the
/// list only the first task of a burst dispatches. Every task of a `Queue` goes through its list (including `sync`),
/// so FIFO order among them is what callers see. One drain runs one batch and re-dispatches if more arrived, so
/// blocks submitted to the underlying `DispatchQueue` directly are not starved.
final class SerialTaskList: Sendable {
    typealias Task = @Sendable () -> Void

    private struct State {
        var tasks: [Task] = []
        var scheduled = false
    }

    private let state = LockedValue.make(State())
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func add(_ task: @escaping Task) {
        let schedule = state.withLock { state -> Bool in
            state.tasks.append(task)
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        if schedule {
            queue.async { self.drain() }
        }
    }

    private func drain() {
        var batch = state.withLock { state -> [Task] in
            var batch: [Task] = []
            Swift.swap(&batch, &state.tasks)
            return batch
        }
        for task in batch { task() }
        batch.removeAll()
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
