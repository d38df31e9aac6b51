import BenchmarkSupport
import MergeLists

/// `ListMerge.stableWithUpdates` against the standard library's `CollectionDifference` (`DifferencePeer`) on pairs
/// of 1,000-entry chat histories with 1–10 changes; both results are checked to turn left into right first.
@main
enum MergeListsBench {
    static let pairCount = 200
    /// Each timed run merges every pair this many times (about 10 ms of ours per run).
    static let repeats = 10

    static func main() {
        checkCommandLine(
            """
            usage: mergelists-bench

            ListMerge.stableWithUpdates against the standard library's CollectionDifference on pairs of 1,000-entry
            histories with 1-10 changes (both checked to turn left into right first).
            """)
        printMachine()
        let workloads: [(String, HistoryPairs)] = [
            ("1 new message at the bottom", HistoryPairs(count: pairCount, changes: 1...1, kinds: [.append], seed: 1)),
            ("1 message edited (update)", HistoryPairs(count: pairCount, changes: 1...1, kinds: [.update], seed: 2)),
            (
                "10 messages edited (updates)",
                HistoryPairs(count: pairCount, changes: 10...10, kinds: [.update], seed: 3)
            ),
            ("1–10 mixed changes", HistoryPairs(count: pairCount, changes: 1...10, kinds: Change.allCases, seed: 4)),
            ("10 mixed changes", HistoryPairs(count: pairCount, changes: 10...10, kinds: Change.allCases, seed: 5)),
        ]
        var rows: [Comparison] = []
        for (name, workload) in workloads {
            for (left, right) in workload.pairs {
                let ours = ListMerge.stableWithUpdates(left: left, right: right)
                let peer = DifferencePeer.merge(left: left, right: right)
                precondition(ours.applied(to: left) == right, "ListMerge result does not give right: \(name)")
                precondition(
                    peer.applied(to: left) == right, "CollectionDifference result does not give right: \(name)")
            }
            let merges = Double(pairCount * repeats)
            // The check above is what each side's output is (every merge gives `right`: applying it inside the timed
            // rounds would time the application, not the merge); each round returns the merges it made.
            rows.append(
                compareInterleaved(
                    name, items: merges, unit: "merges", rounds: 9, goal: "≥ 10×",
                    ours: {
                        for _ in 0..<repeats {
                            for (left, right) in workload.pairs {
                                blackHole(ListMerge.stableWithUpdates(left: left, right: right))
                            }
                        }
                        return repeats * workload.pairs.count
                    },
                    peer: {
                        for _ in 0..<repeats {
                            for (left, right) in workload.pairs {
                                blackHole(DifferencePeer.merge(left: left, right: right))
                            }
                        }
                        return repeats * workload.pairs.count
                    }))
        }
        printTable(
            title: "MergeLists: ListMerge.stableWithUpdates vs CollectionDifference (1,000 entries)",
            peerName: "CollectionDifference", rows)
    }
}
