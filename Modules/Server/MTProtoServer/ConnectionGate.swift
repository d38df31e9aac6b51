import CoreMetrics
import Foundation

/// Admits connections under the global and per-address caps (`ServerLimits`), and counts them until they close —
/// also as metrics: `tg_server_connections_total` (admitted), `tg_server_connections_refused_total`,
/// `tg_server_connections_open`.
///
/// `@unchecked Sendable`: the counters are read and written under `lock`; every listener's connections share one
/// gate.
public final class ConnectionGate: @unchecked Sendable {
    private let lock = NSLock()
    private let maximum: Int
    private let maximumPerAddress: Int
    private var open = 0
    private var perAddress: [String: Int] = [:]
    private var refusedCount = 0

    public init(maximum: Int, maximumPerAddress: Int) {
        self.maximum = maximum
        self.maximumPerAddress = maximumPerAddress
    }

    /// Takes a place for a connection from `address`; false (and nothing taken) when a cap is reached.
    public func admit(_ address: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard open < maximum, perAddress[address, default: 0] < maximumPerAddress else {
            refusedCount += 1
            Counter(label: "tg_server_connections_refused_total").increment()
            return false
        }
        Counter(label: "tg_server_connections_total").increment()
        Meter(label: "tg_server_connections_open").increment()
        open += 1
        perAddress[address, default: 0] += 1
        return true
    }

    /// Gives back the place `admit` took.
    public func release(_ address: String) {
        lock.lock()
        defer { lock.unlock() }
        Meter(label: "tg_server_connections_open").decrement()
        open -= 1
        let left = perAddress[address, default: 1] - 1
        perAddress[address] = left > 0 ? left : nil
    }

    /// Connections admitted and not yet closed.
    public var openConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        return open
    }

    /// Connections refused since start.
    public var refused: Int {
        lock.lock()
        defer { lock.unlock() }
        return refusedCount
    }
}
