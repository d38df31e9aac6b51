/// Thrown by `Atomic.tryWith` when another thread holds the value.
public enum AtomicLockError: Error, Sendable {
    case isLocked
}

/// A value behind a lock (Telegram's `Atomic`, not the `Synchronization.Atomic` of plain machine words).
///
/// In files that import both SwiftSignalKit and Synchronization, write `SwiftSignalKit.Atomic`.
public final class Atomic<T> {
    private let lock = Lock()
    private nonisolated(unsafe) var value: T

    /// An atomic holding `value`.
    public init(value: T) {
        self.value = value
    }

    /// Runs `f` on the value under the lock and returns its result.
    public func with<R>(_ f: (T) -> R) -> R {
        lock.locked { f(value) }
    }

    /// Like `with`, but throws `AtomicLockError.isLocked` instead of waiting.
    public func tryWith<R>(_ f: (T) -> R) throws -> R {
        guard let result = lock.tryLocked({ f(value) }) else { throw AtomicLockError.isLocked }
        return result
    }

    /// Replaces the value with `f(value)` and returns the new value.
    @discardableResult
    public func modify(_ f: (T) -> T) -> T {
        lock.locked {
            value = f(value)
            return value
        }
    }

    /// Stores `value` and returns the previous one.
    @discardableResult
    public func swap(_ value: T) -> T {
        lock.locked {
            let previous = self.value
            self.value = value
            return previous
        }
    }
}

// @unchecked Sendable: every access to `value` happens under `lock`; T must be Sendable because values cross threads.
extension Atomic: @unchecked Sendable where T: Sendable {}
