import BenchmarkSupport
import Dispatch
import Foundation
import GRDB
import PostboxBenchData

/// How the observations are declared.
enum ObservationMode: String, CaseIterable {
    /// `ValueObservation.tracking { db in … }`, GRDB's default: the region is recorded from each fetch, so after a
    /// commit every affected observation re-fetches on the writer connection, one after the other.
    case tracking
    /// `ValueObservation.trackingConstantRegion { db in … }`: the region is fixed, so re-fetches run concurrently on
    /// the pool's readers (5 by default).
    case constantRegion = "constant"

    func observation<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    )
        -> ValueObservation<ValueReducers.Fetch<Value>>
    {
        switch self {
        case .tracking: return ValueObservation.tracking(fetch)
        case .constantRegion: return ValueObservation.trackingConstantRegion(fetch)
        }
    }
}

/// Runs the workloads against one database, keeping the next message id of each chat and the global write count
/// across workloads so every written message is new and newest.
final class LatencyRun {
    let database: ViewDatabase
    let warmup: Int
    let iterations: Int
    /// All observations deliver here: one serial queue, like an app's main queue, and `.async(onQueue:)` is the
    /// built-in scheduling with the least delay off the main thread (`.immediate` only changes the first value
    /// and needs the main thread).
    let queue = DispatchQueue(label: "postbox-views-grdb-peer.observers", qos: .userInteractive)
    private var nextIds: [Int64: Int32] = [:]
    private var sequence = 0

    init(database: ViewDatabase, warmup: Int, iterations: Int) {
        self.database = database
        self.warmup = warmup
        self.iterations = iterations
    }

    /// Opens the workload's observations, performs warm-up and measured writes, and returns the latencies.
    func measure(_ workload: ViewWorkload, mode: ObservationMode) throws -> (LatencySummary, FoundChecksum) {
        let probe = EmitProbe<AwaitedMessage>()
        var cancellables: [AnyDatabaseCancellable] = []
        defer { cancellables.forEach { $0.cancel() } }
        switch workload {
        case .oneHistoryView:
            cancellables.append(try observeHistory(peer: 1, mode: mode, probe: probe))
        case .hundredHistoryViews:
            for peer in 1...Int64(ViewBenchData.historyPeerCount) {
                cancellables.append(try observeHistory(peer: peer, mode: mode, probe: probe))
            }
        case .chatList:
            cancellables.append(try observeChatList(mode: mode, probe: probe))
        }
        guard pollUntil({ probe.initialValues == cancellables.count }) else {
            throw BenchError("observations did not deliver their initial values within 10 s")
        }

        var samples: [Double] = []
        var found = FoundChecksum()
        samples.reserveCapacity(iterations)
        for iteration in 0..<(warmup + iterations) {
            let peer = ViewBenchData.writtenPeer(workload, iteration: iteration)
            let id = nextIds[peer] ?? ViewBenchData.initialTopId(peer: peer) + 1
            nextIds[peer] = id + 1
            let message = ViewBenchData.newMessage(peer: peer, id: id, sequence: sequence)
            sequence += 1
            let fetchesBefore = probe.fetches
            probe.expect(AwaitedMessage(peer: peer, id: id))

            let start = now()
            try database.write(message)
            guard let end = probe.wait() else {
                throw BenchError("no value with message \(peer)/\(id) within 10 s (\(workload.rawValue), \(mode))")
            }
            found.add(peer: peer, id: id)
            if iteration >= warmup { samples.append(end - start) }

            // Let every observation finish its re-fetch and delivery before the next write.
            guard pollUntil({ probe.fetches >= fetchesBefore + cancellables.count }) else {
                throw BenchError("observations did not re-fetch within 10 s")
            }
            queue.sync {}
        }
        let suffix = mode == .tracking ? "" : "-" + mode.rawValue
        return (LatencySummary(name: workload.rawValue + suffix, samples: samples), found)
    }

    /// The baseline: the same write transaction with no observation open, timed alone.
    func measureWriteOnly() throws -> (LatencySummary, FoundChecksum) {
        var samples: [Double] = []
        var found = FoundChecksum()
        for iteration in 0..<(warmup + iterations) {
            let peer = ViewBenchData.writtenPeer(.oneHistoryView, iteration: iteration)
            let id = nextIds[peer] ?? ViewBenchData.initialTopId(peer: peer) + 1
            nextIds[peer] = id + 1
            let message = ViewBenchData.newMessage(peer: peer, id: id, sequence: sequence)
            sequence += 1
            let start = now()
            try database.write(message)
            if iteration >= warmup { samples.append(now() - start) }
            found.add(peer: peer, id: id)
        }
        return (LatencySummary(name: ViewBenchData.writeOnlyName, samples: samples), found)
    }

    private func observeHistory(
        peer: Int64, mode: ObservationMode, probe: EmitProbe<AwaitedMessage>
    ) throws
        -> AnyDatabaseCancellable
    {
        let first = FirstValue()
        return mode.observation { db in
            defer { probe.fetched() }
            return try ViewDatabase.history(db, peer: peer)
        }
        .removeDuplicates()
        .start(
            in: database.pool, scheduling: .async(onQueue: queue),
            onError: { error in fatalError("history observation failed: \(error)") },
            onChange: { rows in
                if first.take() { probe.receivedInitialValue() }
                probe.received { awaited in awaited.peer == peer && rows.first?.id == awaited.id }
            })
    }

    private func observeChatList(
        mode: ObservationMode, probe: EmitProbe<AwaitedMessage>
    ) throws -> AnyDatabaseCancellable {
        let first = FirstValue()
        return mode.observation { db in
            defer { probe.fetched() }
            return try ViewDatabase.chatList(db)
        }
        .removeDuplicates()
        .start(
            in: database.pool, scheduling: .async(onQueue: queue),
            onError: { error in fatalError("chat-list observation failed: \(error)") },
            onChange: { chats in
                if first.take() { probe.receivedInitialValue() }
                probe.received { awaited in
                    chats.contains { $0.peerId == awaited.peer && $0.topId == awaited.id }
                }
            })
    }
}

/// A failed benchmark run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
