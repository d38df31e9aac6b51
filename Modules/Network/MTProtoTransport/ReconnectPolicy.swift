/// When to try again after a connection fails: exponential backoff with a cap and jitter, reset by a connection
/// that lived long enough (Telegram's `MTTcpConnectionBehaviour`).
public struct ReconnectPolicy: Sendable, Equatable {
    /// The first delay, in seconds.
    public var initialDelay: Double
    /// The longest delay, in seconds.
    public var maximumDelay: Double
    /// Each failure multiplies the delay by this.
    public var multiplier: Double
    /// Up to this fraction of the delay is added at random, so many clients do not reconnect in step.
    public var jitter: Double
    /// A connection that stayed up this long (seconds) resets the backoff.
    public var stableAfter: Double

    public init(
        initialDelay: Double = 0.5, maximumDelay: Double = 30, multiplier: Double = 2, jitter: Double = 0.2,
        stableAfter: Double = 10
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.stableAfter = stableAfter
    }

    /// The delay before attempt `failures + 1`, given a random fraction in 0..<1 for the jitter.
    public func delay(afterFailures failures: Int, random: Double) -> Double {
        guard failures > 0 else { return 0 }
        var base = initialDelay
        for _ in 1..<failures where base < maximumDelay { base *= multiplier }
        base = min(base, maximumDelay)
        return base + base * jitter * min(max(random, 0), 1)
    }
}

/// Counts consecutive failures and turns them into delays with a `ReconnectPolicy`.
public struct ReconnectBackoff: Sendable {
    public let policy: ReconnectPolicy
    /// Failures since the last stable connection.
    public private(set) var failures = 0

    public init(policy: ReconnectPolicy = .init()) {
        self.policy = policy
    }

    /// A connection attempt failed or a connection dropped after `uptime` seconds; returns how long to wait.
    public mutating func connectionEnded(uptime: Double, random: Double = Double.random(in: 0..<1)) -> Double {
        if uptime >= policy.stableAfter { failures = 0 }
        failures += 1
        return policy.delay(afterFailures: failures, random: random)
    }
}
