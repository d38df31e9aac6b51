/// The live-view latency workloads: which views are open and which chat each write goes to.
public enum ViewWorkload: String, CaseIterable, Sendable {
    /// One open history view; every write goes to its peer.
    case oneHistoryView = "a"
    /// 100 open history views on 100 different peers; writes rotate over those peers.
    case hundredHistoryViews = "b"
    /// One chat-list view (the top 50 of 10,000 chats); writes rotate over all chats.
    case chatList = "c"

    /// How the row is named in the latency table.
    public var title: String {
        switch self {
        case .oneHistoryView: return "(a) 1 open history view (44 messages)"
        case .hundredHistoryViews: return "(b) 100 open history views, different peers"
        case .chatList: return "(c) chat-list view (top 50) over 10,000 chats"
        }
    }
}

/// The message a timed write inserts, which the observer of its chat waits for.
public struct AwaitedMessage: Sendable {
    public var peer: Int64
    public var id: Int32

    public init(peer: Int64, id: Int32) {
        self.peer = peer
        self.id = id
    }
}

/// The live-view benchmark's data set and write sequence, the same for Postbox and for GRDB: 10,000 chats with 4
/// messages each, of which the first 100 (the history peers) have 300 messages; five pinned chats. Peer ids run
/// from 1 to `chatCount`, each peer stored with a name and the author of its chat's messages; all messages are in
/// namespace 0 and every chat's newest message is its top message.
public enum ViewBenchData {
    public static let chatCount = 10_000
    public static let historyPeerCount = 100
    public static let messagesPerHistoryPeer = 300
    public static let messagesPerChat = 4
    /// Messages in a history view (the chat screen's window).
    public static let historyWindow = 44
    /// Chats in the chat-list view.
    public static let chatListWindow = 50
    /// Pinned chats, in pinning order.
    public static let pinnedPeers: [Int64] = [9_001, 9_002, 9_003, 9_004, 9_005]
    static let baseTimestamp: Int32 = 1_700_000_000
    /// The name of the baseline measurement: the timed write with no view open.
    public static let writeOnlyName = "write"

    /// Every message stored before the views open: first four per chat round-robin, then the history peers' rest.
    public static func initialMessages() -> [BenchMessage] {
        var result: [BenchMessage] = []
        let spread = chatCount * messagesPerChat
        let extra = historyPeerCount * (messagesPerHistoryPeer - messagesPerChat)
        result.reserveCapacity(spread + extra)
        for k in 0..<spread {
            let peer = Int64(k % chatCount) + 1
            result.append(
                BenchMessage(
                    peer: peer, id: Int32(k / chatCount) + 1, timestamp: baseTimestamp + Int32(k), author: peer,
                    text: text(seed: UInt64(k))))
        }
        for j in 0..<extra {
            let peer = Int64(j % historyPeerCount) + 1
            result.append(
                BenchMessage(
                    peer: peer, id: Int32(messagesPerChat + 1 + j / historyPeerCount),
                    timestamp: baseTimestamp + Int32(spread + j), author: peer, text: text(seed: UInt64(spread + j))))
        }
        return result
    }

    /// The id of `peer`'s newest message in the initial data.
    public static func initialTopId(peer: Int64) -> Int32 {
        Int32(peer <= Int64(historyPeerCount) ? messagesPerHistoryPeer : messagesPerChat)
    }

    /// The chat written to in `iteration` (warm-up iterations included) of `workload`.
    public static func writtenPeer(_ workload: ViewWorkload, iteration: Int) -> Int64 {
        switch workload {
        case .oneHistoryView: return 1
        case .hundredHistoryViews: return Int64((iteration * 37) % historyPeerCount) + 1
        case .chatList: return Int64((iteration * 7_919) % chatCount) + 1
        }
    }

    /// The `sequence`-th message written during the benchmark (counted over all workloads), with the given id:
    /// newer than every message before it, so it tops its chat's history and moves the chat up the list.
    public static func newMessage(peer: Int64, id: Int32, sequence: Int) -> BenchMessage {
        BenchMessage(
            peer: peer, id: id, timestamp: baseTimestamp + 1_000_000 + Int32(sequence), author: peer,
            text: text(seed: (1 << 40) + UInt64(sequence)))
    }

    /// The display name of chat `peer` (every peer is stored with one).
    public static func peerName(_ peer: Int64) -> String { "Chat \(peer)" }

    /// Five to nine words from the benchmark vocabulary, chosen by a hash of `seed`.
    static func text(seed: UInt64) -> String {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x6A09_E667_F3BC_C909
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let words = 5 + next() % 5
        var text = ""
        for w in 0..<words {
            if w > 0 { text += " " }
            text += BenchData.vocabulary[next() % BenchData.vocabulary.count]
        }
        return text
    }
}
