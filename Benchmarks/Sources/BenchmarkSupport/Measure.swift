import Foundation

/// A measured workload: the median of several timed runs.
public struct Measurement: Sendable {
    /// Workload name as printed.
    public let name: String
    /// Median wall time of one run, in seconds.
    public let seconds: Double
    /// Work items per run (values, bytes, operations), to print throughput.
    public let items: Double
    /// What `items` counts ("values", "MB", "ops").
    public let unit: String

    /// A measurement taken elsewhere (a peer process that reports its own timing).
    public init(name: String, seconds: Double, items: Double, unit: String) {
        self.name = name
        self.seconds = seconds
        self.items = items
        self.unit = unit
    }

    /// Items per second.
    public var throughput: Double { items / seconds }
}

/// Monotonic time in seconds.
public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs `body` once to warm up, then `runs` times, and returns the median wall time.
public func measure(
    _ name: String, items: Double, unit: String, runs: Int = 5, _ body: () -> Void
) -> Measurement {
    body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = now()
        body()
        times.append(now() - start)
    }
    times.sort()
    return Measurement(name: name, seconds: times[times.count / 2], items: items, unit: unit)
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
