import Synchronization

/// A non-recursive mutual-exclusion lock (a futex-based `Mutex` on Linux, where Telegram uses a pthread mutex).
public final class Lock: Sendable {
    private let mutex = Mutex(())

    /// An unlocked lock.
    public init() {}

    /// Runs `f` holding the lock.
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
