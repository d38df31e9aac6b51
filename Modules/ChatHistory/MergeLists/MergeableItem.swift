/// An item of a sorted list that `ListMerge` can diff: a stable identity, the list's order, and its content.
///
/// Telegram-iOS: `submodules/MergeLists/Sources/Identifiable.swift` (`Identifiable` with `stableId`) together with
/// the `Comparable` requirement of `submodules/MergeLists/Sources/MergeLists.swift`. As there, the two operators
/// mean two different things:
/// - `<` is the list's order (the sort key, e.g. a message index). Items whose keys tie are neither `<` nor `>`.
/// - `==` is content equality: a kept item with `left != right` is reported as an update. Pass `isEqual:` to
///   `ListMerge.stableWithUpdates` to compare content some other way.
///
/// `ListMerge` never infers identity from `==` or order from `==`: identity is `stableId` alone.
public protocol MergeableItem: Comparable {
    /// What identifies an item across two versions of the list (a message id, a peer id).
    associatedtype StableId: Hashable

    /// The item's identity; unique within one list.
    var stableId: StableId { get }
}
