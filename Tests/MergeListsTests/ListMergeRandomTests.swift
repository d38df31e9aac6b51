import MergeLists
import Testing

/// 10,000 random pairs against the brute-force reference (`referenceProblems`), through every public merge.
@Suite struct ListMergeRandomTests {
    /// Pair `k` is made by seed `baseSeed + k`; a failure prints the seed, and `RandomPair(seed:)` remakes it.
    static let baseSeed: UInt64 = 0x4D45_5247_0000_0000
    static let pairCount = 10_000
    /// Made once, shared by the five merges.
    static let pairs = (0..<pairCount).map { RandomPair(seed: baseSeed + UInt64($0)) }

    @Test(arguments: MergeKind.allCases)
    func randomPairsMatchTheReference(kind: MergeKind) {
        var failures = 0
        var changes = 0
        for pair in Self.pairs {
            let (left, right, result) = kind.merge(pair.left, pair.right)
            changes += result.deleteIndices.count + result.inserts.count + result.updates.count
            let problems = referenceProblems(result, left: left, right: right, kind: kind)
            if problems.isEmpty { continue }
            failures += 1
            Issue.record("\(kind), seed \(pair.seed): \(problems.joined(separator: "; "))\n\(pair)")
            if failures == 5 { break }
        }
        #expect(changes > Self.pairCount, "the generator should make changes")
    }
}
