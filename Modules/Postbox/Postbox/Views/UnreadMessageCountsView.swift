/// What an unread-count view counts.
public enum UnreadMessageCountsItem: Hashable, Sendable {
    /// Unread incoming messages in every chat.
    case total
    /// Unread incoming messages in one chat.
    case peer(PeerId)
}

/// A snapshot of unread counts (Telegram-iOS Postbox `UnreadMessageCountsView`).
public struct UnreadMessageCountsView: PostboxView, Equatable {
    public let counts: [UnreadMessageCountsItem: Int32]

    /// The count of `item` (0 when it has none).
    public func count(for item: UnreadMessageCountsItem) -> Int32 { counts[item] ?? 0 }
}

/// The live side of `UnreadMessageCountsView`: it follows read-state changes only. For the total it keeps every
/// chat's count (read once when opened) and applies each change as a difference.
final class MutableUnreadMessageCountsView: MutablePostboxView {
    let items: [UnreadMessageCountsItem]
    private var perPeer: [PeerId: Int32] = [:]
    private var total: Int32 = 0
    private var tracksTotal: Bool { items.contains(.total) }

    /// This view reads no rendered messages from the operations.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction, items: [UnreadMessageCountsItem]) throws {
        self.items = items
        try load(transaction)
    }

    private func load(_ transaction: Transaction) throws {
        if tracksTotal {
            perPeer = try transaction.allUnreadCounts()
            total = perPeer.values.reduce(0, &+)
        } else {
            perPeer = [:]
            for case .peer(let peerId) in items {
                perPeer[peerId] = try transaction.getCombinedPeerReadState(peerId)?.count ?? 0
            }
        }
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        var changed = false
        for (peerId, state) in operations.updatedReadStates {
            guard tracksTotal || perPeer[peerId] != nil else { continue }
            let previous = perPeer[peerId] ?? 0
            guard previous != state.count else { continue }
            perPeer[peerId] = state.count
            total = total &- previous &+ state.count
            changed = true
        }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        let peers = items.compactMap { item -> PeerId? in
            if case .peer(let peerId) = item { return peerId }
            return nil
        }
        guard
            changes.everything || (tracksTotal && !changes.readStates.isEmpty)
                || !changes.readStates.isDisjoint(with: peers)
        else { return false }
        try load(transaction)
        return true
    }

    func immutableView() -> UnreadMessageCountsView {
        var counts: [UnreadMessageCountsItem: Int32] = [:]
        for item in items {
            switch item {
            case .total: counts[item] = total
            case .peer(let peerId): counts[item] = perPeer[peerId] ?? 0
            }
        }
        return UnreadMessageCountsView(counts: counts)
    }
}
