public import ValueBox

/// A view inside a `CombinedView` (Telegram-iOS Postbox `PostboxViewKey`).
public enum PostboxViewKey: Hashable, Sendable {
    case peer(PeerId)
    case peers(Set<PeerId>)
    case message(MessageId)
    case historyView(peerId: PeerId, anchor: HistoryViewInputAnchor, count: Int, tag: MessageTags?)
    case chatList(anchor: ChatListViewAnchor, count: Int)
    case unreadCounts([UnreadMessageCountsItem])
    case preferences(Set<ValueBoxKey>)
    case orderedItemList(collectionId: Int32)
    case unsentMessageIds
    case contactPeers
}

/// Snapshots of several views taken after the same transaction (Telegram-iOS Postbox `CombinedView`): emitted once per
/// transaction that changed any of them.
public struct CombinedView: PostboxView {
    public let views: [PostboxViewKey: any PostboxView]

    public func isEqual(to other: any PostboxView) -> Bool {
        guard let other = other as? CombinedView, views.count == other.views.count else { return false }
        return views.allSatisfy { key, view in other.views[key].map { view.isEqual(to: $0) } ?? false }
    }
}

/// A mutable view of any kind, behind closures, for `CombinedView`.
private struct ErasedMutableView {
    let replay: (Transaction, PostboxTransaction) throws -> Bool
    let refresh: (Transaction, ExternalChanges) throws -> Bool
    let immutableView: () -> any PostboxView
    let renderedMessagePeers: Set<PeerId>

    init<View: MutablePostboxView>(_ view: View) {
        replay = view.replay
        refresh = view.refresh
        immutableView = { view.immutableView() }
        renderedMessagePeers = view.renderedMessagePeers
    }
}

/// The live side of `CombinedView`.
final class MutableCombinedView: MutablePostboxView {
    private let views: [PostboxViewKey: ErasedMutableView]
    /// What the combined views read, together.
    let renderedMessagePeers: Set<PeerId>

    init(_ transaction: Transaction, keys: Set<PostboxViewKey>) throws {
        var views: [PostboxViewKey: ErasedMutableView] = [:]
        for key in keys { views[key] = try Self.make(key, transaction) }
        self.views = views
        renderedMessagePeers = views.values.reduce(into: []) { $0.formUnion($1.renderedMessagePeers) }
    }

    private static func make(_ key: PostboxViewKey, _ transaction: Transaction) throws -> ErasedMutableView {
        switch key {
        case .peer(let peerId):
            return ErasedMutableView(try MutablePeerView(transaction, peerId: peerId))
        case .peers(let peerIds):
            return ErasedMutableView(try MutablePeersView(transaction, peerIds: peerIds))
        case .message(let id):
            return ErasedMutableView(try MutableMessageView(transaction, messageId: id))
        case .historyView(let peerId, let anchor, let count, let tag):
            return ErasedMutableView(
                try MutableMessageHistoryView(transaction, peerId: peerId, anchor: anchor, count: count, tag: tag))
        case .chatList(let anchor, let count):
            return ErasedMutableView(try MutableChatListView(transaction, anchor: anchor, count: count))
        case .unreadCounts(let items):
            return ErasedMutableView(try MutableUnreadMessageCountsView(transaction, items: items))
        case .preferences(let keys):
            return ErasedMutableView(try MutablePreferencesView(transaction, keys: keys))
        case .orderedItemList(let collectionId):
            return ErasedMutableView(try MutableOrderedItemListView(transaction, collectionId: collectionId))
        case .unsentMessageIds:
            return ErasedMutableView(try MutableUnsentMessageIdsView(transaction))
        case .contactPeers:
            return ErasedMutableView(try MutableContactPeersView(transaction))
        }
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        var changed = false
        for view in views.values { changed = try view.replay(transaction, operations) || changed }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        var changed = false
        for view in views.values { changed = try view.refresh(transaction, changes) || changed }
        return changed
    }

    func immutableView() -> CombinedView {
        CombinedView(views: views.mapValues { $0.immutableView() })
    }
}
