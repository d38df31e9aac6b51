import Foundation
import FuzzHarnesses
import TestVectors
import Testing

/// The short, fixed-seed pass of every fuzz harness that `make test` runs (the long runs are `make fuzz`): each
/// harness takes its committed seeds, which must decode, then mutations of them, which must never trap.
@Suite struct FuzzHarnessesTests {
    /// Mutations per harness; `FUZZ_TEST_RUNS` changes it.
    static let runs = Int(ProcessInfo.processInfo.environment["FUZZ_TEST_RUNS"] ?? "") ?? 2_000

    static func seeds(of harness: FuzzHarness) throws -> [[UInt8]] {
        let folder = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/seeds/\(harness.name)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    @Test(arguments: FuzzHarnesses.all.map(\.name))
    func seedsDecodeAndMutationsNeverTrap(_ name: String) throws {
        let harness = try #require(FuzzHarnesses.named(name))
        let seeds = try Self.seeds(of: harness)
        try #require(!seeds.isEmpty, "Fuzz/seeds/\(name)/ holds no seed")
        for (index, seed) in seeds.enumerated() {
            #expect(harness.run(seed) == .accepted, "seed \(index) of \(name) does not decode")
        }
        var mutator = FuzzMutator(generator: SeededGenerator(seed: 0x5eed), maximumLength: harness.maximumInputLength)
        var outcomes: [FuzzHarness.Outcome: Int] = [:]
        for run in 0..<Self.runs {
            let input = mutator.mutate(seeds[run % seeds.count], splicingWith: seeds[(run * 7 + 3) % seeds.count])
            outcomes[harness.run(input), default: 0] += 1
        }
        // Mutations must reach the decoder's refusals, or the pass tests nothing but the seeds.
        #expect(outcomes[.rejected, default: 0] > 0)
    }

    /// Inputs a long run once found crashing, leaking or hanging (`make fuzz-all` keeps them in
    /// `Fuzz/regressions/<harness>/`): each runs again, and must not trap. A harness may refuse them.
    @Test func regressionInputsRunWithoutTrapping() throws {
        let root = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/regressions")
        for harness in FuzzHarnesses.all {
            let folder = root.appendingPathComponent(harness.name)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
            for name in names where !name.hasPrefix(".") {
                _ = harness.run(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
            }
        }
    }

    @Test func namesAreUniqueAndEachHasASeedFolder() throws {
        let names = FuzzHarnesses.all.map(\.name)
        #expect(Set(names).count == names.count)
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: Fixtures.repositoryRoot.appendingPathComponent("Fuzz/seeds").path)
        #expect(Set(folders) == Set(names), "every harness needs Fuzz/seeds/<name>/, and every seed folder a harness")
    }

    @Test func theMutatorIsDeterministic() {
        var a = FuzzMutator(generator: SeededGenerator(seed: 9), maximumLength: 64)
        var b = FuzzMutator(generator: SeededGenerator(seed: 9), maximumLength: 64)
        let seed = Array(0..<32).map(UInt8.init)
        for _ in 0..<100 { #expect(a.mutate(seed, splicingWith: seed) == b.mutate(seed, splicingWith: seed)) }
    }
}
