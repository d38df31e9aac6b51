import MergeLists
import Testing

typealias Insert = ListMergeResult<Entry>.Insert
typealias Update = ListMergeResult<Entry>.Update

/// Small lists with the exact result written out.
@Suite struct ListMergeEdgeCaseTests {
    let list = [E(1, 10), E(2, 20), E(3, 30), E(4, 40)]

    @Test func emptyLists() {
        #expect(ListMerge.stableWithUpdates(left: [Entry](), right: []).isEmpty)
        #expect(ListMerge.stableWithUpdatesReversed(left: [Entry](), right: []).isEmpty)
        #expect(ListMerge.stable(left: [Entry](), right: []).isEmpty)
        #expect(ListMerge.stableWithUpdates(left: [Entry](), right: [], allUpdated: true).isEmpty)
    }

    @Test func identicalListsGiveNothingUnlessAllUpdated() {
        #expect(ListMerge.stableWithUpdates(left: list, right: list).isEmpty)
        #expect(ListMerge.stable(left: list, right: list).isEmpty)
        #expect(ListMerge.stableWithUpdatesReversed(left: list.reversed(), right: list.reversed()).isEmpty)
        let all = ListMerge.stableWithUpdates(left: list, right: list, allUpdated: true)
        #expect(
            all == ListMergeResult(updates: list.indices.map { Update(index: $0, item: list[$0], previousIndex: $0) }))
    }

    @Test func allRemoved() {
        #expect(ListMerge.stableWithUpdates(left: list, right: []) == ListMergeResult(deleteIndices: [0, 1, 2, 3]))
        #expect(ListMerge.stableWithUpdatesReversed(left: list.reversed(), right: []).deleteIndices == [0, 1, 2, 3])
    }

    @Test func allInserted() {
        let expected = ListMergeResult(
            inserts: list.indices.map { Insert(index: $0, item: list[$0], previousIndex: nil) })
        #expect(ListMerge.stableWithUpdates(left: [], right: list) == expected)
        #expect(ListMerge.stable(left: [], right: list) == expected)
    }

    @Test func allReplacedByNewIds() {
        let right = [E(5, 15), E(6, 25)]
        let result = ListMerge.stableWithUpdates(left: list, right: right)
        #expect(result.deleteIndices == [0, 1, 2, 3])
        #expect(
            result.inserts == [
                Insert(index: 0, item: E(5, 15), previousIndex: nil),
                Insert(index: 1, item: E(6, 25), previousIndex: nil),
            ])
        #expect(result.applied(to: list) == right)
    }

    /// A changed content at the same place is an update with both indices; deletes before it shift only `index`.
    @Test func updateCarriesFinalAndPreviousIndex() {
        let right = [E(2, 20), E(3, 30, 1), E(4, 40)]
        let result = ListMerge.stableWithUpdates(left: list, right: right)
        #expect(
            result
                == ListMergeResult(deleteIndices: [0], updates: [Update(index: 1, item: E(3, 30, 1), previousIndex: 2)])
        )
    }

    /// An item whose key moves it past its neighbours is deleted and inserted with its previous index.
    @Test func moveIsDeleteAndInsertWithPreviousIndex() {
        let right = [E(2, 20), E(3, 30), E(4, 40), E(1, 50)]
        let result = ListMerge.stableWithUpdates(left: list, right: right)
        #expect(
            result == ListMergeResult(deleteIndices: [0], inserts: [Insert(index: 3, item: E(1, 50), previousIndex: 0)])
        )
    }

    /// A new key that keeps the item between the same neighbours is an update, not a move.
    @Test func keyChangeWithinNeighboursIsAnUpdate() {
        let right = [E(1, 10), E(2, 25), E(3, 30), E(4, 40)]
        let result = ListMerge.stableWithUpdates(left: list, right: right)
        #expect(result == ListMergeResult(updates: [Update(index: 1, item: E(2, 25), previousIndex: 1)]))
    }

    /// `stable` has no updates: a changed item is deleted and inserted at the same place.
    @Test func stableReplacesChangedItems() {
        let right = [E(1, 10), E(2, 20, 7), E(3, 30), E(4, 40)]
        let result = ListMerge.stable(left: list, right: right)
        #expect(
            result
                == ListMergeResult(deleteIndices: [1], inserts: [Insert(index: 1, item: E(2, 20, 7), previousIndex: 1)])
        )
    }

    /// `isEqual` decides what counts as changed: here only `key`, so a content change is no update.
    @Test func isEqualOverridesContentEquality() {
        let right = [E(1, 10, 9), E(2, 20), E(3, 30), E(4, 40)]
        #expect(ListMerge.stableWithUpdates(left: list, right: right, isEqual: { $0.key == $1.key }).isEmpty)
        #expect(ListMerge.stableWithUpdates(left: list, right: right).updates.map(\.index) == [0])
    }

    /// Equal sort keys with distinct ids: one item inserted among them is only an insert, nothing is moved.
    @Test func insertAmongEqualKeys() {
        let left = [E(1, 5), E(2, 5), E(3, 5)]
        let right = [E(1, 5), E(9, 5), E(2, 5), E(3, 5)]
        #expect(
            ListMerge.stableWithUpdates(left: left, right: right)
                == ListMergeResult(inserts: [Insert(index: 1, item: E(9, 5), previousIndex: nil)]))
        let reversed = ListMerge.stableWithUpdatesReversed(left: left.reversed(), right: right.reversed())
        #expect(reversed == ListMergeResult(inserts: [Insert(index: 2, item: E(9, 5), previousIndex: nil)]))
    }

    /// Equal sort keys in a new order: exact, the reordered ones as moves.
    @Test func reorderAmongEqualKeys() {
        let left = [E(1, 5), E(2, 5), E(3, 5), E(4, 6)]
        let right = [E(3, 5), E(1, 5), E(2, 5, 1), E(4, 6)]
        let result = ListMerge.stableWithUpdates(left: left, right: right)
        #expect(result.applied(to: left) == right)
        #expect(
            result.inserts.allSatisfy { insert in insert.previousIndex == left.firstIndex { $0.id == insert.item.id } })
        #expect(result.inserts.count == 1)
        #expect(result.updates == [Update(index: 2, item: E(2, 5, 1), previousIndex: 1)])
    }

    /// The reversed variant on a list shown newest first: new items on top, one deleted, one updated.
    @Test func reversedVariant() {
        let left = [E(4, 40), E(3, 30), E(2, 20), E(1, 10)]
        let right = [E(6, 60), E(5, 50), E(4, 40, 1), E(2, 20), E(1, 10)]
        let result = ListMerge.stableWithUpdatesReversed(left: left, right: right)
        #expect(
            result
                == ListMergeResult(
                    deleteIndices: [1],
                    inserts: [
                        Insert(index: 0, item: E(6, 60), previousIndex: nil),
                        Insert(index: 1, item: E(5, 50), previousIndex: nil),
                    ],
                    updates: [Update(index: 2, item: E(4, 40, 1), previousIndex: 0)]))
    }
}
