import Dispatch
import Foundation
import Synchronization

/// Measures write-to-emit latency: carries what a write awaits (e.g. a message id) from the writing thread to the
/// observers and the time of its arrival back. The writer calls `expect` before timing the write, observers call
/// `received` with each value, and `wait` returns when the awaited value first arrived. It also counts fetches or
/// emissions, so an iteration can wait until every observer has settled before the next write starts.
public final class EmitProbe<Awaited: Sendable>: Sendable {
    /// A probe awaiting nothing yet.
    public init() {}

    private struct State {
        var awaited: Awaited?
        var receivedAt: Double = 0
        var initialValues = 0
    }

    private let state = Mutex(State())
    private let fetchCount = Atomic<Int>(0)
    private let arrived = DispatchSemaphore(value: 0)

    /// The next value matching `awaited` ends the current measurement.
    public func expect(_ awaited: Awaited) {
        state.withLock { $0.awaited = awaited }
    }

    /// Called by an observer with each value; `matches` tells whether the value holds the awaited change.
    public func received(_ matches: (Awaited) -> Bool) {
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
    public func receivedInitialValue() {
        state.withLock { $0.initialValues += 1 }
    }

    /// How many observations have delivered their first value.
    public var initialValues: Int { state.withLock { $0.initialValues } }

    /// Called from each observation's fetch closure (or each emission, where there is no fetch).
    public func fetched() {
        fetchCount.add(1, ordering: .relaxed)
    }

    /// Fetches performed so far.
    public var fetches: Int { fetchCount.load(ordering: .relaxed) }

    /// Blocks until the awaited change arrived and returns its arrival time (nil after 10 s).
    public func wait() -> Double? {
        guard arrived.wait(timeout: .now() + 10) == .success else { return nil }
        return state.withLock { $0.receivedAt }
    }
}

/// Marks an observer's first value (the initial snapshot, before any timed write).
public final class FirstValue: Sendable {
    private let seen = Atomic<Bool>(false)

    public init() {}

    /// True exactly once.
    public func take() -> Bool { !seen.exchange(true, ordering: .relaxed) }
}

/// Polls `condition` every 50 µs (outside any measured interval) and returns false when it still fails after
/// `timeout` seconds.
public func pollUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = now() + timeout
    while !condition() {
        if now() > deadline { return false }
        usleep(50)
    }
    return true
}

/// Write-to-emit latencies of one workload, in seconds.
public struct LatencySummary: Codable, Sendable {
    /// What was measured (e.g. a workload's short name and a variant suffix).
    public var name: String
    /// Median, 90th percentile and mean latency, in seconds.
    public var median: Double
    public var p90: Double
    public var mean: Double
    /// Measured writes (warm-up excluded).
    public var iterations: Int

    /// Median, 90th percentile and mean of `samples`.
    public init(name: String, samples: [Double]) {
        let sorted = samples.sorted()
        self.name = name
        self.median = sorted[sorted.count / 2]
        self.p90 = sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        self.mean = sorted.reduce(0, +) / Double(sorted.count)
        self.iterations = sorted.count
    }
}
