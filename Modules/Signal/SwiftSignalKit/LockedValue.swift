public import Glibc

/// A value behind a pthread mutex, with a `Mutex`-like `withLock`.
///
/// Why not `Synchronization.Mutex`: its lock lives in the uninstrumented runtime library, so ThreadSanitizer cannot
/// see it and reports every access it guards as a race. ThreadSanitizer intercepts `pthread_mutex_lock`, so with this
/// type the suite runs clean under `make tsan`. The mutex is allocated once and reached through a pointer, never
/// through a Swift `inout` access (which the exclusivity checker would flag).
public final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only reached inside `withLock`/`withLockIfAvailable`, under `lock`.
    @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// A locked value holding `value`.
    @inlinable
    public init(_ value: Value) {
        self.value = value
        self.lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    /// A locked value holding `value` (the spelling used where the type is written out).
    @inlinable
    public static func make(_ value: Value) -> LockedValue<Value> {
        LockedValue(value)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` on the value with the mutex held.
    @inlinable
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }

    /// Runs `body` if the mutex is free; returns nil at once if another thread holds it.
    @inlinable
    public func withLockIfAvailable<R>(_ body: (inout Value) throws -> R) rethrows -> R? {
        guard pthread_mutex_trylock(lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
