import Buffers
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import TestVectors
import Testing
import ValueBox

/// The live-view property: after every transaction each open view equals a fresh query of the same view, and it
/// emitted exactly when its content changed (once, or not at all).
@Suite("Live view property")
struct LiveViewPropertyTests {
    static let peers = (1...4).map { peer(Int64($0)) }
    static let preferencesKey = ValueBoxKey("theme")

    /// A live view under test and the key of the fresh query it must equal.
    final class Probe {
        var key: PostboxViewKey
        let recorder: ViewRecorder<any PostboxView>
        init(key: PostboxViewKey, signal: Signal<any PostboxView, NoError>) {
            self.key = key
            recorder = ViewRecorder(signal)
        }
    }

    static func erase<T: PostboxView>(_ signal: Signal<T, NoError>) -> Signal<any PostboxView, NoError> {
        signal |> map { $0 as any PostboxView }
    }

    /// Opens one view of every kind, with small windows so that edges move often.
    static func openProbes(_ postbox: Postbox, _ random: inout SeededGenerator) -> [Probe] {
        var probes: [Probe] = []
        func history(_ peerId: PeerId, _ anchor: HistoryViewInputAnchor, _ count: Int, _ tag: MessageTags?) {
            probes.append(
                Probe(
                    key: .historyView(peerId: peerId, anchor: anchor, count: count, tag: tag),
                    signal: erase(
                        postbox.aroundMessageHistoryViewForLocation(
                            peerId: peerId, anchor: anchor, count: count, tag: tag))))
        }
        history(peers[0], .upperBound, Int.random(in: 2...6, using: &random), nil)
        history(peers[0], .lowerBound, Int.random(in: 2...6, using: &random), nil)
        history(peers[1], .index(MessageIndex(id: MessageId(peerId: peers[1], namespace: 0, id: 10), timestamp: 100)),
                Int.random(in: 3...7, using: &random), nil)
        history(peers[1], .message(MessageId(peerId: peers[1], namespace: 0, id: 5)), 4, nil)
        history(peers[2], .unread, Int.random(in: 3...6, using: &random), nil)
        history(peers[2], .upperBound, 4, .photo)
        let chatCount = Int.random(in: 1...3, using: &random)
        probes.append(Probe(key: .chatList(anchor: .top, count: chatCount), signal: erase(postbox.tailChatListView(count: chatCount))))
        let around = ChatListIndex(
            pinningIndex: nil, messageIndex: MessageIndex(id: MessageId(peerId: peers[3], namespace: 0, id: 8), timestamp: 80))
        probes.append(Probe(key: .chatList(anchor: .index(around), count: 2), signal: erase(postbox.aroundChatListView(index: around, count: 2))))
        probes.append(Probe(key: .peer(peers[0]), signal: erase(postbox.peerView(id: peers[0]))))
        probes.append(Probe(key: .peers([peers[1], peers[2]]), signal: erase(postbox.multiplePeersView([peers[1], peers[2]]))))
        let counts: [UnreadMessageCountsItem] = [.total, .peer(peers[1])]
        probes.append(Probe(key: .unreadCounts(counts), signal: erase(postbox.unreadMessageCountsView(items: counts))))
        let watched = MessageId(peerId: peers[0], namespace: 0, id: 3)
        probes.append(Probe(key: .message(watched), signal: erase(postbox.messageView(watched))))
        probes.append(Probe(key: .unsentMessageIds, signal: erase(postbox.unsentMessageIdsView())))
        probes.append(Probe(key: .preferences([preferencesKey]), signal: erase(postbox.preferencesView(keys: [preferencesKey]))))
        probes.append(Probe(key: .orderedItemList(collectionId: 1), signal: erase(postbox.orderedItemListView(collectionId: 1))))
        let combinedKeys: Set<PostboxViewKey> = [.peer(peers[3]), .unsentMessageIds, .chatList(anchor: .top, count: 2)]
        // The last probe is the combined view; its key is not used (see freshCombined).
        probes.append(Probe(key: .unsentMessageIds, signal: erase(postbox.combinedView(keys: combinedKeys))))
        return probes
    }

    /// One random write: insert, delete, update, read, pin, peer or presence change, hole, media, preferences,
    /// ordered list.
    static func randomWrite(_ tx: Transaction, _ random: inout SeededGenerator) throws {
        let peerId = peers.randomElement(using: &random)!
        let namespace: Int32 = Int.random(in: 0..<5, using: &random) == 0 ? 1 : 0
        func randomMessage() -> StoreMessage {
            let id = Int32.random(in: 1...16, using: &random)
            var tags: MessageTags = []
            if Bool.random(using: &random) { tags.insert(.photo) }
            if Int.random(in: 0..<3, using: &random) == 0 { tags.insert(.file) }
            var flags: MessageFlags = Bool.random(using: &random) ? [.incoming] : []
            if Int.random(in: 0..<6, using: &random) == 0 { flags.insert(.unsent) }
            let media: [Media] =
                Int.random(in: 0..<4, using: &random) == 0
                ? [TestMedia(id: MediaId(namespace: 0, id: Int64.random(in: 1...3, using: &random)), kind: "photo", name: "p", size: 1)]
                : []
            return StoreMessage(
                id: .id(MessageId(peerId: peerId, namespace: namespace, id: id)),
                groupingKey: Int.random(in: 0..<4, using: &random) == 0 ? 7 : nil,
                timestamp: id * 10 + Int32.random(in: -3...3, using: &random), flags: flags, tags: tags,
                authorId: peers.randomElement(using: &random)!, text: "m\(Int.random(in: 0..<1000, using: &random))",
                media: media)
        }
        switch Int.random(in: 0..<13, using: &random) {
        case 0, 1, 2:
            try tx.addMessages((0..<Int.random(in: 1...3, using: &random)).map { _ in randomMessage() })
        case 3, 4:
            let ids = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                MessageId(peerId: peerId, namespace: namespace, id: Int32.random(in: 1...16, using: &random))
            }
            try tx.deleteMessages(ids)
        case 5:
            let id = MessageId(peerId: peerId, namespace: namespace, id: Int32.random(in: 1...16, using: &random))
            guard try tx.getMessage(id) != nil else { return }
            let moves = Int.random(in: 0..<3, using: &random) == 0
            let text = "edited \(Int.random(in: 0..<100, using: &random))"
            let tags: MessageTags = Bool.random(using: &random) ? [.photo] : []
            let shift = Int32.random(in: -15...15, using: &random)
            try tx.updateMessage(id) { old in
                var store = old.toStoreMessage()
                store.text = text
                store.tags = tags
                if moves { store.timestamp = old.timestamp + shift }
                return store
            }
        case 6:
            try tx.applyIncomingReadMaxId(MessageId(peerId: peerId, namespace: 0, id: Int32.random(in: 1...16, using: &random)))
        case 7:
            try tx.setPinnedItemIds(Array(peers.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))))
        case 8:
            try tx.updatePeers([TestPeer(id: peerId, name: "peer \(Int.random(in: 0..<3, using: &random))")])
        case 9:
            try tx.updatePeerPresences([peerId: TestPreferencesEntry(value: "seen \(Int.random(in: 0..<3, using: &random))")])
        case 10:
            let low = Int32.random(in: 1...16, using: &random)
            let range = low...min(16, low + Int32.random(in: 0...4, using: &random))
            let space: MessageHistoryHoleSpace = Bool.random(using: &random) ? .everywhere : .tag(.photo)
            if Bool.random(using: &random) {
                try tx.addHole(peerId: peerId, namespace: 0, space: space, range: range)
            } else {
                try tx.removeHole(peerId: peerId, namespace: 0, space: space, range: range)
            }
        case 11:
            let mediaId = MediaId(namespace: 0, id: Int64.random(in: 1...3, using: &random))
            try tx.updateMedia(mediaId, update: TestMedia(id: mediaId, kind: "photo", name: "v\(Int.random(in: 0..<3, using: &random))", size: 2))
        default:
            if Bool.random(using: &random) {
                let value = Int.random(in: 0..<3, using: &random)
                try tx.setPreferencesEntry(key: preferencesKey, value: value == 0 ? nil : TestPreferencesEntry(value: "\(value)"))
            } else {
                let items = (0..<Int.random(in: 0...3, using: &random)).map { item in
                    OrderedItemListEntry(id: MemoryBuffer([UInt8(item)]), contents: TestPreferencesEntry(value: "\(item % 2)"))
                }
                try tx.replaceOrderedItemListItems(collectionId: 1, items: items)
            }
        }
    }

    @Test("1,000 random transaction sequences: every view equals a fresh query and emits exactly on change")
    func liveViewsEqualFreshQueries() throws {
        let only = ProcessInfo.processInfo.environment["LIVE_VIEW_SEED"].flatMap(Int.init)
        // 20 databases, 50 sequences each: a sequence opens its views on the state the previous ones left (ids stay
        // within 1...16 per chat and namespace, so the database stays small), then runs its transactions.
        var postbox: Postbox?
        var directory: TemporaryDirectory?
        // LIVE_VIEW_SEED=<n> replays sequence n (after the sequences before it on the same database) and prints its
        // operations and the first difference in full.
        let seeds = only.map { ($0 / 50 * 50)...$0 } ?? 0...999
        for seed in seeds {
            var random = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
            if seed % 50 == 0 {
                postbox = nil
                (postbox, directory) = try makePostbox()
            }
            guard let postbox else { return }
            _ = directory
            // A few random writes, then views, then the sequence under test.
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                try postbox.transactionSync { tx in try Self.randomWrite(tx, &random) }
            }
            let probes = Self.openProbes(postbox, &random)
            try postbox.drainQueue()
            for probe in probes {
                #expect(probe.recorder.count == 1, "seed \(seed): \(probe.key) initial snapshot")
                if case .historyView(let peerId, _, let count, let tag) = probe.key,
                    let view = probe.recorder.last as? MessageHistoryView
                {
                    // Compare with the anchor as the live view resolved it.
                    probe.key = .historyView(peerId: peerId, anchor: view.anchor, count: count, tag: tag)
                }
            }
            let combined = probes.last!
            let observer =
                only != seed
                ? nil
                : postbox.addTransactionObserver { ops in
                    print("operations:", ops.chatListOperations, ops.currentOperationsByPeerId, ops.holeOperations)
                }
            for step in 0..<Int.random(in: 1...5, using: &random) {
                let before = probes.map { ($0.recorder.count, $0.recorder.last!) }
                try postbox.transactionSync { tx in
                    for _ in 0..<Int.random(in: 1...3, using: &random) { try Self.randomWrite(tx, &random) }
                }
                // Fresh queries of every view, in one read transaction.
                let freshViews = try postbox.combinedViewSnapshot(keys: Set(probes.dropLast().map(\.key))).views
                for (probe, (countBefore, previous)) in zip(probes, before) {
                    let fresh: any PostboxView =
                        probe === combined ? try Self.freshCombined(postbox) : freshViews[probe.key]!
                    let emitted = probe.recorder.count - countBefore
                    let changed = !fresh.isEqual(to: previous)
                    let context = "seed \(seed) step \(step): \(probe.key)"
                    #expect(emitted == (changed ? 1 : 0), "\(context): emitted \(emitted), changed \(changed)")
                    #expect(probe.recorder.last!.isEqual(to: fresh), "\(context): live view differs from a fresh query")
                    if !probe.recorder.last!.isEqual(to: fresh) || emitted != (changed ? 1 : 0) {
                        if only == seed {
                            print(context, "\nprevious:", describe(previous), "\nlive:", describe(probe.recorder.last!), "\nfresh:", describe(fresh))
                        }
                        return  // one failing sequence is enough to report
                    }
                }
                try Self.checkAgainstModel(postbox, probes, seed: seed)
            }
            for probe in probes { probe.recorder.dispose() }
            if let observer { postbox.removeObserver(observer) }
        }
    }

    /// A readable dump of a snapshot for a failing sequence.
    func describe(_ view: any PostboxView) -> String {
        guard let view = view as? MessageHistoryView else { return "\(view)" }
        let entries = view.entries.map { entry in
            let message = entry.message
            return "\(message.id)@\(message.timestamp) v\(message.stableVersion) \(message.text) "
                + "author=\(String(describing: message.author)) media=\(message.media) read=\(entry.isRead) "
                + "group=\(String(describing: entry.groupInfo))"
        }
        return "history \(view.anchor) \(entries) earlier=\(String(describing: view.earlierId)) "
            + "later=\(String(describing: view.laterId)) holes=\(view.holeEarlier),\(view.holeLater)"
    }

    static func freshCombined(_ postbox: Postbox) throws -> any PostboxView {
        try postbox.combinedViewSnapshot(keys: [.peer(peers[3]), .unsentMessageIds, .chatList(anchor: .top, count: 2)])
    }

    /// Checks history and chat-list windows against a model built from the whole history and chat list, so the
    /// initial load (which the fresh query shares with the live view) is checked too.
    static func checkAgainstModel(_ postbox: Postbox, _ probes: [Probe], seed: Int) throws {
        for probe in probes {
            switch probe.recorder.last {
            case let view as MessageHistoryView:
                let all = try postbox.readTransactionSync { tx in
                    try tx.laterMessages(peerId: view.peerId, after: nil, count: 10_000, tag: view.tag)
                }
                let expected = modelWindow(all.map(\.index), anchor: view.anchor, count: view.count)
                #expect(view.entries.map(\.index) == expected, "seed \(seed): history \(view.anchor) window")
            case let view as ChatListView where view.anchor == .top:
                let all = try postbox.readTransactionSync { tx in try tx.chatListEntries(before: nil, count: 10_000) }
                #expect(view.entries.map(\.index) == Array(all.prefix(view.count)), "seed \(seed): chat list top")
            default:
                break
            }
        }
    }

    /// The window a history view must show: `count` indices around the anchor, half before, the rest after, more
    /// on one side when the other runs out (the anchor's own message counts as one).
    static func modelWindow(_ sorted: [MessageIndex], anchor: HistoryViewInputAnchor, count: Int) -> [MessageIndex] {
        switch anchor {
        case .upperBound: return Array(sorted.suffix(count))
        case .lowerBound: return Array(sorted.prefix(count))
        case .index(let index):
            let before = sorted.filter { $0 < index }
            let at = sorted.filter { $0 == index }
            let after = sorted.filter { $0 > index }
            let remaining = count - at.count
            var lower = min(before.count, remaining / 2)
            var upper = min(after.count, remaining - remaining / 2)
            if upper < remaining - remaining / 2 { lower = min(before.count, remaining - upper) }
            if lower < remaining / 2 { upper = min(after.count, remaining - lower) }
            return Array(before.suffix(lower)) + at + Array(after.prefix(upper))
        case .message, .unread:
            Issue.record("an unresolved anchor in a snapshot")
            return []
        }
    }
}
