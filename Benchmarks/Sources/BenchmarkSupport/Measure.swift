import Foundation

/// A measured workload: the median of several timed runs, with the fastest and the slowest of them.
public struct Measurement: Sendable {
    /// Workload name as printed.
    public let name: String
    /// Median wall time of one run, in seconds.
    public let seconds: Double
    /// Work items per run (values, bytes, operations), to print throughput.
    public let items: Double
    /// What `items` counts ("values", "MB", "ops").
    public let unit: String
    /// The fastest and the slowest run, in seconds (`nil` for a figure taken elsewhere as one number).
    public let range: ClosedRange<Double>?
    /// How many timed runs the median is of (1 for a figure taken elsewhere).
    public let runs: Int

    /// A measurement taken elsewhere (a peer tool's own timer).
    public init(name: String, seconds: Double, items: Double, unit: String) {
        self.name = name
        self.seconds = seconds
        self.items = items
        self.unit = unit
        range = nil
        runs = 1
    }

    /// The median of `times` (seconds, at least one), with their fastest and slowest.
    public init(name: String, times: [Double], items: Double, unit: String) {
        precondition(!times.isEmpty, "a measurement needs at least one run")
        let sorted = times.sorted()
        self.name = name
        seconds = median(sorted)
        self.items = items
        self.unit = unit
        range = sorted[0]...sorted[sorted.count - 1]
        runs = sorted.count
    }

    /// Items per second.
    public var throughput: Double { items / seconds }
    /// Items per second in the slowest and the fastest run.
    public var throughputRange: ClosedRange<Double>? { range.map { (items / $0.upperBound)...(items / $0.lowerBound) } }
}

/// The median of `sorted` (ascending, at least one): the middle value, or the mean of the middle two.
public func median(_ sorted: [Double]) -> Double {
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Monotonic time in seconds.
public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs `body` once to warm up, then `runs` times (one under `make bench-check`), and returns the median wall time
/// with the fastest and slowest run. A comparison of two sides uses `compareInterleaved` instead, so both see the
/// same load.
public func measure(
    _ name: String, items: Double, unit: String, runs: Int = 5, _ body: () -> Void
) -> Measurement {
    body()
    var times: [Double] = []
    for _ in 0..<BenchmarkMethod.rounds(runs) {
        let start = now()
        body()
        times.append(now() - start)
    }
    return Measurement(name: name, times: times, items: items, unit: unit)
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
