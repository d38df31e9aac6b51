import Glibc
public import SwiftSignalKit

/// A clock and task list that runs `Queue`s in virtual time: nothing runs until the test advances the clock.
///
/// Make queues with `makeQueue()` and pass them to `delay`, `timeout`, `retry`, `debounce`, `Timer`, `deliverOn`;
/// then `advance(by:)` runs every task that falls due, in time order (FIFO among tasks due at the same time), on the
/// calling thread. Time never passes by itself, so tests are deterministic and never sleep.
public final class VirtualTimeScheduler: Sendable {
    struct Item {
        let time: Double
        let sequence: Int
        let queue: VirtualQueue
        let task: @Sendable () -> Void
    }

    struct Running {
        let queue: ObjectIdentifier
        let thread: pthread_t
    }

    struct State {
        var now: Double
        var sequence = 0
        var items: [Item] = []
        var running: [Running] = []
        var executed = 0
    }

    let state: LockedValue<State>

    /// A scheduler whose clock reads `startTime` seconds.
    public init(startTime: Double = 0) {
        self.state = LockedValue.make(State(now: startTime))
    }

    /// A serial queue running on this scheduler's virtual time.
    public func makeQueue(name: String = "virtual") -> Queue {
        Queue(scheduler: VirtualQueue(scheduler: self, name: name))
    }

    /// The virtual time in seconds.
    public var now: Double { state.withLock { $0.now } }

    /// How many tasks wait (due now or later).
    public var pendingTaskCount: Int { state.withLock { $0.items.count } }

    /// How many tasks have run so far.
    public var executedTaskCount: Int { state.withLock { $0.executed } }

    /// Moves the clock forward by `seconds`, running every task that falls due on the way.
    public func advance(by seconds: Double) {
        advance(to: now + seconds)
    }

    /// Moves the clock to `time`, running every task due up to then (tasks added meanwhile included).
    public func advance(to time: Double) {
        while let item = takeNext(until: time) {
            execute(item)
        }
        state.withLock { $0.now = max($0.now, time) }
    }

    /// Runs tasks until none is left (the clock jumps to each due time); stops after `maxTasks` as a loop guard.
    @discardableResult
    public func run(maxTasks: Int = 100_000) -> Int {
        var count = 0
        while count < maxTasks, let item = takeNext(until: .infinity) {
            execute(item)
            count += 1
        }
        return count
    }

    private func takeNext(until limit: Double) -> Item? {
        state.withLock { state -> Item? in
            guard let first = state.items.first, first.time <= limit else { return nil }
            state.items.removeFirst()
            state.now = max(state.now, first.time)
            return first
        }
    }

    private func execute(_ item: Item) {
        item.queue.runAsCurrent(item.task)
        state.withLock { $0.executed += 1 }
    }

    func insert(after delay: Double, queue: VirtualQueue, _ task: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state -> Int in
            state.sequence += 1
            let item = Item(time: state.now + max(0, delay), sequence: state.sequence, queue: queue, task: task)
            // Sorted by (time, sequence): binary search for the insertion point.
            var low = 0
            var high = state.items.count
            while low < high {
                let mid = (low + high) / 2
                let other = state.items[mid]
                if (other.time, other.sequence) < (item.time, item.sequence) { low = mid + 1 } else { high = mid }
            }
            state.items.insert(item, at: low)
            return item.sequence
        }
    }

    func cancel(_ sequence: Int) {
        state.withLock { state in
            state.items.removeAll { $0.sequence == sequence }
        }
    }
}

/// One serial queue of a `VirtualTimeScheduler`.
final class VirtualQueue: QueueScheduler {
    let scheduler: VirtualTimeScheduler
    let name: String

    init(scheduler: VirtualTimeScheduler, name: String) {
        self.scheduler = scheduler
        self.name = name
    }

    func isCurrent() -> Bool {
        let me = ObjectIdentifier(self)
        let thread = pthread_self()
        return scheduler.state.withLock { state in
            state.running.contains { $0.queue == me && pthread_equal($0.thread, thread) != 0 }
        }
    }

    func enqueue(_ task: @escaping @Sendable () -> Void) {
        _ = scheduler.insert(after: 0, queue: self, task)
    }

    func schedule(after delay: Double, _ task: @escaping @Sendable () -> Void) -> Disposable {
        let sequence = scheduler.insert(after: delay, queue: self, task)
        let scheduler = self.scheduler
        return ActionDisposable { scheduler.cancel(sequence) }
    }

    func runSynchronously(_ task: () -> Void) {
        runAsCurrent(task)
    }

    var currentTime: Double { scheduler.now }

    func runAsCurrent(_ task: () -> Void) {
        let running = VirtualTimeScheduler.Running(queue: ObjectIdentifier(self), thread: pthread_self())
        scheduler.state.withLock { $0.running.append(running) }
        defer {
            scheduler.state.withLock { state in
                if let index = state.running.lastIndex(where: {
                    $0.queue == running.queue && pthread_equal($0.thread, running.thread) != 0
                }) {
                    state.running.remove(at: index)
                }
            }
        }
        task()
    }
}
