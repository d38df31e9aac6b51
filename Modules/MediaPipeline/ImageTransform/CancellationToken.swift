import Synchronization

/// A flag that a requester sets to stop work in flight; work checks it between stages and stops early.
///
/// The Signal layer's `Disposable` maps onto this: disposing a transform request cancels its token.
public final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A token that is not cancelled.
    public init() {}

    /// Asks the work to stop; idempotent.
    public func cancel() { flag.store(true, ordering: .releasing) }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}
