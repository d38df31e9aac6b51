/// A broken precondition of `ListMerge`: a list out of order or an id repeated within one list. Telegram-iOS's
/// `mergeListsStableWithUpdates` checks the ids in DEBUG builds (`submodules/MergeLists/Sources/MergeLists.swift`);
/// here debug builds check both and name what they found.
public enum ListMergeViolation: Hashable, Sendable, CustomStringConvertible {
    /// Which of the two lists.
    public enum Side: String, Hashable, Sendable {
        case left, right
    }

    /// The item at `index` comes before the item at `index - 1` in the list's order.
    case outOfOrder(Side, index: Int)
    /// The item at `index` has the same `stableId` as an earlier item of the same list.
    case duplicateId(Side, index: Int)

    /// The violation in words, e.g. "left list is not sorted: item 3 comes before item 2".
    public var description: String {
        switch self {
        case .outOfOrder(let side, let index):
            return "\(side) list is not sorted: item \(index) comes before item \(index - 1)"
        case .duplicateId(let side, let index):
            return "\(side) list repeats a stableId: item \(index) has the id of an earlier item"
        }
    }
}

extension ListMerge {
    /// The first broken precondition of merging `left` into `right` sorted ascending (or descending, when
    /// `reversed`), or `nil` when both lists are sorted and neither repeats an id. O(n) with one hash per item.
    public static func firstViolation<Item: MergeableItem>(
        left: [Item], right: [Item], reversed: Bool = false
    ) -> ListMergeViolation? {
        firstViolation(left: left, right: right, order: reversed ? .descending : .ascending)
    }

    @inlinable
    static func firstViolation<Item: MergeableItem>(
        left: [Item], right: [Item], order: ListOrder
    ) -> ListMergeViolation? {
        for (side, list) in [(ListMergeViolation.Side.left, left), (.right, right)] {
            var seen = Set<Item.StableId>(minimumCapacity: list.count)
            for index in list.indices {
                if index > 0 && order.precedes(list[index], list[index - 1]) {
                    return .outOfOrder(side, index: index)
                }
                if !seen.insert(list[index].stableId).inserted { return .duplicateId(side, index: index) }
            }
        }
        return nil
    }
}
