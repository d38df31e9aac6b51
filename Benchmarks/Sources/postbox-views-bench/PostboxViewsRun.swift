import BenchmarkSupport
import Foundation
import Postbox
import PostboxBenchData
import PostboxTesting
import SwiftSignalKit

/// The three workloads on Postbox through its live-view Signals: the data set stored in one Postbox, the
/// views opened with `aroundMessageHistoryViewForLocation` / `tailChatListView`, and each timed write one
/// `transactionSync` adding one message (Postbox keeps the chat list, read state and text index in step itself).
/// Snapshots arrive on the Postbox writer queue right after the commit; nothing hops to another queue.
final class PostboxViewsRun {
    static let key = try! PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48))

    let postbox: Postbox
    let warmup: Int
    let iterations: Int
    private var nextIds: [Int64: Int32] = [:]
    private var sequence = 0

    static func peerId(_ peer: Int64) -> PeerId {
        PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: peer))
    }

    static func store(_ message: BenchMessage) -> StoreMessage {
        let peerId = peerId(message.peer)
        return StoreMessage(
            id: .id(MessageId(peerId: peerId, namespace: 0, id: message.id)), timestamp: message.timestamp,
            authorId: peerId, text: message.text)
    }

    /// Opens a Postbox in `accountPath` and stores the data set (every peer, every message, the pinned chats), then
    /// checkpoints.
    init(accountPath: String, encrypted: Bool, cacheKiB: Int, warmup: Int, iterations: Int) throws {
        postbox = try Postbox.open(
            accountPath: accountPath, encryption: encrypted ? Self.key : nil, cacheSizeKiB: cacheKiB)
        self.warmup = warmup
        self.iterations = iterations
        let peers: [Peer] = (1...Int64(ViewBenchData.chatCount)).map {
            TestPeer(id: Self.peerId($0), name: ViewBenchData.peerName($0))
        }
        let messages = ViewBenchData.initialMessages().map(Self.store)
        try postbox.transactionSync { transaction in
            try transaction.updatePeers(peers)
            try transaction.addMessages(messages)
            try transaction.setPinnedItemIds(ViewBenchData.pinnedPeers.map(Self.peerId))
        }
        // Start from an empty WAL, as an app opening its account would, not from the bulk load's.
        try postbox.checkpoint(truncate: true)
    }

    /// Opens the workload's views, performs warm-up and measured writes, and returns the latencies with a checksum
    /// of the messages whose snapshots arrived (the output compared with GRDB's).
    func measure(_ workload: ViewWorkload) throws -> (LatencySummary, FoundChecksum) {
        let probe = EmitProbe<AwaitedMessage>()
        var disposables: [Disposable] = []
        defer { disposables.forEach { $0.dispose() } }
        switch workload {
        case .oneHistoryView:
            disposables.append(observeHistory(peer: 1, probe: probe))
        case .hundredHistoryViews:
            for peer in 1...Int64(ViewBenchData.historyPeerCount) {
                disposables.append(observeHistory(peer: peer, probe: probe))
            }
        case .chatList:
            disposables.append(observeChatList(probe: probe))
        }
        guard pollUntil({ probe.initialValues == disposables.count }) else {
            throw BenchError("views did not deliver their initial snapshots within 10 s")
        }

        var samples: [Double] = []
        var found = FoundChecksum()
        samples.reserveCapacity(iterations)
        for iteration in 0..<(warmup + iterations) {
            let peer = ViewBenchData.writtenPeer(workload, iteration: iteration)
            let id = nextIds[peer] ?? ViewBenchData.initialTopId(peer: peer) + 1
            nextIds[peer] = id + 1
            let message = [Self.store(ViewBenchData.newMessage(peer: peer, id: id, sequence: sequence))]
            sequence += 1
            probe.expect(AwaitedMessage(peer: peer, id: id))

            let start = now()
            try postbox.transactionSync { transaction in try transaction.addMessages(message) }
            guard let end = probe.wait() else {
                throw BenchError("no snapshot with message \(peer)/\(id) within 10 s (\(workload.rawValue))")
            }
            found.add(peer: peer, id: id)
            if iteration >= warmup { samples.append(end - start) }
        }
        return (LatencySummary(name: workload.rawValue, samples: samples), found)
    }

    /// The baseline: the same write transaction with no view open, timed alone.
    func measureWriteOnly() throws -> (LatencySummary, FoundChecksum) {
        var samples: [Double] = []
        var found = FoundChecksum()
        for iteration in 0..<(warmup + iterations) {
            let peer = ViewBenchData.writtenPeer(.oneHistoryView, iteration: iteration)
            let id = nextIds[peer] ?? ViewBenchData.initialTopId(peer: peer) + 1
            nextIds[peer] = id + 1
            let message = [Self.store(ViewBenchData.newMessage(peer: peer, id: id, sequence: sequence))]
            sequence += 1
            let start = now()
            try postbox.transactionSync { transaction in try transaction.addMessages(message) }
            if iteration >= warmup { samples.append(now() - start) }
            found.add(peer: peer, id: id)
        }
        return (LatencySummary(name: ViewBenchData.writeOnlyName, samples: samples), found)
    }

    private func observeHistory(peer: Int64, probe: EmitProbe<AwaitedMessage>) -> Disposable {
        let first = FirstValue()
        return postbox.aroundMessageHistoryViewForLocation(
            peerId: Self.peerId(peer), anchor: .upperBound, count: ViewBenchData.historyWindow
        ).start(next: { view in
            if first.take() { probe.receivedInitialValue() }
            probe.received { awaited in
                awaited.peer == peer && view.entries.reversed().contains { $0.message.id.id == awaited.id }
            }
        })
    }

    private func observeChatList(probe: EmitProbe<AwaitedMessage>) -> Disposable {
        let first = FirstValue()
        return postbox.tailChatListView(count: ViewBenchData.chatListWindow).start(next: { view in
            if first.take() { probe.receivedInitialValue() }
            probe.received { awaited in
                view.entries.contains {
                    $0.peerId.id.rawValue == awaited.peer && $0.index.messageIndex.id.id == awaited.id
                }
            }
        })
    }
}

/// A failed benchmark run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
