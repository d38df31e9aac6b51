import Synchronization

/// The openings an MTProxy has seen lately (fake-TLS digests, obfuscated2 key material), so that a replayed one is
/// refused — what a censor replays to learn whether a port is a proxy. Keeps the newest `capacity`; shared by every
/// connection, behind a lock.
public final class ReplayCache: Sendable {
    private struct Entries {
        var set: Set<[UInt8]> = []
        var order: [[UInt8]] = []
        var head = 0
    }

    private let capacity: Int
    private let entries = Mutex(Entries())

    /// A cache of the newest `capacity` openings (the official MTProxy and mtprotoproxy keep tens of thousands).
    public init(capacity: Int = 65_536) {
        self.capacity = max(1, capacity)
    }

    /// Records `opening`; false when it was already there (a replay).
    public func insert(_ opening: [UInt8]) -> Bool {
        entries.withLock { entries in
            guard !entries.set.contains(opening) else { return false }
            entries.set.insert(opening)
            if entries.order.count < capacity {
                entries.order.append(opening)
            } else {
                entries.set.remove(entries.order[entries.head])
                entries.order[entries.head] = opening
                entries.head = (entries.head + 1) % capacity
            }
            return true
        }
    }
}
