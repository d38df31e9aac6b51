/// Stable diffs of two sorted lists of identified items, in one linear walk: Telegram-iOS's MergeLists
/// (`submodules/MergeLists/Sources/MergeLists.swift`: `mergeListsStableWithUpdates`,
/// `mergeListsStableWithUpdatesReversed`, `mergeListsStable`).
///
/// Both cursors move forward only. At each step the walk compares the left item `L` and the right item `R`:
/// - same `stableId`: the item is kept in place; it is an update when its content changed (or `allUpdated`);
/// - `R` comes first in the list's order: `R` is inserted;
/// - `L` comes first: `L` is deleted;
/// - their sort keys tie (different ids): `R` is inserted if the next right item is `L` (one item inserted among
///   equal keys), otherwise `L` is deleted (and inserted again later, if it is still there).
/// An item whose id is in both lists but which was not kept (its sort key moved it past a neighbour) is a delete
/// plus an insert whose `previousIndex` names its left position. Cost: O(left + right) comparisons, plus hashing
/// only the deleted items' ids when there are many deletes and inserts at once.
///
/// **Preconditions.** Each list is sorted by `<` (ascending; descending for the `Reversed` variant) and holds each
/// `stableId` at most once. **When they are violated** the result is still exact — applying it to `left` gives
/// `right`, element for element, because every decision of the walk is a valid edit — but no longer small or
/// stable: an out-of-order item may be deleted and inserted instead of kept, and with a repeated id an insert's
/// `previousIndex` names the first deleted left item with that id (several inserts may name the same one). Debug
/// builds stop at the violation with `assertionFailure` (naming it, see `ListMergeViolation`), so the bug is found
/// where it is made; release builds never trap and take the fallback above. Call `ListMerge.firstViolation` to
/// check input yourself. Not a thrown error: the merge runs on every view update, and only a programming error
/// can break the preconditions, so every caller would carry a `try` for a case it cannot handle better than the
/// fallback does.
public enum ListMerge {
    /// The changes from `left` to `right`, both sorted ascending by `<`: deletes, inserts (with the previous
    /// index of moved items) and updates of kept items whose content changed (`left != right`), or of every kept
    /// item when `allUpdated`. Telegram-iOS: `mergeListsStableWithUpdates(leftList:rightList:allUpdated:)`.
    @inlinable
    public static func stableWithUpdates<Item: MergeableItem>(
        left: [Item], right: [Item], allUpdated: Bool = false
    ) -> ListMergeResult<Item> {
        stableWithUpdates(left: left, right: right, allUpdated: allUpdated, isEqual: ==)
    }

    /// `stableWithUpdates(left:right:allUpdated:)` with content compared by `isEqual` instead of `==`.
    /// Telegram-iOS: `mergeListsStableWithUpdates(leftList:rightList:isLess:isEqual:getId:allUpdated:)`.
    @inlinable
    public static func stableWithUpdates<Item: MergeableItem>(
        left: [Item], right: [Item], allUpdated: Bool = false, isEqual: (Item, Item) -> Bool
    ) -> ListMergeResult<Item> {
        assertPreconditions(left: left, right: right, order: .ascending)
        return walk(left: left, right: right, order: .ascending, mode: allUpdated ? .allUpdated : .updates, isEqual)
    }

    /// `stableWithUpdates` for lists sorted descending (largest first, as a chat list or a reversed history is
    /// shown). Telegram-iOS: `mergeListsStableWithUpdatesReversed(leftList:rightList:allUpdated:)`.
    @inlinable
    public static func stableWithUpdatesReversed<Item: MergeableItem>(
        left: [Item], right: [Item], allUpdated: Bool = false
    ) -> ListMergeResult<Item> {
        stableWithUpdatesReversed(left: left, right: right, allUpdated: allUpdated, isEqual: ==)
    }

    /// `stableWithUpdatesReversed(left:right:allUpdated:)` with content compared by `isEqual` instead of `==`.
    @inlinable
    public static func stableWithUpdatesReversed<Item: MergeableItem>(
        left: [Item], right: [Item], allUpdated: Bool = false, isEqual: (Item, Item) -> Bool
    ) -> ListMergeResult<Item> {
        assertPreconditions(left: left, right: right, order: .descending)
        return walk(left: left, right: right, order: .descending, mode: allUpdated ? .allUpdated : .updates, isEqual)
    }

    /// The changes from `left` to `right` (sorted ascending) without updates: a kept item is one whose content is
    /// unchanged (`==`); an item whose content changed is deleted and inserted, with `previousIndex` set.
    /// `updates` is always empty. Telegram-iOS: `mergeListsStable(leftList:rightList:)`.
    @inlinable
    public static func stable<Item: MergeableItem>(left: [Item], right: [Item]) -> ListMergeResult<Item> {
        assertPreconditions(left: left, right: right, order: .ascending)
        return walk(left: left, right: right, order: .ascending, mode: .replaceChanged, ==)
    }

    /// In debug builds, stops at the first broken precondition, naming it; nothing in release builds.
    @inlinable
    static func assertPreconditions<Item: MergeableItem>(left: [Item], right: [Item], order: ListOrder) {
        assert(
            {
                if let violation = firstViolation(left: left, right: right, order: order) {
                    assertionFailure("ListMerge: \(violation)")
                }
                return true
            }())
    }
}
