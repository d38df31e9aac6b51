import Buffers
import PostboxCoding
public import ValueBox

/// A snapshot of preferences entries (Telegram-iOS Postbox `PreferencesView`).
public struct PreferencesView: PostboxView, Equatable {
    public let keys: Set<ValueBoxKey>
    /// The stored entries among `keys`.
    public let values: [ValueBoxKey: PreferencesEntry]

    public static func == (lhs: PreferencesView, rhs: PreferencesView) -> Bool {
        guard lhs.keys == rhs.keys, lhs.values.count == rhs.values.count else { return false }
        return lhs.values.allSatisfy { key, value in rhs.values[key].map { $0.isEqual(to: value) } ?? false }
    }
}

/// The live side of `PreferencesView`.
final class MutablePreferencesView: MutablePostboxView {
    let keys: Set<ValueBoxKey>
    private var values: [ValueBoxKey: PreferencesEntry] = [:]

    /// This view reads no rendered messages from the operations.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction, keys: Set<ValueBoxKey>) throws {
        self.keys = keys
        try load(transaction)
    }

    private func load(_ transaction: Transaction) throws {
        values = [:]
        for key in keys { values[key] = try transaction.getPreferencesEntry(key: key) }
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        var changed = false
        for (key, value) in operations.updatedPreferences where keys.contains(key) {
            values[key] = value
            changed = true
        }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        guard changes.everything || !changes.preferences.isDisjoint(with: keys) else { return false }
        try load(transaction)
        return true
    }

    func immutableView() -> PreferencesView { PreferencesView(keys: keys, values: values) }
}

/// A snapshot of an ordered item list (recent stickers, saved GIFs, …) (Telegram-iOS Postbox `OrderedItemListView`).
public struct OrderedItemListView: PostboxView, Equatable {
    public let collectionId: Int32
    public let items: [OrderedItemListEntry]

    /// Equal when the ids and the encoded contents match, item by item.
    public static func == (lhs: OrderedItemListView, rhs: OrderedItemListView) -> Bool {
        guard lhs.collectionId == rhs.collectionId, lhs.items.count == rhs.items.count else { return false }
        return zip(lhs.items, rhs.items).allSatisfy { left, right in
            left.id == right.id && Table.encodeRoot(left.contents) == Table.encodeRoot(right.contents)
        }
    }
}

/// The live side of `OrderedItemListView`: a list is one record, re-read when a transaction replaced it.
final class MutableOrderedItemListView: MutablePostboxView {
    let collectionId: Int32
    private var items: [OrderedItemListEntry] = []

    /// This view reads no rendered messages from the operations.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction, collectionId: Int32) throws {
        self.collectionId = collectionId
        items = try transaction.getOrderedListItems(collectionId: collectionId)
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        guard operations.updatedOrderedItemLists.contains(collectionId) else { return false }
        items = try transaction.getOrderedListItems(collectionId: collectionId)
        return true
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        guard changes.everything || changes.orderedItemLists.contains(collectionId) else { return false }
        items = try transaction.getOrderedListItems(collectionId: collectionId)
        return true
    }

    func immutableView() -> OrderedItemListView { OrderedItemListView(collectionId: collectionId, items: items) }
}

/// A snapshot of the messages waiting to be sent (Telegram-iOS Postbox `UnsentMessageIdsView`).
public struct UnsentMessageIdsView: PostboxView, Equatable {
    public let ids: Set<MessageId>
}

/// The live side of `UnsentMessageIdsView`: it applies the unsent-set operations.
final class MutableUnsentMessageIdsView: MutablePostboxView {
    private var ids: Set<MessageId>

    /// This view reads no rendered messages from the operations.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction) throws {
        ids = Set(try transaction.unsentMessageIds())
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        for operation in operations.unsentOperations {
            switch operation {
            case .insert(let id): ids.insert(id)
            case .remove(let id): ids.remove(id)
            }
        }
        return !operations.unsentOperations.isEmpty
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        guard changes.everything || changes.unsent else { return false }
        ids = Set(try transaction.unsentMessageIds())
        return true
    }

    func immutableView() -> UnsentMessageIdsView { UnsentMessageIdsView(ids: ids) }
}
