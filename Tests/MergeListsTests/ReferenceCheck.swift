import MergeLists

/// Which public merge produced a result, for the rules that differ between them.
enum MergeKind: CaseIterable, Sendable {
    case withUpdates, allUpdated, reversed, reversedAllUpdated, stable

    /// Runs this merge on a pair sorted ascending (the reversed kinds get both lists reversed).
    func merge(_ left: [Entry], _ right: [Entry]) -> (left: [Entry], right: [Entry], ListMergeResult<Entry>) {
        switch self {
        case .withUpdates: return (left, right, ListMerge.stableWithUpdates(left: left, right: right))
        case .allUpdated: return (left, right, ListMerge.stableWithUpdates(left: left, right: right, allUpdated: true))
        case .reversed, .reversedAllUpdated:
            let (l, r) = (Array(left.reversed()), Array(right.reversed()))
            let all = self == .reversedAllUpdated
            return (l, r, ListMerge.stableWithUpdatesReversed(left: l, right: r, allUpdated: all))
        case .stable: return (left, right, ListMerge.stable(left: left, right: right))
        }
    }

    var allUpdated: Bool { self == .allUpdated || self == .reversedAllUpdated }
}

/// `left` changed the way Telegram-iOS's ListView does it (written here, not taken from `applied(to:)`): deletes
/// highest index first, inserts ascending at their index, then updates in place; nil when an index is out of range.
func applyLikeListView(_ result: ListMergeResult<Entry>, to left: [Entry]) -> [Entry]? {
    var items = left
    for index in result.deleteIndices.sorted().reversed() {
        guard items.indices.contains(index) else { return nil }
        items.remove(at: index)
    }
    for insert in result.inserts.sorted(by: { $0.index < $1.index }) {
        guard insert.index >= 0 && insert.index <= items.count else { return nil }
        items.insert(insert.item, at: insert.index)
    }
    for update in result.updates {
        guard items.indices.contains(update.index) else { return nil }
        items[update.index] = update.item
    }
    return items
}

/// Every rule a merge result of `kind` must keep, checked by brute force against `left` and `right`; returns the
/// broken ones (empty when the result is right).
func referenceProblems(_ result: ListMergeResult<Entry>, left: [Entry], right: [Entry], kind: MergeKind) -> [String] {
    var problems: [String] = []
    // 1. Applied as ListView applies it, the result turns left into exactly right.
    let applied = applyLikeListView(result, to: left)
    if applied != right { problems.append("applied result \(applied.map(\.description) ?? "out of range") ≠ right") }
    if applied != nil && result.applied(to: left) != applied { problems.append("applied(to:) differs from ListView's") }
    // 2. Each part is strictly ascending.
    func ascending(_ indices: [Int]) -> Bool { zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 } }
    if !ascending(result.deleteIndices) { problems.append("deleteIndices not ascending: \(result.deleteIndices)") }
    if !ascending(result.inserts.map(\.index)) { problems.append("inserts not ascending") }
    if !ascending(result.updates.map(\.index)) { problems.append("updates not ascending") }
    if problems.isEmpty == false { return problems }
    let deleted = Set(result.deleteIndices)
    // 3. An update is a kept item: same id at both indices, the right list's item, changed unless allUpdated.
    for update in result.updates {
        let old = left[update.previousIndex]
        if deleted.contains(update.previousIndex) { problems.append("update of deleted item \(old)") }
        if old.id != right[update.index].id || update.item != right[update.index] {
            problems.append("update \(update.previousIndex)→\(update.index) pairs \(old) with \(right[update.index])")
        }
        if !kind.allUpdated && old == update.item { problems.append("update of unchanged item \(old)") }
    }
    if kind == .stable && !result.updates.isEmpty { problems.append("stable reported updates") }
    if kind.allUpdated && result.updates.count != left.count - deleted.count {
        problems.append("allUpdated: \(result.updates.count) updates for \(left.count - deleted.count) kept items")
    }
    // 4. An insert's previousIndex is where its id was in left, and that item was deleted.
    let leftIndexById = Dictionary(uniqueKeysWithValues: left.enumerated().map { ($1.id, $0) })
    for insert in result.inserts {
        let previous = leftIndexById[insert.item.id]
        if insert.previousIndex != previous {
            problems.append(
                "insert \(insert.item) previousIndex \(String(describing: insert.previousIndex)) ≠ \(String(describing: previous))"
            )
        }
        if let previous, !deleted.contains(previous) { problems.append("insert of kept item \(insert.item)") }
    }
    // 5. Stability: an item whose id and key are unchanged, with no other item at that key, is never deleted
    //    (except by `stable` when its content changed).
    let keyCounts = (left + right).reduce(into: [Int: Int]()) { $0[$1.key, default: 0] += 1 }
    let rightById = Dictionary(uniqueKeysWithValues: right.map { ($0.id, $0) })
    for (index, item) in left.enumerated() where deleted.contains(index) {
        guard let new = rightById[item.id], new.key == item.key, keyCounts[item.key] == 2 else { continue }
        if kind == .stable && new != item { continue }
        problems.append("unchanged item \(item) deleted and inserted instead of kept")
    }
    return problems
}
