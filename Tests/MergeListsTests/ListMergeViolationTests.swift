import Testing

@testable import MergeLists

/// Broken preconditions are named by `firstViolation`, and the fallback (the walk the public merges run after
/// their debug-only assertion) still turns left into right.
@Suite struct ListMergeViolationTests {
    @Test func sortedUniqueListsHaveNoViolation() {
        #expect(ListMerge.firstViolation(left: [E(1, 1), E(2, 2)], right: [E(2, 2), E(3, 2)]) == nil)
        #expect(ListMerge.firstViolation(left: [E(2, 2), E(1, 1)], right: [], reversed: true) == nil)
    }

    @Test func violationsAreNamed() {
        #expect(ListMerge.firstViolation(left: [E(1, 2), E(2, 1)], right: []) == .outOfOrder(.left, index: 1))
        #expect(ListMerge.firstViolation(left: [], right: [E(1, 1), E(1, 2)]) == .duplicateId(.right, index: 1))
        #expect(
            ListMerge.firstViolation(left: [E(1, 1), E(2, 2)], right: [], reversed: true)
                == .outOfOrder(.left, index: 1))
        #expect("\(ListMergeViolation.duplicateId(.right, index: 1))".contains("right list repeats a stableId"))
    }

    #if DEBUG
        /// Debug builds stop at a broken precondition (release builds take the fallback below).
        @Test func debugBuildsStopAtAViolation() async {
            await #expect(processExitsWith: .failure) {
                _ = ListMerge.stableWithUpdates(left: [E(1, 2), E(2, 1)], right: [E(1, 1)])
            }
        }
    #endif

    /// Unsorted lists and repeated ids: the fallback result is still exact.
    @Test(arguments: [ListOrder.ascending, .descending])
    func fallbackIsExactOnBadInput(order: ListOrder) throws {
        let cases: [([Entry], [Entry])] = [
            ([E(1, 3), E(2, 1), E(3, 2)], [E(3, 2), E(1, 3), E(4, 0)]),
            ([E(1, 1), E(1, 2), E(2, 3)], [E(1, 2), E(2, 3), E(2, 4)]),
            ([E(5, 9), E(5, 1), E(5, 5)], [E(5, 1), E(5, 5), E(5, 9, 1), E(5, 0)]),
            ([E(1, 1), E(2, 2)], [E(2, 2), E(2, 2), E(1, 1)]),
        ]
        for (left, right) in cases {
            for mode in [ListMergeMode.updates, .allUpdated, .replaceChanged] {
                let result = ListMerge.walk(left: left, right: right, order: order, mode: mode, ==)
                let applied = try #require(applyLikeListView(result, to: left))
                #expect(applied == right, "\(mode): \(left) → \(right)")
            }
        }
    }
}
