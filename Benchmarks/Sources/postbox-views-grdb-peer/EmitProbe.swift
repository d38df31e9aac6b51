import BenchmarkSupport
import Dispatch
import Synchronization

/// Carries the awaited message from the writing thread to the observers and the time of its arrival back: the
/// writer calls `expect` before timing the write, observers call `received` with each value, and `wait` returns
/// the time the awaited message first arrived. It also counts fetches, so an iteration can wait until every
/// observation has fetched after the write before the next write starts.
final class EmitProbe: Sendable {
    struct Awaited: Sendable {
        var peer: Int64
        var id: Int32
    }

    private struct State {
        var awaited: Awaited?
        var receivedAt: Double = 0
        var initialValues = 0
    }

    private let state = Mutex(State())
    private let fetchCount = Atomic<Int>(0)
    private let arrived = DispatchSemaphore(value: 0)

    /// The next value matching `awaited` ends the current measurement.
    func expect(_ awaited: Awaited) {
        state.withLock { $0.awaited = awaited }
    }

    /// Called by an observer with each value; `matches` tells whether the value holds the awaited message.
    func received(_ matches: (Awaited) -> Bool) {
        let time = now()
        let hit = state.withLock { state -> Bool in
            guard let awaited = state.awaited, matches(awaited) else { return false }
            state.awaited = nil
            state.receivedAt = time
            return true
        }
        if hit { arrived.signal() }
    }

    /// Called by an observer with its first value.
    func receivedInitialValue() {
        state.withLock { $0.initialValues += 1 }
    }

    /// How many observations have delivered their first value.
    var initialValues: Int { state.withLock { $0.initialValues } }

    /// Called from each observation's fetch closure.
    func fetched() {
        fetchCount.add(1, ordering: .relaxed)
    }

    /// Fetches performed so far.
    var fetches: Int { fetchCount.load(ordering: .relaxed) }

    /// Blocks until the awaited message arrived and returns its arrival time (nil after 10 s).
    func wait() -> Double? {
        guard arrived.wait(timeout: .now() + 10) == .success else { return nil }
        return state.withLock { $0.receivedAt }
    }
}
