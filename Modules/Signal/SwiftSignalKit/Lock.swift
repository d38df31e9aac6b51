public import Glibc

/// A non-recursive mutual-exclusion lock over a pthread mutex (see `LockedValue` for why not `Synchronization.Mutex`).
///
/// `locked` is inlinable so callers' closures are specialized around it (the typed `combineLatest` uses it per
/// event).
public final class Lock: @unchecked Sendable {
    // @unchecked Sendable: the pthread mutex is allocated once, reached only through this pointer, freed in deinit.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked lock.
    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `f` holding the lock.
    @inlinable
    public func locked<R>(_ f: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return f()
    }

    /// Runs `f` holding the lock, or returns nil at once if another thread holds it.
    public func tryLocked<R>(_ f: () -> R) -> R? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return f()
    }

    /// Runs a throwing `f` holding the lock.
    public func throwingLocked<R>(_ f: () throws -> R) throws -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try f()
    }
}
