/// An executor a `Queue` can run on instead of a `DispatchQueue`: the seam for virtual time.
///
/// SignalTesting's virtual-time scheduler implements it, so `delay`, `timeout`, `retry`, `debounce`, `Timer` and
/// `deliverOn` run in tests without sleeping. Production queues are Dispatch-backed and never go through this
/// protocol: a `Queue` checks its backend with one enum switch per call.
public protocol QueueScheduler: AnyObject, Sendable {
    /// Whether the caller is running inside a task of this scheduler.
    func isCurrent() -> Bool
    /// Runs `task` later, after every task already enqueued (FIFO).
    func enqueue(_ task: @escaping @Sendable () -> Void)
    /// Runs `task` after `delay` seconds unless the returned disposable is disposed first.
    func schedule(after delay: Double, _ task: @escaping @Sendable () -> Void) -> Disposable
    /// Runs `task` now, as a task of this scheduler (so `isCurrent()` holds inside it), and returns when it is done.
    func runSynchronously(_ task: () -> Void)
    /// The scheduler's clock in seconds (wall-clock seconds for real queues, virtual seconds in tests).
    var currentTime: Double { get }
}
