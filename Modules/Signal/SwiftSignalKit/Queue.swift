public import Dispatch
import Glibc

/// Identity token a `Queue` stores as its DispatchQueue's specific value, for `isCurrent()`.
final class QueueSpecific: Sendable {}

private let queueSpecificKey = DispatchSpecificKey<QueueSpecific>()

private let globalMainQueue = Queue(mainQueue: ())
private let globalDefaultQueue = Queue(concurrent: DispatchQueue.global(qos: .default))
private let globalBackgroundQueue = Queue(concurrent: DispatchQueue.global(qos: .background))

/// Where work runs: a `DispatchQueue` (serial, concurrent, or main) or, in tests, a `QueueScheduler`.
///
/// `async` runs the task inline when the caller is already on the queue (Telegram's rule, which keeps chains
/// synchronous when they can be); `justDispatch` always enqueues. Serial queues made with `init(name:qos:)` put their
/// tasks through one FIFO list drained in batches (see `SerialTaskList`).
public final class Queue: Sendable {
    enum Backend: Sendable {
        case serial(DispatchQueue, SerialTaskList)
        case dispatch(DispatchQueue)
        case concurrent(DispatchQueue)
        case scheduler(any QueueScheduler)
    }

    let backend: Backend
    private let specific = QueueSpecific()

    /// The main queue.
    public static func mainQueue() -> Queue { globalMainQueue }

    /// The shared concurrent queue of default priority.
    public static func concurrentDefaultQueue() -> Queue { globalDefaultQueue }

    /// The shared concurrent queue of background priority.
    public static func concurrentBackgroundQueue() -> Queue { globalBackgroundQueue }

    /// A new serial queue.
    public init(name: String? = nil, qos: DispatchQoS = .default) {
        let queue = DispatchQueue(label: name ?? "SwiftSignalKit.Queue", qos: qos)
        self.backend = .serial(queue, SerialTaskList(queue: queue))
        queue.setSpecific(key: queueSpecificKey, value: specific)
    }

    /// A queue over an existing `DispatchQueue` (tasks are dispatched to it one by one).
    public init(queue: DispatchQueue) {
        self.backend = .dispatch(queue)
        queue.setSpecific(key: queueSpecificKey, value: specific)
    }

    /// A queue whose tasks run on `scheduler` (SignalTesting's virtual time).
    public init(scheduler: any QueueScheduler) {
        self.backend = .scheduler(scheduler)
    }

    fileprivate init(mainQueue: Void) {
        self.backend = .dispatch(DispatchQueue.main)
        DispatchQueue.main.setSpecific(key: queueSpecificKey, value: specific)
    }

    fileprivate init(concurrent queue: DispatchQueue) {
        self.backend = .concurrent(queue)
    }

    /// The underlying `DispatchQueue`, or nil for a scheduler-backed queue.
    public var queue: DispatchQueue? {
        switch backend {
        case .serial(let queue, _), .dispatch(let queue), .concurrent(let queue): return queue
        case .scheduler: return nil
        }
    }

    /// Whether the caller runs on this queue (always false for the shared concurrent queues).
    public func isCurrent() -> Bool {
        switch backend {
        case .serial, .dispatch: return DispatchQueue.getSpecific(key: queueSpecificKey) === specific
        case .concurrent: return false
        case .scheduler(let scheduler): return scheduler.isCurrent()
        }
    }

    /// Runs `f` on the queue: inline if already on it, otherwise enqueued.
    public func async(_ f: @escaping @Sendable () -> Void) {
        if isCurrent() {
            f()
        } else {
            justDispatch(f)
        }
    }

    /// Enqueues `f` even when already on the queue.
    public func justDispatch(_ f: @escaping @Sendable () -> Void) {
        switch backend {
        case .serial(_, let list): list.add(f)
        case .dispatch(let queue), .concurrent(let queue): queue.async(execute: f)
        case .scheduler(let scheduler): scheduler.enqueue(f)
        }
    }

    /// Enqueues `f` with a quality of service (the QoS applies to Dispatch-backed queues only).
    public func justDispatchWithQoS(qos: DispatchQoS, _ f: @escaping @Sendable () -> Void) {
        switch backend {
        case .serial(let queue, _), .dispatch(let queue), .concurrent(let queue):
            queue.async(qos: qos, execute: f)
        case .scheduler(let scheduler): scheduler.enqueue(f)
        }
    }

    /// Runs `f` on the queue and waits for it (inline if already on the queue).
    public func sync(_ f: () -> Void) {
        if isCurrent() {
            f()
            return
        }
        switch backend {
        case .serial(_, let list):
            // In FIFO order with the queue's other tasks (not `withoutActuallyEscaping`: its escape check embeds the
            // length of the unmapped source path, which makes release builds differ between checkout folders).
            list.sync(f)
        case .dispatch(let queue), .concurrent(let queue):
            queue.sync(execute: f)
        case .scheduler(let scheduler):
            scheduler.runSynchronously(f)
        }
    }

    /// Runs `f` on the queue after `delay` seconds.
    public func after(_ delay: Double, _ f: @escaping @Sendable () -> Void) {
        _ = schedule(after: delay, f)
    }

    /// Runs `f` on the queue after `delay` seconds unless the returned disposable is disposed first.
    @discardableResult
    public func schedule(after delay: Double, _ f: @escaping @Sendable () -> Void) -> Disposable {
        switch backend {
        case .serial(let queue, _), .dispatch(let queue), .concurrent(let queue):
            let item = DispatchWorkItem(block: f)
            queue.asyncAfter(deadline: .now() + max(0, delay), execute: item)
            let box = UncheckedSendableBox(item)  // DispatchWorkItem.cancel() is thread-safe.
            return ActionDisposable { box.value.cancel() }
        case .scheduler(let scheduler):
            return scheduler.schedule(after: delay, f)
        }
    }

    /// The queue's clock in seconds: wall-clock time (survives sleep, unlike Dispatch's uptime) or virtual time.
    public var currentTime: Double {
        switch backend {
        case .scheduler(let scheduler):
            return scheduler.currentTime
        default:
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
    }
}

/// Carries a non-Sendable value across a boundary the caller has proven safe.
///
/// @unchecked Sendable: used only for values that are safe across threads by construction: a `DispatchWorkItem`
/// (whose `cancel()` is thread-safe) and a `QueueLocalObject`'s reference, released on its own queue.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
