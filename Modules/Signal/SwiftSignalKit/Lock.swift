/// A non-recursive mutual-exclusion lock over a pthread mutex (see `LockedValue` for why not `Synchronization.Mutex`).
///
/// `locked` is inlinable so callers' closures are specialized around it (the typed `combineLatest` uses it per
/// event).
public final class Lock: Sendable {
    @usableFromInline let mutex = LockedValue.make(())

    /// An unlocked lock.
    public init() {}

    /// Runs `f` holding the lock.
    @inlinable
    public func locked<R>(_ f: () -> R) -> R {
        mutex.withLock { _ in f() }
    }

    /// Runs `f` holding the lock, or returns nil at once if another thread holds it.
    public func tryLocked<R>(_ f: () -> R) -> R? {
        mutex.withLockIfAvailable { _ in f() }
    }

    /// Runs a throwing `f` holding the lock.
    public func throwingLocked<R>(_ f: () throws -> R) throws -> R {
        try mutex.withLock { _ in try f() }
    }
}
