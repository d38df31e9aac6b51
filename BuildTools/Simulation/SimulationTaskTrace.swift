/// The order in which tasks ran on one world's simulated queues (`simulate --trace-tasks`): one entry per task, the
/// queue it ran on and where it was enqueued from, so that two runs of a seed can be compared task by task.
public struct SimulationTaskTrace: Sendable, Equatable {
    /// Where a task was enqueued from.
    public enum Origin: Sendable, Hashable {
        /// By a task running on that queue (its number).
        case queue(Int)
        /// By a timer the world fired.
        case timer
        /// By a thread the clock does not run: Postbox's writer, a Swift task, the server, the world's own steps.
        case outside
        /// Not enqueued: a `Queue.sync` from outside the queue, run in place.
        case sync
    }

    /// The queue number of the jobs of Swift tasks run by the world's executor (one pseudo-queue for all of them).
    public static let swiftTasks = -1

    /// One task that ran.
    public struct Entry: Sendable, Hashable {
        /// The queue it ran on (its number, in the order the world made its queues; `swiftTasks` for a Swift task's
        /// job).
        public let queue: Int
        public let origin: Origin
    }

    /// Each queue's name, by number.
    public internal(set) var queueNames: [String] = []
    /// The tasks, in the order they started.
    public internal(set) var entries: [Entry] = []
    /// How many times tasks held for the world's driver were admitted because no driver ran: each is a point where
    /// the order may be the threads' rather than the seed's.
    public internal(set) var undrivenAdmissions = 0

    /// One line per task: its place in the order, the queue it ran on, and where it came from.
    public var lines: [String] {
        entries.enumerated().map { index, entry in "\(index + 1) \(label(entry.queue)) ← \(describe(entry.origin))" }
    }

    /// A digest of the whole order (FNV-1a of `lines`): equal for two runs whose tasks ran in the same order.
    public var orderDigest: UInt64 { Self.fnv1a(lines) }

    /// A digest of each queue's own sequence of tasks (where each came from), queue by queue: equal for two runs whose
    /// queues each ran the same tasks in the same order, however the queues interleaved.
    public var perQueueDigest: UInt64 {
        Self.fnv1a(
            ([Self.swiftTasks] + queueNames.indices).map { queue in
                label(queue) + ": "
                    + entries.filter { $0.queue == queue }.map { describe($0.origin) }.joined(separator: " ")
            })
    }

    private func label(_ queue: Int) -> String {
        if queue == Self.swiftTasks { return "swift tasks" }
        return "q\(queue) \(queueNames.indices.contains(queue) ? queueNames[queue] : "?")"
    }

    private func describe(_ origin: Origin) -> String {
        switch origin {
        case .queue(let queue): queue == Self.swiftTasks ? "swift tasks" : "q\(queue)"
        case .timer: "timer"
        case .outside: "outside"
        case .sync: "sync"
        }
    }

    private static func fnv1a(_ lines: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for line in lines {
            for byte in line.utf8 + [10] {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return hash
    }
}
