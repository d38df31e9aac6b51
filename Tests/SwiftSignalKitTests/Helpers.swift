import Dispatch
import Glibc
import SignalTesting
import SwiftSignalKit
import Testing

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

/// Waits for `semaphore`; the test fails, instead of hanging, if it is not signalled within `seconds`.
func wait(
    for semaphore: DispatchSemaphore, seconds: Double = 60, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try #require(
        semaphore.wait(timeout: .now() + seconds) == .success, "\(what) did not happen within \(seconds) s",
        sourceLocation: sourceLocation)
}

/// Spins (yielding the CPU) until `condition` holds; the test fails if it does not within `seconds`.
func spin(
    seconds: Double = 60, until what: String, _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let deadline = DispatchTime.now() + seconds
    while !condition() {
        try #require(DispatchTime.now() < deadline, "\(what) did not happen within \(seconds) s", sourceLocation: sourceLocation)
        sched_yield()
    }
}

/// Yields until `condition` holds; the test fails if it does not within `seconds`.
func yield(
    seconds: Double = 60, until what: String, _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = DispatchTime.now() + seconds
    while !condition() {
        try #require(DispatchTime.now() < deadline, "\(what) did not happen within \(seconds) s", sourceLocation: sourceLocation)
        await Task.yield()
    }
}

/// Awaits `task`; if it has not finished within `seconds` it is cancelled and the test fails. The limits here catch
/// hangs, not slowness: on a 2-core machine the tests run beside long synchronous ones that hold Swift's cooperative
/// threads, so an async test may wait tens of seconds for a thread (a 10 s limit failed that way on a fresh run).
func finish<T: Sendable>(
    _ task: Task<T, any Error>, within seconds: Double = 60, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> T {
    let expired = LockedValue.make(false)
    let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        expired.withLock { $0 = true }
        task.cancel()
    }
    let result = await task.result
    timer.cancel()
    try #require(!expired.withLock { $0 }, "\(what) did not finish within \(seconds) s", sourceLocation: sourceLocation)
    return try result.get()
}

/// Counts its own deinit, so a test sees when whatever holds it (a closure, `keepAlive`) released it.
final class LifetimeProbe: Sendable {
    let deinits: Counter

    init(_ deinits: Counter) {
        self.deinits = deinits
    }

    /// Uses the probe, so a closure that captures it keeps it.
    func touch() {}

    deinit { deinits.increment() }
}
