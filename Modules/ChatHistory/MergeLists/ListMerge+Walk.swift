/// The order both lists of a merge are sorted in.
@usableFromInline
enum ListOrder: Sendable {
    /// Smallest first (`mergeListsStableWithUpdates`).
    case ascending
    /// Largest first (`mergeListsStableWithUpdatesReversed`).
    case descending

    /// Whether `a` comes strictly before `b` in this order.
    @inlinable
    func precedes<Item: Comparable>(_ a: Item, _ b: Item) -> Bool {
        switch self {
        case .ascending: return a < b
        case .descending: return b < a
        }
    }
}

/// What the walk does with a kept item.
@usableFromInline
enum ListMergeMode: Sendable {
    /// Report a kept item whose content changed as an update.
    case updates
    /// Report every kept item as an update.
    case allUpdated
    /// Keep only items whose content is unchanged; a changed one is deleted and inserted (`mergeListsStable`).
    case replaceChanged
}

extension ListMerge {
    /// The one linear walk behind every public merge (see `ListMerge` for the rules). Exact for any input; small
    /// and stable when both lists are sorted in `order` with unique ids.
    @inlinable
    static func walk<Item: MergeableItem>(
        left: [Item], right: [Item], order: ListOrder, mode: ListMergeMode, _ isEqual: (Item, Item) -> Bool
    ) -> ListMergeResult<Item> {
        left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in
                walk(left: left, right: right, order: order, mode: mode, isEqual)
            }
        }
    }

    /// The walk over the lists' storage: items are compared in place, without copies or bounds checks (every
    /// index is below its count by the loop conditions).
    @inlinable
    static func walk<Item: MergeableItem>(
        left: UnsafeBufferPointer<Item>, right: UnsafeBufferPointer<Item>, order: ListOrder, mode: ListMergeMode,
        _ isEqual: (Item, Item) -> Bool
    ) -> ListMergeResult<Item> {
        var deleteIndices: [Int] = []
        var inserts: [ListMergeResult<Item>.Insert] = []
        var updates: [ListMergeResult<Item>.Update] = []
        let leftCount = left.count
        let rightCount = right.count
        var i = 0
        var j = 0
        while i < leftCount && j < rightCount {
            if left[i].stableId == right[j].stableId {
                switch mode {
                case .allUpdated:
                    updates.append(.init(index: j, item: right[j], previousIndex: i))
                case .updates:
                    if !isEqual(left[i], right[j]) { updates.append(.init(index: j, item: right[j], previousIndex: i)) }
                case .replaceChanged:
                    if !isEqual(left[i], right[j]) {
                        deleteIndices.append(i)
                        inserts.append(.init(index: j, item: right[j], previousIndex: i))
                    }
                }
                i += 1
                j += 1
            } else if order.precedes(right[j], left[i])
                || (!order.precedes(left[i], right[j]) && j + 1 < rightCount
                    && right[j + 1].stableId == left[i].stableId)
            {
                inserts.append(.init(index: j, item: right[j], previousIndex: nil))
                j += 1
            } else {
                deleteIndices.append(i)
                i += 1
            }
        }
        while i < leftCount {
            deleteIndices.append(i)
            i += 1
        }
        while j < rightCount {
            inserts.append(.init(index: j, item: right[j], previousIndex: nil))
            j += 1
        }
        linkMoves(left: left, deleteIndices: deleteIndices, inserts: &inserts)
        return ListMergeResult(deleteIndices: deleteIndices, inserts: inserts, updates: updates)
    }

    /// Sets `previousIndex` of each insert whose id belongs to a deleted left item (a move): the first such item.
    /// Inserts that already carry one (`replaceChanged`) keep it. A few deletes are scanned; many are hashed.
    @inlinable
    static func linkMoves<Item: MergeableItem>(
        left: UnsafeBufferPointer<Item>, deleteIndices: [Int], inserts: inout [ListMergeResult<Item>.Insert]
    ) {
        if deleteIndices.isEmpty || inserts.isEmpty { return }
        if deleteIndices.count <= 16 {
            for k in inserts.indices where inserts[k].previousIndex == nil {
                let id = inserts[k].item.stableId
                inserts[k].previousIndex = deleteIndices.first { left[$0].stableId == id }
            }
            return
        }
        var deletedById: [Item.StableId: Int] = [:]
        deletedById.reserveCapacity(deleteIndices.count)
        for index in deleteIndices where deletedById[left[index].stableId] == nil {
            deletedById[left[index].stableId] = index
        }
        for k in inserts.indices where inserts[k].previousIndex == nil {
            inserts[k].previousIndex = deletedById[inserts[k].item.stableId]
        }
    }
}
