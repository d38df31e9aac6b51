import SignalTesting
import SwiftSignalKit

/// The error type the tests fail signals with.
enum TestError: Error, Equatable, Sendable {
    case failed
    case other
}

typealias Event = SignalEvent<Int, TestError>

/// A signal of `values` that then completes (or fails with `error`).
func sequence(_ values: [Int], error: TestError? = nil) -> Signal<Int, TestError> {
    Signal { subscriber in
        for value in values { subscriber.putNext(value) }
        if let error { subscriber.putError(error) } else { subscriber.putCompletion() }
        return EmptyDisposable
    }
}

/// Subscribes a recorder to `signal`.
func record<T: Sendable, E: Sendable>(
    _ signal: Signal<T, E>, scheduler: VirtualTimeScheduler? = nil
)
    -> EventRecorder<T, E>
{
    EventRecorder(signal, scheduler: scheduler)
}

/// A thread-safe counter for closures that must be @Sendable.
final class Counter: Sendable {
    private let value = LockedValue.make(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// A thread-safe log of strings, for ordering checks.
final class Log: Sendable {
    private let entries = LockedValue<[String]>.make([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
