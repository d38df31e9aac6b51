import Glibc

/// What the write transactions of one Postbox have cost since it opened: how many ran, the time they held the
/// writer queue, and the CPU the queue's thread spent in them (the storage cost a benchmark divides by its work).
public struct PostboxWriteStatistics: Equatable, Sendable {
    /// Write transactions run (committed or rolled back).
    public var transactions = 0
    /// Seconds from `begin` to the end of the last delivery and `afterCommit` action, summed (monotonic clock).
    public var seconds = 0.0
    /// CPU seconds of the writer-queue thread over the same spans (the kernel's per-thread clock).
    public var cpuSeconds = 0.0

    public init() {}

    /// The reading of both clocks at a transaction's start.
    struct Start {
        let wall: Double
        let cpu: Double
    }

    static func start() -> Start { Start(wall: read(CLOCK_MONOTONIC), cpu: read(CLOCK_THREAD_CPUTIME_ID)) }

    /// Adds the transaction that began at `start`.
    mutating func add(since start: Start) {
        transactions += 1
        seconds += Self.read(CLOCK_MONOTONIC) - start.wall
        cpuSeconds += Self.read(CLOCK_THREAD_CPUTIME_ID) - start.cpu
    }

    private static func read(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension Postbox {
    /// The cost of every write transaction since this Postbox opened (read on the writer queue).
    public func writeStatistics() -> PostboxWriteStatistics {
        syncOnQueue { writeStatisticsTotal }
    }
}
